import { and, asc, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Reader, Tx } from '../../db/client.ts';
import { areaAndBelow, remove, update } from '../../db/crud-repo.ts';
import { areas, chargingTypes, meters, owners, rooms } from '../../db/schema/index.ts';
import { nearerEnd, slicesOf, type AreaCount } from './slices.ts';
import type { RoomListInput, RoomRow } from '@meter/contracts';
export type { RoomRow };

// Rooms: the only SQL of the room module. Row-level security limits every statement to the
// caller's company and bound areas; the explicit company filter lets the planner use the
// (company_id, id) index.

/** the declared list input's search fields (RoomListInput without paging), and whose rooms to look in */
export interface RoomFilter extends Omit<RoomListInput, 'index' | 'size'> {
  /** the tenant, or null for a platform admin looking across companies */
  companyId: number | null;
  /** the user's visible areas (bound areas and below), or null for every area of the company */
  visibleAreas?: number[] | null;
  /** getNoUserRoom: only rooms nobody lives in */
  vacant?: boolean;
}

/**
 * A timestamp as JSON renders a Date (2024-05-01T08:00:00.000Z): raw statements get timestamps as
 * PostgreSQL text, and every answer of the API should look the same.
 */
export const isoTime = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`;

/** The WHERE of the room list (alias r). */
export function roomWhere(f: RoomFilter): SQL {
  const w: SQL[] = [];
  if (f.companyId != null) w.push(sql`r.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`r.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.name) w.push(sql`r.name ILIKE ${like(f.name)}`);
  if (f.chargingTypeId != null) w.push(sql`r.charging_type_id = ${f.chargingTypeId}`);
  if (f.status != null) w.push(sql`r.status = ${f.status}`);
  if (f.ownerName || f.ownerPhone) {
    const o: SQL[] = [sql`o.status = 1`, sql`o.room_id IS NOT NULL`];
    if (f.ownerName) o.push(sql`o.name ILIKE ${like(f.ownerName)}`);
    if (f.ownerPhone) o.push(sql`o.phone ILIKE ${like(f.ownerPhone)}`);
    w.push(sql`r.id IN (SELECT o.room_id FROM owners o WHERE ${sql.join(o, sql` AND `)})`);
  }
  if (f.vacant) w.push(sql`NOT EXISTS (SELECT 1 FROM owners o WHERE o.room_id = r.id AND o.status = 1)`);
  return w.length ? sql.join(w, sql` AND `) : sql`true`;
}

/** Whether the total can come from the per-area counters (no filter beyond company and area). */
export const countable = (f: RoomFilter) =>
  !f.name && !f.ownerName && !f.ownerPhone && f.chargingTypeId == null && f.status == null && !f.vacant;

/** What the list knows before reading a page: the total, and the rooms per area when the counters gave it. */
export interface RoomTotals {
  total: number;
  /** area_id order; null when the total was counted over the rooms */
  areas: AreaCount[] | null;
}

/**
 * The totals statement. Company- and area-only filters read the per-area counters (as many rows as
 * there are areas, not rooms), limited to the user's visible areas when the user is bound to some;
 * any other filter counts the matching rooms.
 */
export function roomTotalsSql(f: RoomFilter): SQL {
  if (countable(f)) {
    const w: SQL[] = [sql`c.n > 0`];
    if (f.companyId != null) w.push(sql`c.company_id = ${f.companyId}`);
    if (f.visibleAreas != null) w.push(sql`c.area_id = ANY(${`{${f.visibleAreas.join(',')}}`}::bigint[])`);
    if (f.searchArea != null) w.push(sql`c.area_id IN ${areaAndBelow(f.searchArea)}`);
    return sql`SELECT c.area_id AS "areaId", c.n FROM room_area_counts c WHERE ${sql.join(w, sql` AND `)} ORDER BY c.area_id`;
  }
  return sql`SELECT NULL::bigint AS "areaId", count(*)::bigint AS n FROM rooms r WHERE ${roomWhere(f)}`;
}

export function totalsOf(f: RoomFilter, rows: { areaId: unknown; n: unknown }[]): RoomTotals {
  if (!countable(f)) return { total: Number(rows[0]?.n ?? 0), areas: null };
  const areas = rows.map((r) => ({ areaId: Number(r.areaId), n: Number(r.n) }));
  return { total: areas.reduce((a, c) => a + c.n, 0), areas };
}

/**
 * The statement of one page, in (area_id, id) order — floor by floor, rooms in the order they were
 * added. With per-area counts the page is one or two slices of areas, each read on the (area_id, id)
 * index with an offset inside its area, so the first, the middle and the last of a million rooms cost
 * the same. Filtered lists page over the matching rooms from whichever end is nearer. Only the page's
 * rows are joined to their area path, owner, charging type and meter count. null: past the end.
 */
export function roomPageSql(f: RoomFilter, totals: RoomTotals, limit: number, offset: number): SQL | null {
  if (offset >= totals.total) return null;
  if (totals.areas) {
    const company = f.companyId != null ? sql` AND r.company_id = ${f.companyId}` : sql``;
    const parts = slicesOf(totals.areas, offset, limit).map((s) => {
      const w = nearerEnd(s.n, s.offset, s.limit);
      return sql`(SELECT r.id FROM rooms r WHERE r.area_id = ${s.areaId}${company}
        ORDER BY r.id ${w.reverse ? sql`DESC` : sql`ASC`} LIMIT ${w.limit} OFFSET ${w.offset})`;
    });
    return parts.length ? roomRowsSql(sql.join(parts, sql` UNION ALL `)) : null;
  }
  const w = nearerEnd(totals.total, offset, limit);
  const order = w.reverse ? sql`r.area_id DESC, r.id DESC` : sql`r.area_id, r.id`;
  return roomRowsSql(sql`SELECT r.id FROM rooms r WHERE ${roomWhere(f)} ORDER BY ${order} LIMIT ${w.limit} OFFSET ${w.offset}`);
}

/** The rooms whose ids `page` selects, joined to their area path, owner, charging type and meter count. */
function roomRowsSql(page: SQL): SQL {
  return sql`WITH page AS (${page})
    SELECT r.id AS "Id", r.company_id AS "companyId", r.name, r.area_id AS "areaId", ap.path AS "areaName",
      r.decoration, r.orientation, r.charging_type_id AS "chargingTypeId", ct.name AS "chargingTypeName",
      r.size_m2 AS "sizeM2", r.status, r.memo, ${isoTime(sql`r.created_at`)} AS "createdAt",
      o.id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone",
      (SELECT count(*) FROM meters m WHERE m.room_id = r.id)::int AS "meterCount"
    FROM page JOIN rooms r ON r.id = page.id
    LEFT JOIN charging_types ct ON ct.id = r.charging_type_id
    LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    LEFT JOIN LATERAL (${areaPathOf(sql`r.area_id`)}) ap ON true
    ORDER BY r.area_id, r.id`;
}

/** The path of an area from the top visible ancestor, e.g. 阳光园区/1号楼/1层. */
export function areaPathOf(areaId: SQL): SQL {
  return sql`WITH RECURSIVE up(id, parent_id, name, lvl) AS (
      SELECT a.id, a.parent_id, a.name, 0 FROM areas a WHERE a.id = ${areaId}
      UNION ALL
      SELECT p.id, p.parent_id, p.name, up.lvl + 1 FROM areas p JOIN up ON p.id = up.parent_id WHERE up.lvl < 16
    ) SELECT string_agg(up.name, '/' ORDER BY up.lvl DESC) AS path FROM up`;
}



export async function roomTotals(db: Reader, f: RoomFilter): Promise<RoomTotals> {
  const r = await db.execute<{ areaId: unknown; n: unknown }>(roomTotalsSql(f));
  return totalsOf(f, r.rows);
}

export async function pageRooms(db: Reader, f: RoomFilter, totals: RoomTotals, limit: number, offset: number): Promise<RoomRow[]> {
  const q = roomPageSql(f, totals, limit, offset);
  if (!q) return [];
  const r = await db.execute<RoomRow & Record<string, unknown>>(q);
  return r.rows;
}

export async function getRoom(tx: Tx, id: number): Promise<RoomRow | undefined> {
  const r = await tx.execute<RoomRow & Record<string, unknown>>(roomRowsSql(sql`SELECT ${id}::bigint AS id`));
  return r.rows[0];
}

/** The room and its area path (for history snapshots), locked against concurrent move-ins. */
export async function lockRoom(tx: Tx, id: number) {
  const [r] = await tx
    .select({ id: rooms.id, companyId: rooms.companyId, name: rooms.name, areaId: rooms.areaId, status: rooms.status })
    .from(rooms)
    .where(eq(rooms.id, id))
    .for('update');
  if (!r) return undefined;
  const p = await tx.execute<{ path: string | null }>(areaPathOf(sql`${r.areaId}::bigint`));
  return { ...r, path: `${p.rows[0]?.path ? `${p.rows[0].path}/` : ''}${r.name}` };
}

export async function findArea(tx: Tx, id: number) {
  const [a] = await tx.select({ id: areas.id, name: areas.name, companyId: areas.companyId, areaType: areas.areaType }).from(areas).where(eq(areas.id, id));
  return a;
}

export async function findChargingType(tx: Tx, id: number) {
  const [c] = await tx.select({ id: chargingTypes.id, name: chargingTypes.name, status: chargingTypes.status }).from(chargingTypes).where(eq(chargingTypes.id, id));
  return c;
}

export async function roomNameTaken(tx: Tx, areaId: number, name: string, exceptId?: number) {
  const w = [eq(rooms.areaId, areaId), eq(rooms.name, name)];
  if (exceptId) w.push(ne(rooms.id, exceptId));
  const [r] = await tx.select({ id: rooms.id }).from(rooms).where(and(...w)).limit(1);
  return !!r;
}

export interface RoomValues {
  companyId?: number;
  name: string;
  areaId: number;
  decoration: number;
  orientation: number;
  chargingTypeId: number | null;
  sizeM2: string;
  status: number;
  memo: string;
}

export async function insertRoom(tx: Tx, v: RoomValues & { companyId: number }) {
  const [r] = await tx.insert(rooms).values(v).returning({ id: rooms.id });
  return r.id;
}

/** Moving a room to another area carries its meters along (trigger rooms_carry_meters). */
export function updateRoom(tx: Tx, id: number, v: RoomValues) {
  return update(tx, rooms, id, { ...v });
}

export async function deleteRoom(tx: Tx, id: number) {
  return (await remove(tx, rooms, [id])).length > 0;
}

/** What keeps a room from being deleted: the owner living in it and its meters. */
export async function roomUsage(tx: Tx, id: number) {
  const [o] = await tx.select({ name: owners.name }).from(owners).where(and(eq(owners.roomId, id), eq(owners.status, 1))).limit(1);
  const [m] = await tx.select({ n: count() }).from(meters).where(eq(meters.roomId, id));
  return { ownerName: o?.name, meters: m.n };
}

/** How many rooms use each of these charging types. */
export async function roomsUsingChargingTypes(tx: Tx, ids: number[]) {
  const [r] = await tx.select({ n: count() }).from(rooms).where(inArray(rooms.chargingTypeId, ids));
  return r.n;
}

/** The charging types in use, for selects. */
export function usingChargingTypes(tx: Tx) {
  return tx
    .select({ id: chargingTypes.id, name: chargingTypes.name, chargeType: chargingTypes.chargeType })
    .from(chargingTypes)
    .where(eq(chargingTypes.status, 1))
    .orderBy(asc(chargingTypes.chargeType), asc(chargingTypes.id));
}
