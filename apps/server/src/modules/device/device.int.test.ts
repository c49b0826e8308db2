import { describe, expect, it } from 'vitest';
import { expectEachStatus, fileApp, signedInStaff } from '../../../test/helpers.ts';
import { makeArea, makeRole, makeUser, uniq } from '../../../test/factories.ts';
import {
  addr12, addr14, countRows, deviceCompany, electricBody, imei15, setPlans, waterBody, type DeviceCompany,
} from './fixtures.ts';

// 表具 (device): /device/api/v1/device[/list], POST device/list, device/plans, device/list/group[2]

const D = '/device/api/v1/device';

const t = await fileApp();
const a: DeviceCompany = await deviceCompany(t);
const b: DeviceCompany = await deviceCompany(t);
const [reader] = await t.signIn('reader');

async function create(c: DeviceCompany, payload: Record<string, unknown>) {
  const r = await t.call(c.token, { method: 'POST', url: D, payload });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}

async function collector(c: DeviceCompany, plan = 0) {
  const r = await t.call(c.token, {
    method: 'POST', url: '/device/api/v1/gather', payload: { name: uniq('采集器'), imei: imei15(), plan, areaId: c.floorA },
  });
  return r.body.data.id as number;
}

const ids = (body: { data: { id: number }[] }) => body.data.map((x) => x.id);

describe('meters', () => {
  it('create → detail with names → update → delete', async () => {
    const gather = await collector(a);
    const payload = electricBody(a.roomA, { collectorId: gather, gatewayId: 31, portId: 41, multiplier: '2.5', initialReading: '12.34', installDate: '2025-03-01', reportInterval: 60, memo: '一楼照明' });
    const id = await create(a, payload);
    const g = await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` });
    expect(g.body.data).toMatchObject({
      id, companyId: a.companyId, roomId: a.roomA, areaId: a.floorA, areaName: '1层', collectorId: gather,
      kind: 1, plan: 0, planName: '普通（0）', address: payload.address, phaseId: 1, phaseName: '单相',
      protocolName: 'DL/T645-2007', baudName: '2400', brandName: '正泰', typeName: '预付费电表', gatewayName: '4G DTU', portName: 'RS485-1',
      multiplier: '2.50', initialReading: '12.34', installDate: '2025-03-01', reportInterval: 60, status: 1, memo: '一楼照明',
      online: false, valveState: null, lastSeenAt: null, focused: false, caliberId: null,
    });
    expect(g.body.data.collectorName).toMatch(/^采集器/);
    expect(g.body.data.areaPath).toMatch(/^园区.+\/1层$/);

    const u = await t.call(a.token, { method: 'PUT', url: D, payload: { ...payload, id, roomId: a.roomB, name: '改名', status: 0, collectorId: null, phaseId: 2 } });
    expect(u.body.code).toBe('SUCCESS');
    const after = (await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` })).body.data;
    // the area follows the room
    expect(after).toMatchObject({ name: '改名', roomId: a.roomB, areaId: a.floorB, status: 0, collectorId: null, phaseName: '三相' });
    expect(after.areaPath).toMatch(/\/2层$/);

    expect((await t.call(a.token, { method: 'DELETE', url: `${D}?id=${id}` })).body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` })).status).toBe(404);
    const audit = await t.owner.query(`SELECT action, target FROM audit_log WHERE company_id = $1 AND path = $2 ORDER BY id`, [a.companyId, D]);
    expect(audit.rows.map((r) => r.action)).toEqual(['新增表具', '编辑表具', '删除表具']);
    expect(audit.rows[0].target).toBe(`电表 ${payload.address}`);
  });

  it('lists with every filter, by query (GET) and by body (POST)', async () => {
    const c = await deviceCompany(t);
    const gather = await collector(c);
    const e1 = await create(c, electricBody(c.roomA, { collectorId: gather, name: '商铺电表' }));
    const e2 = await create(c, electricBody(c.roomB, { plan: 3, imei: imei15() }));
    const w1 = await create(c, waterBody(c.roomA));
    await t.owner.query(`UPDATE meters SET online = true, valve_state = 0 WHERE id = $1`, [e2]);
    const q = async (query: string) => (await t.call(c.token, { method: 'GET', url: `${D}/list?${query}` })).body;

    expect((await q('index=1&size=10')).count).toBe(3);
    expect(ids(await q('kind=1')).sort()).toEqual([e1, e2].sort());
    expect(ids(await q('kind=2'))).toEqual([w1]);
    expect(ids(await q('plan=3'))).toEqual([e2]);
    expect(ids(await q('online=true'))).toEqual([e2]);
    expect(ids(await q('online=false')).sort()).toEqual([e1, w1].sort());
    expect(ids(await q(`roomId=${c.roomA}`)).sort()).toEqual([e1, w1].sort());
    const roomB = (await t.owner.query(`SELECT name FROM rooms WHERE id = $1`, [c.roomB])).rows[0].name;
    expect(ids(await q(`roomName=${encodeURIComponent(roomB.slice(0, 6))}`))).toEqual([e2]);
    expect(ids(await q(`collectorId=${gather}`))).toEqual([e1]);
    expect(ids(await q(`name=${encodeURIComponent('商铺')}`))).toEqual([e1]);
    expect(ids(await q(`searchArea=${c.floorB}`))).toEqual([e2]);
    expect((await q(`searchArea=${c.parkId}`)).count).toBe(3);
    expect(ids(await q('status=1')).length).toBe(3);
    expect((await q('status=2')).count).toBe(0);
    const e1Row = (await q(`collectorId=${gather}`)).data[0];
    expect(ids(await q(`address=${e1Row.address.slice(4)}`))).toEqual([e1]);
    expect(e1Row).toMatchObject({ roomName: expect.any(String), areaName: '1层', collectorImei: expect.stringMatching(/^\d{15}$/), ownerName: null });
    // paging: newest first
    const p1 = await q('index=1&size=2');
    const p2 = await q('index=2&size=2');
    expect(p1.count).toBe(3);
    expect([...ids(p1), ...ids(p2)]).toEqual([w1, e2, e1]);

    const post = await t.call(c.token, { method: 'POST', url: `${D}/list`, payload: { index: 1, size: 10, kind: 1, online: true } });
    expect(post.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(ids(post.body)).toEqual([e2]);
    const postAll = await t.call(c.token, { method: 'POST', url: `${D}/list`, payload: { searchArea: c.parkId } });
    expect(postAll.body.count).toBe(3);
    const bad = await t.call(c.token, { method: 'POST', url: `${D}/list`, payload: { kind: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/参数「kind」/);
    // a query sent as POST is not a mutation: nothing in the audit log, while a real POST is there
    const audited = await t.owner.query(`SELECT path FROM audit_log WHERE company_id = $1 AND path LIKE '%/device%'`, [c.companyId]);
    expect(audited.rows.map((r) => r.path)).not.toContain(`${D}/list`);
    expect(audited.rows.map((r) => r.path)).toContain(D);
  });

  it("shows the room's current owner", async () => {
    await t.owner.query(`INSERT INTO owners (company_id, room_id, name, phone) VALUES ($1, $2, '赵业主', '13900000000')`, [a.companyId, a.roomA]);
    const id = await create(a, electricBody(a.roomA));
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` })).body.data.ownerName).toBe('赵业主');
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await countRows(t.owner, 'meters');
    const gatherB = await collector(b);
    const cases: [Record<string, unknown>, RegExp][] = [
      [electricBody(a.roomA, { address: '1234567890123' }), /参数「address」表地址须为 12 位（DL\/T 645）或 14 位（CJ\/T 188）数字/],
      [electricBody(a.roomA, { address: '12345678901a' }), /参数「address」/],
      [electricBody(a.roomA, { address: addr14() }), /参数「address」电表地址须为 12 位数字（DL\/T 645）/],
      [waterBody(a.roomA, { address: addr12() }), /参数「address」水表地址须为 14 位数字（CJ\/T 188）/],
      [electricBody(a.roomA, { protocolId: 13 }), /参数「address」电表地址须为 14 位数字（CJ\/T 188）/],
      [electricBody(a.roomA, { plan: 151 }), /参数「plan」「151」不是有效的电表方案/],
      [waterBody(a.roomA, { plan: 0 }), /参数「plan」「0」不是有效的水表方案/],
      [electricBody(a.roomA, { kind: 3 }), /参数「kind」表具类别取值无效/],
      [electricBody(a.roomA, { plan: undefined }), /参数「plan」请填写表具方案/],
      [electricBody(a.roomA, { roomId: undefined }), /参数「roomId」/],
      [electricBody(b.roomA), /参数「roomId」房间不存在或无权使用/],
      [electricBody(a.roomA, { collectorId: gatherB }), /参数「collectorId」采集器不存在或不属于本单位/],
      [electricBody(a.roomA, { protocolId: 21 }), /参数「protocolId」通讯协议不存在/],
      [electricBody(a.roomA, { phaseId: 999999 }), /参数「phaseId」相位不存在/],
      [electricBody(a.roomA, { imei: '123' }), /参数「imei」IMEI 须为 15 位数字/],
      [electricBody(a.roomA, { multiplier: '0' }), /参数「multiplier」倍率不能小于 0.01/],
      [electricBody(a.roomA, { initialReading: '1.234' }), /参数「initialReading」初始读数格式不正确/],
      [electricBody(a.roomA, { installDate: '2025/01/01' }), /参数「installDate」安装日期格式应为 YYYY-MM-DD/],
      [electricBody(a.roomA, { status: 2 }), /参数「status」已销表只能通过销表操作设置/],
      [electricBody(a.roomA, { status: 5 }), /参数「status」状态取值无效/],
      [electricBody(a.roomA, { chargingSchemeId: 99999999 }), /参数「chargingSchemeId」收费方案不存在或不属于本单位/],
      [electricBody(a.roomA, { alarmSchemeId: 99999999 }), /参数「alarmSchemeId」报警方案不存在或不属于本单位/],
    ];
    for (const [payload, msg] of cases) {
      const r = await t.call(a.token, { method: 'POST', url: D, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message, JSON.stringify(payload)).toMatch(msg);
    }
    expect(await countRows(t.owner, 'meters')).toBe(before);
  });

  it('schemes must be of the same company and kind', async () => {
    const s = await t.owner.query(`INSERT INTO charging_schemes (company_id, name, kind) VALUES ($1, $2, 2) RETURNING id`, [a.companyId, uniq('水费')]);
    const wrongKind = await t.call(a.token, { method: 'POST', url: D, payload: electricBody(a.roomA, { chargingSchemeId: s.rows[0].id }) });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe('参数「chargingSchemeId」收费方案不是电表方案');
    const id = await create(a, waterBody(a.roomA, { chargingSchemeId: s.rows[0].id }));
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` })).body.data.chargingSchemeId).toBe(Number(s.rows[0].id));
    const other = await t.owner.query(`INSERT INTO alarm_schemes (company_id, name, kind) VALUES ($1, $2, 1) RETURNING id`, [b.companyId, uniq('报警')]);
    const r = await t.call(a.token, { method: 'POST', url: D, payload: electricBody(a.roomA, { alarmSchemeId: other.rows[0].id }) });
    expect(r.status).toBe(400);
  });

  it('a duplicate address or IMEI → 409, across companies too', async () => {
    const address = addr12();
    await create(a, electricBody(a.roomA, { address }));
    const same = await t.call(a.token, { method: 'POST', url: D, payload: electricBody(a.roomB, { address }) });
    expect(same.status).toBe(409);
    expect(same.body).toEqual({ code: 'CONFLICT', message: `表地址「${address}」已存在` });
    expect((await t.call(b.token, { method: 'POST', url: D, payload: electricBody(b.roomA, { address }) })).status).toBe(409);
    const id = await create(a, electricBody(a.roomA));
    expect((await t.call(a.token, { method: 'PUT', url: D, payload: { ...electricBody(a.roomA, { address }), id } })).status).toBe(409);
    const imei = imei15();
    await create(a, electricBody(a.roomA, { plan: 3, imei }));
    const dupImei = await t.call(b.token, { method: 'POST', url: D, payload: electricBody(b.roomA, { plan: 3, imei }) });
    expect(dupImei.status).toBe(409);
    expect(dupImei.body.message).toBe(`IMEI「${imei}」已被其他表具使用`);
  });

  it('unknown id → 404', async () => {
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=99999999` })).status).toBe(404);
    const u = await t.call(a.token, { method: 'PUT', url: D, payload: { ...electricBody(a.roomA), id: 99999999 } });
    expect(u.status).toBe(404);
    expect(u.body.message).toBe('表具不存在或无权查看');
    expect((await t.call(a.token, { method: 'DELETE', url: `${D}?id=99999999` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=abc` })).status).toBe(400);
  });

  it('missing page or operation permission → 403', async () => {
    const id = await create(a, electricBody(a.roomA));
    await expectEachStatus(t, reader, [
      ['GET', `${D}/list`, undefined], ['POST', `${D}/list`, {}], ['GET', `${D}?id=${id}`, undefined], ['GET', `${D}/plans`, undefined],
      ['POST', D, electricBody(a.roomA)], ['PUT', D, { ...electricBody(a.roomA), id }], ['DELETE', `${D}?id=${id}`, undefined],
      ['POST', `${D}/list/group`, {}], ['POST', `${D}/list/group2`, {}],
    ], 403);
    const { token } = await signedInStaff(t, a.companyId, ['recordsTable'], ['device.collectorAdd']);
    expect((await t.call(token, { method: 'GET', url: `${D}/list` })).body.code).toBe('SUCCESS');
    expect((await t.call(token, { method: 'POST', url: D, payload: electricBody(a.roomA) })).status).toBe(403);
    expect((await t.call(token, { method: 'PUT', url: D, payload: { ...electricBody(a.roomA), id } })).status).toBe(403);
    expect((await t.call(token, { method: 'DELETE', url: `${D}?id=${id}` })).status).toBe(403);
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM meters WHERE id = $1`, [id])).rows[0].n).toBe(1);
  });

  it("another company's meter is invisible and untouchable", async () => {
    const payload = electricBody(b.roomA, { name: '乙方表' });
    const id = await create(b, payload);
    const list = await t.call(a.token, { method: 'GET', url: `${D}/list?size=1000` });
    expect(ids(list.body)).not.toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(payload.address);
    const byBody = await t.call(a.token, { method: 'POST', url: `${D}/list`, payload: { roomId: b.roomA } });
    expect(byBody.body.count).toBe(0);
    expect((await t.call(a.token, { method: 'GET', url: `${D}?id=${id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: D, payload: { ...electricBody(a.roomA), id } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${D}?id=${id}` })).status).toBe(404);
    const row = await t.owner.query(`SELECT name, room_id, company_id FROM meters WHERE id = $1`, [id]);
    expect(row.rows[0]).toEqual({ name: '乙方表', room_id: b.roomA, company_id: b.companyId });
  });

  it('a user bound to one area sees only the meters there', async () => {
    const inA = await create(a, electricBody(a.roomA));
    const inB = await create(a, electricBody(a.roomB));
    const role = await makeRole(t.owner, a.companyId, ['recordsTable'], []);
    const u = await makeUser(t.owner, { companyId: a.companyId, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, a.floorA, a.companyId]);
    const token = await t.login(u.username, u.password);
    const list = ids((await t.call(token, { method: 'GET', url: `${D}/list?size=1000` })).body);
    expect(list).toContain(inA);
    expect(list).not.toContain(inB);
    expect((await t.call(token, { method: 'GET', url: `${D}?id=${inB}` })).status).toBe(404);
  });

  it('a meter moves with its room when the room changes area', async () => {
    const c = await deviceCompany(t);
    const id = await create(c, waterBody(c.roomA));
    const floorC = await makeArea(t.owner, c.companyId, '3层', c.parkId, 1);
    await t.owner.query(`UPDATE rooms SET area_id = $1 WHERE id = $2`, [floorC, c.roomA]);
    expect((await t.call(c.token, { method: 'GET', url: `${D}?id=${id}` })).body.data).toMatchObject({ areaId: floorC, areaName: '3层' });
    expect(ids((await t.call(c.token, { method: 'GET', url: `${D}/list?searchArea=${floorC}` })).body)).toEqual([id]);
    // and a write cannot set another area than the room's
    await t.owner.query(`UPDATE meters SET area_id = $1 WHERE id = $2`, [c.floorB, id]);
    expect((await t.owner.query(`SELECT area_id FROM meters WHERE id = $1`, [id])).rows[0].area_id).toBe(floorC);
  });

  it('readings and 已销表 protect a meter', async () => {
    const payload = electricBody(a.roomA, { initialReading: '10' });
    const id = await create(a, payload);
    await t.owner.query(`INSERT INTO readings (company_id, meter_id, read_at, source, total) VALUES ($1, $2, now(), 1, 20)`, [a.companyId, id]);
    const del = await t.call(a.token, { method: 'DELETE', url: `${D}?id=${id}` });
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ code: 'IN_USE', message: '该表具已有抄表记录，不能删除；停用请编辑状态，拆除请销表' });
    for (const change of [{ kind: 2, plan: 100, protocolId: 13, phaseId: null, address: addr14() }, { address: addr12() }, { initialReading: '11' }]) {
      const r = await t.call(a.token, { method: 'PUT', url: D, payload: { ...payload, ...change, id } });
      expect(r.body.code, JSON.stringify(change)).toBe('METER_HAS_READINGS');
    }
    // other fields stay editable
    expect((await t.call(a.token, { method: 'PUT', url: D, payload: { ...payload, id, name: '新名称', initialReading: '10.00' } })).body.code).toBe('SUCCESS');

    const closed = await create(a, electricBody(a.roomA));
    await t.owner.query(`UPDATE meters SET status = 2 WHERE id = $1`, [closed]);
    const d2 = await t.call(a.token, { method: 'DELETE', url: `${D}?id=${closed}` });
    expect(d2.status).toBe(409);
    expect(d2.body.message).toBe('该表具已销表，档案需保留，不能删除');
    const e2 = await t.call(a.token, { method: 'PUT', url: D, payload: { ...electricBody(a.roomA), id: closed } });
    expect(e2.body).toEqual({ code: 'METER_CLOSED', message: '该表具已销表，不能编辑' });
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM meters WHERE id = ANY($1)`, [[id, closed]])).rows[0].n).toBe(2);
  });

  it('device-plan permissions: refused and filtered only while deviceCheck is on', async () => {
    const c = await deviceCompany(t);
    const nb = await create(c, electricBody(c.roomA, { plan: 3 }));
    const avg = await create(c, electricBody(c.roomA, { plan: 0 }));
    const nbWater = await create(c, waterBody(c.roomA, { plan: 151 }));
    const avgWater = await create(c, waterBody(c.roomA, { plan: 100 }));
    const f = await t.call(c.token, { method: 'POST', url: '/device/api/v1/focus', payload: { meterId: nb } });
    expect(f.body.code).toBe('SUCCESS');
    await setPlans(t.owner, c.companyId, { deviceCheck: true, electric: [0, 100], water: [100] });

    const refused = await t.call(c.token, { method: 'POST', url: D, payload: electricBody(c.roomA, { plan: 3 }) });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'PLAN_NOT_ALLOWED', message: '本单位未开通电表方案「NB-IoT（3）」，请联系平台管理员开通设备权限' });
    const water = await t.call(c.token, { method: 'POST', url: D, payload: waterBody(c.roomA, { plan: 151 }) });
    expect(water.status).toBe(403);
    expect(water.body.message).toContain('水表方案「NB-IoT（151）」');
    expect((await t.call(c.token, { method: 'PUT', url: D, payload: { ...electricBody(c.roomA, { plan: 7 }), id: avg } })).status).toBe(403);
    await create(c, electricBody(c.roomA, { plan: 100 }));

    const list = await t.call(c.token, { method: 'GET', url: `${D}/list?size=100` });
    expect(list.body.count).toBe(3);
    expect(ids(list.body)).not.toContain(nb);
    expect(ids(list.body)).not.toContain(nbWater);
    expect(ids(list.body)).toContain(avgWater);
    expect((await t.call(c.token, { method: 'POST', url: `${D}/list`, payload: {} })).body.count).toBe(3);
    expect((await t.call(c.token, { method: 'GET', url: '/device/api/v1/focus/list' })).body.count).toBe(0);
    const plans = (await t.call(c.token, { method: 'GET', url: `${D}/plans` })).body.data;
    expect(plans).toMatchObject({ deviceCheck: true, electric: [{ value: 0 }, { value: 100 }], water: [{ value: 100, label: '普通（100）' }] });

    await setPlans(t.owner, c.companyId, { deviceCheck: false, electric: [0, 100], water: [100] });
    expect((await t.call(c.token, { method: 'GET', url: `${D}/list` })).body.count).toBe(5);
    expect((await t.call(c.token, { method: 'GET', url: '/device/api/v1/focus/list' })).body.count).toBe(1);
    expect((await t.call(c.token, { method: 'GET', url: `${D}/plans` })).body.data.deviceCheck).toBe(false);
    await create(c, electricBody(c.roomA, { plan: 3 }));
  });

  it('the legacy group calls answer 功能已暂停使用', async () => {
    for (const url of [`${D}/list/group`, `${D}/list/group2`]) {
      const r = await t.call(a.token, { method: 'POST', url, payload: { ids: [1, 2] } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ code: 'FEATURE_SUSPENDED', message: '功能已暂停使用' });
    }
  });

  it('a platform admin lists across companies and creates inside one', async () => {
    const admin = await t.login('admin', 'admin123');
    const all = await t.call(admin, { method: 'GET', url: `${D}/list?size=5` });
    expect(all.body.count).toBeGreaterThanOrEqual(600);
    const r = await t.call(admin, { method: 'POST', url: `${D}?searchCompanyID=${a.companyId}`, payload: electricBody(a.roomA) });
    expect(r.body.code).toBe('SUCCESS');
    const wrongCompany = await t.call(admin, { method: 'POST', url: `${D}?searchCompanyID=${a.companyId}`, payload: electricBody(b.roomA) });
    expect(wrongCompany.status).toBe(400);
  });
});

describe('demo seed', () => {
  it('has 20 collectors and 600 meters of several plans over the demo rooms', async () => {
    const q = async (sql: string, params: unknown[] = []) => (await t.owner.query(sql, params)).rows;
    const [demo] = await q(`SELECT id FROM companies WHERE name = '阳光物业演示公司'`);
    const cid = Number(demo.id);
    // the seeded rows (tests may add their own to the demo company): addresses 20… (电) and 30… (水)
    const seeded = `company_id = $1 AND (address LIKE '20' || lpad($1::text, 4, '0') || '%' OR address LIKE '30' || lpad($1::text, 6, '0') || '%')`;
    const [c] = await q(`SELECT count(*)::int AS n, count(DISTINCT plan)::int AS plans FROM collectors WHERE company_id = $1 AND imei LIKE '8688%'`, [cid]);
    expect(c).toEqual({ n: 20, plans: 5 });
    const kinds = await q(`SELECT kind, count(*)::int AS n, count(DISTINCT plan)::int AS plans, min(length(address)) AS minlen, max(length(address)) AS maxlen,
      count(collector_id)::int AS behind, count(NULLIF(imei, ''))::int AS direct FROM meters WHERE ${seeded} GROUP BY kind ORDER BY kind`, [cid]);
    expect(kinds).toEqual([
      { kind: 1, n: 400, plans: 8, minlen: 12, maxlen: 12, behind: 280, direct: 120 },
      { kind: 2, n: 200, plans: 4, minlen: 14, maxlen: 14, behind: 120, direct: 80 },
    ]);
    const [consistent] = await q(`SELECT count(*)::int AS bad FROM meters m JOIN rooms r ON r.id = m.room_id WHERE m.company_id = $1 AND m.area_id IS DISTINCT FROM r.area_id`, [cid]);
    expect(consistent.bad).toBe(0);
    // spread over every room that existed at seed time (up to 600)
    const [spread] = await q(`SELECT count(DISTINCT room_id)::int AS n FROM meters WHERE ${seeded}`, [cid]);
    const [roomsThen] = await q(`SELECT count(*)::int AS n FROM rooms WHERE company_id = $1
      AND created_at <= (SELECT min(created_at) FROM meters WHERE ${seeded})`, [cid]);
    expect(spread.n).toBe(Math.min(roomsThen.n, 600));
    const [single] = await q(`SELECT count(*)::int AS n FROM meters WHERE ${seeded} AND phase_id = 1`, [cid]);
    expect(single.n).toBe(360);
    const demoToken = await t.login('demo', 'demo123');
    const list = await t.call(demoToken, { method: 'GET', url: `${D}/list?index=1&size=20` });
    expect(list.body.count).toBeGreaterThanOrEqual(600);
    expect(list.body.data).toHaveLength(20);
    const focus = await t.call(demoToken, { method: 'GET', url: '/device/api/v1/focus/list' });
    expect(focus.body.count).toBeGreaterThanOrEqual(6);
  });

  it('the market and the industrial park have meters too, with schemes and their owners balances', async () => {
    const q = async (sql: string, params: unknown[] = []) => (await t.owner.query(sql, params)).rows;
    for (const [username, password, electric, water] of [['market', 'market123', 140, 40], ['industry', 'industry123', 96, 24]] as const) {
      const [u] = await q(`SELECT company_id FROM admin_users WHERE username = $1`, [username]);
      const cid = Number(u.company_id);
      const seeded = `company_id = $1 AND (address LIKE '20' || lpad($1::text, 4, '0') || '%' OR address LIKE '30' || lpad($1::text, 6, '0') || '%')`;
      const kinds = await q(`SELECT kind, count(*)::int AS n, count(charging_scheme_id)::int AS priced FROM meters WHERE ${seeded} GROUP BY kind ORDER BY kind`, [cid]);
      expect(kinds, username).toEqual([{ kind: 1, n: electric, priced: electric }, { kind: 2, n: water, priced: water }]);
      // every room (a market's stall) has its electric meter
      const [bare] = await q(`SELECT count(*)::int AS n FROM rooms r WHERE r.company_id = $1 AND NOT EXISTS (SELECT 1 FROM meters m WHERE m.room_id = r.id AND m.kind = 1)
        AND r.created_at <= (SELECT min(created_at) FROM meters WHERE ${seeded})`, [cid]);
      expect(bare.n, username).toBe(0);
      const [opening] = await q(`SELECT count(*)::int AS n FROM journal WHERE company_id = $1 AND kind = 'opening'`, [cid]);
      expect(opening.n, username).toBeGreaterThan(0);
      const token = await t.login(username, password);
      const list = await t.call(token, { method: 'GET', url: `${D}/list?index=1&size=20` });
      expect(list.body.count, username).toBeGreaterThanOrEqual(electric + water);
    }
  });
});
