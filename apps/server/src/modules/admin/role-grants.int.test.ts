import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeCompany, makeBuiltinRole, makeRole, makeUser } from '../../../test/factories.ts';

// Migration 0039: a built-in 管理员 role made before 日结/交班 and 作废/冲正 existed gets their page and
// operation keys, so the company's administrator can open /dailyClose and void a receipt; a role the
// company made itself keeps exactly what it was given.

let t: TestApp;
let companyId: number;
let oldBuiltin: number;
let own: number;
const OLD_ROUTES = ['home', 'systemRole', 'billprint'];
const OLD_OPS = ['finance.prepay', 'finance.refund'];

const migrate = async () => {
  const sql = fs.readFileSync(path.resolve(import.meta.dirname, '../../db/migrations/0039_builtin_role_grants.sql'), 'utf8');
  for (const s of sql.split('--> statement-breakpoint')) await t.owner.query(s);
};
const role = async (id: number) =>
  (await t.owner.query<{ routes: string[]; operations: string[] }>('SELECT routes, operations FROM roles WHERE id = $1', [id])).rows[0];

beforeAll(async () => {
  t = await testApp();
  companyId = await makeCompany(t.owner);
  oldBuiltin = await makeBuiltinRole(t.owner, companyId, OLD_ROUTES, OLD_OPS);
  own = await makeRole(t.owner, companyId, OLD_ROUTES, OLD_OPS);
});
afterAll(() => t.close());

const days = (token: string) => t.call(token, { method: 'GET', url: '/yewu/api/DailyClosing/List?index=1&size=10' });

describe('migration 0039: built-in administrator roles get the finance-day keys', () => {
  let token: string;
  it('before it, the administrator of an older company is refused the daily closing', async () => {
    const u = await makeUser(t.owner, { companyId, roleId: oldBuiltin });
    token = await t.login(u.username, u.password);
    expect((await days(token)).status).toBe(403);
  });

  it('grants 日结交班 and the finance operations once; a company-made role is untouched', async () => {
    await migrate();
    await migrate(); // applied twice (a re-run) it adds nothing more
    const b = await role(oldBuiltin);
    expect(b.routes.sort()).toEqual([...OLD_ROUTES, 'dailyClose'].sort());
    expect(b.operations.sort()).toEqual([...OLD_OPS, 'finance.dailyClose', 'finance.reverse', 'finance.withdraw'].sort());
    const o = await role(own);
    expect(o.routes.sort()).toEqual([...OLD_ROUTES].sort());
    expect(o.operations.sort()).toEqual([...OLD_OPS].sort());
  });

  it('after it, the same administrator opens the daily closing', async () => {
    const r = await days(token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body as { code: string }).code).toBe('SUCCESS');
  });
});
