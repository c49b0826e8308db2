// An owed room pays by QR and its supply comes back, end to end (issue 14 "Must show"): real server,
// real gateway on its TCP port, the worker, the local WeChat Pay emulator, and simulated meters
// (@meter/simulator, DL/T 645 over a collector's TCP connection) on the other end.
// - the demo seeds rooms in arrears (balance below zero, beyond their scheme's close line) whose
//   automatic close could not reach their offline collector (or waited for the no-disconnect hours to
//   end); with the collector online the close is sent (valve password) and /longRange reads 拉闸 back;
// - at the counter (/energy 扫码充值) the owner scans the QR and pays on the emulator's payer page
//   (WeChat Pay v3: signed notify, verified, credited once);
// - the credit brings the balance back above zero: billing sends the open command (origin 2, the
//   system) to the meter, the meter answers, and /longRange reads 合闸 back from it;
// - the order's receipt prints (¥ in capitals).
//
// The time rules are the test's own: the owed meter's alarm scheme gets no no-disconnect hours while
// it runs (the demo's is 22:00–08:00 Beijing time) and is put back as it was afterwards.
// The server is started by playwright.config.ts with SIMULATOR=0, so this spec runs its own small
// fleet (the simulator CLI with a definition built from the demo archive) for the owed meter's collector.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiCall, apiToken, countPrints, goInApp, login, openOnlineReceipt, payByQrAtCounter, printReceiptAndClose, startFleet, stopFleet } from './helpers.ts';

const ownFleet = process.env.E2E_SIMULATOR !== '1';
const V1 = '/device/api/v1';
const Y = '/yewu/api';

interface Room { roomId: number; roomName: string; ownerId: number | null; electricBalance: string; electricMeters: number }
interface Meter {
  id: number; address: string; kind: number; phaseId: number | null; roomId: number | null; collectorId: number | null; collectorImei: string | null;
  initialReading: string; status: number; valveState: number | null; alarmSchemeId: number | null;
}
interface Command { id: number; kind: string; status: string; origin: number; memo: string }

let fleet: ChildProcess | undefined;
/** the simulated collector's definition file, removed afterwards */
let fleetDir: string | undefined;
let token = '';
let room: Room;
let meter: Meter;
let savedScheme: Record<string, unknown> | undefined;

const api = <T>(request: APIRequestContext, method: 'GET' | 'PUT', url: string, data?: unknown) => apiCall<T>(request, token, method, url, data);

const commands = async (request: APIRequestContext, kind: 'open' | 'close') =>
  (await api<{ data: Command[] }>(request, 'GET', `${V1}/device/order/list?index=1&size=50&meterId=${meter.id}&type=${kind}`)).data;

test.describe.configure({ mode: 'serial' });
test.slow();

test.beforeAll(async ({ request }) => {
  token = await apiToken(request);
  // a demo room in arrears, a little (a ¥50 top-up brings it back), with one electric meter behind a collector
  const rooms = await api<{ data: Room[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=1000`);
  const meters = (await api<{ data: Meter[] }>(request, 'GET', `${V1}/device/list?index=1&size=1000&kind=1&plan=0`)).data;
  // beyond its alarm scheme's close line (close amount − overdraft allowed): billing cuts it
  const lines = new Map<number, number>();
  for (const id of new Set(meters.map((m) => m.alarmSchemeId).filter((x): x is number => x != null))) {
    const sc = await api<{ closeAmount: string; overdraftAmount: string }>(request, 'GET', `${Y}/alarmscheme/detail/${id}`);
    lines.set(id, Number(sc.closeAmount) - Number(sc.overdraftAmount));
  }
  const owed = rooms.data.filter((r) => r.ownerId != null && r.electricMeters === 1 && Number(r.electricBalance) < 0 && Number(r.electricBalance) > -40);
  const candidates = owed.flatMap((r) => meters
    .filter((m) => m.roomId === r.roomId && m.collectorImei && m.status === 1 && m.phaseId === 1 && m.alarmSchemeId != null && Number(r.electricBalance) < lines.get(m.alarmSchemeId)!)
    .map((m) => ({ r, m })));
  // the last one: device.spec simulates the first collectors
  const pick = candidates.at(-1);
  expect(pick, 'a demo room in arrears beyond its close line, with a single-phase electric meter behind a collector').toBeTruthy();
  ({ r: room, m: meter } = pick!);
  savedScheme = await api<Record<string, unknown>>(request, 'GET', `${Y}/alarmscheme/detail/${meter.alarmSchemeId}`);
  // no no-disconnect hours while the test runs, whatever the hour
  await api(request, 'PUT', `${Y}/alarmscheme/detail`, { ...savedScheme, noCloseStart: '', noCloseEnd: '', noCloseWeekend: false });

  if (ownFleet) {
    const behind = meters.filter((m) => m.collectorImei === meter.collectorImei);
    const { secret } = await api<{ secret: string }>(request, 'GET', `${V1}/gather/secret?id=${meter.collectorId}`);
    fleetDir = mkdtempSync(join(tmpdir(), 'meter-e2e-fleet-'));
    const file = join(fleetDir, 'fleet.json');
    writeFileSync(file, JSON.stringify({
      collectors: [{
        imei: meter.collectorImei,
        secret,
        meters: behind.map((m) => ({ address: m.address, kind: 'electric', initialTotal: Number(m.initialReading), supplyOn: true, phases: m.phaseId === 1 ? 1 : 3 })),
      }],
    }));
    fleet = startFleet(file);
  }
  await expect.poll(async () => (await api<{ online: boolean }>(request, 'GET', `${V1}/gather?id=${meter.collectorId}`)).online, {
    timeout: 30_000, message: `collector ${meter.collectorImei} online at the gateway`,
  }).toBe(true);
});

test.afterAll(async ({ request }) => {
  if (savedScheme) await api(request, 'PUT', `${Y}/alarmscheme/detail`, savedScheme);
  await stopFleet(fleet);
  if (fleetDir) rmSync(fleetDir, { recursive: true, force: true });
});

/** /longRange (opened in the app; a second time, its tab again), searched for the meter: its one row. */
async function meterRow(page: Page) {
  const longRange = await goInApp(page, '/longRange');
  await longRange.getByPlaceholder('表号 / 名称 / 房间').fill(meter.address);
  await longRange.getByRole('button', { name: /查\s*询/ }).click();
  await expect(longRange.locator('tr', { hasText: meter.address })).toHaveCount(1);
}

test('an owed room, its supply cut, pays by QR on the WeChat Pay emulator: the receipt prints, billing reopens the valve and /longRange reads 合闸', async ({ page, context, request }) => {
  // ---- in arrears, and cut off: billing asked to close the meter (the demo seed's settlement; its collector
  // was offline, or the hour was a no-disconnect one); the close now reaches the meter, which answers ----
  const close = await request.post(`${V1}/device/order/open`, { headers: { Authorization: token }, data: { id: meter.id, open: false, password: '123456', memo: '欠费停电' } });
  expect((await close.json()).code).toBe('SUCCESS');
  await expect.poll(async () => (await commands(request, 'close'))[0]?.status, { timeout: 30_000, message: 'the close answered by the meter' }).toBe('succeeded');
  await countPrints(page);
  await login(page);
  await meterRow(page);
  // read back from the meter: the relay is open
  await expect(page.getByTestId(`valve-${meter.id}`)).toHaveText('拉闸');
  const opensBefore = (await commands(request, 'open')).length;

  // ---- the owner pays ¥50 by QR at the counter (/energy 扫码充值) on the emulator's payer page ----
  const payUrl = await payByQrAtCounter(page, context, room, '50');
  expect(payUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/scan\/wechat\//);

  // ---- the receipt prints ----
  await openOnlineReceipt(page, '50', '伍拾元整');
  await expect(page.getByTestId('receipt')).toContainText(room.roomName);
  await printReceiptAndClose(page);

  // ---- the balance is back above zero: billing opens the meter, which answers ----
  await expect.poll(async () => {
    const opens = await commands(request, 'open');
    return opens.length > opensBefore ? `${opens[0].status}:${opens[0].origin}` : 'none';
  }, { timeout: 60_000, message: 'the open command billing sent after the payment' }).toBe('succeeded:2');
  const rooms = await api<{ data: Room[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=1000`);
  expect(Number(rooms.data.find((r) => r.roomId === room.roomId)!.electricBalance)).toBeCloseTo(Number(room.electricBalance) + 50, 2);
  // read back from the meter on /longRange
  await meterRow(page);
  await expect(page.getByTestId(`valve-${meter.id}`)).toHaveText('合闸');
});
