import { describe, expect, it } from 'vitest';
import { fileApp, demoCompanyId } from '../../../test/helpers.ts';
import { makeArea, makeAreaTree, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// The area archive (/recordsArea): the paged child list, create/edit/delete, and the V2 tree.
const t = await fileApp();
const [reader, admin] = await t.signIn('reader', 'admin');
const demoCompany: number = await demoCompanyId(t.owner);

const A = '/yewu/api/Area';
const n = async (sql: string, p: unknown[] = []) => Number((await t.owner.query(sql, p)).rows[0].n);

/** A company with its own staff user (all archive pages) and a small tree. */
async function company() {
  const id = await makeCompany(t.owner);
  const role = await makeRole(t.owner, id, ['recordsArea', 'systemRecords'], []);
  const u = await makeUser(t.owner, { companyId: id, roleId: role });
  const token = await t.login(u.username, u.password);
  return { id, token, user: u, ...(await makeAreaTree(t.owner, id)) };
}

describe('Area/Detail and GetAllChildArea', () => {
  it('create a child (deep from the parent) → list → edit → delete', async () => {
    const c = await company();
    const name = uniq('3号楼');
    const r = await t.call(c.token, {
      method: 'POST',
      url: `${A}/Detail`,
      payload: { name, parentId: c.park, areaType: 0, province: '广东省', city: '深圳市', district: '南山区', town: '粤海街道', sort: 3 },
    });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { deep: 1 } });
    const id = r.body.data.id;
    const row = (await t.owner.query('SELECT company_id, parent_id, deep, province, town FROM areas WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ company_id: c.id, parent_id: c.park, deep: 1, province: '广东省', town: '粤海街道' });

    const l = await t.call(c.token, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=50&searchArea=${c.park}` });
    expect(l.body.code).toBe('SUCCESS');
    expect(l.body.count).toBe(4);
    // tree order: each area after its parent, siblings by sort
    expect(l.body.data.map((x: { name: string }) => x.name)).toEqual(['1号楼', '1层', '2号楼', name]);
    const mine = l.body.data.find((x: { id: number }) => x.id === id);
    expect(mine).toMatchObject({ title: name, parentId: c.park, parentName: '园区', deep: 1, areaType: 0, areaTypeName: '普通区域', address: '广东省深圳市南山区粤海街道', companyID: c.id, childCount: 0, roomCount: 0 });
    const b1 = l.body.data.find((x: { id: number }) => x.id === c.b1);
    expect(b1.childCount).toBe(1);

    const all = await t.call(c.token, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=2` });
    expect(all.body.count).toBe(5);
    expect(all.body.data.map((x: { name: string }) => x.name)).toEqual(['园区', '1号楼']);
    const byName = await t.call(c.token, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=10&name=${encodeURIComponent('号楼')}` });
    expect(byName.body.count).toBe(3);

    // move the new building under 2号楼: its level follows
    const u = await t.call(c.token, { method: 'PUT', url: `${A}/Detail`, payload: { id, name: `${name}改`, parentId: c.b2, areaType: 1 } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.owner.query('SELECT name, deep, area_type, province FROM areas WHERE id = $1', [id])).rows[0]).toEqual({ name: `${name}改`, deep: 2, area_type: 1, province: '' });

    const d = await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${id}` });
    expect(d.body.code).toBe('SUCCESS');
    expect(await n('SELECT count(*)::int AS n FROM areas WHERE id = $1', [id])).toBe(0);
  });

  it('moving an area moves the levels of everything below it', async () => {
    const c = await company();
    // 1号楼 (with 1层 below) goes to the top
    const r = await t.call(c.token, { method: 'PUT', url: `${A}/Detail`, payload: { id: c.b1, name: '1号楼', parentId: null } });
    expect(r.body.code).toBe('SUCCESS');
    const rows = (await t.owner.query('SELECT id, deep FROM areas WHERE id = ANY($1) ORDER BY deep', [[c.b1, c.f1]])).rows;
    expect(rows.map((x) => x.deep)).toEqual([0, 1]);
  });

  it('refuses a parent that is itself or below it', async () => {
    const c = await company();
    for (const parentId of [c.b1, c.f1]) {
      const r = await t.call(c.token, { method: 'PUT', url: `${A}/Detail`, payload: { id: c.b1, name: '1号楼', parentId } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('参数「parentId」');
    }
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const c = await company();
    const before = await n('SELECT count(*)::int AS n FROM areas WHERE company_id = $1', [c.id]);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ name: '甲', areaType: 3 }, 'areaType'],
      [{ name: '甲', parentId: 'abc' }, 'parentId'],
      [{ name: '甲', parentId: 99999999 }, 'parentId'],
      [{ name: '甲', province: '', city: '深圳市' }, 'province'],
      [{ name: '甲', sort: -2 }, 'sort'],
    ];
    for (const [payload, field] of cases) {
      const r = await t.call(c.token, { method: 'POST', url: `${A}/Detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toContain(`参数「${field}」`);
    }
    expect(await n('SELECT count(*)::int AS n FROM areas WHERE company_id = $1', [c.id])).toBe(before);
  });

  it('a duplicate name under the same parent → 409', async () => {
    const c = await company();
    const r = await t.call(c.token, { method: 'POST', url: `${A}/Detail`, payload: { name: '2号楼', parentId: c.park } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('「园区」下已存在名为「2号楼」的区域');
    // the same name under another parent is fine
    expect((await t.call(c.token, { method: 'POST', url: `${A}/Detail`, payload: { name: '2号楼', parentId: c.b1 } })).body.code).toBe('SUCCESS');
  });

  it('unknown id → 404', async () => {
    const c = await company();
    expect((await t.call(c.token, { method: 'PUT', url: `${A}/Detail`, payload: { id: 99999999, name: 'x' } })).status).toBe(404);
    expect((await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/99999999` })).status).toBe(404);
  });

  it('refuses deleting an area with children, rooms or bound accounts — and says which', async () => {
    const c = await company();
    const withChildren = await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${c.b1}` });
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.message).toBe('区域「1号楼」下还有下级区域 1 个，请先删除或移走后再删除');
    await makeRoom(t.owner, c.id, c.f1, '101');
    await makeRoom(t.owner, c.id, c.f1, '102');
    const withRooms = await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${c.f1}` });
    expect(withRooms.status).toBe(409);
    expect(withRooms.body.message).toContain('房间 2 间');
    // (a meter's area is its room's, so rooms cover meters; a collector hangs on an area directly)
    await t.owner.query(`INSERT INTO collectors (company_id, area_id, name, imei) VALUES ($1, $2, '集中器', $3)`, [c.id, c.b2, `86${String(Date.now()).slice(-13)}`]);
    const withCollector = await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${c.b2}` });
    expect(withCollector.status).toBe(409);
    expect(withCollector.body.message).toBe('区域「2号楼」下还有采集器 1 台，请先删除或移走后再删除');
    const bound = await makeArea(t.owner, c.id, '绑定区', c.park, 1);
    const u = await makeUser(t.owner, { companyId: c.id });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, bound, c.id]);
    const b = await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${bound}` });
    expect(b.status).toBe(409);
    expect(b.body.message).toContain('已绑定给账号');
    expect(await n('SELECT count(*)::int AS n FROM areas WHERE id = ANY($1)', [[c.b1, c.f1, c.b2, bound]])).toBe(4);
  });

  it('deleting an area takes it out of area-permission sets', async () => {
    const c = await company();
    const leaf = await makeArea(t.owner, c.id, '空区', c.park, 1);
    const { rows } = await t.owner.query(`INSERT INTO area_permissions (company_id, name, area_ids) VALUES ($1, '组', $2) RETURNING id`, [c.id, [leaf, c.b1]]);
    expect((await t.call(c.token, { method: 'DELETE', url: `${A}/Detail/${leaf}` })).body.code).toBe('SUCCESS');
    const ids = (await t.owner.query('SELECT area_ids FROM area_permissions WHERE id = $1', [rows[0].id])).rows[0].area_ids.map(Number);
    expect(ids).toEqual([c.b1]);
  });

  it('missing page permission → 403 (reader)', async () => {
    for (const [method, url, payload] of [
      ['GET', `${A}/GetAllChildArea`, undefined],
      ['GET', `${A}/GetAddressOptions`, undefined],
      ['POST', `${A}/Detail`, { name: 'x' }],
      ['PUT', `${A}/Detail`, { id: 1, name: 'x' }],
      ['DELETE', `${A}/Detail/1`, undefined],
    ] as const) {
      expect((await t.call(reader, { method, url, payload })).status, `${method} ${url}`).toBe(403);
    }
  });

  it('another company’s areas: invisible, untouchable, not a parent', async () => {
    const a = await company();
    const b = await company();
    const l = await t.call(a.token, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=100&searchArea=${b.park}` });
    expect(l.body.count).toBe(0);
    expect((await t.call(a.token, { method: 'PUT', url: `${A}/Detail`, payload: { id: b.b1, name: 'hacked' } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${A}/Detail/${b.b2}` })).status).toBe(404);
    const p = await t.call(a.token, { method: 'POST', url: `${A}/Detail`, payload: { name: 'x', parentId: b.park } });
    expect(p.status).toBe(400);
    expect(await n(`SELECT count(*)::int AS n FROM areas WHERE company_id = $1 AND name = '2号楼'`, [b.id])).toBe(1);
  });

  it('a user bound to a building works below it only', async () => {
    const c = await company();
    const role = await makeRole(t.owner, c.id, ['recordsArea'], []);
    const u = await makeUser(t.owner, { companyId: c.id, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, c.b1, c.id]);
    const tok = await t.login(u.username, u.password);
    const l = await t.call(tok, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=50` });
    expect(l.body.data.map((x: { name: string }) => x.name)).toEqual(['1号楼', '1层']);
    const top = await t.call(tok, { method: 'POST', url: `${A}/Detail`, payload: { name: '新园区' } });
    expect(top.body.code).toBe('AREA_SCOPE');
    const child = await t.call(tok, { method: 'POST', url: `${A}/Detail`, payload: { name: '2层', parentId: c.b1 } });
    expect(child.body).toMatchObject({ code: 'SUCCESS', data: { deep: 2 } });
    // editing the bound root without its (invisible) parent keeps it where it is
    const e = await t.call(tok, { method: 'PUT', url: `${A}/Detail`, payload: { id: c.b1, name: '1号楼A' } });
    expect(e.body.code).toBe('SUCCESS');
    expect((await t.owner.query('SELECT parent_id, deep, name FROM areas WHERE id = $1', [c.b1])).rows[0]).toEqual({ parent_id: c.park, deep: 1, name: '1号楼A' });
  });

  it('platform admin: a picked company, or the parent’s company', async () => {
    const c = await company();
    const noPick = await t.call(admin, { method: 'POST', url: `${A}/Detail`, payload: { name: '无单位' } });
    expect(noPick.body.code).toBe('COMPANY_REQUIRED');
    const viaParent = await t.call(admin, { method: 'POST', url: `${A}/Detail`, payload: { name: '平台建', parentId: c.park } });
    expect(viaParent.body.code).toBe('SUCCESS');
    const picked = await t.call(admin, { method: 'POST', url: `${A}/Detail?searchCompanyID=${c.id}`, payload: { name: '平台顶级' } });
    expect(picked.body.code).toBe('SUCCESS');
    expect(await n(`SELECT count(*)::int AS n FROM areas WHERE company_id = $1 AND name IN ('平台建', '平台顶级')`, [c.id])).toBe(2);
    const l = await t.call(admin, { method: 'GET', url: `${A}/GetAllChildArea?index=1&size=100&searchCompanyID=${c.id}` });
    expect(l.body.data.every((x: { companyID: number }) => x.companyID === c.id)).toBe(true);
    expect(l.body.data[0].companyName).toBeTruthy();
  });

  it('GetAddressOptions lists the addresses in use', async () => {
    const c = await company();
    await t.call(c.token, { method: 'POST', url: `${A}/Detail`, payload: { name: '地址', province: '浙江省', city: '杭州市', district: '西湖区' } });
    const r = await t.call(c.token, { method: 'GET', url: `${A}/GetAddressOptions` });
    expect(r.body.data).toEqual([{ province: '浙江省', city: '杭州市', district: '西湖区', town: '' }]);
  });
});

describe('GetAreaTreeNoRoomV2', () => {
  it('keeps grouping nodes but makes only areaType 0 selectable', async () => {
    const c = await company();
    await t.owner.query('UPDATE areas SET area_type = 1 WHERE id = $1', [c.b2]);
    const r = await t.call(c.token, { method: 'GET', url: '/yewu/api/GetAreaTreeNoRoomV2' });
    const park = r.body.data[0];
    expect(park).toMatchObject({ name: '园区', selectable: true, expand: true, deep: 0, Parent: null });
    const b2 = park.children.find((x: { id: number }) => x.id === c.b2);
    expect(b2).toMatchObject({ selectable: false, disableCheckbox: true });
    void demoCompany;
  });
});
