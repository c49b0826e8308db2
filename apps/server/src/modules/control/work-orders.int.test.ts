import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, imei15, until, type Harness, type TestCompany } from './harness.test-util.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { raiseWarnings } from './ingest.ts';
import { openDeviceOrders } from '../content/index.ts';
import { makeArea, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// 设备工单 opened and closed by device exceptions: one per device and exception however often (and
// concurrently) reported, assigned by area, closed with a note when the exception clears — by the
// device coming back (a simulated collector reconnecting) or a person handling the warning.

let h: Harness;
let c: TestCompany;
let handlerId: number;

interface Order { id: number; status: number; assignee_id: number | null; assignee_name: string; title: string; type_name: string; finished_at: Date | null }
const orders = async (where: string, args: unknown[]) =>
  (await h.owner.query<Order>(`SELECT id, status, assignee_id, assignee_name, title, type_name, finished_at FROM appeals WHERE kind = 3 AND ${where} ORDER BY id`, args)).rows;
const lastEvent = async (id: number) =>
  (await h.owner.query(`SELECT action, from_status, to_status, content, by_name FROM appeal_events WHERE appeal_id = $1 ORDER BY id DESC LIMIT 1`, [id])).rows[0];

beforeAll(async () => {
  h = await harness();
  c = await h.company();
  // the company's 工单类型 of 读数异常 (its limit sets the deadline) and a user bound to the area (区域权限)
  await h.owner.query(`INSERT INTO work_order_types (company_id, name, limit_hours) VALUES ($1, '读数异常', 48), ($1, '采集器离线', 6)`, [c.companyId]);
  const role = await makeRole(h.owner, c.companyId, ['addedAppeal'], ['appeal.handle']);
  const u = await makeUser(h.owner, { companyId: c.companyId, roleId: role });
  handlerId = u.id;
  await h.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, c.areaId, c.companyId]);
});
afterAll(async () => {
  await h?.close();
});

describe('设备工单 from device exceptions', () => {
  it('the same exception reported 10 times, concurrently, opens one order, assigned by area', async () => {
    const meter = await h.meter(c, { kind: 1, roomId: c.roomId });
    const row = { companyId: c.companyId, meterId: meter.id, collectorId: null, areaId: c.areaId, kind: 'backwards', detail: { total: '5.00', lastTotal: '9.00' } };
    await Promise.all(Array.from({ length: 10 }, () => h.db.tx(SYSTEM_SCOPE, (tx) => raiseWarnings(tx, [row]))));
    // even asked to open it directly, again and concurrently: the unique index keeps one open order
    const opened = await Promise.all(Array.from({ length: 5 }, () => h.db.tx(SYSTEM_SCOPE, (tx) => openDeviceOrders(tx, [row]))));
    expect(opened.reduce((a, b) => a + b, 0)).toBe(0);
    const o = await orders('meter_id = $1', [meter.id]);
    expect(o).toHaveLength(1);
    expect(o[0]).toMatchObject({ status: 0, assignee_id: handlerId, type_name: '读数异常' });
    expect(o[0].title).toMatch(/^读数倒走：/);
    const list = await h.call(c.token, { method: 'GET', url: '/yewu/api/WorkOrder/List?size=100' });
    const mine = list.body.data.find((r: { id: number }) => r.id === o[0].id);
    expect(mine).toMatchObject({ kind: 3, exceptionKind: 'backwards', exceptionText: '读数倒走', meterId: meter.id, areaId: c.areaId });
    const hours = (Date.parse(mine.deadlineAt) - Date.parse(mine.createdAt)) / 3600_000;
    expect(Math.round(hours)).toBe(48);

    // a person handles the warning: the order closes with their note; a new report opens a new one
    const w = await h.q1<{ id: number }>(`SELECT id FROM device_warnings WHERE meter_id = $1 AND kind = 'backwards' AND status = 0`, [meter.id]);
    const deal = await h.call(c.token, { method: 'PUT', url: '/device/api/v1/device/unusual/deal', payload: { id: w.id, memo: '换表后读数归零' } });
    expect(deal.body.code).toBe('SUCCESS');
    const closed = (await orders('meter_id = $1', [meter.id]))[0];
    expect(closed.status).toBe(2);
    expect(closed.finished_at).not.toBeNull();
    expect(await lastEvent(closed.id)).toMatchObject({ action: 'complete', from_status: 0, to_status: 2, content: expect.stringContaining('换表后读数归零') });
    await h.db.tx(SYSTEM_SCOPE, (tx) => raiseWarnings(tx, [row]));
    expect((await orders('meter_id = $1', [meter.id])).map((x) => x.status)).toEqual([2, 0]);
  });

  it('an offline collector opens an order once; its return closes it with a note', async () => {
    const imei = imei15();
    const collectorId = await h.collector(c.companyId, imei);
    await h.owner.query(`UPDATE collectors SET online = false, last_seen_at = now() - interval '3 hours', area_id = $2 WHERE id = $1`, [collectorId, c.areaId]);
    for (let i = 0; i < 3; i++) await h.worker.offlineSweep();
    const o = await orders('collector_id = $1', [collectorId]);
    expect(o).toHaveLength(1);
    expect(o[0]).toMatchObject({ status: 0, type_name: '采集器离线', assignee_id: handlerId });

    // the collector comes back (a simulated device registers over TCP)
    await h.fleet([{ imei, meters: [] }]);
    const done = await until(async () => {
      const x = (await orders('collector_id = $1', [collectorId]))[0];
      return x?.status === 2 ? x : undefined;
    }, 15_000, 'order closed');
    expect(done.finished_at).not.toBeNull();
    expect(await lastEvent(done.id)).toMatchObject({ action: 'complete', by_name: '系统', content: '异常已消除：设备已恢复在线（自动）' });
    const detail = await h.call(c.token, { method: 'GET', url: `/yewu/api/WorkOrder/Detail?id=${done.id}` });
    expect(detail.body.data.events.map((e: { action: string }) => e.action)).toEqual(['create', 'complete']);
  });

  it('a simulated collector running the offline fault of its plan opens an order while away and closes it on its return', async () => {
    const imei = imei15();
    const collectorId = await h.collector(c.companyId, imei);
    await h.owner.query(`UPDATE collectors SET area_id = $2 WHERE id = $1`, [collectorId, c.areaId]);
    // online first, then off the line 1.5 s after start for 6 s (the demo fleet's plan, shortened)
    const f = await h.fleet([{ imei, meters: [] }], [], { faults: [{ target: imei, fault: 'offline', afterMs: 1500, forMs: 6000 }] });
    await until(async () => ((await h.q1<{ online: boolean }>(`SELECT online FROM collectors WHERE id = $1`, [collectorId])).online ? true : undefined), 5000, 'online');
    await until(async () => (f.collector(imei)!.state === 'offline' && !(await h.q1<{ online: boolean }>(`SELECT online FROM collectors WHERE id = $1`, [collectorId])).online ? true : undefined), 5000, 'the planned outage');
    // the outage has lasted past OFFLINE_WARN_MINUTES (60): its last contact moved back instead of waiting an hour
    await h.owner.query(`UPDATE collectors SET last_seen_at = now() - interval '2 hours' WHERE id = $1`, [collectorId]);
    await h.worker.offlineSweep();
    expect((await orders('collector_id = $1', [collectorId])).map((o) => o.status)).toEqual([0]);
    const done = await until(async () => {
      const x = (await orders('collector_id = $1', [collectorId]))[0];
      return x?.status === 2 ? x : undefined;
    }, 15_000, 'order closed on the return');
    expect(await lastEvent(done.id)).toMatchObject({ action: 'complete', content: '异常已消除：设备已恢复在线（自动）' });
    expect(f.collector(imei)!.online).toBe(true);
  });

  it('an area nobody is bound to leaves the order unassigned; other kinds open none', async () => {
    const areaId = await makeArea(h.owner, c.companyId, uniq('无人区'));
    const meter = await h.meter(c, { kind: 2, roomId: await makeRoom(h.owner, c.companyId, areaId, uniq('301-')) });
    await h.db.tx(SYSTEM_SCOPE, (tx) => raiseWarnings(tx, [
      { companyId: c.companyId, meterId: meter.id, collectorId: null, areaId, kind: 'valve_mismatch', detail: {} },
      { companyId: c.companyId, meterId: meter.id, collectorId: null, areaId, kind: 'low_battery', detail: {} },
    ]));
    const o = await orders('meter_id = $1', [meter.id]);
    expect(o).toHaveLength(1);
    expect(o[0]).toMatchObject({ assignee_id: null, assignee_name: '', type_name: '阀门状态与指令不符' });
    expect((await lastEvent(o[0].id)).content).toContain('待指派');
  });
});
