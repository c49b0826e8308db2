import type pg from 'pg';
import { hashPassword } from '../src/modules/auth/crypto.ts';

// Fixtures written with the owner connection (no RLS), so tests can arrange any tenant's data.

let seq = 0;
export const uniq = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}`;

/**
 * Meter addresses (DL/T 645: 12 digits, CJ/T 188: 14) and IMEIs (15) under a family's own prefixes, so that
 * they never collide with the demo seed's (20/30/86) or another family's; the time and process id in them
 * keep files running side by side apart.
 */
export function deviceNumbers(prefix: { dlt645: string; cjt188: string; imei: string }) {
  let n = 0;
  const stamp = () => `${Date.now() % 100000}`.padStart(5, '0') + `${process.pid % 100}`.padStart(2, '0');
  const next = () => `${n++ % 1000}`.padStart(3, '0');
  return {
    addr12: () => `${prefix.dlt645}${stamp()}${next()}`,
    addr14: () => `${prefix.cjt188}${stamp()}${next()}`,
    imei15: () => `${prefix.imei}${stamp()}${next()}000`,
  };
}

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

/** A small area tree of the company: 园区 → 1号楼 → 1层, and 园区 → 2号楼. */
export async function makeAreaTree(owner: pg.Pool, companyId: number) {
  const park = await makeArea(owner, companyId, '园区');
  const b1 = await makeArea(owner, companyId, '1号楼', park, 1);
  const f1 = await makeArea(owner, companyId, '1层', b1, 2);
  const b2 = await makeArea(owner, companyId, '2号楼', park, 1);
  return { park, b1, f1, b2 };
}

/** Another company's room (园区 他司园区, room 他司房间): what the tests of tenancy reach for. */
export async function makeOtherRoom(owner: pg.Pool) {
  const companyId = await makeCompany(owner);
  const areaId = await makeArea(owner, companyId, '他司园区');
  const roomId = await makeRoom(owner, companyId, areaId, '他司房间');
  return { companyId, areaId, roomId };
}

export async function makeRoom(owner: pg.Pool, companyId: number, areaId: number, name: string) {
  const { rows } = await owner.query(`INSERT INTO rooms (company_id, area_id, name) VALUES ($1, $2, $3) RETURNING id`, [companyId, areaId, name]);
  return Number(rows[0].id);
}
