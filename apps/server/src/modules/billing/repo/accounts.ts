// Counter operations on rooms, owners and receipts; closing and reopening accounts.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { localTime } from '../../../db/local-time.ts';
import { accounts, companyChargeCodes, receipts } from '../../../db/schema/index.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import { ORIGIN } from '../../control/index.ts';
import { areaPathOf } from '../../room/index.ts';
import { toLocked } from './ledger.ts';
import { arr, like } from './sql.ts';

// ---- rooms, owners, receipts (counter operations) ----------------------------------------------------

export interface RoomOwner {
  roomId: number;
  companyId: number;
  roomName: string;
  areaId: number;
  /** the area path and room, e.g. 阳光园区/1号楼/1层/1-101 */
  path: string;
  ownerId: number | null;
  ownerName: string;
  ownerPhone: string;
}

/** A room visible in the caller's scope, with its current owner. */
export async function roomOwner(tx: Tx, roomId: number): Promise<RoomOwner | undefined> {
  const r = await tx.execute(sql`
    SELECT r.id, r.company_id, r.name, r.area_id, o.id AS owner_id, coalesce(o.name, '') AS owner_name, coalesce(o.phone, '') AS owner_phone,
      (${areaPathOf(sql`r.area_id`)}) AS path
    FROM rooms r LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    WHERE r.id = ${roomId}`);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    roomId: Number(x.id),
    companyId: Number(x.company_id),
    roomName: String(x.name),
    areaId: Number(x.area_id),
    path: `${x.path ? `${String(x.path)}/` : ''}${String(x.name)}`,
    ownerId: x.owner_id == null ? null : Number(x.owner_id),
    ownerName: String(x.owner_name),
    ownerPhone: String(x.owner_phone),
  };
}

export async function insertReceipt(tx: Tx, v: {
  companyId: number; journalId: number; ownerId: number; roomId: number | null; kind: string; payMethod: string;
  items: { item: string; amountFen: number }[]; amountFen: number; operatorName: string; memo: string; no: string;
}) {
  const [row] = await tx
    .insert(receipts)
    .values(v)
    .onConflictDoNothing({ target: receipts.journalId })
    .returning({ id: receipts.id, no: receipts.no });
  if (row) return row;
  const [old] = await tx.select({ id: receipts.id, no: receipts.no }).from(receipts).where(eq(receipts.journalId, v.journalId));
  return old;
}

export async function chargeCodes(tx: Tx, ids: number[]) {
  if (!ids.length) return [];
  return tx
    .select({ id: companyChargeCodes.id, code: companyChargeCodes.code, name: companyChargeCodes.name, schemeType: companyChargeCodes.schemeType, amountFen: companyChargeCodes.amountFen })
    .from(companyChargeCodes)
    .where(inArray(companyChargeCodes.id, ids));
}

/** The balance of an owner's wallet (0 when the account does not exist yet). */
export async function walletBalance(tx: Tx, ownerId: number, wallet: string) {
  const [a] = await tx.select({ balanceFen: accounts.balanceFen, status: accounts.status }).from(accounts).where(and(eq(accounts.ownerId, ownerId), eq(accounts.wallet, wallet)));
  return a ?? { balanceFen: 0, status: 1 };
}

export async function setCloseDeferred(tx: Tx, rows: { accountId: number; deferred: boolean }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE accounts a SET close_deferred = v.d
    FROM unnest(${arr(rows.map((r) => r.accountId))}::bigint[], ${arr(rows.map((r) => r.deferred))}::boolean[]) AS v(id, d)
    WHERE a.id = v.id AND a.close_deferred IS DISTINCT FROM v.d`);
}

/** An account owed an automatic close, with the meters to ask it of. */
const owedClose = (x: Record<string, unknown>) => ({
  accountId: Number(x.id),
  companyId: Number(x.company_id),
  wallet: String(x.wallet),
  balanceFen: Number(x.balance_fen),
  meterIds: (x.meter_ids as (string | number)[]).map(Number),
});

/** Accounts owed an automatic close: still at the close level; their meters still open, none closing. */
export async function deferredCloses(tx: Tx, limit: number) {
  const r = await tx.execute(sql`
    SELECT a.id, a.company_id, a.wallet, a.balance_fen,
      coalesce(array_agg(m.id ORDER BY m.id) FILTER (WHERE m.id IS NOT NULL), '{}') AS meter_ids
    FROM accounts a
    JOIN owners o ON o.id = a.owner_id AND o.status = 1
    LEFT JOIN meters m ON m.room_id = o.room_id AND m.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND m.status = 1
      AND m.valve_state IS DISTINCT FROM 0
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM commands c WHERE c.meter_id = m.id AND c.kind = 'close' AND c.status IN ('queued', 'sent'))
    WHERE a.close_deferred AND a.alarm_level = 3 AND a.status = 1
    GROUP BY a.id ORDER BY a.id LIMIT ${limit}`);
  return r.rows.map(owedClose);
}

/**
 * Accounts at the close level whose automatic close did not take (the meter did not answer: the
 * collector was offline, the relay did not move) and whose meter has been heard from since, so it can
 * be asked again: the meter's latest valve command is that failed automatic close (a person who opened
 * or closed it since decided, and is left alone), and fewer than three automatic closes failed on it
 * in the last day (a stuck relay is not asked every minute).
 */
export async function failedCloses(tx: Tx, limit: number) {
  const r = await tx.execute(sql`
    SELECT a.id, a.company_id, a.wallet, a.balance_fen, array_agg(m.id ORDER BY m.id) AS meter_ids
    FROM accounts a
    JOIN owners o ON o.id = a.owner_id AND o.status = 1
    JOIN meters m ON m.room_id = o.room_id AND m.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND m.status = 1
      AND m.valve_state IS DISTINCT FROM 0 AND m.online
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
    JOIN LATERAL (
      SELECT c.kind, c.origin, c.status, coalesce(c.finished_at, c.expires_at) AS ended FROM commands c
      WHERE c.meter_id = m.id AND c.kind IN ('open', 'close') ORDER BY c.created_at DESC, c.id DESC LIMIT 1) lc
      ON lc.kind = 'close' AND lc.origin = ${ORIGIN.automatic} AND lc.status IN ('failed', 'timed_out', 'expired') AND m.last_seen_at > lc.ended
    WHERE a.alarm_level = 3 AND a.status = 1 AND NOT a.close_deferred
      AND (SELECT count(*) FROM commands f WHERE f.meter_id = m.id AND f.kind = 'close' AND f.origin = ${ORIGIN.automatic}
        AND f.status IN ('failed', 'timed_out', 'expired') AND f.created_at > now() - interval '1 day') < 3
    GROUP BY a.id ORDER BY a.id LIMIT ${limit}`);
  return r.rows.map(owedClose);
}

// ---- closing and reopening accounts ------------------------------------------------------------------

export async function roomMeters(tx: Tx, roomId: number) {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.area_id, m.name, m.address, m.kind, m.status, m.valve_state
    FROM meters m WHERE m.room_id = ${roomId} AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
    ORDER BY m.id`);
  return r.rows.map((x) => ({
    id: Number(x.id),
    companyId: Number(x.company_id),
    areaId: x.area_id == null ? null : Number(x.area_id),
    name: String(x.name),
    address: String(x.address),
    kind: Number(x.kind),
    status: Number(x.status),
    valveState: x.valve_state == null ? null : Number(x.valve_state),
  }));
}

/** The owner's accounts, locked. */
export async function ownerAccounts(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`
    SELECT id, company_id, owner_id, room_id, wallet, balance_fen, status, alarm_level FROM accounts
    WHERE owner_id = ${ownerId} ORDER BY id FOR UPDATE`);
  return r.rows.map(toLocked);
}

export async function setAccountsState(tx: Tx, ownerId: number, s: { status: number; roomId?: number; alarmLevel?: number }) {
  await tx.execute(sql`
    UPDATE accounts SET status = ${s.status}, updated_at = now(), close_deferred = false
      ${s.roomId != null ? sql`, room_id = ${s.roomId}` : sql``}
      ${s.alarmLevel != null ? sql`, alarm_level = ${s.alarmLevel}` : sql``}
    WHERE owner_id = ${ownerId}`);
}

/** 销户: the owner leaves the room for good (status 2 已销户). */
export async function closeOwner(tx: Tx, ownerId: number) {
  await tx.execute(sql`UPDATE owners SET status = 2, room_id = NULL, moved_in_at = NULL, updated_at = now() WHERE id = ${ownerId}`);
}

/** A closed owner moves back in. */
export async function reopenOwner(tx: Tx, ownerId: number, roomId: number) {
  await tx.execute(sql`UPDATE owners SET status = 1, room_id = ${roomId}, moved_in_at = now(), updated_at = now() WHERE id = ${ownerId}`);
}

export async function lockOwner(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`SELECT id, company_id, name, phone, status, room_id FROM owners WHERE id = ${ownerId} FOR UPDATE`);
  const x = r.rows[0];
  if (!x) return undefined;
  return { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name), phone: String(x.phone), status: Number(x.status), roomId: x.room_id == null ? null : Number(x.room_id) };
}

/** The room the owner last left (history, area-scoped). */
export async function lastRoomOf(tx: Tx, ownerId: number): Promise<number | null> {
  const r = await tx.execute(sql`
    SELECT room_id FROM owner_room_history WHERE owner_id = ${ownerId} AND action = 2 AND room_id IS NOT NULL
    ORDER BY at DESC, id DESC LIMIT 1`);
  return r.rows[0] ? Number(r.rows[0].room_id) : null;
}

export interface ClosedFilter {
  areaRestricted: boolean;
  searchArea?: number;
  ownerName?: string;
  roomName?: string;
}

/** 已销户 (/accountOff): owners whose account was closed, with the room they left and what was refunded. */
export async function listClosed(tx: Tx, f: ClosedFilter, limit: number, offset: number) {
  const w: SQL[] = [sql`o.status = 2`];
  if (f.ownerName) w.push(sql`o.name ILIKE ${like(f.ownerName)}`);
  if (f.roomName) w.push(sql`h.room_name ILIKE ${like(f.roomName)}`);
  if (f.searchArea != null) w.push(sql`h.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.areaRestricted) w.push(sql`h.id IS NOT NULL`);
  const where = sql.join(w, sql` AND `);
  const from = sql`FROM owners o
    LEFT JOIN LATERAL (SELECT h.id, h.room_id, h.room_name, h.area_id, h.at, h.operator_name, h.memo FROM owner_room_history h
      WHERE h.owner_id = o.id AND h.action = 2 ORDER BY h.at DESC, h.id DESC LIMIT 1) h ON true`;
  const rows = await tx.execute(sql`
    SELECT o.id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone", h.room_id AS "roomId", h.room_name AS "roomName",
      ${localTime(sql`h.at`)} AS "closedAt", h.operator_name AS "operatorName", h.memo,
      coalesce((SELECT sum(rc.amount_fen) FROM receipts rc WHERE rc.owner_id = o.id AND rc.kind = 'close'), 0)::bigint AS "refundFen"
    ${from} WHERE ${where} ORDER BY h.at DESC NULLS LAST, o.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n ${from} WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}
