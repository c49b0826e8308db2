import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeCompany, makeBuiltinRole, makeRole, makeUser } from '../../../test/factories.ts';

// A company admin cannot lock the company out (issue 12 §6): a role PUT changes only what it names,
// the built-in 管理员 role keeps the administration pages, nobody changes their own role.

let t: TestApp;
let companyId: number;
let builtinRole: number;
let subRole: number;
let admin: { id: number; token: string };
let sub: { id: number; token: string };
const ALL_ROUTES = ROUTES.filter((r) => r.access === undefined).map((r) => r.key);
const R = '/yonghu/api/admin/role';
const U = '/yonghu/api/admin/user';

beforeAll(async () => {
  t = await testApp();
  companyId = await makeCompany(t.owner);
  builtinRole = await makeBuiltinRole(t.owner, companyId, ALL_ROUTES, OPERATION_KEYS);
  subRole = await makeRole(t.owner, companyId, ['home', 'systemRole', 'systemRecords']);
  const a = await makeUser(t.owner, { companyId, roleId: builtinRole });
  const s = await makeUser(t.owner, { companyId, roleId: subRole });
  admin = { id: a.id, token: await t.login(a.username, a.password) };
  sub = { id: s.id, token: await t.login(s.username, s.password) };
});
afterAll(() => t.close());

const role = async (id: number) => (await t.owner.query('SELECT name, memo, routes, operations FROM roles WHERE id = $1', [id])).rows[0];
const userRole = async (id: number) => Number((await t.owner.query('SELECT role_id FROM admin_users WHERE id = $1', [id])).rows[0].role_id);

describe('a company admin cannot lock the company out', () => {
  it('PUT role with only a name keeps its pages and operations (missing fields were emptied)', async () => {
    const before = await role(builtinRole);
    const r = await t.call(admin.token, { method: 'PUT', url: `${R}?id=${builtinRole}`, payload: { name: '管理员' } });
    expect(r.body.code).toBe('SUCCESS');
    expect(await role(builtinRole)).toEqual(before);
    const other = await makeRole(t.owner, companyId, ['home', 'energy'], ['finance.prepay']);
    await t.call(admin.token, { method: 'PUT', url: `${R}?id=${other}`, payload: { memo: '柜台' } });
    expect(await role(other)).toMatchObject({ memo: '柜台', routes: ['home', 'energy'], operations: ['finance.prepay'] });
  });

  it('nobody changes the pages or operations of the role they hold', async () => {
    const before = await role(builtinRole);
    const r = await t.call(admin.token, { method: 'PUT', url: `${R}?id=${builtinRole}`, payload: { routes: ['home'], operations: [] } });
    expect(r.body).toMatchObject({ code: 'SELF_ROLE', message: '不能修改自己所属角色的权限' });
    const s = await t.call(sub.token, { method: 'PUT', url: `${R}?id=${subRole}`, payload: { routes: ['home'] } });
    expect(s.body.code).toBe('SELF_ROLE');
    expect(await role(builtinRole)).toEqual(before);
  });

  it('the built-in role keeps account and role administration', async () => {
    const before = await role(builtinRole);
    for (const routes of [[], ['home'], ALL_ROUTES.filter((k) => k !== 'systemRecords')]) {
      const r = await t.call(sub.token, { method: 'PUT', url: `${R}?id=${builtinRole}`, payload: { name: '管理员', routes, operations: [] } });
      expect(r.body).toMatchObject({ code: 'ROLE_BUILTIN', message: '内置管理员角色须保留角色管理与账号管理权限' });
    }
    expect(await role(builtinRole)).toEqual(before);
    // other pages may be taken from it
    const ok = await t.call(sub.token, { method: 'PUT', url: `${R}?id=${builtinRole}`, payload: { routes: ['home', 'systemRole', 'systemRecords'] } });
    expect(ok.body.code).toBe('SUCCESS');
    await t.owner.query('UPDATE roles SET routes = $2 WHERE id = $1', [builtinRole, before.routes]);
  });

  it('nobody changes their own role; an edit without roleId keeps the role', async () => {
    for (const roleId of [subRole, null]) {
      const r = await t.call(admin.token, { method: 'PUT', url: `${U}?id=${admin.id}`, payload: { realName: '管理员', roleId } });
      expect(r.body).toMatchObject({ code: 'SELF_ROLE', message: '不能修改自己账号的角色' });
    }
    expect(await userRole(admin.id)).toBe(builtinRole);
    const keep = await t.call(admin.token, { method: 'PUT', url: `${U}?id=${admin.id}`, payload: { realName: '新名字' } });
    expect(keep.body.code).toBe('SUCCESS');
    expect(await userRole(admin.id)).toBe(builtinRole);
    // and the admin still administers
    expect((await t.call(admin.token, { method: 'GET', url: `${R}/list` })).status).toBe(200);
    expect((await t.call(admin.token, { method: 'GET', url: `${U}/list` })).status).toBe(200);
  });
});
