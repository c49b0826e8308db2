import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';
import { EventBus, type DeviceEvent } from '../realtime/index.ts';
import { addDays, beijingFields, businessDate, startOfBeijingDay, startOfBeijingMonth } from '../../time.ts';
import { clearScreenHistory } from './service.ts';

// /screen's figures on real PostgreSQL: each equals the sum of the rows it stands for (settlements,
// journal, devices, appeals, warnings, accounts), a company sees only its own, a user bound to an area
// only that area, and a top-up reaches the live channel as a `payment` event.

let t: TestApp;
const bus = new EventBus();
let admin: string;

interface Co {
  companyId: number;
  token: string;
  areas: number[];
  rooms: number[];
  owners: number[];
  meters: { e: number; w: number }[];
}
let A: Co;
let B: Co;
let seq = 0;

const URL = '/yewu/api/Screen/Summary';
const get = async (token: string, query = '') => {
  const r = await t.call(token, { method: 'GET', url: `${URL}${query}` });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};
const q = (sql: string, params: unknown[] = []) => t.owner.query(sql, params);

async function meter(companyId: number, roomId: number, areaId: number, kind: number, online: boolean, valve: number | null) {
  const address = String(900_000_000_000 + Date.now() % 1_000_000_000 * 10 + seq++).slice(-12);
  const { rows } = await q(
    `INSERT INTO meters (company_id, room_id, area_id, kind, plan, address, online, valve_state) VALUES ($1, $2, $3, $4, 0, $5, $6, $7) RETURNING id`,
    [companyId, roomId, areaId, kind, address, online, valve],
  );
  return Number(rows[0].id);
}

async function settle(c: Co, m: number, roomId: number, kind: number, at: Date, quantity: number) {
  await q(
    `INSERT INTO settlements (company_id, meter_id, room_id, read_at, prev_total, total, quantity, amount_fen, period_key, meter_kind)
     VALUES ($1, $2, $3, $4, 0, $5, $5, 0, '', $6)`,
    [c.companyId, m, roomId, at, quantity, kind],
  );
}

async function company(): Promise<Co> {
  const companyId = await makeCompany(t.owner);
  const role = await makeRole(t.owner, companyId, ['screen', 'energy'], OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  const token = await t.login(u.username, u.password);
  const c: Co = { companyId, token, areas: [], rooms: [], owners: [], meters: [] };
  for (let i = 0; i < 2; i++) {
    const areaId = await makeArea(t.owner, companyId, uniq('楼'));
    const roomId = await makeRoom(t.owner, companyId, areaId, uniq('10'));
    const { rows } = await q(`INSERT INTO owners (company_id, room_id, name) VALUES ($1, $2, $3) RETURNING id`, [companyId, roomId, `业主${i}`]);
    c.areas.push(areaId);
    c.rooms.push(roomId);
    c.owners.push(Number(rows[0].id));
    // area 0: both meters online, electricity cut; area 1: offline
    c.meters.push({ e: await meter(companyId, roomId, areaId, 1, i === 0, i === 0 ? 0 : 1), w: await meter(companyId, roomId, areaId, 2, i === 0, 1) });
  }
  await q(`INSERT INTO collectors (company_id, area_id, name, imei, online) VALUES ($1, $2, '采集器1', $3, true), ($1, $4, '采集器2', $5, false)`,
    [companyId, c.areas[0], uniq('imei'), c.areas[1], uniq('imei')]);
  return c;
}

const now = new Date();
const today = startOfBeijingDay(now);
const hour = beijingFields(now).hour;
const lastMonth = startOfBeijingMonth(now, -1);
// a minute ago, but never before this hour began (Beijing hours start on UTC hours): the figures of
// "this hour" and "today" hold whatever minute the run starts in
const justNow = new Date(Math.max(now.getTime() - 60_000, now.getTime() - (now.getTime() % 3_600_000)));

beforeAll(async () => {
  t = await testApp(undefined, { bus });
  admin = await t.login('admin', 'admin123');
  A = await company();
  B = await company();
  clearScreenHistory();
  // A: today 3 + 2 kWh in this hour (rooms 0 and 1), 4 m³ of water; yesterday 7 kWh; last month's 5th 11 kWh
  await settle(A, A.meters[0].e, A.rooms[0], 1, justNow, 3);
  await settle(A, A.meters[1].e, A.rooms[1], 1, justNow, 2);
  await settle(A, A.meters[0].w, A.rooms[0], 2, justNow, 4);
  await settle(A, A.meters[1].e, A.rooms[1], 1, addDays(today, -1), 7);
  await settle(A, A.meters[0].e, A.rooms[0], 1, addDays(lastMonth, 4), 11);
  // B: 100 kWh today
  await settle(B, B.meters[0].e, B.rooms[0], 1, justNow, 100);
  // A: a cut and a restore today, one failed close (not counted)
  await q(`INSERT INTO commands (company_id, meter_id, kind, status, expires_at, finished_at) VALUES
    ($1, $2, 'close', 'succeeded', now() + interval '1 hour', now()), ($1, $3, 'open', 'succeeded', now() + interval '1 hour', now()),
    ($1, $3, 'close', 'failed', now() + interval '1 hour', now())`, [A.companyId, A.meters[0].e, A.meters[1].e]);
  // A: an open warning per area, one handled; an open and a finished appeal
  await q(`INSERT INTO device_warnings (company_id, meter_id, area_id, kind, status) VALUES ($1, $2, $3, 'offline', 0), ($1, $4, $5, 'backwards', 0), ($1, $6, $3, 'low_battery', 1)`,
    [A.companyId, A.meters[0].e, A.areas[0], A.meters[1].w, A.areas[1], A.meters[0].w]);
  await q(`INSERT INTO appeals (company_id, kind, title, content, status, area_id, room_id, deadline_at) VALUES
    ($1, 1, '水管漏水', '卫生间', 0, $2, $3, now() - interval '1 hour'), ($1, 1, '电闸跳闸', '客厅', 2, $2, $3, now() + interval '1 hour')`,
    [A.companyId, A.areas[0], A.rooms[0]]);
  // A: owner 1 owes 12.34 on electricity, owner 0's water wallet is at an alarm level
  await q(`INSERT INTO accounts (company_id, owner_id, room_id, wallet, balance_fen, alarm_level) VALUES ($1, $2, $3, 'water', 500, 1), ($1, $4, $5, 'electric', -1234, 3)`,
    [A.companyId, A.owners[0], A.rooms[0], A.owners[1], A.rooms[1]]);
  // top-ups at the counter: A 10.00 cash + 20.00 WeChat, B 50.00 cash
  for (const [c, amount, payMethod] of [[A, '10.00', 'cash'], [A, '20.00', 'wechat'], [B, '50.00', 'cash']] as const) {
    const r = await t.call(c.token, {
      method: 'POST', url: '/yewu/api/Energy/Prepay',
      payload: { roomId: c.rooms[0], wallet: 'electric', amount, payMethod, requestId: uniq('screen') },
    });
    expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  }
});
afterAll(() => t.close());

describe('大屏数据', () => {
  it('equals the sums of the settlements, journal, devices, appeals, warnings and accounts', async () => {
    const d = await get(A.token);
    expect(d.hourly.electric).toHaveLength(24);
    expect(d.hourly.electric[hour]).toBe(5);
    expect(d.hourly.water[hour]).toBe(4);
    expect(d.hourly.electric.reduce((s: number, v: number) => s + v, 0)).toBe(5);
    const { rows: [sum] } = await q(`SELECT sum(quantity)::float AS q FROM settlements WHERE company_id = $1 AND meter_kind = 1 AND read_at >= $2`, [A.companyId, today]);
    expect(sum.q).toBe(5);
    const day = Number(businessDate(now).slice(8));
    expect(d.thisMonth.electric).toHaveLength(day); // up to today
    expect(d.thisMonth.electric[day - 1]).toBe(5);
    if (day > 1) expect(d.thisMonth.electric[day - 2]).toBe(7);
    else expect(d.lastMonth.electric.at(-1)).toBe(7);
    expect(d.lastMonth.electric[4]).toBe(11);
    expect(d.topRooms.electric.map((r: { roomId: number; quantity: number }) => [r.roomId, r.quantity])).toEqual(
      day > 1 ? [[A.rooms[1], 9], [A.rooms[0], 3]] : [[A.rooms[0], 3], [A.rooms[1], 2]]);
    expect(d.topRooms.water).toEqual([expect.objectContaining({ roomId: A.rooms[0], quantity: 4 })]);
    expect(d.devices).toEqual({ collectors: { total: 2, online: 1 }, electric: { total: 2, online: 1 }, water: { total: 2, online: 1 } });
    expect(d.supply).toEqual({ cutToday: 1, restoredToday: 1, offNow: 1 });
    const { rows: [paid] } = await q(`SELECT sum(amount_fen)::int AS fen, count(*)::int AS n FROM journal WHERE company_id = $1 AND kind = 'prepay' AND created_at >= $2`, [A.companyId, today]);
    expect(d.payments.totalFen).toBe(paid.fen);
    expect(d.payments).toMatchObject({ totalFen: 3000, count: 2 });
    expect(d.payments.byChannel.find((c: { channel: string }) => c.channel === 'wechat')).toEqual({ channel: 'wechat', label: '微信', amountFen: 2000, count: 1 });
    expect(d.workOrders).toMatchObject({ open: 1, overdue: 1, latest: [expect.objectContaining({ title: '水管漏水', statusText: '待受理', overdue: true })] });
    expect(d.alarms.open).toBe(2);
    expect(d.alarms.byKind.map((k: { kindText: string }) => k.kindText).sort()).toEqual(['读数倒走或早于上次读数', '设备离线过久'].sort());
    expect(d.alarms.latest).toHaveLength(2);
    const { rows: [owed] } = await q(`SELECT coalesce(-sum(balance_fen), 0)::int AS fen FROM accounts WHERE company_id = $1 AND balance_fen < 0`, [A.companyId]);
    expect(d.arrears).toEqual({ owners: 1, owedFen: owed.fen, lowOwners: 1 });
    expect(owed.fen).toBe(1234);
  });

  it('a company never sees another company; the platform sees the one it picked, or all', async () => {
    const b = await get(B.token);
    expect(b.hourly.electric[hour]).toBe(100);
    expect(b.payments).toMatchObject({ totalFen: 5000, count: 1 });
    expect(b.workOrders.open).toBe(0);
    expect(b.alarms.open).toBe(0);
    expect(b.arrears.owners).toBe(0);
    expect(b.topRooms.electric).toEqual([expect.objectContaining({ roomId: B.rooms[0], quantity: 100 })]);
    // B's user asking for A (searchCompanyID is for platform administrators only) still gets B
    expect((await get(B.token, `?searchCompanyID=${A.companyId}`)).hourly.electric[hour]).toBe(100);
    const picked = await get(admin, `?searchCompanyID=${A.companyId}`);
    expect(picked.hourly.electric[hour]).toBe(5);
    expect(picked.payments.totalFen).toBe(3000);
    const all = await get(admin);
    expect(all.scopeName).toBe('全部单位');
    expect(all.hourly.electric[hour]).toBeGreaterThanOrEqual(105);
    expect(all.payments.totalFen).toBeGreaterThanOrEqual(8000);
  });

  it('a user bound to one area sees that area only', async () => {
    const role = await makeRole(t.owner, A.companyId, ['screen']);
    const u = await makeUser(t.owner, { companyId: A.companyId, roleId: role });
    await q(`INSERT INTO user_areas (company_id, user_id, area_id) VALUES ($1, $2, $3)`, [A.companyId, u.id, A.areas[1]]);
    const d = await get(await t.login(u.username, u.password));
    expect(d.hourly.electric[hour]).toBe(2);
    expect(d.hourly.water[hour]).toBe(0);
    expect(d.devices.electric).toEqual({ total: 1, online: 0 });
    expect(d.supply).toEqual({ cutToday: 0, restoredToday: 1, offNow: 0 });
    expect(d.payments.totalFen).toBe(0);
    expect(d.workOrders.open).toBe(0);
    expect(d.alarms.open).toBe(1);
    expect(d.arrears).toEqual({ owners: 1, owedFen: 1234, lowOwners: 0 });
  });

  it('a top-up reaches the live channel as a payment event of its company', async () => {
    await get(A.token); // a screen is open: the watch runs
    await new Promise((r) => setTimeout(r, 300)); // its baseline
    const seen: DeviceEvent[] = [];
    const off = bus.on((e) => {
      if (e.kind === 'payment') seen.push(e);
    });
    try {
      const r = await t.call(A.token, {
        method: 'POST', url: '/yewu/api/Energy/Prepay',
        payload: { roomId: A.rooms[0], wallet: 'electric', amount: '1.23', payMethod: 'alipay', requestId: uniq('screen') },
      });
      expect(r.body.code).toBe('SUCCESS');
      await expect.poll(() => seen.length, { timeout: 8_000 }).toBeGreaterThan(0);
      expect(seen[0]).toMatchObject({ companyId: A.companyId, kind: 'payment', body: { kind: 'prepay', areaId: A.areas[0] } });
      expect(seen[0].body).not.toHaveProperty('amountFen');
      expect((await get(A.token)).payments.totalFen).toBe(3123);
    } finally {
      off();
    }
  });

  it('refuses a user without the page', async () => {
    const role = await makeRole(t.owner, A.companyId, ['energy']);
    const u = await makeUser(t.owner, { companyId: A.companyId, roleId: role });
    const r = await t.call(await t.login(u.username, u.password), { method: 'GET', url: URL });
    expect(r.status).toBe(403);
  });
});
