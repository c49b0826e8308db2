import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';
import { countRows, deviceCompany, electricBody, waterBody, type DeviceCompany } from './fixtures.ts';

// 关注设备 (focus) and the device dictionaries (protocol/baud/phase/gateway/port/brand/caliber/type
// lists, and the platform admins' /device/api/v1/lookup CRUD).

const V1 = '/device/api/v1';
const F = `${V1}/focus`;
const L = `${V1}/lookup`;

const t = await fileApp();
const a: DeviceCompany = await deviceCompany(t);
const b: DeviceCompany = await deviceCompany(t);
const [reader, admin] = await t.signIn('reader', 'admin');

async function meter(c: DeviceCompany, payload: { address: string } & Record<string, unknown> = electricBody(c.roomA)) {
  const r = await t.call(c.token, { method: 'POST', url: `${V1}/device`, payload });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return { id: r.body.data.id as number, address: payload.address };
}

describe('focus devices', () => {
  it('focus → list with filters → detail → edit → unfocus', async () => {
    const m = await meter(a);
    const w = await meter(a, waterBody(a.roomB));
    const c = await t.call(a.token, { method: 'POST', url: F, payload: { meterId: m.id, memo: '读数异常' } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const w2 = await t.call(a.token, { method: 'POST', url: F, payload: { meterId: w.id } });
    expect(w2.body.code).toBe('SUCCESS');

    const list = await t.call(a.token, { method: 'GET', url: `${F}/list?index=1&size=10` });
    expect(list.body).toMatchObject({ code: 'SUCCESS', count: 2 });
    expect(list.body.data[1]).toMatchObject({ id, meterId: m.id, memo: '读数异常', address: m.address, kind: 1, areaName: '1层', online: false });
    expect(list.body.data[1].areaPath).toMatch(/\/1层$/);
    expect((await t.call(a.token, { method: 'GET', url: `${F}/list?kind=2` })).body.data.map((x: { meterId: number }) => x.meterId)).toEqual([w.id]);
    expect((await t.call(a.token, { method: 'GET', url: `${F}/list?address=${m.address.slice(3)}` })).body.count).toBe(1);
    expect((await t.call(a.token, { method: 'GET', url: `${F}/list?searchArea=${a.floorB}` })).body.count).toBe(1);
    // the meter shows as focused
    expect((await t.call(a.token, { method: 'GET', url: `${V1}/device?id=${m.id}` })).body.data).toMatchObject({ focused: true, focusId: id });

    expect((await t.call(a.token, { method: 'GET', url: `${F}?id=${id}` })).body.data).toMatchObject({ id, meterId: m.id, memo: '读数异常' });
    const u = await t.call(a.token, { method: 'PUT', url: F, payload: { id, meterId: m.id, memo: '已恢复，继续观察' } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${F}?id=${id}` })).body.data.memo).toBe('已恢复，继续观察');
    expect((await t.call(a.token, { method: 'DELETE', url: `${F}?id=${id}` })).body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${F}?id=${id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'GET', url: `${V1}/device?id=${m.id}` })).body.data).toMatchObject({ focused: false, focusId: null });
  });

  it('invalid input → 400, a second focus of one meter → 409, nothing written', async () => {
    const m = await meter(a);
    const other = await meter(b);
    const before = await countRows(t.owner, 'focus_devices');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /参数「meterId」请填写表具/],
      [{ meterId: 'x' }, /参数「meterId」/],
      [{ meterId: m.id, memo: '长'.repeat(201) }, /参数「memo」关注原因最多 200 个字/],
      [{ meterId: other.id }, /参数「meterId」表具不存在或无权查看/],
      [{ meterId: 99999999 }, /参数「meterId」表具不存在或无权查看/],
    ];
    for (const [payload, msg] of cases) {
      const r = await t.call(a.token, { method: 'POST', url: F, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    expect(await countRows(t.owner, 'focus_devices')).toBe(before);
    expect((await t.call(a.token, { method: 'POST', url: F, payload: { meterId: m.id } })).body.code).toBe('SUCCESS');
    const dup = await t.call(a.token, { method: 'POST', url: F, payload: { meterId: m.id } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`表具「${m.address}」已在关注列表中`);
  });

  it('unknown id → 404; other company → nothing; reader → 403', async () => {
    expect((await t.call(a.token, { method: 'GET', url: `${F}?id=99999999` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: F, payload: { id: 99999999, meterId: 1 } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${F}?id=99999999` })).status).toBe(404);

    const m = await meter(b);
    const f = await t.call(b.token, { method: 'POST', url: F, payload: { meterId: m.id, memo: '乙方关注' } });
    const id = f.body.data.id;
    const list = await t.call(a.token, { method: 'GET', url: `${F}/list?size=1000` });
    expect(JSON.stringify(list.body)).not.toContain('乙方关注');
    expect((await t.call(a.token, { method: 'GET', url: `${F}?id=${id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: F, payload: { id, meterId: m.id, memo: 'x' } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${F}?id=${id}` })).status).toBe(404);
    expect((await t.owner.query(`SELECT memo FROM focus_devices WHERE id = $1`, [id])).rows[0].memo).toBe('乙方关注');

    for (const [method, url, payload] of [
      ['GET', `${F}/list`, undefined], ['GET', `${F}?id=${id}`, undefined], ['POST', F, { meterId: m.id }],
      ['PUT', F, { id, meterId: m.id }], ['DELETE', `${F}?id=${id}`, undefined],
    ] as const) {
      expect((await t.call(reader, { method, url, payload })).status, `${method} ${url}`).toBe(403);
    }
  });

  it('a focus row goes with its meter', async () => {
    const m = await meter(a);
    const f = await t.call(a.token, { method: 'POST', url: F, payload: { meterId: m.id } });
    expect((await t.call(a.token, { method: 'DELETE', url: `${V1}/device?id=${m.id}` })).body.code).toBe('SUCCESS');
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM focus_devices WHERE id = $1`, [f.body.data.id])).rows[0].n).toBe(0);
  });
});

describe('device dictionaries', () => {
  it('option lists for every signed-in user; phase and brand paged', async () => {
    const get = async (kind: string, q = '') => (await t.call(reader, { method: 'GET', url: `${V1}/${kind}/list${q}` })).body;
    const protocols = await get('protocol');
    expect(protocols.code).toBe('SUCCESS');
    expect(protocols.data.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['DL/T645-2007', 'CJ/T188-2004', 'Modbus-RTU']));
    expect((await get('baud')).data.map((x: { name: string }) => x.name)).toEqual(['1200', '2400', '4800', '9600']);
    for (const kind of ['gateway', 'port', 'caliber', 'type']) {
      const r = await get(kind);
      expect(r.data.length, kind).toBeGreaterThan(3);
      expect(r.data.every((x: { kind: string }) => x.kind === kind)).toBe(true);
      expect(r.count).toBeUndefined();
    }
    expect((await get('caliber')).data.slice(0, 3).map((x: { name: string }) => x.name)).toEqual(['DN15', 'DN20', 'DN25']);
    const phase = await get('phase', '?index=1&size=10');
    expect(phase.count).toBeGreaterThanOrEqual(2);
    expect(phase.data[0]).toMatchObject({ id: 1, name: '单相', kind: 'phase' });
    expect(phase.data[1]).toMatchObject({ name: '三相' });
    const brand1 = await get('brand', '?index=1&size=4');
    const brand2 = await get('brand', '?index=2&size=4');
    expect(brand1.count).toBeGreaterThanOrEqual(6);
    expect([...brand1.data, ...brand2.data].map((x: { name: string }) => x.name).slice(0, 6)).toEqual(['正泰', '德力西', '威胜', '林洋', '宁波水表', '三川']);
    expect((await t.call(null, { method: 'GET', url: `${V1}/protocol/list` })).status).toBe(401);
  });

  it('platform admins create, edit and delete dictionary rows', async () => {
    const name = uniq('品牌');
    const c = await t.call(admin, { method: 'POST', url: L, payload: { kind: 'brand', name, code: 'X1', sort: 9 } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    expect(id).toBeGreaterThanOrEqual(1000);
    expect((await t.call(a.token, { method: 'GET', url: `${V1}/brand/list?size=100` })).body.data.map((x: { name: string }) => x.name)).toContain(name);
    const l = await t.call(admin, { method: 'GET', url: `${L}/list?kind=brand&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ count: 1, data: [{ id, kind: 'brand', name, code: 'X1', sort: 9 }] });
    expect((await t.call(admin, { method: 'GET', url: `${L}?id=${id}` })).body.data.name).toBe(name);

    const dup = await t.call(admin, { method: 'POST', url: L, payload: { kind: 'brand', name: '正泰' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('品牌「正泰」已存在');
    // the same name in another kind is fine
    const other = await t.call(admin, { method: 'POST', url: L, payload: { kind: 'type', name } });
    expect(other.body.code).toBe('SUCCESS');

    const u = await t.call(admin, { method: 'PUT', url: L, payload: { id, kind: 'brand', name: `${name}改`, sort: 1 } });
    expect(u.body.code).toBe('SUCCESS');
    const kindChange = await t.call(admin, { method: 'PUT', url: L, payload: { id, kind: 'port', name: `${name}改` } });
    expect(kindChange.status).toBe(400);
    expect(kindChange.body.message).toBe('参数「kind」字典类别不能修改');
    const bad = await t.call(admin, { method: 'POST', url: L, payload: { kind: 'colour', name: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/参数「kind」字典类别取值无效/);

    // in use → refused; unused → deleted
    const m = await meter(a, electricBody(a.roomA, { brandId: id }));
    const d = await t.call(admin, { method: 'DELETE', url: `${L}?id=${id}` });
    expect(d.status).toBe(409);
    expect(d.body).toEqual({ code: 'IN_USE', message: '该字典项已被 1 块表具使用，不能删除' });
    expect((await t.call(a.token, { method: 'GET', url: `${V1}/device?id=${m.id}` })).body.data.brandName).toBe(`${name}改`);
    expect((await t.call(a.token, { method: 'DELETE', url: `${V1}/device?id=${m.id}` })).body.code).toBe('SUCCESS');
    expect((await t.call(admin, { method: 'DELETE', url: `${L}?id=${id}` })).body.code).toBe('SUCCESS');
    expect((await t.call(admin, { method: 'GET', url: `${L}?id=${id}` })).status).toBe(404);
  });

  it('单相 cannot be deleted; unknown → 404; company staff cannot write (403)', async () => {
    const d = await t.call(admin, { method: 'DELETE', url: `${L}?id=1` });
    expect(d.status).toBe(409);
    expect(d.body.message).toBe('「单相」是内置相位（阀控密码校验依赖它），不能删除');
    expect((await t.call(admin, { method: 'DELETE', url: `${L}?id=99999999` })).status).toBe(404);
    expect((await t.call(admin, { method: 'PUT', url: L, payload: { id: 99999999, kind: 'brand', name: 'x' } })).status).toBe(404);
    const before = await countRows(t.owner, 'device_lookups');
    for (const token of [a.token, reader]) {
      expect((await t.call(token, { method: 'POST', url: L, payload: { kind: 'brand', name: uniq('x') } })).status).toBe(403);
      expect((await t.call(token, { method: 'PUT', url: L, payload: { id: 51, kind: 'brand', name: '改名' } })).status).toBe(403);
      expect((await t.call(token, { method: 'DELETE', url: `${L}?id=56` })).status).toBe(403);
    }
    expect(await countRows(t.owner, 'device_lookups')).toBe(before);
    expect((await t.owner.query(`SELECT name FROM device_lookups WHERE id = 51`)).rows[0].name).toBe('正泰');
  });
});
