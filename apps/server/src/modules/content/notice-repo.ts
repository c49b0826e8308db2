import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

// The only SQL of the notices: 系统公告 (system_notices, platform-wide) with the company users' reads,
// 物业公告 (notices, per company) with the owners' reads and the owners they address.

const d = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
const ids = (v: number[]) => `{${v.join(',')}}`;
const like = (k: string) => `%${k.replace(/[%_\\]/g, '\\$&')}%`;

export interface NoticeFilter {
  status?: number;
  typeId?: number;
  category?: number;
  q?: string;
  startTime?: Date;
  endTime?: Date;
}

function where(f: NoticeFilter, extra: SQL[] = []): SQL {
  const w: SQL[] = [sql`true`, ...extra];
  if (f.status !== undefined) w.push(sql`n.status = ${f.status}`);
  if (f.typeId !== undefined) w.push(sql`n.type_id = ${f.typeId}`);
  if (f.category !== undefined) w.push(sql`n.category = ${f.category}`);
  if (f.q) w.push(sql`n.title ILIKE ${like(f.q)}`);
  if (f.startTime) w.push(sql`n.created_at >= ${f.startTime}`);
  if (f.endTime) w.push(sql`n.created_at <= ${f.endTime}`);
  return sql.join(w, sql` AND `);
}

const ORDER = sql`ORDER BY (n.status = 1 AND n.pinned) DESC, coalesce(n.published_at, n.created_at) DESC, n.id DESC`;

const common = (x: Record<string, unknown>) => ({
  id: Number(x.id), title: String(x.title), content: String(x.content), status: Number(x.status), pinned: x.pinned === true,
  publishedAt: d(x.published_at), withdrawnAt: d(x.withdrawn_at), createdByName: String(x.created_by_name),
  createdAt: d(x.created_at)!, updatedAt: d(x.updated_at)!,
});

/** One page of a notice table (`select` reads it as n), in the lists' order, and the number `w` finds. */
async function page<T>(tx: Tx, select: SQL, table: 'notices' | 'system_notices', w: SQL, limit: number, offset: number, rec: (x: Record<string, unknown>) => T) {
  const rows = await tx.execute(sql`${select} WHERE ${w} ${ORDER} LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} n WHERE ${w}`);
  return { rows: rows.rows.map(rec), count: Number(c.rows[0]!.n) };
}

/** One notice by id (locked for an update when `lock`). */
async function one<T>(tx: Tx, select: SQL, id: number, lock: boolean, rec: (x: Record<string, unknown>) => T) {
  const r = await tx.execute(sql`${select} WHERE n.id = ${id}${lock ? sql` FOR UPDATE OF n` : sql``}`);
  return r.rows[0] ? rec(r.rows[0]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// 系统公告
// ---------------------------------------------------------------------------------------------

const systemRecord = (x: Record<string, unknown>) => ({ ...common(x), category: Number(x.category), readCompanies: Number(x.read_companies ?? 0) });
export type SystemNoticeRecord = ReturnType<typeof systemRecord>;

const SYSTEM_SELECT = sql`SELECT n.*, (SELECT count(DISTINCT r.company_id) FROM system_notice_reads r WHERE r.notice_id = n.id)::int AS read_companies
  FROM system_notices n`;

export function listSystem(tx: Tx, f: NoticeFilter, limit: number, offset: number) {
  return page(tx, SYSTEM_SELECT, 'system_notices', where(f), limit, offset, systemRecord);
}

export function getSystem(tx: Tx, id: number, lock = false) {
  return one(tx, SYSTEM_SELECT, id, lock, systemRecord);
}

/** Companies a system notice reaches: every company in use. */
export async function companyCount(tx: Tx) {
  const r = await tx.execute(sql`SELECT count(*)::int AS n FROM companies WHERE status = 1`);
  return Number(r.rows[0]!.n);
}

export interface SystemValues { category: number; title: string; content: string; pinned: boolean }

export async function insertSystem(tx: Tx, v: SystemValues, by: { id: number; name: string }) {
  const r = await tx.execute(sql`INSERT INTO system_notices (category, title, content, pinned, created_by_id, created_by_name)
    VALUES (${v.category}, ${v.title}, ${v.content}, ${v.pinned}, ${by.id}, ${by.name}) RETURNING id`);
  return Number(r.rows[0]!.id);
}

export async function updateSystem(tx: Tx, id: number, v: SystemValues) {
  await tx.execute(sql`UPDATE system_notices SET category = ${v.category}, title = ${v.title}, content = ${v.content}, pinned = ${v.pinned},
    updated_at = now() WHERE id = ${id}`);
}

/** Published system notices with whether this user has read them. */
export async function inbox(tx: Tx, userId: number, limit: number) {
  const r = await tx.execute(sql`SELECT n.id, n.title, n.category, n.pinned, n.published_at,
      EXISTS (SELECT 1 FROM system_notice_reads r WHERE r.notice_id = n.id AND r.user_id = ${userId}) AS read
    FROM system_notices n WHERE n.status = 1 ORDER BY n.pinned DESC, n.published_at DESC, n.id DESC LIMIT ${limit}`);
  const u = await tx.execute(sql`SELECT count(*)::int AS n FROM system_notices n WHERE n.status = 1
    AND NOT EXISTS (SELECT 1 FROM system_notice_reads r WHERE r.notice_id = n.id AND r.user_id = ${userId})`);
  return {
    unread: Number(u.rows[0]!.n),
    rows: r.rows.map((x) => ({ id: Number(x.id), title: String(x.title), category: Number(x.category), pinned: x.pinned === true, publishedAt: d(x.published_at)!, read: x.read === true })),
  };
}

export async function markSystemRead(tx: Tx, noticeId: number, userId: number, companyId: number) {
  await tx.execute(sql`INSERT INTO system_notice_reads (notice_id, user_id, company_id) VALUES (${noticeId}, ${userId}, ${companyId})
    ON CONFLICT DO NOTHING`);
}

// ---------------------------------------------------------------------------------------------
// 物业公告
// ---------------------------------------------------------------------------------------------

const record = (x: Record<string, unknown>) => ({
  ...common(x), companyId: Number(x.company_id), typeId: x.type_id == null ? null : Number(x.type_id), typeName: String(x.type_name),
  areaIds: ((x.area_ids as unknown[] | null) ?? []).map(Number), areaNames: ((x.area_names as unknown[] | null) ?? []).map(String),
  sendSms: x.send_sms === true, smsCount: Number(x.sms_count), readCount: Number(x.read_count ?? 0),
});
export type NoticeRecord = ReturnType<typeof record>;

const SELECT = sql`SELECT n.*,
    (SELECT count(*) FROM notice_reads r WHERE r.notice_id = n.id)::int AS read_count,
    ARRAY(SELECT a.name FROM areas a WHERE a.id = ANY(n.area_ids) ORDER BY a.id) AS area_names
  FROM notices n`;

/** Owners living now in rooms of these areas (and below), or in any room of the company when none. */
function audienceWhere(areaIds: number[]): SQL {
  const inAreas = areaIds.length
    ? sql` AND r.area_id IN (WITH RECURSIVE t AS (SELECT id FROM areas WHERE id = ANY(${ids(areaIds)}::bigint[])
        UNION SELECT a.id FROM areas a JOIN t ON a.parent_id = t.id) SELECT id FROM t)`
    : sql``;
  return sql`o.status = 1 AND o.room_id IS NOT NULL${inAreas}`;
}

export function list(tx: Tx, companyId: number, f: NoticeFilter, limit: number, offset: number) {
  return page(tx, SELECT, 'notices', where(f, [sql`n.company_id = ${companyId}`]), limit, offset, record);
}

export function get(tx: Tx, id: number, lock = false) {
  return one(tx, SELECT, id, lock, record);
}

export interface NoticeValues { typeId: number | null; typeName: string; title: string; content: string; areaIds: number[]; pinned: boolean; sendSms: boolean }

export async function insert(tx: Tx, companyId: number, v: NoticeValues, by: { id: number; name: string }) {
  const r = await tx.execute(sql`INSERT INTO notices (company_id, type_id, type_name, title, content, area_ids, pinned, send_sms, created_by_id, created_by_name)
    VALUES (${companyId}, ${v.typeId}, ${v.typeName}, ${v.title}, ${v.content}, ${ids(v.areaIds)}::bigint[], ${v.pinned}, ${v.sendSms}, ${by.id}, ${by.name})
    RETURNING id`);
  return Number(r.rows[0]!.id);
}

export async function update(tx: Tx, id: number, v: NoticeValues) {
  await tx.execute(sql`UPDATE notices SET type_id = ${v.typeId}, type_name = ${v.typeName}, title = ${v.title}, content = ${v.content},
    area_ids = ${ids(v.areaIds)}::bigint[], pinned = ${v.pinned}, send_sms = ${v.sendSms}, updated_at = now() WHERE id = ${id}`);
}

/** Publishes, withdraws or (re)drafts a notice of either table. */
export async function setStatus(tx: Tx, table: 'notices' | 'system_notices', id: number, status: number, smsCount?: number) {
  const stamp = status === 1 ? sql`, published_at = now(), withdrawn_at = NULL` : status === 2 ? sql`, withdrawn_at = now()` : sql``;
  const sms = smsCount === undefined ? sql`` : sql`, sms_count = sms_count + ${smsCount}`;
  await tx.execute(sql`UPDATE ${sql.identifier(table)} SET status = ${status}, updated_at = now()${stamp}${sms} WHERE id = ${id}`);
}

export async function remove(tx: Tx, table: 'notices' | 'system_notices', id: number) {
  await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE id = ${id} AND status = 0`);
}

/** How many owners each notice addresses now. */
export async function audienceCounts(tx: Tx, notices: { id: number; areaIds: number[] }[]) {
  const out = new Map<number, number>();
  for (const n of notices) {
    const r = await tx.execute(sql`SELECT count(*)::int AS n FROM owners o JOIN rooms r ON r.id = o.room_id WHERE ${audienceWhere(n.areaIds)}`);
    out.set(n.id, Number(r.rows[0]!.n));
  }
  return out;
}

/** The owners a notice addresses, with what an SMS to them needs. */
export async function audience(tx: Tx, areaIds: number[]) {
  const r = await tx.execute(sql`SELECT o.id, o.name, o.phone, r.name AS room_name FROM owners o JOIN rooms r ON r.id = o.room_id
    WHERE ${audienceWhere(areaIds)} ORDER BY o.id`);
  return r.rows.map((x) => ({ ownerId: Number(x.id), ownerName: String(x.name), phone: String(x.phone), roomName: String(x.room_name) }));
}

/** Areas of the company among these (the others are someone else's or gone). */
export async function areasOf(tx: Tx, companyId: number, areaIds: number[]) {
  if (!areaIds.length) return [];
  const r = await tx.execute(sql`SELECT id FROM areas WHERE company_id = ${companyId} AND id = ANY(${ids(areaIds)}::bigint[])`);
  return r.rows.map((x) => Number(x.id));
}

export async function noticeType(tx: Tx, id: number, companyId: number) {
  const r = await tx.execute(sql`SELECT id, name, status FROM notice_types WHERE id = ${id} AND company_id = ${companyId}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name), status: Number(x.status) } : undefined;
}

// ---------------------------------------------------------------------------------------------
// 业主端
// ---------------------------------------------------------------------------------------------

/** The owner (of the caller's company, row-level security) and the area of the room they live in. */
export async function ownerRoom(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`SELECT o.id, o.company_id, r.area_id FROM owners o LEFT JOIN rooms r ON r.id = o.room_id
    WHERE o.id = ${ownerId} AND o.status = 1`);
  const x = r.rows[0];
  return x ? { ownerId: Number(x.id), companyId: Number(x.company_id), areaId: x.area_id == null ? null : Number(x.area_id) } : undefined;
}

/** Published notices addressed to an owner living in this area: to everyone, or to it or an area above it. */
function addressed(companyId: number, areaId: number | null): SQL {
  const up = areaId == null
    ? sql`false`
    : sql`n.area_ids && ARRAY(WITH RECURSIVE up AS (SELECT id, parent_id FROM areas WHERE id = ${areaId}
        UNION SELECT a.id, a.parent_id FROM areas a JOIN up ON a.id = up.parent_id) SELECT id FROM up)::bigint[]`;
  return sql`n.company_id = ${companyId} AND n.status = 1 AND (cardinality(n.area_ids) = 0 OR ${up})`;
}

export async function ownerList(tx: Tx, o: { ownerId: number; companyId: number; areaId: number | null }, limit: number, offset: number) {
  const w = addressed(o.companyId, o.areaId);
  const r = await tx.execute(sql`SELECT n.id, n.title, n.type_name, n.pinned, n.published_at,
      EXISTS (SELECT 1 FROM notice_reads x WHERE x.notice_id = n.id AND x.owner_id = ${o.ownerId}) AS read
    FROM notices n WHERE ${w} ORDER BY n.pinned DESC, n.published_at DESC, n.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::int AS n FROM notices n WHERE ${w}`);
  return {
    rows: r.rows.map((x) => ({ id: Number(x.id), title: String(x.title), typeName: String(x.type_name), pinned: x.pinned === true, publishedAt: d(x.published_at)!, read: x.read === true })),
    count: Number(c.rows[0]!.n),
  };
}

export async function ownerNotice(tx: Tx, o: { companyId: number; areaId: number | null }, id: number) {
  const r = await tx.execute(sql`SELECT n.id, n.title, n.type_name, n.pinned, n.published_at, n.content FROM notices n
    WHERE n.id = ${id} AND ${addressed(o.companyId, o.areaId)}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), title: String(x.title), typeName: String(x.type_name), pinned: x.pinned === true, publishedAt: d(x.published_at)!, content: String(x.content), read: true } : undefined;
}

export async function markRead(tx: Tx, noticeId: number, ownerId: number, companyId: number) {
  await tx.execute(sql`INSERT INTO notice_reads (notice_id, owner_id, company_id) VALUES (${noticeId}, ${ownerId}, ${companyId}) ON CONFLICT DO NOTHING`);
}
