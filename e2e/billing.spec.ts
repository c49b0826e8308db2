// The billing pages end to end against the real server (demo seed, opening balances):
// - /energy: a counter top-up by WeChat → the row shows the new balance → the receipt on /billprint
//   reads the amount in Chinese capitals, has its QR code, and 打印 counts the print → the payment
//   shows on /notesPay → the balance is still there after a reload;
// - /energy: a refund above the balance is refused with the server's Chinese message, nothing moves;
// - /copyread: two manual readings of a meter are settled; the list filtered to that meter is
//   exported, and the downloaded .xlsx (read with ExcelJS) holds exactly the rows on screen.
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiCall, apiToken, countPrints, login, loginAt, toast } from './helpers.ts';

const Y = '/yewu/api';
const V1 = '/device/api/v1';

interface EnergyRoom {
  roomId: number;
  roomName: string;
  ownerId: number | null;
  ownerName: string | null;
  electricBalance: string;
  waterBalance: string;
  electricAlarm: number;
  electricMeters: number;
}
interface RoomDetail {
  meters: { id: number; address: string; kind: number; status: number; lastTotal: string | null }[];
}

let token = '';

const api = <T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown) => apiCall<T>(request, token, method, url, data);

/** "1234.50" → 123450 (integer 分, no float arithmetic). */
function fen(yuan: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!m) throw new Error(`not a 元 amount: ${yuan}`);
  const v = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -v : v;
}
/** 123450 → "¥1,234.50" */
function money(f: number): string {
  const a = Math.abs(f);
  const int = String(Math.floor(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${f < 0 ? '-' : ''}¥${int}.${String(a % 100).padStart(2, '0')}`;
}
const yuan = (f: number) => `${Math.floor(f / 100)}.${String(f % 100).padStart(2, '0')}`;

/** Search a ProTable's query form by a labelled text field. */
async function search(page: Page, label: string, value: string) {
  const form = page.locator(':is(.ant-pro-query-filter, .light-table-search)').first();
  await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: /查\s*询/ }).click();
}

let topUpRoom: EnergyRoom;
let exportRoom: EnergyRoom;

// long flows on a small shared machine: three times the configured time per test
test.describe.configure({ mode: 'serial' });
test.slow();

test.beforeAll(async ({ request }) => {
  token = await apiToken(request);
  const rooms = await api<{ data: EnergyRoom[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=200`);
  const occupied = rooms.data.filter((x) => x.ownerId != null && x.electricMeters > 0 && x.electricAlarm === 0 && fen(x.electricBalance) > 0);
  // room names repeat across buildings: pick rooms whose name is unique in the list
  const unique = occupied.filter((x) => rooms.data.filter((y) => y.roomName === x.roomName).length === 1);
  expect(unique.length, 'two occupied demo rooms with an electric meter').toBeGreaterThanOrEqual(2);
  [topUpRoom, exportRoom] = unique;
});

test('/energy: a WeChat top-up updates the balance; the receipt reads the amount in capitals; /notesPay lists it', async ({ page }) => {
  await countPrints(page);
  const memo = `e2e 柜台充值 ${Date.now()}`;
  const before = fen(topUpRoom.electricBalance);
  const after = before + fen('123.45');

  await loginAt(page, '/energy');
  await search(page, '房间', topUpRoom.roomName);
  const cell = page.getByTestId(`electric-${topUpRoom.roomId}`);
  await expect(cell).toHaveText(money(before));

  await page.getByTestId(`prepay-${topUpRoom.roomId}`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`充值：${topUpRoom.roomName}`);
  // validation: more than 2 decimals is refused in the dialog, nothing is sent
  await dialog.getByLabel(/充值金额/).fill('12.345');
  await expect(dialog.getByText('充值金额最多 2 位小数')).toBeVisible();
  await dialog.getByLabel(/充值金额/).fill('123.45');
  await dialog.getByText('微信', { exact: true }).click();
  await dialog.getByLabel('备注').fill(memo);
  await dialog.getByRole('button', { name: /确定充值/ }).click();
  await expect(page.getByTestId('counter-result')).toHaveText(`电费充值 ¥123.45，当前余额 ${money(after)}`);
  await expect(toast(page, '充值成功')).toBeVisible();

  // the receipt, from the link in the dialog
  await dialog.getByRole('button', { name: /打印票据/ }).click();
  await expect(page).toHaveURL(/\/billprint\?id=\d+$/);
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('receipt-capitals')).toHaveText('壹佰贰拾叁元肆角伍分');
  await expect(page.getByTestId('receipt-amount')).toHaveText('¥123.45');
  await expect(receipt).toContainText(topUpRoom.roomName);
  await expect(receipt).toContainText(topUpRoom.ownerName!);
  await expect(receipt).toContainText('电费充值');
  await expect(receipt).toContainText('微信');
  await expect(page.getByTestId('receipt-qr')).toHaveAttribute('src', /^data:image\//);
  await expect(page.getByTestId('receipt-print-count')).toHaveText('0');
  await page.getByRole('button', { name: /打\s*印/ }).click();
  await expect(page.getByTestId('receipt-print-count')).toHaveText('1');
  await expect.poll(() => page.evaluate(() => window.__printed)).toBe(1);
  await page.getByRole('button', { name: /关\s*闭/ }).click();

  // the payment log
  await page.goto('/notesPay');
  await search(page, '房间', topUpRoom.roomName);
  const row = page.locator('.ant-table-row', { hasText: memo });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('¥123.45');
  await expect(row).toContainText('充值');
  await expect(row).toContainText('微信');
  await expect(row).toContainText(money(after));

  // the balance is the server's, not only the dialog's: still there after a reload
  await page.goto('/energy');
  await search(page, '房间', topUpRoom.roomName);
  await expect(page.getByTestId(`electric-${topUpRoom.roomId}`)).toHaveText(money(after));
});

test('/energy: a refund above the balance is refused with the server message; the balance stays', async ({ page, request }) => {
  const now = await api<{ data: EnergyRoom[] }>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoom?index=1&size=5&roomName=${encodeURIComponent(topUpRoom.roomName)}`);
  const balance = fen(now.data.find((x) => x.roomId === topUpRoom.roomId)!.electricBalance);

  await loginAt(page, '/energy');
  await search(page, '房间', topUpRoom.roomName);
  await page.getByTestId(`refund-${topUpRoom.roomId}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/退费金额/).fill(yuan(balance + 100_000));
  await dialog.getByRole('button', { name: /确定退费/ }).click();
  const refusal = `退费金额不能超过账户余额（当前余额 ${money(balance).replace(/,/g, '')}）`;
  await expect(page.getByTestId('counter-refusal')).toHaveText(refusal);
  await expect(toast(page, refusal)).toBeVisible();
  await expect(dialog.getByRole('button', { name: /确定退费/ })).toBeVisible();
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(page.getByTestId(`electric-${topUpRoom.roomId}`)).toHaveText(money(balance));
});

test('/copyread: the export downloads a real .xlsx holding the rows on screen', async ({ page, request }) => {
  // two readings of one of the room's electric meters, settled now
  const detail = await api<RoomDetail>(request, 'GET', `${Y}/RoomInfo/GetEnergyRoomDetail?roomId=${exportRoom.roomId}`);
  const meter = detail.meters.find((m) => m.kind === 1 && m.status === 1)!;
  expect(meter, 'an electric meter in use').toBeTruthy();
  const device = await api<{ initialReading: string }>(request, 'GET', `${V1}/device?id=${meter.id}`);
  const start = fen(meter.lastTotal ?? device.initialReading);
  for (const [add, ago] of [[fen('12.50'), 120_000], [fen('20.25'), 60_000]]) {
    const readAt = new Date(Date.now() - ago).toISOString();
    await api(request, 'POST', `${V1}/manual/reading`, { id: meter.id, total: yuan(start + add), readAt, memo: 'e2e 抄表' });
  }
  await api(request, 'POST', `${Y}/CopySettlement/Settle`, { meterIds: [meter.id] });
  const listed = await api<{ data: { address: string; amount: string; total: string }[]; count: number }>(
    request, 'GET', `${Y}/CopySettlement/List?index=1&size=100&address=${meter.address}`,
  );
  expect(listed.count, 'the settled readings').toBeGreaterThanOrEqual(2);

  await loginAt(page, '/copyread');
  await search(page, '表地址', meter.address);
  await expect(page.locator('.ant-table-row')).toHaveCount(Math.min(listed.count, 10));
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
  await expect(toast(page, '成功！')).toBeVisible();
  expect(download.suggestedFilename()).toBe('抄表结算.xlsx');

  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await download.path())!);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).slice(1);
  expect(header).toContain('表具地址');
  expect(header).toContain('金额（元）');
  const col = (name: string) => header.indexOf(name) + 1;
  const rows: { address: string; amount: string; total: string }[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    rows.push({
      address: String(row.getCell(col('表具地址')).value),
      amount: Number(row.getCell(col('金额（元）')).value).toFixed(2),
      total: Number(row.getCell(col('本次读数')).value).toFixed(2),
    });
  });
  expect(rows).toHaveLength(listed.count);
  expect(new Set(rows.map((r) => r.address))).toEqual(new Set([meter.address]));
  const key = (r: { amount: string; total: string }) => `${r.total}:${r.amount}`;
  expect(rows.map(key).sort()).toEqual(listed.data.map((r) => key({ amount: r.amount, total: Number(r.total).toFixed(2) })).sort());
  expect(rows.map((r) => r.total)).toContain(yuan(start + fen('20.25')));
});

test('/home: the billing figures follow the server and the trend chart draws', async ({ page, request }) => {
  const summary = await api<{ today: { prepay: string; payments: number }; accounts: { arrearsCount: number } }>(request, 'GET', `${Y}/Home/BillingSummary`);
  await login(page);
  await expect(page.getByText('财务概况')).toBeVisible();
  await expect(page.getByTestId('home-today-prepay')).toHaveText(money(fen(summary.today.prepay)));
  await expect(page.getByTestId('home-arrears')).toHaveText(String(summary.accounts.arrearsCount));
  // the chart chunk loads after the page and draws both lines (SVG)
  await expect(page.getByTestId('home-trend').locator('polyline')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  await expect(page.getByText('趋势图加载失败')).toHaveCount(0);
});
