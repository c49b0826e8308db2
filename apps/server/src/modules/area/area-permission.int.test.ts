import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { makeAreaTree, makeCompany, makeRole, makeUser, uniq } from '../../../test/factories.ts';

// AreaPermission (named area sets), binding admin users to areas, and the two user trees.
const t = await fileApp();
const [reader, admin] = await t.signIn('reader', 'admin');

const P = '/yewu/api/AreaPermission';
const Y = '/yewu/api';
const bound = async (userId: number) =>
  (await t.owner.query('SELECT area_id FROM user_areas WHERE user_id = $1 ORDER BY area_id', [userId])).rows.map((r) => Number(r.area_id));

async function company() {
  const id = await makeCompany(t.owner);
  const role = await makeRole(t.owner, id, ['systemRecords', 'recordsArea', 'home'], []);
  const manager = await makeUser(t.owner, { companyId: id, roleId: role });
  const token = await t.login(manager.username, manager.password);
  const tree = await makeAreaTree(t.owner, id);
  const staff = await makeUser(t.owner, { companyId: id, roleId: role });
  return { id, token, manager, staff, role, ...tree };
}

describe('AreaPermission CRUD', () => {
  it('create → list → detail → update → GetUsingList → delete', async () => {
    const c = await company();
    const name = uniq('一号楼权限');
    const r = await t.call(c.token, { method: 'POST', url: `${P}/Detail`, payload: { name, areaIds: [c.b1, String(c.f1), c.b1], memo: '备注' } });
    expect(r.body.code).toBe('SUCCESS');
    const id = r.body.data.id;
    const row = (await t.owner.query('SELECT area_ids, status, company_id FROM area_permissions WHERE id = $1', [id])).rows[0];
    expect({ ...row, area_ids: row.area_ids.map(Number) }).toEqual({ area_ids: [c.b1, c.f1].sort((a, b) => a - b), status: 1, company_id: c.id });
    const l = await t.call(c.token, { method: 'GET', url: `${P}/List?index=1&size=10&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, name, areaNames: ['1号楼', '1层'] });
    expect((await t.call(c.token, { method: 'GET', url: `${P}/Detail?id=${id}` })).body.data.name).toBe(name);
    expect((await t.call(c.token, { method: 'GET', url: `${P}/GetUsingList` })).body.data.map((x: { id: number }) => x.id)).toEqual([id]);
    const u = await t.call(c.token, { method: 'PUT', url: `${P}/Detail`, payload: { id, name, areaIds: [c.b2], status: 0 } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(c.token, { method: 'GET', url: `${P}/GetUsingList` })).body.data).toEqual([]);
    expect((await t.call(c.token, { method: 'DELETE', url: `${P}/Detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(c.token, { method: 'GET', url: `${P}/Detail?id=${id}` })).status).toBe(404);
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const c = await company();
    const other = await company();
    for (const [payload, field] of [
      [{ name: '', areaIds: [c.b1] }, 'name'],
      [{ name: '甲', areaIds: [] }, 'areaIds'],
      [{ name: '甲', areaIds: ['x'] }, 'areaIds'],
      [{ name: '甲', areaIds: [other.b1] }, 'areaIds'],
      [{ name: '甲', areaIds: [c.b1], status: 7 }, 'status'],
    ] as const) {
      const r = await t.call(c.token, { method: 'POST', url: `${P}/Detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toContain(`参数「${field}」`);
    }
    expect(Number((await t.owner.query('SELECT count(*) AS n FROM area_permissions WHERE company_id = $1', [c.id])).rows[0].n)).toBe(0);
  });

  it('unknown id → 404; another company’s set is invisible and untouchable', async () => {
    const a = await company();
    const b = await company();
    const { rows } = await t.owner.query(`INSERT INTO area_permissions (company_id, name, area_ids) VALUES ($1, '乙权限', $2) RETURNING id`, [b.id, [b.b1]]);
    const id = Number(rows[0].id);
    expect((await t.call(a.token, { method: 'GET', url: `${P}/Detail?id=${id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: `${P}/Detail`, payload: { id, name: 'hacked', areaIds: [a.b1] } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${P}/Detail`, payload: { ids: [id] } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'GET', url: `${P}/List?index=1&size=100` })).body.data).toEqual([]);
    expect((await t.owner.query('SELECT name FROM area_permissions WHERE id = $1', [id])).rows[0].name).toBe('乙权限');
  });

  it('missing permission → 403 (reader)', async () => {
    for (const [method, url, payload] of [
      ['GET', `${P}/List`, undefined],
      ['GET', `${P}/GetUsingList`, undefined],
      ['POST', `${P}/Detail`, { name: 'x', areaIds: [1] }],
      ['POST', `${P}/BindUser`, { userId: 1, areaIds: [1] }],
      ['GET', `${Y}/GetUserBindAreaTree?userId=1`, undefined],
      ['GET', `${Y}/GetNoUserBindAreaTreeV2?userId=1`, undefined],
    ] as const) {
      expect((await t.call(reader, { method, url, payload })).status, `${method} ${url}`).toBe(403);
    }
  });
});

describe('binding users to areas', () => {
  it('BindUser replaces, or adds with notReplace; the trees follow; the user sees only those areas', async () => {
    const c = await company();
    const r = await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.b1] } });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { areaIds: [c.b1] } });
    const tree = await t.call(c.token, { method: 'GET', url: `${Y}/GetUserBindAreaTree?userId=${c.staff.id}` });
    const park = tree.body.data[0];
    expect(park).toMatchObject({ name: '园区', checked: false, expand: true });
    expect(park.children.find((x: { id: number }) => x.id === c.b1).checked).toBe(true);

    // notReplace: the tree offers what the user cannot see yet
    const offer = await t.call(c.token, { method: 'GET', url: `${Y}/GetNoUserBindAreaTreeV2?userId=${c.staff.id}&notReplace=true` });
    const text = JSON.stringify(offer.body.data);
    expect(text).toContain('2号楼');
    expect(text).not.toContain('1号楼');
    expect(text).not.toContain('1层');
    // replace mode: everything, the bound ones checked
    const all = await t.call(c.token, { method: 'GET', url: `${Y}/GetNoUserBindAreaTreeV2?userId=${c.staff.id}&notReplace=0` });
    expect(JSON.stringify(all.body.data)).toContain('1层');
    expect(all.body.data[0].children.find((x: { id: number }) => x.id === c.b1).checked).toBe(true);
    const search = await t.call(c.token, { method: 'GET', url: `${Y}/GetNoUserBindAreaTreeV2?userId=${c.staff.id}&searchArea=${encodeURIComponent(' 1层 ')}` });
    expect(search.body.data[0].children.map((x: { name: string }) => x.name)).toEqual(['1号楼']);

    await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.b2], notReplace: true } });
    expect(await bound(c.staff.id)).toEqual([c.b1, c.b2].sort((a, b) => a - b));
    await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.f1] } });
    expect(await bound(c.staff.id)).toEqual([c.f1]);

    const staffToken = await t.login(c.staff.username, c.staff.password);
    const seen = await t.call(staffToken, { method: 'GET', url: `${Y}/GetAreaTreeNoRoom` });
    expect(seen.body.data.map((x: { name: string }) => x.name)).toEqual(['1层']);

    // an empty list lifts the restriction (the manager is not restricted)
    await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [] } });
    expect(await bound(c.staff.id)).toEqual([]);
  });

  it('binds the areas of area-permission sets', async () => {
    const c = await company();
    const { rows } = await t.owner.query(`INSERT INTO area_permissions (company_id, name, area_ids) VALUES ($1, '二号楼组', $2) RETURNING id`, [c.id, [c.b2]]);
    const r = await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaPermissionIds: [Number(rows[0].id)], areaIds: [c.f1] } });
    expect(r.body.code).toBe('SUCCESS');
    expect(await bound(c.staff.id)).toEqual([c.f1, c.b2].sort((a, b) => a - b));
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const c = await company();
    const other = await company();
    for (const [payload, field] of [
      [{ userId: 'x', areaIds: [c.b1] }, 'userId'],
      [{ userId: c.staff.id, areaIds: [other.b1] }, 'areaIds'],
      [{ userId: c.staff.id, areaIds: [-1] }, 'areaIds'],
      [{ userId: c.staff.id, areaPermissionIds: [99999999] }, 'areaPermissionIds'],
    ] as const) {
      const r = await t.call(c.token, { method: 'POST', url: `${P}/BindUser`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toContain(`参数「${field}`);
    }
    expect(await bound(c.staff.id)).toEqual([]);
  });

  it('unknown user → 404; another company’s user → 404, nothing bound', async () => {
    const a = await company();
    const b = await company();
    expect((await t.call(a.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: 99999999, areaIds: [a.b1] } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'POST', url: `${P}/BindUser`, payload: { userId: b.staff.id, areaIds: [a.b1] } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'GET', url: `${Y}/GetUserBindAreaTree?userId=${b.staff.id}` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'GET', url: `${Y}/GetNoUserBindAreaTreeV2?userId=${b.staff.id}` })).status).toBe(404);
    expect(await bound(b.staff.id)).toEqual([]);
  });

  it('a restricted manager binds only within their areas, never lifts every restriction, never their own', async () => {
    const c = await company();
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [c.manager.id, c.b1, c.id]);
    const tok = await t.login(c.manager.username, c.manager.password);
    const outside = await t.call(tok, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.b2] } });
    expect(outside.status).toBe(400);
    // the staff member is bound to 2号楼 (invisible to the manager) and 1层: replacing keeps 2号楼
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3), ($1, $4, $3)`, [c.staff.id, c.b2, c.id, c.f1]);
    const r = await t.call(tok, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.b1] } });
    expect(r.body.code).toBe('SUCCESS');
    expect(await bound(c.staff.id)).toEqual([c.b1, c.b2].sort((a, b) => a - b));
    // a staff member bound only inside the manager's areas cannot be set free by them
    const s2 = await makeUser(t.owner, { companyId: c.id, roleId: c.role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [s2.id, c.f1, c.id]);
    const free = await t.call(tok, { method: 'POST', url: `${P}/BindUser`, payload: { userId: s2.id, areaIds: [] } });
    expect(free.body.code).toBe('AREA_SCOPE');
    expect(await bound(s2.id)).toEqual([c.f1]);
    const self = await t.call(tok, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.manager.id, areaIds: [] } });
    expect(self.body.code).toBe('SELF_BIND');
    expect(await bound(c.manager.id)).toEqual([c.b1]);
  });

  it('platform admin binds a company user inside that user’s company', async () => {
    const c = await company();
    const r = await t.call(admin, { method: 'POST', url: `${P}/BindUser`, payload: { userId: c.staff.id, areaIds: [c.b2] } });
    expect(r.body.code).toBe('SUCCESS');
    const tree = await t.call(admin, { method: 'GET', url: `${Y}/GetUserBindAreaTree?userId=${c.staff.id}` });
    expect(tree.body.data.map((x: { name: string }) => x.name)).toEqual(['园区']);
    const adminId = Number((await t.owner.query(`SELECT id FROM admin_users WHERE username = 'admin'`)).rows[0].id);
    const p = await t.call(admin, { method: 'GET', url: `${Y}/GetUserBindAreaTree?userId=${adminId}` });
    expect(p.body.code).toBe('USER_NOT_BINDABLE');
  });
});
