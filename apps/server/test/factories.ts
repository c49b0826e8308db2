import type pg from 'pg';
import { hashPassword } from '../src/modules/auth/crypto.ts';

// Fixtures written with the owner connection (no RLS), so tests can arrange any tenant's data.

let seq = 0;
export const uniq = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;

export async function makeCompany(owner: pg.Pool, name = uniq('测试单位')) {
  const { rows } = await owner.query(`INSERT INTO companies (name) VALUES ($1) RETURNING id`, [name]);
  return Number(rows[0].id);
}

export async function makeRole(owner: pg.Pool, companyId: number, routes: string[], operations: string[] = [], name = uniq('角色')) {
  const { rows } = await owner.query(
    `INSERT INTO roles (company_id, name, routes, operations) VALUES ($1, $2, $3, $4) RETURNING id`,
    [companyId, name, routes, operations],
  );
  return Number(rows[0].id);
}

/** A company's built-in 管理员 role (builtin, company access), as a company's set-up creates it. */
export async function makeBuiltinRole(owner: pg.Pool, companyId: number, routes: string[], operations: string[]) {
  const { rows } = await owner.query(
    `INSERT INTO roles (company_id, name, routes, operations, builtin, access) VALUES ($1, '管理员', $2, $3, true, 1) RETURNING id`,
    [companyId, routes, operations],
  );
  return Number(rows[0].id);
}

let cachedHash: Promise<string> | undefined;
export async function makeUser(
  owner: pg.Pool,
  o: { companyId: number | null; roleId?: number | null; access?: number; username?: string; status?: number },
) {
  cachedHash ??= hashPassword('Passw0rd!');
  const username = o.username ?? uniq('u');
  const { rows } = await owner.query(
    `INSERT INTO admin_users (company_id, username, password_hash, role_id, access, status, real_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [o.companyId, username, await cachedHash, o.roleId ?? null, o.access ?? 1, o.status ?? 1, `测试${username}`],
  );
  return { id: Number(rows[0].id), username, password: 'Passw0rd!' };
}

export async function makeArea(owner: pg.Pool, companyId: number, name: string, parentId: number | null = null, deep = 0) {
  const { rows } = await owner.query(
    `INSERT INTO areas (company_id, parent_id, name, deep) VALUES ($1, $2, $3, $4) RETURNING id`,
    [companyId, parentId, name, deep],
  );
  return Number(rows[0].id);
}

export async function makeRoom(owner: pg.Pool, companyId: number, areaId: number, name: string) {
  const { rows } = await owner.query(`INSERT INTO rooms (company_id, area_id, name) VALUES ($1, $2, $3) RETURNING id`, [companyId, areaId, name]);
  return Number(rows[0].id);
}
