import { and, asc, count, eq, inArray, ne, sql, isNull, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { adminUsers, areaPermissions, areas, collectors, companies, meters, rooms, userAreas } from '../../db/schema/index.ts';

// The only SQL of the area domain (areas, area-permission sets, user↔area bindings). Row-level
// security limits every statement to the caller's company and, for a bound user, to their areas.

export function allAreas(tx: Tx) {
  return tx
    .select({ id: areas.id, parentId: areas.parentId, name: areas.name, deep: areas.deep, areaType: areas.areaType })
    .from(areas)
    .orderBy(asc(areas.deep), asc(areas.sort), asc(areas.id));
}

export function allRooms(tx: Tx) {
  return tx.select({ id: rooms.id, areaId: rooms.areaId, name: rooms.name }).from(rooms).orderBy(asc(rooms.areaId), asc(rooms.id));
}

export function roomsOfArea(tx: Tx, areaId: number) {
  return tx.select().from(rooms).where(eq(rooms.areaId, areaId));
}

export interface AreaListRow {
  id: number;
  name: string;
  parentId: number | null;
  parentName: string | null;
  deep: number;
  areaType: number;
  province: string;
  city: string;
  district: string;
  town: string;
  sort: number;
  companyId: number;
  companyName: string;
  classifyId: number | null;
  childCount: number;
  roomCount: number;
  createdAt: string;
}

/**
 * Areas in tree order (each after its parent, siblings by sort then id). With `under`, the areas below
 * that area (all levels, not the area itself); without, every visible area, starting from the
 * visible roots (a bound user's roots are their bound areas). With `id`, that one area.
 */
export async function listAreas(
  tx: Tx,
  f: { under?: number; name?: string; companyClassifyId?: number; id?: number },
  limit: number,
  offset: number,
) {
  const anchor = f.id != null
    ? sql`a.id = ${f.id}`
    : f.under != null
      ? sql`a.parent_id = ${f.under}`
      : sql`(a.parent_id IS NULL OR NOT EXISTS (SELECT 1 FROM areas p WHERE p.id = a.parent_id))`;
  const w: SQL[] = [sql`true`];
  if (f.name) w.push(sql`a.name ILIKE ${`%${f.name.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (f.companyClassifyId != null) w.push(sql`c.classify_id = ${f.companyClassifyId}`);
  if (f.id != null) w.push(sql`a.id = ${f.id}`);
  const where = sql.join(w, sql` AND `);
  const tree = sql`WITH RECURSIVE t AS (
      SELECT a.id, ARRAY[a.sort::bigint, a.id] AS path FROM areas a WHERE ${anchor}
      UNION ALL
      SELECT a.id, t.path || ARRAY[a.sort::bigint, a.id] FROM areas a JOIN t ON a.parent_id = t.id
    )`;
  const r = await tx.execute<Record<string, unknown>>(sql`${tree}
    SELECT a.id, a.name, a.parent_id, p.name AS parent_name, a.deep, a.area_type, a.province, a.city, a.district, a.town,
           a.sort, a.company_id, c.name AS company_name, a.classify_id, a.created_at,
           (SELECT count(*)::int FROM areas ch WHERE ch.parent_id = a.id) AS child_count,
           (SELECT count(*)::int FROM rooms r WHERE r.area_id = a.id) AS room_count
    FROM t JOIN areas a ON a.id = t.id
    LEFT JOIN areas p ON p.id = a.parent_id
    LEFT JOIN companies c ON c.id = a.company_id
    WHERE ${where}
    ORDER BY a.company_id, t.path
    LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute<{ n: number }>(sql`${tree}
    SELECT count(*)::int AS n FROM t JOIN areas a ON a.id = t.id LEFT JOIN companies c ON c.id = a.company_id WHERE ${where}`);
  const rows: AreaListRow[] = r.rows.map((x) => ({
    id: Number(x.id),
    name: String(x.name),
    parentId: x.parent_id == null ? null : Number(x.parent_id),
    parentName: (x.parent_name as string | null) ?? null,
    deep: Number(x.deep),
    areaType: Number(x.area_type),
    province: String(x.province),
    city: String(x.city),
    district: String(x.district),
    town: String(x.town),
    sort: Number(x.sort),
    companyId: Number(x.company_id),
    companyName: String(x.company_name ?? ''),
    classifyId: x.classify_id == null ? null : Number(x.classify_id),
    childCount: Number(x.child_count),
    roomCount: Number(x.room_count),
    createdAt: x.created_at instanceof Date ? x.created_at.toISOString() : String(x.created_at),
  }));
  return { rows, count: c.rows[0].n };
}

export async function getArea(tx: Tx, id: number) {
  const [r] = await tx.select().from(areas).where(eq(areas.id, id));
  return r;
}

export async function siblingNameTaken(tx: Tx, companyId: number, parentId: number | null, name: string, exceptId?: number) {
  const w = [eq(areas.companyId, companyId), eq(areas.name, name), parentId == null ? isNull(areas.parentId) : eq(areas.parentId, parentId)];
  if (exceptId) w.push(ne(areas.id, exceptId));
  const [r] = await tx.select({ id: areas.id }).from(areas).where(and(...w)).limit(1);
  return !!r;
}

export type AreaValues = Omit<typeof areas.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * The id is drawn first and no row is returned: a user bound to areas may create a child area that
 * their (per-request) area scope does not list yet, and RETURNING would have to read it.
 */
export async function insertArea(tx: Tx, v: AreaValues) {
  const r = await tx.execute<{ id: number }>(sql`SELECT nextval(pg_get_serial_sequence('areas', 'id')) AS id`);
  const id = Number(r.rows[0].id);
  await tx.insert(areas).values({ ...v, id });
  return id;
}

export async function updateArea(tx: Tx, id: number, v: Partial<AreaValues>) {
  await tx.update(areas).set({ ...v, updatedAt: sql`now()` }).where(eq(areas.id, id));
}

/** The ids below an area (all levels) and the deepest level among them. */
export async function subtree(tx: Tx, id: number) {
  const r = await tx.execute<{ id: number; deep: number }>(sql`
    WITH RECURSIVE t AS (SELECT id, deep FROM areas WHERE parent_id = ${id}
      UNION SELECT a.id, a.deep FROM areas a JOIN t ON a.parent_id = t.id)
    SELECT id, deep FROM t`);
  return r.rows.map((x) => ({ id: Number(x.id), deep: Number(x.deep) }));
}

export async function shiftDeep(tx: Tx, ids: number[], delta: number) {
  if (!ids.length || delta === 0) return;
  await tx.update(areas).set({ deep: sql`${areas.deep} + ${delta}`, updatedAt: sql`now()` }).where(inArray(areas.id, ids));
}

/** What still hangs on an area: child areas, rooms, meters, collectors, and the accounts bound to it. */
export async function areaUsage(tx: Tx, id: number) {
  const n = async (q: Promise<{ n: number }[]>) => (await q)[0].n;
  const bound = await tx
    .select({ username: adminUsers.username, realName: adminUsers.realName })
    .from(userAreas)
    .innerJoin(adminUsers, eq(adminUsers.id, userAreas.userId))
    .where(eq(userAreas.areaId, id));
  return {
    children: await n(tx.select({ n: count() }).from(areas).where(eq(areas.parentId, id))),
    rooms: await n(tx.select({ n: count() }).from(rooms).where(eq(rooms.areaId, id))),
    meters: await n(tx.select({ n: count() }).from(meters).where(eq(meters.areaId, id))),
    collectors: await n(tx.select({ n: count() }).from(collectors).where(eq(collectors.areaId, id))),
    bound: bound.map((b) => b.realName || b.username),
  };
}

/** Deletes an area and takes it out of every area-permission set. */
/** An area about to be deleted leaves the area-permission sets that name it. */
export async function dropFromPermissions(tx: Tx, id: number) {
  await tx
    .update(areaPermissions)
    .set({ areaIds: sql`array_remove(${areaPermissions.areaIds}, ${id}::bigint)`, updatedAt: sql`now()` })
    .where(sql`${id}::bigint = ANY(${areaPermissions.areaIds})`);
}

/** Distinct addresses already used by the company's areas (suggestions for the address picker). */
export function usedAddresses(tx: Tx) {
  return tx
    .selectDistinct({ province: areas.province, city: areas.city, district: areas.district, town: areas.town })
    .from(areas)
    .where(ne(areas.province, ''))
    .orderBy(asc(areas.province), asc(areas.city), asc(areas.district), asc(areas.town))
    .limit(2000);
}

/** The ids among `ids` that are visible areas of the company. */
export async function existingAreaIds(tx: Tx, companyId: number, ids: number[]) {
  if (!ids.length) return [];
  const r = await tx.select({ id: areas.id }).from(areas).where(and(eq(areas.companyId, companyId), inArray(areas.id, ids)));
  return r.map((x) => x.id);
}

export async function areaNames(tx: Tx, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const r = await tx.select({ id: areas.id, name: areas.name }).from(areas).where(inArray(areas.id, ids));
  return new Map(r.map((x) => [x.id, x.name]));
}

// ---- admin users ↔ areas ----------------------------------------------------------------------

export async function getUserBrief(tx: Tx, userId: number) {
  const [r] = await tx
    .select({ id: adminUsers.id, username: adminUsers.username, realName: adminUsers.realName, companyId: adminUsers.companyId, access: adminUsers.access })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId));
  return r;
}

export async function boundAreaIds(tx: Tx, userId: number) {
  const r = await tx.select({ id: userAreas.areaId }).from(userAreas).where(eq(userAreas.userId, userId));
  return r.map((x) => x.id);
}

export async function setUserAreas(tx: Tx, userId: number, companyId: number, areaIds: number[]) {
  await tx.delete(userAreas).where(eq(userAreas.userId, userId));
  if (areaIds.length) await tx.insert(userAreas).values(areaIds.map((areaId) => ({ userId, areaId, companyId })));
}

// ---- area-permission sets ----------------------------------------------------------------------

export function usingPermissions(tx: Tx) {
  return tx
    .select({ id: areaPermissions.id, name: areaPermissions.name, areaIds: areaPermissions.areaIds, memo: areaPermissions.memo })
    .from(areaPermissions)
    .where(eq(areaPermissions.status, 1))
    .orderBy(asc(areaPermissions.name));
}

export async function permissionAreaIds(tx: Tx, ids: number[]) {
  if (!ids.length) return [];
  const r = await tx.select({ id: areaPermissions.id, areaIds: areaPermissions.areaIds }).from(areaPermissions).where(inArray(areaPermissions.id, ids));
  return r;
}

export async function companyName(tx: Tx, id: number) {
  const [r] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, id));
  return r?.name;
}

export async function permissionCompany(tx: Tx, id: number) {
  const [r] = await tx.select({ companyId: areaPermissions.companyId }).from(areaPermissions).where(eq(areaPermissions.id, id));
  return r?.companyId;
}
