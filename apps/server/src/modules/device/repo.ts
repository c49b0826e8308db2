import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { MeterListInput } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import * as crud from '../../db/crud-repo.ts';
import { areaAndBelow, newestPage } from '../../db/crud-repo.ts';
import {
  alarmSchemes, areas, chargingSchemes, collectors, companies, deviceLookups, focusDevices, meters, owners, readings, rooms,
} from '../../db/schema/index.ts';

// The only SQL of the device domain. Row-level security (the transaction's scope) limits every
// statement to the caller's company and areas; the plan filter below adds the company's device-plan
// permissions (SPEC §5/§6) to lists.

const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`;

// ---- company device-plan permissions ------------------------------------------------------------

export async function companyPlans(tx: Tx, companyId: number) {
  const [r] = await tx
    .select({
      deviceCheck: companies.deviceCheck,
      collectorPlans: companies.collectorPlans,
      electricPlans: companies.electricPlans,
      waterPlans: companies.waterPlans,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  return r;
}

/** A collector whose plan its company may use (always true when the company's deviceCheck is off). */
const collectorPlanAllowed = sql`EXISTS (SELECT 1 FROM ${companies} c WHERE c.id = ${collectors.companyId}
  AND (NOT c.device_check OR ${collectors.plan} = ANY (c.collector_plans)))`;

/** A meter whose plan its company may use, by kind (电表 electric plans, 水表 water plans). */
const meterPlanAllowed = sql`EXISTS (SELECT 1 FROM ${companies} c WHERE c.id = ${meters.companyId}
  AND (NOT c.device_check
    OR (${meters.kind} = 1 AND ${meters.plan} = ANY (c.electric_plans))
    OR (${meters.kind} = 2 AND ${meters.plan} = ANY (c.water_plans))))`;

const classifyIs = (column: AnyPgColumn, classifyId: number) =>
  sql`${column} IN (SELECT id FROM ${companies} WHERE classify_id = ${classifyId})`;

// ---- references: areas, rooms, schemes ----------------------------------------------------------

export async function areaById(tx: Tx, id: number) {
  const [r] = await tx.select({ id: areas.id, companyId: areas.companyId, name: areas.name }).from(areas).where(eq(areas.id, id));
  return r;
}

export async function roomById(tx: Tx, id: number) {
  const [r] = await tx
    .select({ id: rooms.id, companyId: rooms.companyId, areaId: rooms.areaId, name: rooms.name })
    .from(rooms)
    .where(eq(rooms.id, id));
  return r;
}

/** a charging or alarm scheme's company and kind (a meter takes only its company's schemes of its kind) */
async function schemeById(tx: Tx, scheme: typeof chargingSchemes | typeof alarmSchemes, id: number) {
  const [r] = await tx.select({ id: scheme.id, companyId: scheme.companyId, kind: scheme.kind }).from(scheme).where(eq(scheme.id, id));
  return r;
}
export const chargingSchemeById = (tx: Tx, id: number) => schemeById(tx, chargingSchemes, id);
export const alarmSchemeById = (tx: Tx, id: number) => schemeById(tx, alarmSchemes, id);

// ---- lookups ------------------------------------------------------------------------------------

const lookupCols = { id: deviceLookups.id, kind: deviceLookups.kind, name: deviceLookups.name, code: deviceLookups.code, sort: deviceLookups.sort, memo: deviceLookups.memo };

export async function lookupsOfKind(tx: Tx, kind: string, page?: { limit: number; offset: number }) {
  const q = tx.select(lookupCols).from(deviceLookups).where(eq(deviceLookups.kind, kind)).orderBy(asc(deviceLookups.sort), asc(deviceLookups.id));
  if (!page) return { rows: await q, count: undefined };
  const rows = await q.limit(page.limit).offset(page.offset);
  const [c] = await tx.select({ n: count() }).from(deviceLookups).where(eq(deviceLookups.kind, kind));
  return { rows, count: c.n };
}

export function lookupsByIds(tx: Tx, ids: number[]) {
  if (!ids.length) return Promise.resolve([] as { id: number; kind: string; name: string; code: string }[]);
  return tx
    .select({ id: deviceLookups.id, kind: deviceLookups.kind, name: deviceLookups.name, code: deviceLookups.code })
    .from(deviceLookups)
    .where(inArray(deviceLookups.id, ids));
}

export async function lookupNameTaken(tx: Tx, kind: string, name: string, exceptId?: number) {
  const w = [eq(deviceLookups.kind, kind), eq(deviceLookups.name, name)];
  if (exceptId) w.push(sql`${deviceLookups.id} <> ${exceptId}`);
  const [r] = await tx.select({ id: deviceLookups.id }).from(deviceLookups).where(and(...w)).limit(1);
  return !!r;
}

/** How many meters (of every company: run it in the system scope) use any of these dictionary rows. */
export async function lookupUsage(tx: Tx, ids: number[]) {
  const [r] = await tx
    .select({ n: count() })
    .from(meters)
    .where(
      or(
        inArray(meters.protocolId, ids), inArray(meters.baudId, ids), inArray(meters.phaseId, ids), inArray(meters.gatewayId, ids),
        inArray(meters.portId, ids), inArray(meters.brandId, ids), inArray(meters.caliberId, ids), inArray(meters.typeId, ids),
      ),
    );
  return r.n;
}

// ---- collectors (gather) ------------------------------------------------------------------------

export interface CollectorFilter {
  name?: string;
  imei?: string;
  plan?: number;
  online?: boolean;
  searchArea?: number;
  searchClassify?: number;
}

const collectorMeterCount = sql<number>`(SELECT count(*) FROM ${meters} m WHERE m.collector_id = ${collectors.id})::int`;

const collectorCols = {
  id: collectors.id,
  companyId: collectors.companyId,
  areaId: collectors.areaId,
  areaName: areas.name,
  name: collectors.name,
  imei: collectors.imei,
  plan: collectors.plan,
  simNo: collectors.simNo,
  installAddress: collectors.installAddress,
  online: collectors.online,
  lastSeenAt: collectors.lastSeenAt,
  memo: collectors.memo,
  meterCount: collectorMeterCount,
  createdAt: collectors.createdAt,
  updatedAt: collectors.updatedAt,
};

function collectorWhere(f: CollectorFilter) {
  const w: SQL[] = [collectorPlanAllowed];
  if (f.name) w.push(ilike(collectors.name, like(f.name)));
  if (f.imei) w.push(ilike(collectors.imei, like(f.imei)));
  if (f.plan !== undefined) w.push(eq(collectors.plan, f.plan));
  if (f.online !== undefined) w.push(eq(collectors.online, f.online));
  if (f.searchArea) w.push(sql`${collectors.areaId} IN ${areaAndBelow(f.searchArea)}`);
  if (f.searchClassify) w.push(classifyIs(collectors.companyId, f.searchClassify));
  return and(...w);
}

export async function listCollectors(tx: Tx, f: CollectorFilter, limit: number, offset: number) {
  const select = tx.select(collectorCols).from(collectors).leftJoin(areas, eq(areas.id, collectors.areaId));
  return newestPage(tx, select.$dynamic(), collectors, collectorWhere(f), limit, offset);
}

export async function getCollector(tx: Tx, id: number) {
  const [r] = await tx.select(collectorCols).from(collectors).leftJoin(areas, eq(areas.id, collectors.areaId)).where(eq(collectors.id, id));
  return r;
}

export type CollectorValues = Pick<typeof collectors.$inferInsert, 'name' | 'imei' | 'plan' | 'areaId' | 'simNo' | 'installAddress' | 'memo'>;

export const insertCollector = (tx: Tx, companyId: number, v: CollectorValues) => crud.insert(tx, collectors, { ...v, companyId });
export const updateCollector = (tx: Tx, id: number, v: CollectorValues) => crud.update(tx, collectors, id, v);

/** The collector's registration secret (`REG <imei> <secret>`). */
export async function collectorSecret(tx: Tx, id: number) {
  const [r] = await tx.select({ secret: collectors.regSecret }).from(collectors).where(eq(collectors.id, id));
  return r?.secret;
}

/** A new random registration secret; the collector must be configured with it to register again. */
export async function resetCollectorSecret(tx: Tx, id: number) {
  const [r] = await tx.update(collectors)
    .set({ regSecret: sql`replace(gen_random_uuid()::text, '-', '')`, updatedAt: sql`now()` })
    .where(eq(collectors.id, id)).returning({ secret: collectors.regSecret });
  return r.secret;
}

export const deleteCollector = (tx: Tx, id: number) => crud.remove(tx, collectors, [id]);

/** Meters behind a collector (every one the database holds: run it in the system scope). */
export async function metersBehind(tx: Tx, collectorId: number) {
  const [r] = await tx.select({ n: count() }).from(meters).where(eq(meters.collectorId, collectorId));
  return r.n;
}

/** Who holds this IMEI among collectors and meters (of every company: run it in the system scope). */
export async function imeiHolder(tx: Tx, imei: string, except: { collectorId?: number; meterId?: number } = {}) {
  const c = await tx
    .select({ id: collectors.id })
    .from(collectors)
    .where(and(eq(collectors.imei, imei), except.collectorId ? sql`${collectors.id} <> ${except.collectorId}` : undefined))
    .limit(1);
  if (c.length) return 'collector' as const;
  const m = await tx
    .select({ id: meters.id })
    .from(meters)
    .where(and(eq(meters.imei, imei), except.meterId ? sql`${meters.id} <> ${except.meterId}` : undefined))
    .limit(1);
  return m.length ? ('meter' as const) : undefined;
}

// ---- meters (device) ----------------------------------------------------------------------------

/** device/list's search fields (MeterListInput without its paging) */
export interface MeterFilter extends Omit<MeterListInput, 'index' | 'size'> {
  /** only meters in this company's focus list */
  focusedOnly?: boolean;
}

const lp = alias(deviceLookups, 'lp');
const lb = alias(deviceLookups, 'lb');
const lph = alias(deviceLookups, 'lph');
const lg = alias(deviceLookups, 'lg');
const lpo = alias(deviceLookups, 'lpo');
const lbr = alias(deviceLookups, 'lbr');
const lc = alias(deviceLookups, 'lc');
const lt = alias(deviceLookups, 'lt');

const ownerName = sql<string | null>`(SELECT o.name FROM ${owners} o WHERE o.room_id = ${meters.roomId} AND o.status = 1 ORDER BY o.id LIMIT 1)`;
const focused = sql<boolean>`EXISTS (SELECT 1 FROM ${focusDevices} f WHERE f.meter_id = ${meters.id})`;
const focusId = sql<number | null>`(SELECT f.id FROM ${focusDevices} f WHERE f.meter_id = ${meters.id} LIMIT 1)`;

const meterCols = {
  id: meters.id,
  companyId: meters.companyId,
  roomId: meters.roomId,
  roomName: rooms.name,
  areaId: meters.areaId,
  areaName: areas.name,
  ownerName,
  collectorId: meters.collectorId,
  collectorName: collectors.name,
  collectorImei: collectors.imei,
  name: meters.name,
  kind: meters.kind,
  plan: meters.plan,
  address: meters.address,
  imei: meters.imei,
  protocolId: meters.protocolId,
  baudId: meters.baudId,
  phaseId: meters.phaseId,
  gatewayId: meters.gatewayId,
  portId: meters.portId,
  brandId: meters.brandId,
  caliberId: meters.caliberId,
  typeId: meters.typeId,
  protocolName: lp.name,
  baudName: lb.name,
  phaseName: lph.name,
  gatewayName: lg.name,
  portName: lpo.name,
  brandName: lbr.name,
  caliberName: lc.name,
  typeName: lt.name,
  multiplier: meters.multiplier,
  initialReading: meters.initialReading,
  chargingSchemeId: meters.chargingSchemeId,
  alarmSchemeId: meters.alarmSchemeId,
  installDate: meters.installDate,
  reportInterval: meters.reportIntervalMinutes,
  status: meters.status,
  online: meters.online,
  valveState: meters.valveState,
  lastSeenAt: meters.lastSeenAt,
  memo: meters.memo,
  focused,
  focusId,
  createdAt: meters.createdAt,
  updatedAt: meters.updatedAt,
};

function meterSelect(tx: Tx) {
  return tx
    .select(meterCols)
    .from(meters)
    .leftJoin(rooms, eq(rooms.id, meters.roomId))
    .leftJoin(areas, eq(areas.id, meters.areaId))
    .leftJoin(collectors, eq(collectors.id, meters.collectorId))
    .leftJoin(lp, eq(lp.id, meters.protocolId))
    .leftJoin(lb, eq(lb.id, meters.baudId))
    .leftJoin(lph, eq(lph.id, meters.phaseId))
    .leftJoin(lg, eq(lg.id, meters.gatewayId))
    .leftJoin(lpo, eq(lpo.id, meters.portId))
    .leftJoin(lbr, eq(lbr.id, meters.brandId))
    .leftJoin(lc, eq(lc.id, meters.caliberId))
    .leftJoin(lt, eq(lt.id, meters.typeId));
}

function meterWhere(f: MeterFilter) {
  const w: SQL[] = [meterPlanAllowed];
  if (f.name) w.push(ilike(meters.name, like(f.name)));
  if (f.kind !== undefined) w.push(eq(meters.kind, f.kind));
  if (f.plan !== undefined) w.push(eq(meters.plan, f.plan));
  if (f.address) w.push(ilike(meters.address, like(f.address)));
  if (f.roomId !== undefined) w.push(eq(meters.roomId, f.roomId));
  if (f.roomName) w.push(sql`${meters.roomId} IN (SELECT id FROM ${rooms} WHERE name ILIKE ${like(f.roomName)})`);
  if (f.collectorId !== undefined) w.push(eq(meters.collectorId, f.collectorId));
  if (f.online !== undefined) w.push(eq(meters.online, f.online));
  if (f.status !== undefined) w.push(eq(meters.status, f.status));
  if (f.searchArea) w.push(sql`${meters.areaId} IN ${areaAndBelow(f.searchArea)}`);
  if (f.searchClassify) w.push(classifyIs(meters.companyId, f.searchClassify));
  if (f.focusedOnly) w.push(focused);
  return and(...w);
}

export async function listMeters(tx: Tx, f: MeterFilter, limit: number, offset: number) {
  return newestPage(tx, meterSelect(tx).$dynamic(), meters, meterWhere(f), limit, offset);
}

export async function getMeter(tx: Tx, id: number) {
  const [r] = await meterSelect(tx).where(eq(meters.id, id));
  return r;
}

export type MeterValues = Omit<typeof meters.$inferInsert, 'id' | 'companyId' | 'areaId' | 'online' | 'valveState' | 'lastSeenAt' | 'createdAt' | 'updatedAt'>;

/** The meter's area is set from its room by the database (trigger meters_area_from_room). */
export const insertMeter = (tx: Tx, companyId: number, v: MeterValues) => crud.insert(tx, meters, { ...v, companyId });
export const updateMeter = (tx: Tx, id: number, v: MeterValues) => crud.update(tx, meters, id, v);
export const deleteMeter = (tx: Tx, id: number) => crud.remove(tx, meters, [id]);

/** Whether a meter address is taken (of every company: run it in the system scope). */
export async function addressTaken(tx: Tx, address: string, exceptId?: number) {
  const [r] = await tx
    .select({ id: meters.id })
    .from(meters)
    .where(and(eq(meters.address, address), exceptId ? sql`${meters.id} <> ${exceptId}` : undefined))
    .limit(1);
  return !!r;
}

export async function meterHasReadings(tx: Tx, meterId: number) {
  const [r] = await tx.select({ one: sql<number>`1` }).from(readings).where(eq(readings.meterId, meterId)).limit(1);
  return !!r;
}

// ---- focus devices ------------------------------------------------------------------------------

export interface FocusFilter {
  address?: string;
  kind?: number;
  searchArea?: number;
}

const focusCols = {
  id: focusDevices.id,
  companyId: focusDevices.companyId,
  meterId: focusDevices.meterId,
  memo: focusDevices.memo,
  createdBy: focusDevices.createdBy,
  createdAt: focusDevices.createdAt,
  address: meters.address,
  meterName: meters.name,
  kind: meters.kind,
  plan: meters.plan,
  roomId: meters.roomId,
  roomName: rooms.name,
  areaId: meters.areaId,
  areaName: areas.name,
  online: meters.online,
  valveState: meters.valveState,
  lastSeenAt: meters.lastSeenAt,
};

// inner join: a focus row shows only while its meter is visible (area scope, plan permissions)
function focusSelect(tx: Tx) {
  return tx
    .select(focusCols)
    .from(focusDevices)
    .innerJoin(meters, eq(meters.id, focusDevices.meterId))
    .leftJoin(rooms, eq(rooms.id, meters.roomId))
    .leftJoin(areas, eq(areas.id, meters.areaId));
}

function focusWhere(f: FocusFilter) {
  const w: SQL[] = [meterPlanAllowed];
  if (f.address) w.push(ilike(meters.address, like(f.address)));
  if (f.kind !== undefined) w.push(eq(meters.kind, f.kind));
  if (f.searchArea) w.push(sql`${meters.areaId} IN ${areaAndBelow(f.searchArea)}`);
  return and(...w);
}

export async function listFocus(tx: Tx, f: FocusFilter, limit: number, offset: number) {
  const where = focusWhere(f);
  const rows = await focusSelect(tx).where(where).orderBy(desc(focusDevices.id)).limit(limit).offset(offset);
  const [c] = await tx.select({ n: count() }).from(focusDevices).innerJoin(meters, eq(meters.id, focusDevices.meterId)).where(where);
  return { rows, count: c.n };
}

export async function getFocus(tx: Tx, id: number) {
  const [r] = await focusSelect(tx).where(eq(focusDevices.id, id));
  return r;
}

export async function focusOfMeter(tx: Tx, companyId: number, meterId: number) {
  const [r] = await tx
    .select({ id: focusDevices.id })
    .from(focusDevices)
    .where(and(eq(focusDevices.companyId, companyId), eq(focusDevices.meterId, meterId)));
  return r?.id;
}

export const insertFocus = (tx: Tx, v: { companyId: number; meterId: number; memo: string; createdBy: number }) => crud.insert(tx, focusDevices, v);
export const updateFocus = (tx: Tx, id: number, v: { meterId: number; memo: string }) => crud.update(tx, focusDevices, id, v);
export const deleteFocus = (tx: Tx, id: number) => crud.remove(tx, focusDevices, [id]);

// ---- demo seed (bulk) ---------------------------------------------------------------------------

export function roomsOfCompany(tx: Tx, companyId: number) {
  return tx.select({ id: rooms.id, areaId: rooms.areaId, name: rooms.name }).from(rooms).where(eq(rooms.companyId, companyId)).orderBy(asc(rooms.id));
}

export function allLookups(tx: Tx) {
  return tx.select({ id: deviceLookups.id, kind: deviceLookups.kind, name: deviceLookups.name }).from(deviceLookups);
}

export async function insertCollectorsBulk(tx: Tx, rows: (typeof collectors.$inferInsert)[]) {
  if (!rows.length) return [];
  return (await tx.insert(collectors).values(rows).returning({ id: collectors.id })).map((r) => r.id);
}

export async function insertMetersBulk(tx: Tx, rows: (typeof meters.$inferInsert)[]) {
  for (let i = 0; i < rows.length; i += 500) await tx.insert(meters).values(rows.slice(i, i + 500));
}

export async function insertFocusBulk(tx: Tx, rows: (typeof focusDevices.$inferInsert)[]) {
  if (rows.length) await tx.insert(focusDevices).values(rows);
}

/** Meter ids of a company by address (the seed marks a few as focused). */
export function meterIdsByAddress(tx: Tx, companyId: number, addresses: string[]) {
  return tx.select({ id: meters.id, address: meters.address }).from(meters).where(and(eq(meters.companyId, companyId), inArray(meters.address, addresses)));
}

// ---- area paths ---------------------------------------------------------------------------------

/** 阳光园区/1号楼/1层 for each area id (the visible part of the path under an area scope). */
export async function areaPaths(tx: Tx, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const r = await tx.execute<{ leaf: number; path: string }>(sql`
    WITH RECURSIVE up AS (
      SELECT id AS leaf, id, parent_id, name, 0 AS lvl FROM ${areas} WHERE id IN (${sql.join(unique.map((i) => sql`${i}`), sql`, `)})
      UNION ALL
      SELECT up.leaf, a.id, a.parent_id, a.name, up.lvl + 1 FROM ${areas} a JOIN up ON a.id = up.parent_id WHERE up.lvl < 16)
    SELECT leaf, string_agg(name, '/' ORDER BY lvl DESC) AS path FROM up GROUP BY leaf`);
  return new Map(r.rows.map((x) => [Number(x.leaf), x.path]));
}
