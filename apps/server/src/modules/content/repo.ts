import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';

// The only SQL of the appeals (the type dictionaries go through the generic CRUD repository).

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const d = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

export interface AppealRecord {
  id: number;
  companyId: number;
  companyName: string;
  kind: number;
  typeId: number | null;
  typeName: string;
  title: string;
  content: string;
  status: number;
  areaId: number | null;
  areaName: string;
  roomId: number | null;
  roomName: string;
  ownerId: number | null;
  contactName: string;
  contactPhone: string;
  assigneeId: number | null;
  assigneeName: string;
  deadlineAt: Date;
  finishedAt: Date | null;
  createdByName: string;
  meterId: number | null;
  collectorId: number | null;
  exceptionKind: string | null;
  photos: string[];
  createdAt: Date;
}

const record = (x: Record<string, unknown>): AppealRecord => ({
  id: Number(x.id), companyId: Number(x.company_id), companyName: String(x.company_name ?? ''), kind: Number(x.kind),
  typeId: n(x.type_id), typeName: String(x.type_name), title: String(x.title), content: String(x.content), status: Number(x.status),
  areaId: n(x.area_id), areaName: String(x.area_name ?? ''), roomId: n(x.room_id), roomName: String(x.room_name ?? ''),
  ownerId: n(x.owner_id), contactName: String(x.contact_name), contactPhone: String(x.contact_phone), assigneeId: n(x.assignee_id),
  assigneeName: String(x.assignee_name), deadlineAt: d(x.deadline_at)!, finishedAt: d(x.finished_at), createdByName: String(x.created_by_name),
  meterId: n(x.meter_id), collectorId: n(x.collector_id), exceptionKind: x.exception_kind == null ? null : String(x.exception_kind),
  photos: Array.isArray(x.photos) ? x.photos.map(String) : [], createdAt: d(x.created_at)!,
});

const SELECT = sql`SELECT a.*, c.name AS company_name, ar.name AS area_name, r.name AS room_name
  FROM appeals a LEFT JOIN companies c ON c.id = a.company_id LEFT JOIN areas ar ON ar.id = a.area_id LEFT JOIN rooms r ON r.id = a.room_id`;

export interface AppealFilter {
  kind: number;
  /** 业主端: only the appeals of these rooms */
  roomIds?: number[];
  status?: number;
  typeId?: number;
  keyword?: string;
  overdue?: boolean;
  startTime?: Date;
  endTime?: Date;
  searchArea?: number;
  /** the areas the user may see (null = all) */
  areaIds: number[] | null;
  now: Date;
}

function where(f: AppealFilter): SQL {
  const w: SQL[] = [sql`a.kind = ${f.kind}`];
  if (f.roomIds) w.push(sql`a.room_id = ANY(${`{${f.roomIds.join(',')}}`}::bigint[])`);
  if (f.status !== undefined) w.push(sql`a.status = ${f.status}`);
  if (f.typeId !== undefined) w.push(sql`a.type_id = ${f.typeId}`);
  if (f.keyword) {
    const k = `%${f.keyword.replace(/[%_\\]/g, '\\$&')}%`;
    w.push(sql`(a.title ILIKE ${k} OR a.content ILIKE ${k} OR a.contact_name ILIKE ${k} OR a.contact_phone ILIKE ${k} OR r.name ILIKE ${k})`);
  }
  if (f.overdue === true) w.push(sql`(a.status IN (0, 1) AND a.deadline_at < ${f.now})`);
  if (f.overdue === false) w.push(sql`NOT (a.status IN (0, 1) AND a.deadline_at < ${f.now})`);
  if (f.startTime) w.push(sql`a.created_at >= ${f.startTime}`);
  if (f.endTime) w.push(sql`a.created_at <= ${f.endTime}`);
  if (f.searchArea !== undefined) w.push(sql`a.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.areaIds) w.push(f.areaIds.length ? sql`a.area_id = ANY(${`{${f.areaIds.join(',')}}`}::bigint[])` : sql`false`);
  return sql.join(w, sql` AND `);
}

export async function list(tx: Tx, f: AppealFilter, limit: number, offset: number) {
  const w = where(f);
  const rows = await tx.execute(sql`${SELECT} WHERE ${w}
    ORDER BY (a.status IN (0, 1)) DESC, a.created_at DESC, a.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::int AS n FROM appeals a LEFT JOIN rooms r ON r.id = a.room_id WHERE ${w}`);
  return { rows: rows.rows.map(record), count: Number(c.rows[0]!.n) };
}

export async function get(tx: Tx, id: number, lock = false) {
  const r = await tx.execute(sql`${SELECT} WHERE a.id = ${id}${lock ? sql` FOR UPDATE OF a` : sql``}`);
  return r.rows[0] ? record(r.rows[0]) : undefined;
}

export async function insert(tx: Tx, a: {
  companyId: number; kind: number; typeId: number; typeName: string; title: string; content: string; areaId: number | null;
  roomId: number | null; ownerId: number | null; contactName: string; contactPhone: string; deadlineAt: Date; createdById: number | null; createdByName: string;
  photos?: string[];
}) {
  const r = await tx.execute(sql`INSERT INTO appeals (company_id, kind, type_id, type_name, title, content, area_id, room_id, owner_id,
      contact_name, contact_phone, deadline_at, created_by_id, created_by_name, photos)
    VALUES (${a.companyId}, ${a.kind}, ${a.typeId}, ${a.typeName}, ${a.title}, ${a.content}, ${a.areaId}, ${a.roomId}, ${a.ownerId},
      ${a.contactName}, ${a.contactPhone}, ${a.deadlineAt}, ${a.createdById}, ${a.createdByName}, ${`{${(a.photos ?? []).join(',')}}`}::text[]) RETURNING id`);
  return Number(r.rows[0]!.id);
}

export async function update(tx: Tx, id: number, p: { status?: number; assigneeId?: number; assigneeName?: string; finishedAt?: Date }) {
  const set: SQL[] = [sql`updated_at = now()`];
  if (p.status !== undefined) set.push(sql`status = ${p.status}`);
  if (p.assigneeId !== undefined) set.push(sql`assignee_id = ${p.assigneeId}, assignee_name = ${p.assigneeName ?? ''}`);
  if (p.finishedAt !== undefined) set.push(sql`finished_at = ${p.finishedAt}`);
  await tx.execute(sql`UPDATE appeals SET ${sql.join(set, sql`, `)} WHERE id = ${id}`);
}

export async function addEvent(tx: Tx, e: {
  companyId: number; appealId: number; action: string; fromStatus: number | null; toStatus: number | null; content: string;
  byId: number | null; byName: string; byAccess: number;
}) {
  await tx.execute(sql`INSERT INTO appeal_events (company_id, appeal_id, action, from_status, to_status, content, by_id, by_name, by_access)
    VALUES (${e.companyId}, ${e.appealId}, ${e.action}, ${e.fromStatus}, ${e.toStatus}, ${e.content}, ${e.byId}, ${e.byName}, ${e.byAccess})`);
}

export async function events(tx: Tx, appealId: number) {
  const r = await tx.execute(sql`SELECT * FROM appeal_events WHERE appeal_id = ${appealId} ORDER BY created_at, id`);
  return r.rows.map((x) => ({
    id: Number(x.id), action: String(x.action), fromStatus: n(x.from_status), toStatus: n(x.to_status), content: String(x.content),
    byName: String(x.by_name), byAccess: Number(x.by_access), createdAt: d(x.created_at)!,
  }));
}

/** An appeal/work-order type of the company (RLS limits it to the caller's company). */
export async function type(tx: Tx, table: 'appeal_types' | 'work_order_types', id: number, companyId: number) {
  const r = await tx.execute(sql`SELECT id, name, limit_hours, status FROM ${sql.identifier(table)} WHERE id = ${id} AND company_id = ${companyId}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name), limitHours: Number(x.limit_hours), status: Number(x.status) } : undefined;
}

/** The room an owner appeal concerns, with its area and current owner. */
export async function room(tx: Tx, roomId: number) {
  const r = await tx.execute(sql`SELECT r.id, r.name, r.area_id, r.company_id,
      (SELECT o.id FROM owners o WHERE o.room_id = r.id AND o.status = 1 ORDER BY o.id DESC LIMIT 1) AS owner_id
    FROM rooms r WHERE r.id = ${roomId}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name), areaId: Number(x.area_id), companyId: Number(x.company_id), ownerId: n(x.owner_id) } : undefined;
}

export async function owner(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`SELECT id, name, phone, room_id FROM owners WHERE id = ${ownerId}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), name: String(x.name), phone: String(x.phone), roomId: n(x.room_id) } : undefined;
}

/** The company's enabled staff accounts (assignees). */
export async function staff(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT id, COALESCE(NULLIF(real_name, ''), username) AS name FROM admin_users
    WHERE company_id = ${companyId} AND status = 1 ORDER BY id`);
  return r.rows.map((x) => ({ id: Number(x.id), name: String(x.name) }));
}

/** Appeals of these 诉求类型 (a type in use is not deleted). */
export async function typeUses(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`SELECT count(*)::int AS n FROM appeals WHERE type_id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
  return Number(r.rows[0]!.n);
}

/** The company's appeal types in use (业主端's type picker). */
export async function activeAppealTypes(tx: Tx) {
  const r = await tx.execute(sql`SELECT id, name FROM appeal_types WHERE status = 1 ORDER BY sort, id`);
  return r.rows.map((x) => ({ id: Number(x.id), name: String(x.name) }));
}
