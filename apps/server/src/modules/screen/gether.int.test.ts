import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';
import { startOfBeijingMonth } from '../../time.ts';

// 区域概况 (/gether): one area and everything below it, in the user's scope.

const G = '/yewu/api/Area/Gether';
let t: TestApp;
let admin: string;
let companyId: number;
let token: string;
let top: number;
let child: number;
let sibling: number;
let rooms: number[];
const q = (sql: string, params: unknown[] = []) => t.owner.query(sql, params);
let seq = 0;

async function meter(roomId: number | null, areaId: number | null, kind: number, online: boolean, valve: number) {
  const { rows } = await q(
    `INSERT INTO meters (company_id, room_id, area_id, kind, plan, address, online, valve_state) VALUES ($1, $2, $3, $4, 0, $5, $6, $7) RETURNING id`,
    [companyId, roomId, areaId, kind, `95${Date.now().toString().slice(-8)}${String(seq++).padStart(2, '0')}`, online, valve],
  );
  return Number(rows[0].id);
}

beforeAll(async () => {
  t = await testApp();
  admin = await t.login('admin', 'admin123');
  companyId = await makeCompany(t.owner);
  const role = await makeRole(t.owner, companyId, ['home', 'gether']);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  token = await t.login(u.username, u.password);
  top = await makeArea(t.owner, companyId, uniq('小区'));
  child = await makeArea(t.owner, companyId, uniq('1栋'), top, 1);
  sibling = await makeArea(t.owner, companyId, uniq('别的小区'));
  rooms = [await makeRoom(t.owner, companyId, child, '101'), await makeRoom(t.owner, companyId, child, '102'), await makeRoom(t.owner, companyId, sibling, '901')];
  const owners: number[] = [];
  for (const [i, r] of rooms.entries()) {
    if (i === 1) continue; // 102 is vacant
    const { rows } = await q(`INSERT INTO owners (company_id, room_id, name) VALUES ($1, $2, $3) RETURNING id`, [companyId, r, `业主${i}`]);
    owners[i] = Number(rows[0].id);
  }
  const e = await meter(rooms[0], child, 1, true, 0);
  await meter(rooms[0], child, 2, false, 1);
  await meter(rooms[2], sibling, 1, true, 1);
  await q(`INSERT INTO collectors (company_id, area_id, name, imei, online) VALUES ($1, $2, '采集器', $3, true)`, [companyId, child, uniq('imei')]);
  // 101 owes 30.00 on electricity and has 5.00 of water; 901 is in credit
  await q(`INSERT INTO accounts (company_id, owner_id, room_id, wallet, balance_fen) VALUES ($1, $2, $3, 'electric', -3000), ($1, $2, $3, 'water', 500), ($1, $4, $5, 'electric', 9900)`,
    [companyId, owners[0], rooms[0], owners[2], rooms[2]]);
  const month = startOfBeijingMonth(new Date());
  const last = startOfBeijingMonth(new Date(), -1);
  await q(`INSERT INTO settlements (company_id, meter_id, room_id, read_at, prev_total, total, quantity, amount_fen, period_key, meter_kind)
           VALUES ($1, $2, $3, $4, 0, 12.5, 12.5, 850, '', 1), ($1, $2, $3, $5, 0, 3, 3, 200, '', 1)`,
    [companyId, e, rooms[0], new Date(month.getTime() + 3600_000), new Date(last.getTime() + 3600_000)]);
  await q(`INSERT INTO device_warnings (company_id, meter_id, area_id, kind, status) VALUES ($1, $2, $3, 'offline', 0), ($1, $2, $3, 'offline', 1)`, [companyId, e, child]);
});
afterAll(() => t.close());

describe('gether', () => {
  it('sums the area and what lies below it, not its siblings', async () => {
    const r = await t.call(token, { method: 'GET', url: `${G}?areaId=${top}` });
    expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
    const d = r.body.data;
    expect(d.area.path).toBe(d.area.name);
    expect(d.rooms).toEqual({ total: 2, occupied: 1, vacant: 1 });
    expect(d.devices).toEqual({ collectors: { total: 1, online: 1 }, electric: { total: 1, online: 1 }, water: { total: 1, online: 0 }, offNow: 1 });
    expect(d.balance).toEqual({ electricFen: -3000, waterFen: 500, arrearsLineFen: 0, arrearsRooms: 1, arrearsFen: 2500 });
    expect(d.usage).toMatchObject({ electric: 12.5, water: 0, amountFen: 850, lastElectric: 3, lastAmountFen: 200 });
    expect(d.alarms.open).toBe(1);
    expect(d.alarms.latest[0]).toMatchObject({ kind: 'offline', kindText: expect.any(String) });
    expect(d.children).toEqual([{ id: child, name: expect.any(String), rooms: 2, meters: 2, online: 1, arrearsRooms: 1 }]);
  });

  it('uses the company 欠费线 and shows the payments of the month', async () => {
    await t.call(token, { method: 'PUT', url: '/yewu/api/sys_config/detail', payload: { arrearsLine: 100 } }); // not an admin: refused
    await q(`INSERT INTO company_configs (company_id, key, value) VALUES ($1, 'arrearsLine', '10.00')`, [companyId]);
    const d = (await t.call(token, { method: 'GET', url: `${G}?areaId=${child}` })).body.data;
    expect(d.area.path).toMatch(/^小区\S+ \/ 1栋/);
    expect(d.balance).toMatchObject({ arrearsLineFen: 1000, arrearsRooms: 1, arrearsFen: 3500 });
    expect(d.payments).toEqual({ monthFen: 0, monthCount: 0, latest: [] });
  });

  it('refuses a missing or invalid area in Chinese; hides other companies and areas outside the binding', async () => {
    const none = await t.call(token, { method: 'GET', url: G });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('请选择区域');
    const other = await makeCompany(t.owner);
    const otherArea = await makeArea(t.owner, other, uniq('他司'));
    expect((await t.call(token, { method: 'GET', url: `${G}?areaId=${otherArea}` })).status).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${G}?areaId=${otherArea}` })).body.code).toBe('SUCCESS');
    const role = await makeRole(t.owner, companyId, ['home']);
    const bound = await makeUser(t.owner, { companyId, roleId: role });
    await q(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [bound.id, sibling, companyId]);
    const bt = await t.login(bound.username, bound.password);
    expect((await t.call(bt, { method: 'GET', url: `${G}?areaId=${top}` })).status).toBe(404);
    expect((await t.call(bt, { method: 'GET', url: `${G}?areaId=${sibling}` })).body.data.rooms.total).toBe(1);
  });
});
