import { describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { fileApp } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';
import { deviceCompany, type DeviceCompany } from '../device/fixtures.ts';
import { EventBus } from '../realtime/bus.ts';
import { runTimedControls, type TimedJobDeps } from './timed.ts';

// 人工抄表, 保电/保水, 定时阀控 (API and the worker job), the control pages' meter list and the
// meter-config log, against the real database: happy paths, 400 naming the field, 404, 403, and
// another company seeing nothing.

const V1 = '/device/api/v1';
const PAGES = [
  'casualCopy', 'longRange', 'peopleCasualCopy', 'timeChangeControl', 'keepElectric', 'keepWater', 'constant', 'advConfig',
  'notesKeepElectric', 'notesKeepWater', 'notesConfig', 'rgNotesCopy', 'notesControl',
];

/** the companies' valve-control password (stored plain here; hashed on its first use) */
const VALVE_PWD = '246810';

type Co = DeviceCompany;

let n = 0;
const stamp = () => `${Date.now() % 100000}`.padStart(5, '0') + `${process.pid % 100}`.padStart(2, '0');
const addr12 = () => `95${stamp()}${`${n++ % 1000}`.padStart(3, '0')}`;
const addr14 = () => `9600${stamp()}${`${n++ % 1000}`.padStart(3, '0')}`;

async function company(ops: string[] = OPERATION_KEYS, routes = PAGES): Promise<Co> {
  const c = await deviceCompany(t, ops, routes);
  await t.owner.query(`UPDATE companies SET valve_control_pwd = $2 WHERE id = $1`, [c.companyId, VALVE_PWD]);
  return c;
}

/** A meter written directly (the archive's rules are tested elsewhere). */
async function meter(c: Co, o: { kind?: 1 | 2; roomId?: number; phaseId?: number | null; initial?: string; status?: number } = {}) {
  const kind = o.kind ?? 1;
  const roomId = o.roomId ?? c.roomA;
  const areaId = roomId === c.roomB ? c.floorB : c.floorA;
  const address = kind === 1 ? addr12() : addr14();
  const { rows } = await t.owner.query(
    `INSERT INTO meters (company_id, room_id, area_id, name, kind, plan, address, protocol_id, phase_id, initial_reading, status, valve_state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1) RETURNING id`,
    [c.companyId, roomId, areaId, uniq(kind === 1 ? '电表' : '水表'), kind, kind === 1 ? 0 : 100, address, kind === 1 ? 11 : 13,
      kind === 1 ? (o.phaseId === undefined ? 1 : o.phaseId) : null, o.initial ?? '100.00', o.status ?? 1],
  );
  return { id: Number(rows[0].id), address };
}

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.call(token, { method, url: `${V1}/${url}`, ...(payload !== undefined ? { payload: payload as object } : {}) });
const rows = async (sql: string, args: unknown[] = []) => (await t.owner.query(sql, args)).rows;

const t = await fileApp();
const [reader] = await t.signIn('reader');

// ---------------------------------------------------------------------------------------------

describe('control meter list (control/meter/list)', () => {
  it('lists the company meters with latest reading, protection and the valve-password flag; filters; other companies see nothing', async () => {
    const a = await company();
    const b = await company();
    const e1 = await meter(a);
    const e3 = await meter(a, { roomId: a.roomB, phaseId: 2 });
    const w = await meter(a, { kind: 2 });
    await meter(a, { status: 2 }); // 销表: not listed
    await t.owner.query(`INSERT INTO meter_latest (meter_id, company_id, read_at, total, source) VALUES ($1, $2, now(), 321.5, 1)`, [e1.id, a.companyId]);
    await t.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '高考保电')`, [a.companyId, e1.id]);

    const all = await call(a.token, 'GET', 'control/meter/list?index=1&size=50');
    expect(all.body.code).toBe('SUCCESS');
    expect(all.body.count).toBe(3);
    const row1 = all.body.data.find((r: { id: number }) => r.id === e1.id);
    expect(row1).toMatchObject({ kind: 1, kindText: '电表', phaseId: 1, phaseName: '单相', needsValvePassword: true, lastTotal: '321.50', unit: 'kWh', valveState: 1 });
    expect(row1.protection).toMatchObject({ reason: '高考保电' });
    expect(all.body.data.find((r: { id: number }) => r.id === e3.id)).toMatchObject({ needsValvePassword: false, protection: null, lastTotal: null, initialReading: '100.00' });

    const ids = async (q: string) => (await call(a.token, 'GET', `control/meter/list?${q}`)).body.data.map((r: { id: number }) => r.id).sort();
    expect(await ids('kind=2')).toEqual([w.id]);
    expect(await ids(`searchArea=${a.floorB}`)).toEqual([e3.id]);
    expect(await ids('protected=true')).toEqual([e1.id]);
    expect(await ids(`keyword=${e3.address.slice(3)}`)).toEqual([e3.id]);

    expect((await call(b.token, 'GET', 'control/meter/list')).body.count).toBe(0);
    expect((await call(a.token, 'GET', 'control/meter/list?kind=3')).status).toBe(400);
  });

  it('needs one of the control pages', async () => {
    const c = await company(OPERATION_KEYS, ['notesPay']);
    const r = await call(c.token, 'GET', 'control/meter/list');
    expect(r.status).toBe(403);
  });
});

// ---------------------------------------------------------------------------------------------

describe('manual reading (manual/reading)', () => {
  it('a reading above the last one is stored as source 3 with the operator and becomes the latest', async () => {
    const a = await company();
    const m = await meter(a, { initial: '100.00' });
    const r = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '150.25', memo: '月底抄表' });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { total: '150.25', previousTotal: '100.00', usage: '50.25', adjust: 0 } });
    expect(r.body.data.message).toBe('读数已录入，本次用量 50.25 kWh');
    const [g] = await rows(`SELECT source, total, operator_id, exception, registers FROM readings WHERE meter_id = $1`, [m.id]);
    expect(g).toMatchObject({ source: 3, total: '150.25', operator_id: a.userId, exception: '' });
    expect(g.registers).toMatchObject({ manual: 1, memo: '月底抄表' });
    expect((await rows(`SELECT total, source FROM meter_latest WHERE meter_id = $1`, [m.id]))[0]).toMatchObject({ total: '150.25', source: 3 });
    const audit = await rows(`SELECT action, target FROM audit_log WHERE company_id = $1 AND path = $2`, [a.companyId, `${V1}/manual/reading`]);
    expect(audit[0]).toMatchObject({ action: '人工抄表' });
    expect(audit[0].target).toContain('150.25');

    // the control module's reading list shows it for /rgNotesCopy
    const list = await call(a.token, 'GET', `device/reading/list?source=3&meterId=${m.id}`);
    expect(list.body.data[0]).toMatchObject({ total: '150.25', sourceText: '人工抄表', operatorId: a.userId });
  });

  it('a lower or earlier reading is refused with a clear message and nothing is written', async () => {
    const a = await company();
    const m = await meter(a, { initial: '0' });
    expect((await call(a.token, 'POST', 'manual/reading', { id: m.id, total: 500, readAt: '2025-06-01 10:00:00' })).body.code).toBe('SUCCESS');

    const lower = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '499.99' });
    expect(lower.body.code).toBe('READING_BACKWARDS');
    expect(lower.body.message).toMatch(/读数 499\.99 小于上次读数 500\.00（2025-06-01 10:00:00）.*换表.*读数纠正/);

    const older = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '600', readAt: '2025-05-01' });
    expect(older.body.code).toBe('READING_OLDER');
    expect(older.body.message).toContain('2025-06-01 10:00:00');

    const dup = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '500', readAt: '2025-06-01 10:00:00' });
    expect(dup.body.code).toBe('DUPLICATE_READING');

    expect((await rows(`SELECT count(*)::int AS n FROM readings WHERE meter_id = $1`, [m.id]))[0].n).toBe(1);
    // below the initial reading when the meter has none yet
    const fresh = await meter(a, { initial: '80' });
    expect((await call(a.token, 'POST', 'manual/reading', { id: fresh.id, total: '79' })).body.message).toContain('初始读数 80.00');
  });

  it('a meter replacement (换表) with a reason stores the lower value as the new latest', async () => {
    const a = await company();
    const m = await meter(a, { initial: '0' });
    await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '9000', readAt: '2025-06-01 10:00' });
    const noReason = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '3', adjust: 1 });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/^参数「reason」换表或读数纠正必须填写原因/);

    const r = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '3', adjust: 1, reason: '旧表烧毁，更换新表' });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { adjust: 1, adjustText: '换表', previousTotal: '9000.00', usage: null } });
    expect((await rows(`SELECT total FROM meter_latest WHERE meter_id = $1`, [m.id]))[0].total).toBe('3.00');
    const g = await rows(`SELECT registers, exception FROM readings WHERE meter_id = $1 ORDER BY read_at DESC LIMIT 1`, [m.id]);
    expect(g[0]).toMatchObject({ exception: '', registers: { adjust: 1, reason: '旧表烧毁，更换新表', previousTotal: '9000.00' } });
    const audit = await rows(`SELECT action FROM audit_log WHERE company_id = $1 AND path = $2 ORDER BY id DESC LIMIT 1`, [a.companyId, `${V1}/manual/reading`]);
    expect(audit[0].action).toBe('人工抄表（换表）');
  });

  it('a correction (纠正) fills in a missed reading between two others, and only there', async () => {
    const a = await company();
    const m = await meter(a, { initial: '0' });
    await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '100', readAt: '2025-06-01 10:00' });
    await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '200', readAt: '2025-06-03 10:00' });
    const out = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '250', readAt: '2025-06-02 10:00', adjust: 2, reason: '补录漏抄' });
    expect(out.body.code).toBe('CORRECTION_OUT_OF_RANGE');
    expect(out.body.message).toContain('100.00 ~ 200.00');
    const ok = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '150', readAt: '2025-06-02 10:00', adjust: 2, reason: '补录漏抄' });
    expect(ok.body.code).toBe('SUCCESS');
    expect(ok.body.data.message).toContain('历史读数已补录');
    // the latest stays the newest reading
    expect((await rows(`SELECT total FROM meter_latest WHERE meter_id = $1`, [m.id]))[0].total).toBe('200.00');
  });

  it('400 names the field, 404 for another company or a missing meter, 403 without the operation', async () => {
    const a = await company();
    const b = await company();
    const m = await meter(a);
    const bad = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '12.345' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^参数「total」/);
    const future = await call(a.token, 'POST', 'manual/reading', { id: m.id, total: '200', readAt: '2099-01-01' });
    expect(future.status).toBe(400);
    expect(future.body.message).toMatch(/^参数「readAt」/);
    expect((await call(b.token, 'POST', 'manual/reading', { id: m.id, total: '200' })).status).toBe(404);
    expect((await call(a.token, 'POST', 'manual/reading', { id: 999999999, total: '200' })).status).toBe(404);
    const noOp = await company(['device.readEnergy']);
    expect((await call(noOp.token, 'POST', 'manual/reading', { id: m.id, total: '200' })).status).toBe(403);
    // reader holds 人工抄表 but not this company's meter
    expect((await call(reader, 'POST', 'manual/reading', { id: m.id, total: '200' })).status).toBe(404);
    expect((await rows(`SELECT count(*)::int AS n FROM readings WHERE meter_id = $1`, [m.id]))[0].n).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe('protections (protect/start, protect/end, protect/list)', () => {
  it('starts 保电 for the electric meters of a room, queues the meters\' own 保电 commands, lists, renews and ends', async () => {
    const a = await company();
    const e1 = await meter(a);
    const e2 = await meter(a);
    await meter(a, { kind: 2 }); // a water meter in the same room: not part of 保电
    const eB = await meter(a, { roomId: a.roomB });

    const r = await call(a.token, 'POST', 'protect/start', { kind: 1, roomId: a.roomA, reason: '业主住院，暂缓断电' });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { meters: 2, started: 2, renewed: 0, commands: 2 } });
    expect(r.body.data.message).toBe('已对 2 块电表开启保电，已向 2 块电表下发保电指令');
    const cmds = await rows(`SELECT meter_id, kind, status, memo FROM commands WHERE meter_id = ANY($1) ORDER BY meter_id`, [[e1.id, e2.id]]);
    expect(cmds.map((c) => [Number(c.meter_id), c.kind, c.status])).toEqual([[e1.id, 'protect_on', 'queued'], [e2.id, 'protect_on', 'queued']]);

    const active = await call(a.token, 'GET', 'protect/list?kind=1&active=true');
    expect(active.body.count).toBe(2);
    expect(active.body.data[0]).toMatchObject({ kindText: '保电', reason: '业主住院，暂缓断电', active: true, statusText: '保护中' });
    expect(active.body.data[0].createdByName).toMatch(/^测试/);

    // again with an end time: renewed, not duplicated
    const endAt = new Date(Date.now() + 86400_000).toISOString();
    const again = await call(a.token, 'POST', 'protect/start', { kind: 1, meterIds: [e1.id], reason: '延长保电', endAt });
    expect(again.body.data).toMatchObject({ started: 0, renewed: 1 });
    expect((await rows(`SELECT count(*)::int AS n FROM protections WHERE meter_id = $1`, [e1.id]))[0].n).toBe(1);

    const end = await call(a.token, 'POST', 'protect/end', { kind: 1, meterIds: [e1.id, eB.id] });
    expect(end.body.data).toMatchObject({ meters: 2, ended: 1 });
    expect(end.body.data.message).toContain('1 块原本未保电');
    const history = await call(a.token, 'GET', `protect/list?kind=1&active=false`);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ meterId: e1.id, active: false, statusText: '已解除', reason: '延长保电' });
    expect(history.body.data[0].endedByName).toMatch(/^测试/);

    const none = await call(a.token, 'POST', 'protect/end', { kind: 1, meterIds: [eB.id] });
    expect(none.body.code).toBe('NOT_PROTECTED');
    const audit = await rows(`SELECT action FROM audit_log WHERE company_id = $1 AND path LIKE '%/protect/%' AND code = 'SUCCESS' ORDER BY id`, [a.companyId]);
    expect(audit.map((x) => x.action)).toEqual(['开启保电', '开启保电', '解除保电']);
  });

  it('保水 for the water meters of an area (no device command); wrong kind and empty scopes are refused', async () => {
    const a = await company();
    const w = await meter(a, { kind: 2, roomId: a.roomB });
    const e = await meter(a);
    const r = await call(a.token, 'POST', 'protect/start', { kind: 2, areaId: a.parkId, reason: '消防检查' });
    expect(r.body.data).toMatchObject({ meters: 1, started: 1, commands: 0 });
    expect((await rows(`SELECT kind FROM protections WHERE meter_id = $1`, [w.id]))[0].kind).toBe(2);
    expect((await call(a.token, 'GET', 'protect/list?kind=2&active=true')).body.data[0]).toMatchObject({ meterId: w.id, kindText: '保水' });

    const wrong = await call(a.token, 'POST', 'protect/start', { kind: 2, meterIds: [e.id], reason: '测试原因' });
    expect(wrong.body.code).toBe('WRONG_KIND');
    const empty = await call(a.token, 'POST', 'protect/start', { kind: 2, roomId: a.roomA, reason: '测试原因' });
    expect(empty.body).toMatchObject({ code: 'NO_METERS', message: '所选房间下没有可保水的水表' });
  });

  it('400 names the field; 404 for another company; 403 for reader; other companies list nothing', async () => {
    const a = await company();
    const b = await company();
    const e = await meter(a);
    await call(a.token, 'POST', 'protect/start', { kind: 1, meterIds: [e.id], reason: '测试保电' });
    const noReason = await call(a.token, 'POST', 'protect/start', { kind: 1, meterIds: [e.id] });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/^参数「reason」/);
    const two = await call(a.token, 'POST', 'protect/start', { kind: 1, meterIds: [e.id], roomId: a.roomA, reason: '测试保电' });
    expect(two.body.message).toMatch(/^参数「meterIds」请选择表具、房间或区域中的一项/);
    const past = await call(a.token, 'POST', 'protect/start', { kind: 1, meterIds: [e.id], reason: '测试保电', endAt: '2020-01-01' });
    expect(past.body.message).toMatch(/^参数「endAt」/);
    expect((await call(b.token, 'POST', 'protect/start', { kind: 1, meterIds: [e.id], reason: '越权保电' })).status).toBe(404);
    expect((await call(b.token, 'POST', 'protect/end', { kind: 1, roomId: a.roomA })).status).toBe(404);
    expect((await call(b.token, 'GET', 'protect/list')).body.count).toBe(0);
    expect((await call(reader, 'POST', 'protect/start', { kind: 1, meterIds: [e.id], reason: '越权保电' })).status).toBe(403);
    expect((await call(reader, 'GET', 'protect/list')).status).toBe(403);
    expect((await rows(`SELECT count(*)::int AS n FROM protections WHERE meter_id = $1`, [e.id]))[0].n).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('timed valve control (timed*)', () => {
  const inHour = () => new Date(Date.now() + 3600_000).toISOString();

  it('create (once and daily), list with the next run, edit, disable/enable, delete', async () => {
    const a = await company();
    const e1 = await meter(a);
    const e2 = await meter(a, { phaseId: 2 });
    const once = await call(a.token, 'POST', 'timed', { meterIds: [e1.id, e2.id], action: 'close', repeat: 'once', runAt: inHour(), memo: '夜间停电检修', password: VALVE_PWD });
    expect(once.body).toMatchObject({ code: 'SUCCESS', data: { created: 2 } });
    const daily = await call(a.token, 'POST', 'timed', { meterIds: [e1.id], action: 'open', repeat: 'daily', timeOfDay: '07:30' });
    expect(daily.body.data.created).toBe(1);

    const list = await call(a.token, 'GET', 'timed/list?index=1&size=10');
    expect(list.body.count).toBe(3);
    const d = list.body.data.find((x: { repeat: string }) => x.repeat === 'daily');
    expect(d).toMatchObject({ actionText: '合闸', repeatText: '每天', scheduleText: '每天 07:30', enabled: true, lastCommand: null });
    expect(new Date(d.nextRunAt).getTime()).toBeGreaterThan(Date.now());
    const o = list.body.data.find((x: { meterId: number; repeat: string }) => x.repeat === 'once' && x.meterId === e1.id);
    expect(o).toMatchObject({ actionText: '拉闸', needsValvePassword: true, memo: '夜间停电检修' });

    const upd = await call(a.token, 'PUT', 'timed', { id: o.id, action: 'close', repeat: 'daily', timeOfDay: '23:00', memo: '每晚断电', password: VALVE_PWD });
    expect(upd.body.code).toBe('SUCCESS');
    expect((await rows(`SELECT repeat, time_of_day, run_at FROM timed_controls WHERE id = $1`, [o.id]))[0]).toMatchObject({ repeat: 'daily', time_of_day: '23:00', run_at: null });

    const off = await call(a.token, 'POST', 'timed/enable', { ids: [o.id, d.id], enabled: false });
    expect(off.body.data).toMatchObject({ changed: 2, message: '已停用 2 个定时任务' });
    expect((await call(a.token, 'GET', 'timed/list?enabled=false')).body.count).toBe(2);
    expect((await call(a.token, 'POST', 'timed/enable', { ids: [o.id], enabled: true, password: VALVE_PWD })).body.data.changed).toBe(1);

    const del = await call(a.token, 'DELETE', 'timed', { ids: [d.id] });
    expect(del.body.data.deleted).toBe(1);
    expect((await call(a.token, 'GET', 'timed/list')).body.count).toBe(2);
  });

  it('400 names the field; 404 across companies; 403 for reader and without the operation', async () => {
    const a = await company();
    const b = await company();
    const e = await meter(a);
    const past = await call(a.token, 'POST', 'timed', { meterIds: [e.id], action: 'close', repeat: 'once', runAt: '2020-01-01 08:00' });
    expect(past.status).toBe(400);
    expect(past.body.message).toMatch(/^参数「runAt」/);
    const noTime = await call(a.token, 'POST', 'timed', { meterIds: [e.id], action: 'close', repeat: 'daily', timeOfDay: '25:00' });
    expect(noTime.body.message).toMatch(/^参数「timeOfDay」/);
    const badAction = await call(a.token, 'POST', 'timed', { meterIds: [e.id], action: 'toggle', repeat: 'daily', timeOfDay: '08:00' });
    expect(badAction.body.message).toMatch(/^参数「action」/);
    expect((await call(b.token, 'POST', 'timed', { meterIds: [e.id], action: 'close', repeat: 'once', runAt: inHour() })).status).toBe(404);
    const mine = await call(a.token, 'POST', 'timed', { meterIds: [e.id], action: 'close', repeat: 'once', runAt: inHour(), password: VALVE_PWD });
    const id = mine.body.data.ids[0];
    expect((await call(b.token, 'PUT', 'timed', { id, action: 'open', repeat: 'once', runAt: inHour() })).status).toBe(404);
    expect((await call(b.token, 'DELETE', 'timed', { ids: [id] })).status).toBe(404);
    expect((await call(b.token, 'POST', 'timed/enable', { ids: [id], enabled: false })).status).toBe(404);
    expect((await call(b.token, 'GET', 'timed/list')).body.count).toBe(0);
    expect((await call(reader, 'GET', 'timed/list')).status).toBe(403);
    const viewer = await company(['device.valve']);
    expect((await call(viewer.token, 'POST', 'timed', { meterIds: [e.id], action: 'close', repeat: 'once', runAt: inHour() })).status).toBe(403);
    expect((await rows(`SELECT count(*)::int AS n FROM timed_controls WHERE meter_id = $1`, [e.id]))[0].n).toBe(1);
  });

  it('a timed close of a phaseId-1 meter needs the valve password: checked on the server, failures audited and limited', async () => {
    const a = await company();
    const p1 = await meter(a);
    const p2 = await meter(a, { phaseId: 2 });
    const count = async () => (await rows(`SELECT count(*)::int AS n FROM timed_controls WHERE company_id = $1`, [a.companyId]))[0].n;
    const close = { action: 'close', repeat: 'once', runAt: inHour() };
    const none = await call(a.token, 'POST', 'timed', { meterIds: [p1.id, p2.id], ...close });
    expect(none.body).toMatchObject({ code: 'VALVE_PWD_REQUIRED', message: '请输入阀控密码' });
    const wrong = await call(a.token, 'POST', 'timed', { meterIds: [p1.id], ...close, password: '000000' });
    expect(wrong.body).toMatchObject({ code: 'VALVE_PWD_WRONG', message: '密码输入不正确' });
    expect(await count()).toBe(0);
    // the refused request is audited (the password masked) and counts towards the lockout
    const audit = await rows(`SELECT code, detail FROM audit_log WHERE user_id = $1 AND path = $2 ORDER BY id DESC LIMIT 1`, [a.userId, `${V1}/timed`]);
    expect(audit[0].code).toBe('VALVE_PWD_WRONG');
    expect(audit[0].detail.body.password).toBe('******');
    // a close of meters without phaseId 1, and an open, need no password
    expect((await call(a.token, 'POST', 'timed', { meterIds: [p2.id], ...close })).body.data.created).toBe(1);
    const open = await call(a.token, 'POST', 'timed', { meterIds: [p1.id], action: 'open', repeat: 'daily', timeOfDay: '06:00' });
    expect(open.body.data.created).toBe(1);
    const ok = await call(a.token, 'POST', 'timed', { meterIds: [p1.id], ...close, password: ` ${VALVE_PWD} ` });
    expect(ok.body.data.created).toBe(1);

    // turning the open into a close asks it too
    const id = open.body.data.ids[0];
    const upd = await call(a.token, 'PUT', 'timed', { id, action: 'close', repeat: 'daily', timeOfDay: '06:00' });
    expect(upd.body.code).toBe('VALVE_PWD_REQUIRED');
    expect((await rows(`SELECT action FROM timed_controls WHERE id = $1`, [id]))[0].action).toBe('open');
    expect((await call(a.token, 'PUT', 'timed', { id, action: 'close', repeat: 'daily', timeOfDay: '06:00', password: VALVE_PWD })).body.code).toBe('SUCCESS');
    // switching a stopped timed close back on asks it; stopping does not
    expect((await call(a.token, 'POST', 'timed/enable', { ids: [id], enabled: false })).body.data.changed).toBe(1);
    expect((await call(a.token, 'POST', 'timed/enable', { ids: [id], enabled: true })).body.code).toBe('VALVE_PWD_REQUIRED');
    expect((await rows(`SELECT enabled FROM timed_controls WHERE id = $1`, [id]))[0].enabled).toBe(false);
    expect((await call(a.token, 'POST', 'timed/enable', { ids: [id], enabled: true, password: VALVE_PWD })).body.data.changed).toBe(1);

    // the same limit as the close on /longRange: after 5 wrong ones even the right one is refused
    for (let i = 0; i < 4; i++) expect((await call(a.token, 'PUT', 'timed', { id, action: 'close', repeat: 'daily', timeOfDay: '07:00', password: `x${i}` })).body.code).toBe('VALVE_PWD_WRONG');
    const locked = await call(a.token, 'POST', 'timed', { meterIds: [p1.id], ...close, password: VALVE_PWD });
    expect(locked.body.code).toBe('VALVE_PWD_LOCKED');
    expect((await rows(`SELECT time_of_day FROM timed_controls WHERE id = $1`, [id]))[0].time_of_day).toBe('06:00');
  });

  it('the job queues due commands (origin 3), refuses a protected close, does not make up missed runs, runs daily once a day', async () => {
    const a = await company();
    const due = await meter(a);
    const guarded = await meter(a);
    const late = await meter(a);
    const daily = await meter(a);
    const signals: string[] = [];
    const bus = new EventBus();
    bus.onSignal('commands', () => signals.push('commands'));
    const deps: TimedJobDeps = { db: t.db, bus, log: { info() {}, warn() {}, error() {} } };

    const mk = async (meterId: number, repeat: string, at: string | null, tod = '') => {
      const r = await rows(
        `INSERT INTO timed_controls (company_id, meter_id, action, repeat, run_at, time_of_day, created_by, created_at)
         VALUES ($1, $2, 'close', $3, $4, $5, $6, now() - interval '2 days') RETURNING id`,
        [a.companyId, meterId, repeat, at, tod, a.userId],
      );
      return Number(r[0].id);
    };
    const now = new Date();
    const t1 = await mk(due.id, 'once', new Date(now.getTime() - 60_000).toISOString());
    const t2 = await mk(guarded.id, 'once', new Date(now.getTime() - 60_000).toISOString());
    const t3 = await mk(late.id, 'once', new Date(now.getTime() - 3 * 3600_000).toISOString());
    const china = new Date(now.getTime() + 8 * 3600_000 - 2 * 60_000);
    const tod = `${String(china.getUTCHours()).padStart(2, '0')}:${String(china.getUTCMinutes()).padStart(2, '0')}`;
    const t4 = await mk(daily.id, 'daily', null, tod);
    await t.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '保电中')`, [a.companyId, guarded.id]);

    const res = await runTimedControls(deps, now);
    expect(res.queued).toBeGreaterThanOrEqual(1);
    const cmd = async (id: number) => (await rows(`SELECT kind, status, origin, error, payload, requester_name FROM commands WHERE payload->>'timedControlId' = $1`, [String(id)]));
    expect(await cmd(t1)).toEqual([expect.objectContaining({ kind: 'close', status: 'queued', origin: 3, payload: { timedControlId: t1 } })]);
    expect((await cmd(t1))[0].requester_name).toMatch(/^定时阀控（测试/);
    expect(await cmd(t2)).toEqual([expect.objectContaining({ status: 'failed', origin: 3 })]);
    expect((await cmd(t2))[0].error).toContain('保电');
    expect(await cmd(t3)).toEqual([expect.objectContaining({ status: 'expired' })]);
    expect((await cmd(t3))[0].error).toContain('错过执行时间');
    expect(signals.length).toBeGreaterThanOrEqual(1);

    const marks = await rows(`SELECT id, enabled, last_run_at FROM timed_controls WHERE id = ANY($1) ORDER BY id`, [[t1, t2, t3, t4]]);
    expect(marks.slice(0, 3).every((m) => m.enabled === false && m.last_run_at)).toBe(true);
    const dailyCmds = await cmd(t4);
    // (just after midnight in China the time two minutes ago is yesterday's: not due today)
    if (china.toISOString().slice(0, 10) === new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10)) {
      expect(dailyCmds).toEqual([expect.objectContaining({ kind: 'close', status: 'queued' })]);
      expect(marks[3]).toMatchObject({ enabled: true });
    }

    // the next tick does nothing more: single runs are done, the daily one ran today
    const again = await runTimedControls(deps, new Date(now.getTime() + 30_000));
    expect(again).toEqual({ queued: 0, joined: 0, refused: 0, missed: 0 });
    // the timed list shows the last command of each
    const list = await call(a.token, 'GET', 'timed/list?size=20');
    expect(list.body.data.find((x: { id: number }) => x.id === t2).lastCommand).toMatchObject({ status: 'failed', statusText: '失败' });
  });
});

// ---------------------------------------------------------------------------------------------

describe('meter-config log (config/list)', () => {
  it('lists reads and sets with the meter and operator; filters; other companies see nothing', async () => {
    const a = await company();
    const b = await company();
    const m = await meter(a);
    await t.owner.query(
      `INSERT INTO meter_configs (company_id, meter_id, op, params, created_by) VALUES ($1, $2, 'read', '{"alarm1Money":"20.00"}', $3), ($1, $2, 'set', '{"ctRatio":"30"}', $3)`,
      [a.companyId, m.id, a.userId],
    );
    const all = await call(a.token, 'GET', `config/list?meterId=${m.id}`);
    expect(all.body.count).toBe(2);
    expect(all.body.data[0]).toMatchObject({ op: 'set', opText: '参数设置', params: { ctRatio: '30' }, address: m.address });
    expect(all.body.data[0].operatorName).toMatch(/^测试/);
    expect((await call(a.token, 'GET', 'config/list?op=read')).body.data[0].params).toEqual({ alarm1Money: '20.00' });
    expect((await call(b.token, 'GET', 'config/list')).body.count).toBe(0);
    expect((await call(a.token, 'GET', 'config/list?op=write')).status).toBe(400);
    expect((await call(reader, 'GET', 'config/list')).status).toBe(403);
  });
});
