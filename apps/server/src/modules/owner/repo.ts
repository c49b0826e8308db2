import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { ownerRoomHistory, owners } from '../../db/schema/index.ts';
import { areaPathOf, isoTime } from '../room/index.ts';
import type { HistoryListInput, OwnerInput, OwnerListInput, OwnerRow } from '@meter/contracts';
export type { OwnerRow };

// Owners (userinfo) and their move-in history: the only SQL of the owner module. Row-level
// security limits every statement to the caller's company; owners follow their room's area scope
// here (an owner without a room is visible to the whole company).

/** the list's search fields as declared (packages/contracts), in the caller's company and area scope */
export interface OwnerFilter extends Omit<OwnerListInput, 'index' | 'size'> {
  companyId: number | null;
  /** the user is bound to areas: only owners in visible rooms, or without a room */
  areaRestricted: boolean;
}

const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`;

function ownerWhere(f: OwnerFilter): SQL {
  const w: SQL[] = [];
  if (f.companyId != null) w.push(sql`o.company_id = ${f.companyId}`);
  if (f.areaRestricted) w.push(sql`(o.room_id IS NULL OR o.room_id IN (SELECT rv.id FROM rooms rv))`);
  if (f.name) w.push(sql`o.name ILIKE ${like(f.name)}`);
  if (f.phone) w.push(sql`o.phone ILIKE ${like(f.phone)}`);
  if (f.status != null) w.push(sql`o.status = ${f.status}`);
  if (f.roomId != null) w.push(sql`o.room_id = ${f.roomId}`);
  if (f.roomName) w.push(sql`o.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.searchArea != null) w.push(sql`o.room_id IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`);
  return w.length ? sql.join(w, sql` AND `) : sql`true`;
}


/** The owners whose ids `page` selects, with their room, area path and portal password state. */
function ownerRowsSql(page: SQL): SQL {
  return sql`WITH page AS (${page})
    SELECT o.id, o.id AS "userId", o.company_id AS "companyId", o.name, o.phone, o.id_number AS "idNumber", o.gender, o.email,
      o.room_id AS "roomId", r.name AS "roomName", r.area_id AS "areaId", ap.path AS "areaName",
      o.status, ${isoTime(sql`o.moved_in_at`)} AS "movedInAt", o.memo, ${isoTime(sql`o.created_at`)} AS "createdAt", (o.password_hash <> '') AS "hasPassword"
    FROM page JOIN owners o ON o.id = page.id
    LEFT JOIN rooms r ON r.id = o.room_id
    LEFT JOIN LATERAL (${areaPathOf(sql`r.area_id`)}) ap ON true
    ORDER BY o.id DESC`;
}

export async function countOwners(tx: Tx, f: OwnerFilter) {
  const r = await tx.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM owners o WHERE ${ownerWhere(f)}`);
  return Number(r.rows[0]?.n ?? 0);
}

export async function pageOwners(tx: Tx, f: OwnerFilter, limit: number, offset: number) {
  const r = await tx.execute<OwnerRow & Record<string, unknown>>(
    ownerRowsSql(sql`SELECT o.id FROM owners o WHERE ${ownerWhere(f)} ORDER BY o.id DESC LIMIT ${limit} OFFSET ${offset}`),
  );
  return r.rows;
}

/** The next batch for an export, newest first, after the id the last batch ended at (keyset). */
export async function ownersBefore(tx: Tx, f: OwnerFilter, beforeId: number | null, limit: number) {
  const w = beforeId == null ? ownerWhere(f) : sql`${ownerWhere(f)} AND o.id < ${beforeId}`;
  const r = await tx.execute<OwnerRow & Record<string, unknown>>(ownerRowsSql(sql`SELECT o.id FROM owners o WHERE ${w} ORDER BY o.id DESC LIMIT ${limit}`));
  return r.rows;
}

export async function getOwner(tx: Tx, f: Pick<OwnerFilter, 'areaRestricted'>, id: number) {
  const r = await tx.execute<OwnerRow & Record<string, unknown>>(
    ownerRowsSql(sql`SELECT o.id FROM owners o WHERE o.id = ${id} AND ${ownerWhere({ companyId: null, areaRestricted: f.areaRestricted })}`),
  );
  return r.rows[0];
}

/** The owner row itself, locked for a move. */
export async function lockOwner(tx: Tx, id: number) {
  const [o] = await tx
    .select({ id: owners.id, companyId: owners.companyId, name: owners.name, phone: owners.phone, roomId: owners.roomId, status: owners.status })
    .from(owners)
    .where(eq(owners.id, id))
    .for('update');
  return o;
}

/** Who lives in the room now (at most one: unique index owners_room_current). */
export async function currentOwnerOf(tx: Tx, roomId: number) {
  const [o] = await tx.select({ id: owners.id, name: owners.name }).from(owners).where(and(eq(owners.roomId, roomId), eq(owners.status, 1)));
  return o;
}

export async function insertOwner(tx: Tx, v: Omit<OwnerInput, 'roomId'> & { companyId: number }) {
  const [r] = await tx.insert(owners).values({ ...v, status: 0 }).returning({ id: owners.id });
  return r.id;
}

export async function setOwnerRoom(tx: Tx, id: number, roomId: number | null) {
  await tx
    .update(owners)
    .set({ roomId, status: roomId == null ? 0 : 1, movedInAt: roomId == null ? null : sql`now()`, updatedAt: sql`now()` })
    .where(eq(owners.id, id));
}

export async function setOwnerPassword(tx: Tx, id: number, passwordHash: string) {
  await tx.update(owners).set({ passwordHash, updatedAt: sql`now()` }).where(eq(owners.id, id));
}

/**
 * Ends the 业主端 sessions of this owner row (signed in with its room + password or as its phone; only
 * the phone ones with `via`). A password reset or change, 迁出, 销户 and a changed phone end them; app.ts's
 * auth-changed signal then makes every owner socket check its session again, closing theirs. Deleting
 * an owner deletes its sessions (ON DELETE CASCADE). Returns how many were ended.
 */
export async function endOwnerSessions(tx: Tx, ownerId: number, via?: 'sms') {
  const r = await tx.execute(sql`UPDATE owner_sessions SET revoked_at = now()
    WHERE owner_id = ${ownerId} AND revoked_at IS NULL${via ? sql` AND via = ${via}` : sql``}`);
  return r.rowCount ?? 0;
}

export async function deleteOwners(tx: Tx, ids: number[]) {
  await tx.delete(owners).where(inArray(owners.id, ids));
}

export interface HistoryValues {
  companyId: number;
  ownerId: number;
  roomId: number;
  areaId: number;
  ownerName: string;
  ownerPhone: string;
  roomName: string;
  action: 1 | 2;
  operatorId: number;
  operatorName: string;
  memo: string;
}

export async function insertHistory(tx: Tx, v: HistoryValues) {
  await tx.insert(ownerRoomHistory).values(v);
}

/** the list's search fields as declared (packages/contracts), in the caller's company */
export interface HistoryFilter extends Omit<HistoryListInput, 'index' | 'size' | 'startTime' | 'endTime'> {
  companyId: number | null;
  /** Asia/Shanghai wall-clock bounds: from (inclusive), until `at` plus `unit` (exclusive) */
  from?: string;
  until?: { at: string; unit: string };
}

function historyWhere(f: HistoryFilter): SQL {
  const w: SQL[] = [];
  if (f.companyId != null) w.push(sql`h.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`h.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.ownerName) w.push(sql`h.owner_name ILIKE ${like(f.ownerName)}`);
  if (f.ownerPhone) w.push(sql`h.owner_phone ILIKE ${like(f.ownerPhone)}`);
  if (f.roomName) w.push(sql`h.room_name ILIKE ${like(f.roomName)}`);
  if (f.action != null) w.push(sql`h.action = ${f.action}`);
  if (f.ownerId != null) w.push(sql`h.owner_id = ${f.ownerId}`);
  if (f.roomId != null) w.push(sql`h.room_id = ${f.roomId}`);
  if (f.from) w.push(sql`h.at >= (${f.from}::timestamp AT TIME ZONE 'Asia/Shanghai')`);
  if (f.until) w.push(sql`h.at < ((${f.until.at}::timestamp + ${f.until.unit}::interval) AT TIME ZONE 'Asia/Shanghai')`);
  return w.length ? sql.join(w, sql` AND `) : sql`true`;
}

export async function listHistory(tx: Tx, f: HistoryFilter, limit: number, offset: number) {
  const where = historyWhere(f);
  const rows = await tx.execute(sql`SELECT h.id, h.owner_id AS "ownerId", h.owner_name AS "ownerName", h.owner_phone AS "ownerPhone",
      h.room_id AS "roomId", h.room_name AS "roomName", h.area_id AS "areaId", h.action, ${isoTime(sql`h.at`)} AS at,
      h.operator_id AS "operatorId", h.operator_name AS "operatorName", h.memo
    FROM owner_room_history h WHERE ${where} ORDER BY h.at DESC, h.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM owner_room_history h WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}
