import { describe, expect, it } from 'vitest';
import { demoFloors, fileApp } from '../../../test/helpers.ts';
import { makeOtherRoom, makeRole, makeUser, uniq } from '../../../test/factories.ts';

// Rooms (RoomInfo/*, getNoUserRoom, enums) and charging types (ChargingType/*) against a real database.

const t = await fileApp();
const [demo, reader] = await t.signIn('demo', 'reader');
/** a floor of the demo company's seeded tree, and a second floor to move rooms to */
const { demoCompany, floorA, floorB } = await demoFloors(t.owner);
const park = Number((await t.owner.query(`SELECT id FROM areas WHERE company_id = $1 AND deep = 0 ORDER BY id LIMIT 1`, [demoCompany])).rows[0].id);
const other = await (async () => {
  const o = await makeOtherRoom(t.owner);
  const ct = await t.owner.query(`INSERT INTO charging_types (company_id, name, charge_type) VALUES ($1, '他司收费', 1) RETURNING id`, [o.companyId]);
  return { ...o, chargingTypeId: Number(ct.rows[0].id) };
})();

const Y = '/yewu/api';
const count = async (sql: string, params: unknown[] = []) => Number((await t.owner.query(sql, params)).rows[0].n);


async function newChargingType(name = uniq('收费')) {
  const r = await t.call(demo, { method: 'POST', url: `${Y}/ChargingType/Detail`, payload: { name, chargeType: 1 } });
  expect(r.body.code).toBe('SUCCESS');
  return r.body.data.id as number;
}

async function newRoom(payload: Record<string, unknown> = {}) {
  const r = await t.call(demo, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload: { name: uniq('R'), areaId: floorA, ...payload } });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.Id as number;
}

describe('ChargingType', () => {
  it('create → list with search → detail → update → using list → delete', async () => {
    const name = uniq('住宅用电');
    const c = await t.call(demo, { method: 'POST', url: `${Y}/ChargingType/Detail`, payload: { name, chargeType: 1, memo: '居民' } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const l = await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/List?index=1&size=10&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, name, chargeType: 1, status: 1, memo: '居民' });
    expect((await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/Detail?id=${id}` })).body.data.name).toBe(name);
    const u = await t.call(demo, { method: 'PUT', url: `${Y}/ChargingType/Detail`, payload: { id, name: `${name}改`, chargeType: '2' } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/Detail?id=${id}` })).body.data).toMatchObject({ name: `${name}改`, chargeType: 2 });
    const using = await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/GetAllUsingList_All` });
    expect(using.body.data).toContainEqual({ id, name: `${name}改`, chargeType: 2 });
    expect(JSON.stringify(using.body.data)).not.toContain('他司收费');
    // a stopped type leaves the using list
    await t.call(demo, { method: 'PUT', url: `${Y}/ChargingType/Detail`, payload: { id, name: `${name}改`, chargeType: 2, status: 0 } });
    const after = await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/GetAllUsingList_All` });
    expect(after.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await t.call(demo, { method: 'DELETE', url: `${Y}/ChargingType/Detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/Detail?id=${id}` })).status).toBe(404);
  });

  it('GetChargeTypeEnum answers the five categories in Chinese', async () => {
    const r = await t.call(demo, { method: 'GET', url: `${Y}/GetChargeTypeEnum` });
    expect(r.body.data).toEqual([
      { value: 1, label: '电费' }, { value: 2, label: '水费' }, { value: 3, label: '物业费' }, { value: 4, label: '公摊费' }, { value: 5, label: '其他' },
    ]);
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await count(`SELECT count(*) AS n FROM charging_types`);
    const a = await t.call(demo, { method: 'POST', url: `${Y}/ChargingType/Detail`, payload: { name: uniq('x'), chargeType: 9 } });
    expect(a.status).toBe(400);
    expect(a.body.message).toContain('参数「chargeType」');
    const b = await t.call(demo, { method: 'POST', url: `${Y}/ChargingType/Detail`, payload: { name: '', chargeType: 1 } });
    expect(b.status).toBe(400);
    expect(b.body.message).toContain('参数「name」');
    expect(await count(`SELECT count(*) AS n FROM charging_types`)).toBe(before);
  });

  it('a duplicate name → 409; unknown id → 404; in use → refused', async () => {
    const name = uniq('商铺用电');
    const id = await newChargingType(name);
    const dup = await t.call(demo, { method: 'POST', url: `${Y}/ChargingType/Detail`, payload: { name, chargeType: 2 } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`收费类型名称「${name}」已存在`);
    expect((await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/Detail?id=99999999` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${Y}/ChargingType/Detail`, payload: { id: 99999999, name: 'x', chargeType: 1 } })).status).toBe(404);
    await newRoom({ chargingTypeId: id });
    const d = await t.call(demo, { method: 'DELETE', url: `${Y}/ChargingType/Detail`, payload: { ids: [id] } });
    expect(d.status).toBe(409);
    expect(d.body.message).toBe('该收费类型已被 1 个房间使用，不能删除');
    expect(await count(`SELECT count(*) AS n FROM charging_types WHERE id = $1`, [id])).toBe(1);
  });

  it("another company's charging type is invisible and untouchable", async () => {
    const id = other.chargingTypeId;
    expect((await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/Detail?id=${id}` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${Y}/ChargingType/Detail`, payload: { id, name: 'hacked', chargeType: 1 } })).status).toBe(404);
    expect((await t.call(demo, { method: 'DELETE', url: `${Y}/ChargingType/Detail`, payload: { ids: [id] } })).status).toBe(404);
    const l = await t.call(demo, { method: 'GET', url: `${Y}/ChargingType/List?index=1&size=1000` });
    expect(JSON.stringify(l.body)).not.toContain('他司收费');
    expect((await t.owner.query(`SELECT name FROM charging_types WHERE id = $1`, [id])).rows[0].name).toBe('他司收费');
  });

  it('without the page: 403', async () => {
    for (const [method, url] of [
      ['GET', `${Y}/ChargingType/List`], ['GET', `${Y}/ChargingType/Detail?id=1`], ['GET', `${Y}/ChargingType/GetAllUsingList_All`],
      ['GET', `${Y}/GetChargeTypeEnum`], ['POST', `${Y}/ChargingType/Detail`], ['PUT', `${Y}/ChargingType/Detail`], ['DELETE', `${Y}/ChargingType/Detail`],
    ] as const) {
      const r = await t.call(reader, { method, url, payload: method === 'GET' ? undefined : { id: 1, ids: [1], name: 'x', chargeType: 1 } });
      expect(r.status, `${method} ${url}`).toBe(403);
    }
  });
});

describe('RoomInfo', () => {
  it('create → list under the area with joins → detail → edit → delete', async () => {
    const ct = await newChargingType();
    const name = uniq('房');
    const c = await t.call(demo, {
      method: 'POST', url: `${Y}/RoomInfo/Detail`,
      payload: { name, areaId: floorA, decoration: 2, orientation: 4, chargingTypeId: ct, sizeM2: '56.5', memo: '临街' },
    });
    expect(c.body.code).toBe('SUCCESS');
    const Id = c.body.data.Id;
    const l = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=10&searchArea=${park}&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({
      Id, name, areaId: floorA, decoration: 2, orientation: 4, chargingTypeId: ct, sizeM2: '56.5', memo: '临街', status: 1,
      ownerId: null, ownerName: null, meterCount: 0,
    });
    expect(l.body.data[0].areaName).toMatch(/^阳光园区\/1号楼\/\d层$/);
    const g = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` });
    expect(g.body.data).toMatchObject({ Id, name, chargingTypeId: ct });
    expect(g.body.data.chargingTypeName).toBeTruthy();

    const u = await t.call(demo, { method: 'PUT', url: `${Y}/RoomInfo/Detail`, payload: { Id, name: `${name}改`, areaId: floorA, decoration: 0 } });
    expect(u.body.code).toBe('SUCCESS');
    const g2 = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` });
    expect(g2.body.data).toMatchObject({ name: `${name}改`, decoration: 0, orientation: 0, chargingTypeId: null, sizeM2: '', memo: '' });

    // the id is the path's, whatever JSON body a client sends along (`{}` here)
    expect((await t.call(demo, { method: 'DELETE', url: `${Y}/RoomInfo/Detail/${Id}`, payload: {} })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` })).status).toBe(404);
    const audit = await t.owner.query(`SELECT target FROM audit_log WHERE path = '/yewu/api/RoomInfo/Detail/:id' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0].target).toContain(`${name}改`);
  });

  it('moving a room to another floor carries its meters along', async () => {
    const Id = await newRoom();
    const address = String(Date.now()).slice(-12).padStart(12, '0');
    await t.owner.query(`INSERT INTO meters (company_id, room_id, kind, plan, address) VALUES ($1, $2, 1, 0, $3)`, [demoCompany, Id, address]);
    expect(Number((await t.owner.query(`SELECT area_id FROM meters WHERE address = $1`, [address])).rows[0].area_id)).toBe(floorA);
    const name = (await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` })).body.data.name;
    const u = await t.call(demo, { method: 'PUT', url: `${Y}/RoomInfo/Detail`, payload: { Id, name, areaId: floorB } });
    expect(u.body.code).toBe('SUCCESS');
    expect(Number((await t.owner.query(`SELECT area_id FROM meters WHERE address = $1`, [address])).rows[0].area_id)).toBe(floorB);
    const g = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` });
    expect(g.body.data).toMatchObject({ areaId: floorB, meterCount: 1 });
    // a room with meters is not deleted
    const d = await t.call(demo, { method: 'DELETE', url: `${Y}/RoomInfo/Detail/${Id}` });
    expect(d.status).toBe(409);
    expect(d.body.message).toBe(`房间「${name}」下还有 1 块表具，请先删除或移走表具`);
    expect(await count(`SELECT count(*) AS n FROM rooms WHERE id = $1`, [Id])).toBe(1);
  });

  it('a room someone lives in is not deleted', async () => {
    const occupied = (await t.owner.query(
      `SELECT r.id, r.name, o.name AS owner FROM rooms r JOIN owners o ON o.room_id = r.id AND o.status = 1 WHERE r.company_id = $1 LIMIT 1`, [demoCompany],
    )).rows[0];
    const d = await t.call(demo, { method: 'DELETE', url: `${Y}/RoomInfo/Detail/${occupied.id}` });
    expect(d.status).toBe(409);
    expect(d.body.message).toBe(`房间「${occupied.name}」有在住业主「${occupied.owner}」，请先办理迁出`);
  });

  it('searches by owner name and phone; the room shows its owner', async () => {
    const o = (await t.owner.query(
      `SELECT o.name, o.phone, o.room_id FROM owners o WHERE o.company_id = $1 AND o.status = 1 ORDER BY o.id LIMIT 1`, [demoCompany],
    )).rows[0];
    const byPhone = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=50&ownerPhone=${o.phone}` });
    expect(byPhone.body.count).toBe(1);
    expect(byPhone.body.data[0]).toMatchObject({ Id: Number(o.room_id), ownerName: o.name, ownerPhone: o.phone });
    const byName = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=500&ownerName=${encodeURIComponent(o.name)}` });
    const expected = await count(`SELECT count(*) AS n FROM owners WHERE company_id = $1 AND status = 1 AND room_id IS NOT NULL AND name ILIKE $2`, [demoCompany, `%${o.name}%`]);
    expect(byName.body.count).toBe(expected);
    expect(byName.body.data.every((r: { ownerName: string }) => r.ownerName.includes(o.name))).toBe(true);
  });

  it('pages floor by floor (area, then id) from either end alike; totals match the rooms', async () => {
    const all = (await t.owner.query(`SELECT id FROM rooms WHERE company_id = $1 ORDER BY area_id, id`, [demoCompany])).rows.map((r) => Number(r.id));
    const size = 7;
    const pages = Math.ceil(all.length / size);
    const seen: number[] = [];
    for (let index = 1; index <= pages; index++) {
      const r = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=${index}&size=${size}` });
      expect(r.body.count).toBe(all.length);
      seen.push(...r.body.data.map((x: { Id: number }) => x.Id));
    }
    expect(seen).toEqual(all);
    const beyond = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=${pages + 1}&size=${size}` });
    expect(beyond.body).toMatchObject({ data: [], count: all.length });
    // area filter: that area and below, total from the counters equals a real count
    const sub = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=1000&searchArea=${floorB}` });
    expect(sub.body.count).toBe(await count(`SELECT count(*) AS n FROM rooms WHERE area_id = $1`, [floorB]));
    expect(sub.body.data.every((r: { areaId: number }) => r.areaId === floorB)).toBe(true);
    const status = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=1&status=1` });
    expect(status.body.count).toBe(await count(`SELECT count(*) AS n FROM rooms WHERE company_id = $1 AND status = 1`, [demoCompany]));
    // a filtered list pages the same way, its back half read from the end
    const active = (await t.owner.query(`SELECT id FROM rooms WHERE company_id = $1 AND status = 1 ORDER BY area_id, id`, [demoCompany])).rows.map((r) => Number(r.id));
    const n = active.length;
    const lastPage = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=${Math.ceil(n / 50)}&size=50&status=1` });
    expect(lastPage.body.data.map((x: { Id: number }) => x.Id)).toEqual(active.slice((Math.ceil(n / 50) - 1) * 50));
    const firstPage = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=50&status=1` });
    expect(firstPage.body.data.map((x: { Id: number }) => x.Id)).toEqual(active.slice(0, 50));
  });

  it('getNoUserRoom lists the rooms nobody lives in', async () => {
    const Id = await newRoom();
    const r = await t.call(demo, { method: 'GET', url: `${Y}/getNoUserRoom?index=1&size=1000` });
    const vacant = await count(
      `SELECT count(*) AS n FROM rooms r WHERE r.company_id = $1 AND NOT EXISTS (SELECT 1 FROM owners o WHERE o.room_id = r.id AND o.status = 1)`, [demoCompany],
    );
    expect(r.body.count).toBe(vacant);
    const ids = r.body.data.map((x: { Id: number }) => x.Id);
    expect(ids).toContain(Id);
    expect(r.body.data.every((x: { ownerId: number | null }) => x.ownerId === null)).toBe(true);
  });

  it('enums answer Chinese labels', async () => {
    const d = await t.call(demo, { method: 'GET', url: `${Y}/GetDecorationEnum` });
    expect(d.body.data).toEqual([{ value: 0, label: '毛坯' }, { value: 1, label: '简装' }, { value: 2, label: '精装' }, { value: 3, label: '豪装' }]);
    const o = await t.call(demo, { method: 'GET', url: `${Y}/GetOrientationEnum` });
    expect(o.body.data.map((x: { label: string }) => x.label)).toEqual(['东', '南', '西', '北', '东南', '东北', '西南', '西北', '南北通透']);
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await count(`SELECT count(*) AS n FROM rooms`);
    const cases: [Record<string, unknown>, string][] = [
      [{ areaId: floorA }, 'name'],
      [{ name: uniq('R') }, 'areaId'],
      [{ name: uniq('R'), areaId: floorA, decoration: 99 }, 'decoration'],
      [{ name: uniq('R'), areaId: floorA, orientation: 'x' }, 'orientation'],
      [{ name: uniq('R'), areaId: floorA, sizeM2: '12.345' }, 'sizeM2'],
      [{ name: 'x'.repeat(65), areaId: floorA }, 'name'],
      [{ name: uniq('R'), areaId: other.areaId }, 'areaId'],
      [{ name: uniq('R'), areaId: floorA, chargingTypeId: other.chargingTypeId }, 'chargingTypeId'],
    ];
    for (const [payload, field] of cases) {
      const r = await t.call(demo, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message, JSON.stringify(payload)).toContain(`参数「${field}」`);
    }
    const put = await t.call(demo, { method: 'PUT', url: `${Y}/RoomInfo/Detail`, payload: { name: 'x', areaId: floorA } });
    expect(put.status).toBe(400);
    expect(put.body.message).toContain('参数「Id」');
    // a negative area is refused in Chinese, never stored as 0 (issue 15)
    for (const sizeM2 of ['-5', -5]) {
      const neg = await t.call(demo, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload: { name: uniq('R'), areaId: floorA, sizeM2 } });
      expect(neg.status).toBe(400);
      expect(neg.body.message).toContain('面积（㎡）不能小于 0');
    }
    expect(await count(`SELECT count(*) AS n FROM rooms`)).toBe(before);
  });

  it('a duplicate name in the same area → 409; the same name elsewhere is fine', async () => {
    const name = uniq('同名');
    await newRoom({ name });
    const dup = await t.call(demo, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload: { name, areaId: floorA } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(new RegExp(`下已有房间「${name}」$`));
    await newRoom({ name, areaId: floorB });
  });

  it('unknown id → 404', async () => {
    expect((await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=99999999` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${Y}/RoomInfo/Detail`, payload: { Id: 99999999, name: 'x', areaId: floorA } })).status).toBe(404);
    const d = await t.call(demo, { method: 'DELETE', url: `${Y}/RoomInfo/Detail/99999999` });
    expect(d.status).toBe(404);
    expect(d.body.message).toBe('房间不存在或无权查看');
  });

  it("another company's room is invisible and untouchable", async () => {
    const Id = other.roomId;
    expect((await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${Id}` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${Y}/RoomInfo/Detail`, payload: { Id, name: 'hacked', areaId: floorA } })).status).toBe(404);
    expect((await t.call(demo, { method: 'DELETE', url: `${Y}/RoomInfo/Detail/${Id}` })).status).toBe(404);
    const l = await t.call(demo, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=1000&searchArea=${other.areaId}` });
    expect(l.body).toMatchObject({ data: [], count: 0 });
    expect((await t.owner.query(`SELECT name FROM rooms WHERE id = $1`, [Id])).rows[0].name).toBe('他司房间');
  });

  it('without the page: 403; with the page but without room.basic: read only', async () => {
    for (const [method, url] of [
      ['GET', `${Y}/RoomInfo/GetAllChildRoom`], ['GET', `${Y}/RoomInfo/Detail?Id=1`], ['GET', `${Y}/getNoUserRoom`],
      ['GET', `${Y}/GetDecorationEnum`], ['GET', `${Y}/GetOrientationEnum`],
      ['POST', `${Y}/RoomInfo/Detail`], ['PUT', `${Y}/RoomInfo/Detail`], ['DELETE', `${Y}/RoomInfo/Detail/1`],
    ] as const) {
      const r = await t.call(reader, { method, url, payload: method === 'GET' ? undefined : { Id: 1, name: 'x', areaId: floorA } });
      expect(r.status, `${method} ${url}`).toBe(403);
    }
    const role = await makeRole(t.owner, demoCompany, ['recordsRoom'], []);
    const u = await makeUser(t.owner, { companyId: demoCompany, roleId: role });
    const token = await t.login(u.username, u.password);
    expect((await t.call(token, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom` })).body.code).toBe('SUCCESS');
    const before = await count(`SELECT count(*) AS n FROM rooms`);
    const w = await t.call(token, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload: { name: uniq('R'), areaId: floorA } });
    expect(w.status).toBe(403);
    expect(await count(`SELECT count(*) AS n FROM rooms`)).toBe(before);
  });

  it('a user bound to one floor sees and counts only its rooms', async () => {
    const role = await makeRole(t.owner, demoCompany, ['recordsRoom'], ['room.basic']);
    const u = await makeUser(t.owner, { companyId: demoCompany, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, floorB, demoCompany]);
    const token = await t.login(u.username, u.password);
    const l = await t.call(token, { method: 'GET', url: `${Y}/RoomInfo/GetAllChildRoom?index=1&size=1000` });
    expect(l.body.count).toBe(await count(`SELECT count(*) AS n FROM rooms WHERE area_id = $1`, [floorB]));
    expect(l.body.data.length).toBe(l.body.count);
    expect(l.body.data.every((r: { areaId: number }) => r.areaId === floorB)).toBe(true);
    // a room of another floor: not found; a room on another floor cannot be created
    const elsewhere = (await t.owner.query(`SELECT id FROM rooms WHERE area_id = $1 LIMIT 1`, [floorA])).rows[0].id;
    expect((await t.call(token, { method: 'GET', url: `${Y}/RoomInfo/Detail?Id=${elsewhere}` })).status).toBe(404);
    const c = await t.call(token, { method: 'POST', url: `${Y}/RoomInfo/Detail`, payload: { name: uniq('R'), areaId: floorA } });
    expect(c.status).toBe(400);
  });
});
