import { and, desc, eq, sql } from 'drizzle-orm';
import { textArr } from '../../db/array-literal.ts';
import type { Tx } from '../../db/client.ts';
import {
  alarmSchemes, areas, chargingSchemes, chargingTypes, collectors, deviceLookups, importBatches, meters, ownerRoomHistory, owners, rooms,
} from '../../db/schema/index.ts';

// The only SQL of the import module: what a file's rows are checked against (the caller's company,
// under row-level security), the bulk writes of a commit and the import log.

// ---- reference data ------------------------------------------------------------------------------

export interface AreaRef {
  id: number;
  parentId: number | null;
  name: string;
  deep: number;
  classifyId: number | null;
}

/**
 * The company's areas. Read in the system scope, every area of the company: paths are named from the
 * top of the tree for everyone (a user bound to areas writes the same file as anyone else); which of
 * them the caller may use is visibleAreaIds.
 */
export function companyAreas(tx: Tx, companyId: number): Promise<AreaRef[]> {
  return tx
    .select({ id: areas.id, parentId: areas.parentId, name: areas.name, deep: areas.deep, classifyId: areas.classifyId })
    .from(areas)
    .where(eq(areas.companyId, companyId));
}

/** The ids of the company's areas the caller can see (area scope applies). */
export async function visibleAreaIds(tx: Tx, companyId: number) {
  return new Set((await tx.select({ id: areas.id }).from(areas).where(eq(areas.companyId, companyId))).map((a) => a.id));
}

export interface RoomRef {
  id: number;
  areaId: number;
  name: string;
  status: number;
  /** the current owner's id and name, if someone lives there */
  ownerId: number | null;
  ownerName: string | null;
}

export async function visibleRooms(tx: Tx, companyId: number): Promise<RoomRef[]> {
  const r = await tx.execute<{ id: string; areaId: string; name: string; status: number; ownerId: string | null; ownerName: string | null }>(sql`
    SELECT r.id, r.area_id AS "areaId", r.name, r.status, o.id AS "ownerId", o.name AS "ownerName"
    FROM rooms r LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    WHERE r.company_id = ${companyId}`);
  return r.rows.map((x) => ({ ...x, id: Number(x.id), areaId: Number(x.areaId), ownerId: x.ownerId == null ? null : Number(x.ownerId) }));
}

export function chargingTypesOf(tx: Tx, companyId: number) {
  return tx.select({ id: chargingTypes.id, name: chargingTypes.name, status: chargingTypes.status }).from(chargingTypes).where(eq(chargingTypes.companyId, companyId));
}

export async function schemesOf(tx: Tx, companyId: number) {
  const charging = await tx.select({ id: chargingSchemes.id, name: chargingSchemes.name, kind: chargingSchemes.kind }).from(chargingSchemes).where(eq(chargingSchemes.companyId, companyId));
  const alarm = await tx.select({ id: alarmSchemes.id, name: alarmSchemes.name, kind: alarmSchemes.kind }).from(alarmSchemes).where(eq(alarmSchemes.companyId, companyId));
  return [charging, alarm] as const;
}

export function lookups(tx: Tx) {
  return tx.select({ id: deviceLookups.id, kind: deviceLookups.kind, name: deviceLookups.name, code: deviceLookups.code }).from(deviceLookups);
}

export function collectorsOf(tx: Tx, companyId: number) {
  return tx.select({ id: collectors.id, imei: collectors.imei, name: collectors.name }).from(collectors).where(eq(collectors.companyId, companyId));
}

export interface OwnerRef {
  id: number;
  name: string;
  phone: string;
  roomId: number | null;
  status: number;
}

export function ownersOf(tx: Tx, companyId: number): Promise<OwnerRef[]> {
  return tx.select({ id: owners.id, name: owners.name, phone: owners.phone, roomId: owners.roomId, status: owners.status }).from(owners).where(eq(owners.companyId, companyId));
}

/** Per owner of the company: the wallets with an opening balance, and whether any other journal row exists. */
export async function journalKindsByOwner(tx: Tx, companyId: number) {
  const r = await tx.execute<{ ownerId: string; openings: string[]; others: number }>(sql`
    SELECT owner_id AS "ownerId",
      coalesce(array_agg(DISTINCT wallet) FILTER (WHERE kind = 'opening'), '{}') AS openings,
      count(*) FILTER (WHERE kind <> 'opening')::int AS others
    FROM journal WHERE company_id = ${companyId} GROUP BY owner_id`);
  return new Map(r.rows.map((x) => [Number(x.ownerId), { openings: x.openings, others: Number(x.others) }]));
}

/** Of these IMEIs, the ones a collector or a meter of any company already uses (platform-wide: system scope). */
export async function takenImeis(tx: Tx, imeis: string[]) {
  if (!imeis.length) return new Map<string, 'collector' | 'meter'>();
  const r = await tx.execute<{ imei: string; holder: 'collector' | 'meter' }>(sql`
    SELECT imei, 'collector' AS holder FROM collectors WHERE imei = ANY(${textArr(imeis)}::text[])
    UNION ALL SELECT imei, 'meter' AS holder FROM meters WHERE imei = ANY(${textArr(imeis)}::text[])`);
  return new Map(r.rows.map((x) => [x.imei, x.holder]));
}

/** Of these meter addresses, the ones already in use (platform-wide: system scope). */
export async function takenAddresses(tx: Tx, addresses: string[]) {
  if (!addresses.length) return new Set<string>();
  const r = await tx.execute<{ address: string }>(sql`SELECT address FROM meters WHERE address = ANY(${textArr(addresses)}::text[])`);
  return new Set(r.rows.map((x) => x.address));
}

// ---- writes --------------------------------------------------------------------------------------

const CHUNK = 500;

async function chunked<T>(rows: T[], write: (part: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** One area; its id is drawn first (a new area may fall outside a bound user's visible areas). */
export async function insertArea(tx: Tx, v: typeof areas.$inferInsert) {
  const r = await tx.execute<{ id: number }>(sql`SELECT nextval(pg_get_serial_sequence('areas', 'id')) AS id`);
  const id = Number(r.rows[0].id);
  await tx.insert(areas).values({ ...v, id });
  return id;
}

export const insertRooms = (tx: Tx, rows: (typeof rooms.$inferInsert)[]) => chunked(rows, (p) => tx.insert(rooms).values(p));

export async function insertOwners(tx: Tx, rows: (typeof owners.$inferInsert)[]) {
  const ids: number[] = [];
  await chunked(rows, async (p) => ids.push(...(await tx.insert(owners).values(p).returning({ id: owners.id })).map((x) => x.id)));
  return ids;
}

export const insertHistory = (tx: Tx, rows: (typeof ownerRoomHistory.$inferInsert)[]) => chunked(rows, (p) => tx.insert(ownerRoomHistory).values(p));

export const insertCollectors = (tx: Tx, rows: (typeof collectors.$inferInsert)[]) => chunked(rows, (p) => tx.insert(collectors).values(p));

export const insertMeters = (tx: Tx, rows: (typeof meters.$inferInsert)[]) => chunked(rows, (p) => tx.insert(meters).values(p));

// ---- the import log ------------------------------------------------------------------------------

/** One import at a time per company: a second commit of the same file waits, then finds the first. */
export async function lockImports(tx: Tx, companyId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('imports'), ${companyId}::int)`);
}

export async function findBatch(tx: Tx, companyId: number, kind: string, fileHash: string) {
  const [b] = await tx
    .select({ id: importBatches.id, rows: importBatches.rows, operatorName: importBatches.operatorName, createdAt: importBatches.createdAt })
    .from(importBatches)
    .where(and(eq(importBatches.companyId, companyId), eq(importBatches.kind, kind), eq(importBatches.fileHash, fileHash)));
  return b;
}

export async function insertBatch(tx: Tx, v: typeof importBatches.$inferInsert) {
  const [r] = await tx.insert(importBatches).values(v).returning({ id: importBatches.id });
  return r.id;
}

export async function pageBatches(tx: Tx, f: { companyId: number | null; kind?: string }, limit: number, offset: number) {
  const w = and(f.companyId != null ? eq(importBatches.companyId, f.companyId) : undefined, f.kind ? eq(importBatches.kind, f.kind) : undefined);
  const rows = await tx.select().from(importBatches).where(w).orderBy(desc(importBatches.id)).limit(limit).offset(offset);
  const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(importBatches).where(w);
  return { rows, count: Number(n?.n ?? 0) };
}
