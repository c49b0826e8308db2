import type pg from 'pg';
import { expect } from 'vitest';
import { ROUTES, OPERATION_KEYS } from '@meter/contracts';
import type { TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// Fixtures shared by the scheme integration tests (owner connection: no RLS).

export interface Tenant {
  companyId: number;
  token: string;
  areaId: number;
  roomId: number;
}

/** A fresh company with a user holding every company route and operation, an area and a room. */
export async function makeTenant(t: TestApp): Promise<Tenant> {
  const companyId = await makeCompany(t.owner);
  const routes = ROUTES.filter((r) => r.access === undefined).map((r) => r.key);
  const role = await makeRole(t.owner, companyId, routes, OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  const areaId = await makeArea(t.owner, companyId, uniq('园区'));
  const roomId = await makeRoom(t.owner, companyId, areaId, uniq('房'));
  return { companyId, token: await t.login(u.username, u.password), areaId, roomId };
}

/** A user of the company with exactly these routes and operations (and, optionally, bound areas). */
export async function loginWith(t: TestApp, companyId: number, routes: string[], operations: string[] = [], areaIds: number[] = []) {
  const role = await makeRole(t.owner, companyId, routes, operations);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  for (const a of areaIds) await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, a, companyId]);
  return t.login(u.username, u.password);
}

let addr = Math.floor(Math.random() * 1e9);
/** A meter in a room, using the given schemes. */
export async function makeMeter(owner: pg.Pool, companyId: number, roomId: number, o: { kind?: number; chargingSchemeId?: number | null; alarmSchemeId?: number | null }) {
  const address = String(100000000000 + (addr++ % 899999999999)).padStart(12, '0');
  const { rows } = await owner.query(
    `INSERT INTO meters (company_id, room_id, kind, plan, address, charging_scheme_id, alarm_scheme_id) VALUES ($1, $2, $3, 0, $4, $5, $6) RETURNING id`,
    [companyId, roomId, o.kind ?? 1, address, o.chargingSchemeId ?? null, o.alarmSchemeId ?? null],
  );
  return Number(rows[0].id);
}

export async function countRows(owner: pg.Pool, table: string, companyId?: number) {
  const { rows } = companyId === undefined
    ? await owner.query(`SELECT count(*)::int AS n FROM ${table}`)
    : await owner.query(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1`, [companyId]);
  return rows[0].n as number;
}

/** One more scheme named `name` (created at `url` with the token) is refused: a 409 naming it. */
export async function expectNameTaken(t: TestApp, token: string, url: string, payload: object, name: string) {
  const r = await t.call(token, { method: 'POST', url, payload });
  expect(r.status).toBe(409);
  expect(r.body.message).toBe(`方案名称「${name}」已存在`);
}
