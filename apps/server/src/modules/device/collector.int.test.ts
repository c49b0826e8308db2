import { describe, expect, it } from 'vitest';
import { expectEachStatus, fileApp, signedInStaff } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';
import { countRows, deviceCompany, electricBody, imei15, setPlans, type DeviceCompany } from './fixtures.ts';

// 采集器 (gather): /device/api/v1/gather[/list]

const G = '/device/api/v1/gather';

const t = await fileApp();
const a: DeviceCompany = await deviceCompany(t);
const b: DeviceCompany = await deviceCompany(t);
const [reader] = await t.signIn('reader');

const body = (c: DeviceCompany, extra: Record<string, unknown> = {}) => ({
  name: uniq('采集器'), imei: imei15(), plan: 0, areaId: c.floorA, simNo: '89860000000000000001', installAddress: '1层弱电井', ...extra,
});

async function create(c: DeviceCompany, extra: Record<string, unknown> = {}) {
  const r = await t.call(c.token, { method: 'POST', url: G, payload: body(c, extra) });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}

describe('collectors', () => {
  it('create → list with filters → detail → update → delete, audited', async () => {
    const payload = body(a, { plan: 1 });
    const c = await t.call(a.token, { method: 'POST', url: G, payload });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;

    const byName = await t.call(a.token, { method: 'GET', url: `${G}/list?index=1&size=10&name=${encodeURIComponent(payload.name)}` });
    expect(byName.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(byName.body.data[0]).toMatchObject({
      id, name: payload.name, imei: payload.imei, plan: 1, areaId: a.floorA, areaName: '1层', meterCount: 0, online: false, lastSeenAt: null,
    });
    const byImei = await t.call(a.token, { method: 'GET', url: `${G}/list?imei=${payload.imei.slice(3, 12)}` });
    expect(byImei.body.data.map((x: { id: number }) => x.id)).toEqual([id]);
    const byPlan = await t.call(a.token, { method: 'GET', url: `${G}/list?plan=1` });
    expect(byPlan.body.data.every((x: { plan: number }) => x.plan === 1)).toBe(true);
    expect(byPlan.body.data.map((x: { id: number }) => x.id)).toContain(id);
    const otherPlan = await t.call(a.token, { method: 'GET', url: `${G}/list?plan=0&name=${encodeURIComponent(payload.name)}` });
    expect(otherPlan.body.count).toBe(0);
    const inPark = await t.call(a.token, { method: 'GET', url: `${G}/list?searchArea=${a.parkId}` });
    expect(inPark.body.data.map((x: { id: number }) => x.id)).toContain(id);
    const inFloorB = await t.call(a.token, { method: 'GET', url: `${G}/list?searchArea=${a.floorB}` });
    expect(inFloorB.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    const offline = await t.call(a.token, { method: 'GET', url: `${G}/list?online=true` });
    expect(offline.body.data.map((x: { id: number }) => x.id)).not.toContain(id);

    const g = await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` });
    expect(g.body.data).toMatchObject({ id, name: payload.name, simNo: payload.simNo, installAddress: '1层弱电井' });
    expect(g.body.data.areaPath).toMatch(/^园区.+\/1层$/);
    expect(byName.body.data[0].areaPath).toBe(g.body.data.areaPath);

    const u = await t.call(a.token, { method: 'PUT', url: G, payload: { ...payload, id, name: `${payload.name}改`, areaId: a.floorB, plan: 5 } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).body.data).toMatchObject({ name: `${payload.name}改`, areaId: a.floorB, plan: 5 });

    const d = await t.call(a.token, { method: 'DELETE', url: `${G}?id=${id}` });
    expect(d.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).status).toBe(404);
    const audit = await t.owner.query(`SELECT action, target FROM audit_log WHERE company_id = $1 AND path = $2 ORDER BY id`, [a.companyId, G]);
    expect(audit.rows.map((r) => r.action)).toEqual(['新增采集器', '编辑采集器', '删除采集器']);
    expect(audit.rows[0].target).toContain(payload.imei);
  });

  it('the registration secret: shown to who may edit collectors, reset to a new one, never in lists; another company’s is not reachable', async () => {
    const id = await create(a);
    const shown = await t.call(a.token, { method: 'GET', url: `${G}/secret?id=${id}` });
    expect(shown.body.code, JSON.stringify(shown.body)).toBe('SUCCESS');
    expect(shown.body.data.secret).toMatch(/^[0-9a-f]{32}$/);
    const stored = await t.owner.query(`SELECT reg_secret FROM collectors WHERE id = $1`, [id]);
    expect(shown.body.data.secret).toBe(stored.rows[0].reg_secret);
    const list = await t.call(a.token, { method: 'GET', url: `${G}/list?size=1000` });
    expect(JSON.stringify(list.body)).not.toContain(shown.body.data.secret);
    expect(JSON.stringify((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).body)).not.toContain(shown.body.data.secret);
    const reset = await t.call(a.token, { method: 'POST', url: `${G}/secret/reset?id=${id}` });
    expect(reset.body.code).toBe('SUCCESS');
    expect(reset.body.data.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(reset.body.data.secret).not.toBe(shown.body.data.secret);
    expect((await t.owner.query(`SELECT reg_secret FROM collectors WHERE id = $1`, [id])).rows[0].reg_secret).toBe(reset.body.data.secret);
    const audit = await t.owner.query(`SELECT action, target FROM audit_log WHERE company_id = $1 AND path = $2`, [a.companyId, `${G}/secret/reset`]);
    expect(audit.rows).toEqual([{ action: '重置采集器注册密钥', target: expect.stringContaining('注册密钥') }]);
    // reader role, and another company
    expect((await t.call(reader, { method: 'GET', url: `${G}/secret?id=${id}` })).status).toBe(403);
    expect((await t.call(b.token, { method: 'GET', url: `${G}/secret?id=${id}` })).status).toBe(404);
    expect((await t.call(b.token, { method: 'POST', url: `${G}/secret/reset?id=${id}` })).status).toBe(404);
    expect((await t.owner.query(`SELECT reg_secret FROM collectors WHERE id = $1`, [id])).rows[0].reg_secret).toBe(reset.body.data.secret);
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await countRows(t.owner, 'collectors');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ imei: '12345678901234' }, /参数「imei」IMEI 须为 15 位数字/],
      [{ imei: '86123456789012a' }, /参数「imei」/],
      [{ plan: 2 }, /参数「plan」采集器方案取值无效/],
      [{ name: '' }, /参数「name」请输入采集器名称/],
      [{ areaId: undefined }, /参数「areaId」/],
      [{ simNo: 'abc' }, /参数「simNo」SIM 卡号只能是数字/],
      [{ areaId: b.floorA }, /参数「areaId」安装区域不存在或无权使用/],
      [{ areaId: 99999999 }, /参数「areaId」/],
    ];
    for (const [extra, msg] of cases) {
      const r = await t.call(a.token, { method: 'POST', url: G, payload: body(a, extra) });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    const id = await create(a);
    const bad = await t.call(a.token, { method: 'PUT', url: G, payload: { ...body(a), id, imei: '1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/参数「imei」/);
    expect(await countRows(t.owner, 'collectors')).toBe(before + 1);
  });

  it('a duplicate IMEI → 409, also against another company and against meters', async () => {
    const imei = imei15();
    await create(a, { imei });
    const same = await t.call(a.token, { method: 'POST', url: G, payload: body(a, { imei }) });
    expect(same.status).toBe(409);
    expect(same.body.message).toBe(`IMEI「${imei}」已被其他采集器使用`);
    const other = await t.call(b.token, { method: 'POST', url: G, payload: body(b, { imei }) });
    expect(other.status).toBe(409);
    const id = await create(a);
    const onEdit = await t.call(a.token, { method: 'PUT', url: G, payload: { ...body(a, { imei }), id } });
    expect(onEdit.status).toBe(409);
    // a meter's IMEI
    const meterImei = imei15();
    const m = await t.call(a.token, { method: 'POST', url: '/device/api/v1/device', payload: electricBody(a.roomA, { plan: 3, imei: meterImei }) });
    expect(m.body.code).toBe('SUCCESS');
    const vsMeter = await t.call(a.token, { method: 'POST', url: G, payload: body(a, { imei: meterImei }) });
    expect(vsMeter.status).toBe(409);
    expect(vsMeter.body.message).toBe(`IMEI「${meterImei}」已被其他表具使用`);
  });

  it('unknown id → 404', async () => {
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=99999999` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: G, payload: { ...body(a), id: 99999999 } })).status).toBe(404);
    const d = await t.call(a.token, { method: 'DELETE', url: `${G}?id=99999999` });
    expect(d.status).toBe(404);
    expect(d.body.message).toBe('采集器不存在或无权查看');
  });

  it('missing page or operation permission → 403', async () => {
    const id = await create(a);
    await expectEachStatus(t, reader, [
      ['GET', `${G}/list`, undefined], ['GET', `${G}?id=${id}`, undefined], ['POST', G, body(a)], ['PUT', G, { ...body(a), id }], ['DELETE', `${G}?id=${id}`, undefined],
    ], 403);
    // the page but not the operation keys
    const { token } = await signedInStaff(t, a.companyId, ['recordsCollect'], ['device.add']);
    expect((await t.call(token, { method: 'GET', url: `${G}/list` })).body.code).toBe('SUCCESS');
    expect((await t.call(token, { method: 'POST', url: G, payload: body(a) })).status).toBe(403);
    expect((await t.call(token, { method: 'PUT', url: G, payload: { ...body(a), id } })).status).toBe(403);
    const d = await t.call(token, { method: 'DELETE', url: `${G}?id=${id}` });
    expect(d.status).toBe(403);
    expect(d.body.message).toBe('无权限执行此操作，请联系管理员分配权限');
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).status).toBe(200);
  });

  it("another company's collector is invisible and untouchable", async () => {
    const payload = body(b);
    const id = await create(b, payload);
    const list = await t.call(a.token, { method: 'GET', url: `${G}/list?size=1000` });
    expect(list.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(payload.imei);
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: G, payload: { ...body(a), id } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${G}?id=${id}` })).status).toBe(404);
    const row = await t.owner.query(`SELECT name, imei FROM collectors WHERE id = $1`, [id]);
    expect(row.rows[0]).toEqual({ name: payload.name, imei: payload.imei });
  });

  it('delete is refused while meters are attached', async () => {
    const id = await create(a);
    const m = await t.call(a.token, { method: 'POST', url: '/device/api/v1/device', payload: electricBody(a.roomA, { collectorId: id }) });
    expect(m.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${G}?id=${id}` })).body.data.meterCount).toBe(1);
    const d = await t.call(a.token, { method: 'DELETE', url: `${G}?id=${id}` });
    expect(d.status).toBe(409);
    expect(d.body).toEqual({ code: 'IN_USE', message: '该采集器下还有 1 块表具，请先解除表具与采集器的绑定再删除' });
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM collectors WHERE id = $1`, [id])).rows[0].n).toBe(1);
    // detach the meter, then the collector can go
    const meter = (await t.call(a.token, { method: 'GET', url: `/device/api/v1/device?id=${m.body.data.id}` })).body.data;
    const u = await t.call(a.token, { method: 'PUT', url: '/device/api/v1/device', payload: { ...electricBody(a.roomA), address: meter.address, id: meter.id, collectorId: null } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'DELETE', url: `${G}?id=${id}` })).body.code).toBe('SUCCESS');
  });

  it('device-plan permissions: refused and filtered only while deviceCheck is on', async () => {
    const c = await deviceCompany(t);
    const lora = await create(c, { plan: 1 });
    const fourG = await create(c, { plan: 0 });
    await setPlans(t.owner, c.companyId, { deviceCheck: true, collector: [0, 5] });
    const refused = await t.call(c.token, { method: 'POST', url: G, payload: body(c, { plan: 1 }) });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'PLAN_NOT_ALLOWED', message: '本单位未开通「Lora」采集器方案，请联系平台管理员开通设备权限' });
    const onEdit = await t.call(c.token, { method: 'PUT', url: G, payload: { ...body(c, { plan: 6 }), id: fourG } });
    expect(onEdit.status).toBe(403);
    expect((await create(c, { plan: 5 })) > 0).toBe(true);
    const list = await t.call(c.token, { method: 'GET', url: `${G}/list` });
    const ids = list.body.data.map((x: { id: number }) => x.id);
    expect(ids).toContain(fourG);
    expect(ids).not.toContain(lora);
    expect(list.body.count).toBe(2);
    const plans = await t.call(c.token, { method: 'GET', url: '/device/api/v1/device/plans' });
    expect(plans.body.data.collector).toEqual([{ value: 0, label: '4G' }, { value: 5, label: '新4G' }]);

    await setPlans(t.owner, c.companyId, { deviceCheck: false, collector: [0, 5] });
    const all = await t.call(c.token, { method: 'GET', url: `${G}/list` });
    expect(all.body.count).toBe(3);
    expect((await create(c, { plan: 1 })) > 0).toBe(true);
    expect((await t.call(c.token, { method: 'GET', url: '/device/api/v1/device/plans' })).body.data.collector).toHaveLength(5);
  });

  it('a platform admin works inside a company with searchCompanyID', async () => {
    const admin = await t.login('admin', 'admin123');
    const noCompany = await t.call(admin, { method: 'POST', url: G, payload: body(a) });
    expect(noCompany.body.code).toBe('COMPANY_REQUIRED');
    const r = await t.call(admin, { method: 'POST', url: `${G}?searchCompanyID=${a.companyId}`, payload: body(a) });
    expect(r.body.code).toBe('SUCCESS');
    const row = await t.owner.query(`SELECT company_id FROM collectors WHERE id = $1`, [r.body.data.id]);
    expect(Number(row.rows[0].company_id)).toBe(a.companyId);
    const list = await t.call(admin, { method: 'GET', url: `${G}/list?searchCompanyID=${a.companyId}&size=1000` });
    expect(list.body.data.every((x: { companyId: number }) => x.companyId === a.companyId)).toBe(true);
  });
});
