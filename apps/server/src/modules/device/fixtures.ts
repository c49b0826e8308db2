import type pg from 'pg';
import { OPERATION_KEYS } from '@meter/contracts';
import type { TestApp } from '../../../test/helpers.ts';
import { deviceNumbers, makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// Fixtures of the device integration tests: a company with a small area tree, its staff, and
// addresses / IMEIs that never collide with the demo seed (which uses prefixes 20/30/86).

/** a DL/T 645 address (12 digits), a CJ/T 188 address (14 digits), an IMEI (15 digits) */
export const { addr12, addr14, imei15 } = deviceNumbers({ dlt645: '91', cjt188: '9200', imei: '35' });

export interface DeviceCompany {
  companyId: number;
  parkId: number;
  floorA: number;
  floorB: number;
  roomA: number;
  roomB: number;
  /** all archive routes and every operation key */
  token: string;
  userId: number;
}

/** A company with a park, two floors and a room on each; its user has `routes` and the operation keys `ops`. */
export async function deviceCompany(t: TestApp, ops: string[] = OPERATION_KEYS, routes = ['recordsTable', 'recordsCollect']): Promise<DeviceCompany> {
  const companyId = await makeCompany(t.owner);
  const parkId = await makeArea(t.owner, companyId, uniq('园区'));
  const floorA = await makeArea(t.owner, companyId, '1层', parkId, 1);
  const floorB = await makeArea(t.owner, companyId, '2层', parkId, 1);
  const roomA = await makeRoom(t.owner, companyId, floorA, uniq('A'));
  const roomB = await makeRoom(t.owner, companyId, floorB, uniq('B'));
  const role = await makeRole(t.owner, companyId, routes, ops);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  const token = await t.login(u.username, u.password);
  return { companyId, parkId, floorA, floorB, roomA, roomB, token, userId: u.id };
}

export async function countRows(owner: pg.Pool, table: 'meters' | 'collectors' | 'focus_devices' | 'device_lookups') {
  return (await owner.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
}

export async function setPlans(
  owner: pg.Pool,
  companyId: number,
  p: { deviceCheck: boolean; collector?: number[]; electric?: number[]; water?: number[] },
) {
  await owner.query(
    `UPDATE companies SET device_check = $2, collector_plans = $3, electric_plans = $4, water_plans = $5 WHERE id = $1`,
    [companyId, p.deviceCheck, p.collector ?? [], p.electric ?? [], p.water ?? []],
  );
}

export const electricBody = (roomId: number, extra: Record<string, unknown> = {}) => ({
  name: '照明电表', kind: 1, plan: 0, address: addr12(), roomId, protocolId: 11, baudId: 22, phaseId: 1, brandId: 51, typeId: 71, ...extra,
});

export const waterBody = (roomId: number, extra: Record<string, unknown> = {}) => ({
  name: '冷水表', kind: 2, plan: 100, address: addr14(), roomId, protocolId: 13, caliberId: 61, brandId: 55, typeId: 74, ...extra,
});
