import type { FastifyInstance } from 'fastify';
import { API, formatBeijing, pathOf, type CallInput, type Endpoint, type ResultOf } from '@meter/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import { beijingNow } from '../time.ts';

// The demo's history (issue 15, "a demo with something on every page"): right after the first
// seed, the demo company's staff do what a few months of work leaves behind — manual readings over
// the last three months and this morning, settled; counter payments with receipts, some printed and one voided;
// timed valve controls; protections (保电/保水), one of them ended; a closed account; meter
// parameter settings. It goes through the real API (the same validation, ledger and audit as a
// user's clicks), as the demo administrator, so every figure it leaves obeys the money rules.
// It runs before the simulated fleet starts: the simulated meters start from the last reading.

/** the answer's data: a page's rows, or the one value */
type Data<E extends Endpoint> = E extends { paged?: true } ? ResultOf<E>[] : ResultOf<E>;
type Call = <E extends Endpoint>(ep: E, input?: Partial<CallInput<E>>) => Promise<Data<E>>;

function caller(app: FastifyInstance, token: string | null): Call {
  return async (ep, input = {}) => {
    const qs = input.query ? `?${new URLSearchParams(Object.entries(input.query as Record<string, unknown>).map(([k, v]) => [k, String(v)]))}` : '';
    const res = await app.inject({
      method: ep.method,
      url: pathOf(ep.path, input.params as Record<string, unknown> | undefined) + qs,
      headers: token ? { authorization: token } : {},
      ...(input.body !== undefined ? { payload: input.body as object } : {}),
    });
    const body = res.json<{ code: string; msg?: string; data: Data<typeof ep> }>();
    if (body.code !== 'SUCCESS') throw new Error(`${ep.summary}：${body.msg ?? body.code}`);
    return body.data;
  };
}

/** The demo administrator's login (demo/seed.ts DEMO_LOGINS) */
export interface HistoryLogin {
  username: string;
  password: string;
}

/** the demo's counter payments, one a room with an owner, in this order */
const COUNTER_PAYMENTS = ['cash', 'wechat', 'alipay', 'bank', 'cash', 'cash', 'wechat', 'cash'] as const;
const ownedRooms = async (call: Call) => (await call(API.billing.energyRooms, { query: { index: 1, size: 60 } })).filter((r) => r.ownerId != null);

/** The demo administrator's calls, and the demo company's metered rooms' meters by kind. */
async function demoSession(app: FastifyInstance, login: HistoryLogin) {
  const { token } = await caller(app, null)(API.auth.login, { body: login });
  const call = caller(app, token);
  const meters = await call(API.metering.meters, { query: { index: 1, size: 200 } });
  return {
    call,
    electric: meters.filter((m) => m.kind === 1 && m.roomId != null),
    water: meters.filter((m) => m.kind === 2 && m.roomId != null),
  };
}

/** Readings, payments and timed controls: before the simulated fleet starts from the last readings. */
export async function seedDemoHistory(app: FastifyInstance, login: HistoryLogin, log: (m: string) => void = () => {}) {
  const { call, electric, water } = await demoSession(app, login);
  const today = beijingNow();

  // ---- three months of manual readings (/rgNotesCopy), settled (/copyread, reports by month) ----
  const read = [...electric.slice(0, 12), ...water.slice(0, 6)];
  for (const [i, m] of read.entries()) {
    let total = Number(m.lastTotal ?? m.initialReading);
    // the 25th of each of the last three months, and this morning's round (a meter read a month ago would
    // count as 长时间无读数 and open a work order)
    for (let back = 3; back >= 0; back--) {
      total += m.kind === 1 ? 60 + ((i * 37 + back * 11) % 90) : 3 + ((i * 7 + back) % 6);
      const at = back > 0 ? today.subtract(back, 'month').date(25).hour(9).minute(30 + i) : today.subtract(1, 'hour').subtract(i, 'minute');
      const memo = back > 0 ? '月末人工抄表' : '巡检人工抄表';
      await call(API.metering.manualReading, { body: { id: m.id, total: total.toFixed(2), readAt: formatBeijing(at.second(0).toDate()), memo }, query: {} });
    }
  }
  await call(API.billing.settleNow, { body: { meterIds: read.map((m) => m.id) }, query: {} });

  // ---- counter payments with receipts (/billprint, /notesPay, reports) ----
  const rooms = await ownedRooms(call);
  const receipts: number[] = [];
  for (const [i, r] of rooms.slice(0, COUNTER_PAYMENTS.length).entries()) {
    const paid = await call(API.billing.prepay, {
      body: { roomId: r.roomId, wallet: i % 3 === 2 ? 'water' : 'electric', amount: String(50 + i * 25), payMethod: COUNTER_PAYMENTS[i], memo: '柜台缴费', requestId: `demo-history-prepay-${r.roomId}` },
      query: {},
    });
    receipts.push(paid.receiptId);
  }
  for (const id of receipts.slice(0, 3)) await call(API.billing.printReceipt, { params: { id }, query: {} });
  if (receipts.length > 4) await call(API.finance.voidReceipt, { body: { receiptId: receipts[4], reason: '金额录入错误，作废重开' }, query: {} });

  // ---- timed valve control (/timeChangeControl): harmless in a demo (opens, and a disabled close) ----
  const timed = electric.slice(14, 17).map((m) => m.id);
  if (timed.length) {
    await call(API.metering.timedCreate, { body: { meterIds: timed, action: 'open', repeat: 'daily', timeOfDay: '06:30', memo: '每日早间恢复供电' }, query: {} });
    const { ids: [closeId] } = await call(API.metering.timedCreate, {
      body: { meterIds: timed.slice(0, 1), action: 'close', repeat: 'once', runAt: formatBeijing(today.add(20, 'day').hour(10).minute(0).toDate()), memo: '商铺到期停电', password: '123456' },
      query: {},
    });
    if (closeId) await call(API.metering.timedEnable, { body: { ids: [closeId], enabled: false }, query: {} });
  }

  log(`演示历史：人工抄表 ${read.length * 4} 条、柜台缴费 ${receipts.length} 笔、定时控制若干`);
}

/**
 * What the demo's staff did to the meters themselves — protections (one ended), parameter settings, a
 * closed account whose valve closes — once the simulated fleet is online, so these commands are carried
 * out and read back (/notesConfig, /notesKeep*, /deviceReportLog) instead of timing out as 设备离线.
 */
export async function seedDemoDeviceWork(app: FastifyInstance, login: HistoryLogin, o: { log?: (m: string) => void; onlineWithinMs?: number } = {}) {
  const { call, electric, water } = await demoSession(app, login);
  const today = beijingNow();
  // meters online by now (the fault plan keeps the first collector offline a while): wait for a few of each kind;
  // without them (no simulated fleet) the commands go to the archive's meters and time out as 设备离线
  let pool = { electric: electric.slice(12), water: water.slice(6) };
  for (const until = Date.now() + (o.onlineWithinMs ?? 0); Date.now() < until; await sleep(1000)) {
    const meters = (await call(API.metering.meters, { query: { index: 1, size: 200 } })).filter((m) => m.online && m.roomId != null);
    const online = { electric: meters.filter((m) => m.kind === 1), water: meters.filter((m) => m.kind === 2) };
    if (online.electric.length >= 7 && online.water.length >= 1) {
      pool = online;
      break;
    }
  }
  const [e1, e2, , , , e3, e4] = pool.electric;

  // ---- protections (/keepElectric, /keepWater, /notesKeep*), one of them ended ----
  const protectedMeters = [e1, e2, pool.water[0]].filter((m) => m != null);
  for (const m of protectedMeters) {
    await call(API.metering.protectStart, {
      body: { kind: m.kind, meterIds: [m.id], reason: m.kind === 1 ? '家中有老人，冬季保电' : '独居老人，保障用水', endAt: formatBeijing(today.add(60, 'day').toDate()) },
      query: {},
    });
  }
  if (e2) await call(API.metering.protectEnd, { body: { kind: 1, meterIds: [e2.id], memo: '欠费已结清，解除保电' }, query: {} });

  // ---- meter parameters (/notesConfig) ----
  for (const m of [e3, e4].filter((m) => m != null)) {
    await call(API.control.configSet, { body: { id: m.id, params: { alarm1Money: '30', alarm2Money: '10' }, memo: '调整预警金额' }, query: {} });
  }

  // ---- a closed account (/accountOff) ----
  // a room without arrears (销户 refuses one in arrears), not one of those paid at the counter
  const closing = (await ownedRooms(call)).slice(COUNTER_PAYMENTS.length).filter((r) => Number(r.electricBalance) >= 0 && Number(r.waterBalance) >= 0).at(-1);
  if (closing) await call(API.billing.cancelAccount, { body: { roomId: closing.roomId, memo: '租户退租，结清销户', valvePassword: '123456' }, query: {} });

  o.log?.(`演示历史：保电/保水 ${protectedMeters.length} 个、参数设置 2 块表、销户 1 户`);
}
