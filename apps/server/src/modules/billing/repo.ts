import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { intArr, textArr } from '../../db/array-literal.ts';
import { accounts, companyChargeCodes, journal, receipts, sharedMeters, subsidyPlans } from '../../db/schema/index.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { areaPathOf } from '../room/index.ts';
import { homeSupplyCounts } from './supply-repo.ts';

/** An area (a column or expression) and every area below it. */
const subtreeOf = (area: SQL) => sql`(WITH RECURSIVE t AS (SELECT ${area} AS id UNION SELECT a2.id FROM areas a2 JOIN t ON a2.parent_id = t.id) SELECT id FROM t)`;

const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`;

// Ledger SQL. Every function runs inside the caller's transaction.

/** The account row, locked for the rest of the transaction; created (balance 0) if missing. */
export async function lockAccount(tx: Tx, a: { companyId: number; ownerId: number; roomId: number | null; wallet: string }) {
  await tx
    .insert(accounts)
    .values({ companyId: a.companyId, ownerId: a.ownerId, roomId: a.roomId, wallet: a.wallet })
    .onConflictDoNothing({ target: [accounts.ownerId, accounts.wallet] });
  const [row] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.ownerId, a.ownerId), eq(accounts.wallet, a.wallet)))
    .for('update');
  return row;
}

export async function findByKey(tx: Tx, companyId: number, key: string) {
  const [r] = await tx
    .select()
    .from(journal)
    .where(and(eq(journal.companyId, companyId), eq(journal.idempotencyKey, key)));
  return r;
}

export async function insertJournal(tx: Tx, v: typeof journal.$inferInsert) {
  const [r] = await tx.insert(journal).values(v).returning();
  return r;
}

export async function setBalance(tx: Tx, accountId: number, balanceFen: number) {
  await tx.update(accounts).set({ balanceFen, updatedAt: sql`now()` }).where(eq(accounts.id, accountId));
}

/** Σ journal of an account, for reconciliation checks. */
export async function journalSum(tx: Tx, accountId: number) {
  const [r] = await tx
    .select({ sum: sql<string>`coalesce(sum(${journal.amountFen}), 0)` })
    .from(journal)
    .where(eq(journal.accountId, accountId));
  return Number(r.sum);
}

// ---- batches (set-based: one statement for many rows) ------------------------------------------

/** An array parameter (pg serialises JS arrays to PostgreSQL arrays). */
export const arr = (v: unknown[]) => sql.param(v);

/** A timestamp as exact ISO text in UTC with microseconds (raw queries return timestamps as text). */
export const isoOf = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** A timestamp as China wall-clock text 'YYYY-MM-DD HH:mm:ss' (how the API shows moments). */

export interface LockedAccount {
  id: number;
  companyId: number;
  ownerId: number;
  roomId: number | null;
  wallet: string;
  balanceFen: number;
  status: number;
  alarmLevel: number;
}

const toLocked = (r: Record<string, unknown>): LockedAccount => ({
  id: Number(r.id),
  companyId: Number(r.company_id),
  ownerId: Number(r.owner_id),
  roomId: r.room_id == null ? null : Number(r.room_id),
  wallet: String(r.wallet),
  balanceFen: Number(r.balance_fen),
  status: Number(r.status),
  alarmLevel: Number(r.alarm_level),
});

async function selectForUpdate(tx: Tx, owners: number[], wallets: string[]) {
  const r = await tx.execute(sql`
    SELECT a.id, a.company_id, a.owner_id, a.room_id, a.wallet, a.balance_fen, a.status, a.alarm_level
    FROM accounts a JOIN unnest(${arr(owners)}::bigint[], ${arr(wallets)}::varchar[]) AS k(owner_id, wallet)
      ON a.owner_id = k.owner_id AND a.wallet = k.wallet
    ORDER BY a.id FOR UPDATE OF a`);
  return r.rows.map(toLocked);
}

/** The accounts of these (owner, wallet) pairs, locked in id order; missing ones are created (balance 0). */
export async function lockAccounts(tx: Tx, want: { companyId: number; ownerId: number; roomId: number | null; wallet: string }[]): Promise<LockedAccount[]> {
  const unique = new Map<string, (typeof want)[number]>();
  for (const w of want) unique.set(`${w.ownerId}:${w.wallet}`, w);
  const pairs = [...unique.values()].sort((a, b) => a.ownerId - b.ownerId || a.wallet.localeCompare(b.wallet));
  const found = await selectForUpdate(tx, pairs.map((p) => p.ownerId), pairs.map((p) => p.wallet));
  const have = new Set(found.map((a) => `${a.ownerId}:${a.wallet}`));
  const missing = pairs.filter((p) => !have.has(`${p.ownerId}:${p.wallet}`));
  if (!missing.length) return found;
  await tx.execute(sql`
    INSERT INTO accounts (company_id, owner_id, room_id, wallet)
    SELECT * FROM unnest(${arr(missing.map((m) => m.companyId))}::bigint[], ${arr(missing.map((m) => m.ownerId))}::bigint[],
      ${arr(missing.map((m) => m.roomId))}::bigint[], ${arr(missing.map((m) => m.wallet))}::varchar[])
    ON CONFLICT (owner_id, wallet) DO NOTHING`);
  return [...found, ...(await selectForUpdate(tx, missing.map((p) => p.ownerId), missing.map((p) => p.wallet)))];
}

/** Journal rows already posted under any of these keys. */
export async function findByKeys(tx: Tx, keys: { companyId: number; key: string }[]) {
  if (!keys.length) return [];
  const r = await tx.execute(sql`
    SELECT j.id, j.account_id, j.balance_after_fen, j.amount_fen, j.company_id, j.idempotency_key
    FROM journal j JOIN unnest(${arr(keys.map((k) => k.companyId))}::bigint[], ${arr(keys.map((k) => k.key))}::varchar[]) AS k(company_id, key)
      ON j.company_id = k.company_id AND j.idempotency_key = k.key`);
  return r.rows.map((x) => ({
    id: Number(x.id),
    accountId: Number(x.account_id),
    balanceAfterFen: Number(x.balance_after_fen),
    amountFen: Number(x.amount_fen),
    companyId: Number(x.company_id),
    idempotencyKey: String(x.idempotency_key),
  }));
}

/** Ids for journal rows about to be inserted (so settlements and receipts can name them first). */
export async function nextJournalIds(tx: Tx, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const r = await tx.execute(sql`SELECT nextval('journal_id_seq') AS id FROM generate_series(1, ${n}::int)`);
  return r.rows.map((x) => Number(x.id));
}

export async function insertJournalRows(tx: Tx, rows: (typeof journal.$inferInsert & { id: number })[]) {
  if (!rows.length) return;
  const col = <K extends keyof (typeof rows)[number]>(k: K) => arr(rows.map((r) => r[k] ?? null));
  await tx.execute(sql`
    INSERT INTO journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen,
      idempotency_key, pay_method, ref_type, ref_id, reverses_id, operator_id, operator_name, memo)
    SELECT * FROM unnest(${col('id')}::bigint[], ${col('companyId')}::bigint[], ${col('accountId')}::bigint[], ${col('ownerId')}::bigint[],
      ${col('roomId')}::bigint[], ${col('wallet')}::varchar[], ${col('kind')}::varchar[], ${col('amountFen')}::bigint[],
      ${col('balanceAfterFen')}::bigint[], ${col('idempotencyKey')}::varchar[], ${col('payMethod')}::varchar[], ${col('refType')}::varchar[],
      ${col('refId')}::bigint[], ${col('reversesId')}::bigint[], ${col('operatorId')}::bigint[], ${col('operatorName')}::varchar[], ${col('memo')}::text[])`);
}

export async function setBalances(tx: Tx, rows: { accountId: number; balanceFen: number }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE accounts a SET balance_fen = v.b, updated_at = now()
    FROM unnest(${arr(rows.map((r) => r.accountId))}::bigint[], ${arr(rows.map((r) => r.balanceFen))}::bigint[]) AS v(id, b)
    WHERE a.id = v.id`);
}

// ---- alarms ----------------------------------------------------------------------------------------

export interface AlarmContext {
  accountId: number;
  ownerName: string;
  phone: string;
  roomName: string;
  companyName: string;
  smsPriceFen: number;
  phonePriceFen: number;
  thresholds: { alarm1Fen: number; alarm2Fen: number; closeFen: number; overdraftFen: number } | null;
  notifySms: boolean;
  notifyPhone: boolean;
  /** the meters of the wallet's kind in the owner's current room (in use, not 公摊 meters) */
  meterIds: number[];
}

/**
 * What the alarm rules need per account: the owner and room, the company's name and message
 * prices, and the alarm scheme of the account's meters (the first meter, by id, that has one).
 */
export async function alarmContexts(tx: Tx, accountIds: number[]): Promise<AlarmContext[]> {
  if (!accountIds.length) return [];
  const r = await tx.execute(sql`
    SELECT a.id AS account_id, o.name AS owner_name, o.phone, coalesce(r.name, '') AS room_name,
      c.name AS company_name, c.sms_price_fen, c.phone_price_fen,
      s.id AS scheme_id, s.alarm1_fen, s.alarm2_fen, s.close_fen, s.overdraft_fen, s.notify_sms, s.notify_phone,
      coalesce(ms.meter_ids, '{}') AS meter_ids
    FROM accounts a
    JOIN owners o ON o.id = a.owner_id
    JOIN companies c ON c.id = a.company_id
    LEFT JOIN rooms r ON r.id = o.room_id AND o.status = 1
    LEFT JOIN LATERAL (
      SELECT array_agg(m.id ORDER BY m.id) AS meter_ids,
        (array_agg(m.alarm_scheme_id ORDER BY m.id) FILTER (WHERE m.alarm_scheme_id IS NOT NULL))[1] AS scheme_id
      FROM meters m
      WHERE m.room_id = r.id AND m.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND m.status = 1
        AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
    ) ms ON true
    LEFT JOIN alarm_schemes s ON s.id = ms.scheme_id AND s.status = 1
    WHERE a.id = ANY(${arr(accountIds)}::bigint[]) AND a.wallet IN ('electric', 'water')`);
  return r.rows.map((x) => ({
    accountId: Number(x.account_id),
    ownerName: String(x.owner_name),
    phone: String(x.phone ?? ''),
    roomName: String(x.room_name),
    companyName: String(x.company_name),
    smsPriceFen: Number(x.sms_price_fen),
    phonePriceFen: Number(x.phone_price_fen),
    thresholds: x.scheme_id == null ? null : {
      alarm1Fen: Number(x.alarm1_fen), alarm2Fen: Number(x.alarm2_fen), closeFen: Number(x.close_fen), overdraftFen: Number(x.overdraft_fen),
    },
    notifySms: x.notify_sms === true,
    notifyPhone: x.notify_phone === true,
    meterIds: (x.meter_ids as (string | number)[]).map(Number),
  }));
}

export async function setAlarmLevels(tx: Tx, rows: { accountId: number; level: number }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE accounts a SET alarm_level = v.l
    FROM unnest(${arr(rows.map((r) => r.accountId))}::bigint[], ${arr(rows.map((r) => r.level))}::int[]) AS v(id, l)
    WHERE a.id = v.id`);
}

// ---- settlement ------------------------------------------------------------------------------------

/**
 * Meters with good readings not yet settled: meter_latest (the newest good reading, kept by ingest)
 * is after the meter's settle cursor, or the meter has none yet. Only meters in use with a charging
 * scheme (a meter without one waits: its consumption is charged once a scheme is set). Ascending ids
 * after `afterId`, so a sweep pages through them.
 */
export async function pendingMeters(tx: Tx, afterId: number, limit: number): Promise<number[]> {
  // walks meter_latest in id order from afterId (scalar subqueries, so the planner cannot turn them
  // into joins over every meter) with two index probes per row, stopping after `limit` pending
  // meters: a whole sweep costs one pass over the meters, however many pages it takes. Its estimated
  // cost is above jit_above_cost, and compiling it (≈ 12 ms) cost more than running it
  await tx.execute(sql`SET LOCAL jit = off`);
  const r = await tx.execute(sql`
    SELECT ml.meter_id FROM meter_latest ml
    WHERE ml.meter_id > ${afterId}
      AND ml.read_at > coalesce((SELECT c.read_at FROM settle_cursors c WHERE c.meter_id = ml.meter_id), '-infinity')
      AND coalesce((SELECT m.status = 1 AND m.charging_scheme_id IS NOT NULL FROM meters m WHERE m.id = ml.meter_id), false)
    ORDER BY ml.meter_id LIMIT ${limit}`);
  return r.rows.map((x) => Number(x.meter_id));
}

/** Gives meters that have none a cursor at their initial reading (before any reading). */
export async function ensureCursors(tx: Tx, meterIds: number[]) {
  await tx.execute(sql`
    INSERT INTO settle_cursors (meter_id, company_id, read_at, total)
    SELECT m.id, m.company_id, '-infinity', m.initial_reading FROM meters m
    WHERE m.id = ANY(${arr(meterIds)}::bigint[]) AND NOT EXISTS (SELECT 1 FROM settle_cursors c WHERE c.meter_id = m.id)
    ORDER BY m.id
    ON CONFLICT (meter_id) DO NOTHING`);
}

export interface CursorRow {
  meterId: number;
  at: string | null;
  readAt: Date | null;
  total: string;
  registers: Record<string, string>;
  /** the state of the period the cursor is in (null: none yet) */
  period: { key: string; quantity: string; exact: string; chargedFen: number } | null;
}


export interface MeterTermsRow {
  id: number;
  companyId: number;
  kind: number;
  multiplier: string;
  status: number;
  roomId: number | null;
  schemeId: number | null;
  monthType: number | null;
  /** the room's current owner */
  ownerId: number | null;
  /** 公摊: the area whose occupied rooms share this meter, and how */
  sharedAreaId: number | null;
  sharedMethod: number | null;
}


const orNull = (v: unknown) => (v == null ? null : Number(v));

export interface VersionRow {
  schemeId: number;
  effectiveFrom: Date;
  mode: string;
  unitPrice: string;
  tiers: { upTo: string | null; price: string }[];
  tou: { periods: { name: string; price: string; ranges: string[] }[] };
  monthlyFeeFen: number;
  minimumChargeFen: number;
}

export async function schemeVersions(tx: Tx, schemeIds: number[]): Promise<VersionRow[]> {
  if (!schemeIds.length) return [];
  const r = await tx.execute(sql`
    SELECT scheme_id, ${isoOf(sql`effective_from`)} AS effective_from, mode, unit_price, tiers, tou, monthly_fee_fen, minimum_charge_fen
    FROM charging_scheme_versions WHERE scheme_id = ANY(${arr(schemeIds)}::bigint[]) ORDER BY scheme_id, effective_from`);
  return r.rows.map((x) => ({
    schemeId: Number(x.scheme_id),
    effectiveFrom: new Date(String(x.effective_from)),
    mode: String(x.mode),
    unitPrice: String(x.unit_price),
    tiers: (x.tiers ?? []) as VersionRow['tiers'],
    tou: (x.tou ?? { periods: [] }) as VersionRow['tou'],
    monthlyFeeFen: Number(x.monthly_fee_fen),
    minimumChargeFen: Number(x.minimum_charge_fen),
  }));
}

export interface PendingReading {
  meterId: number;
  at: string;
  readAt: Date;
  total: string;
  registers: Record<string, unknown>;
}


export interface PeriodRow {
  meterId: number;
  periodKey: string;
  companyId: number;
  quantity: string;
  exact: string;
  chargedFen: number;
}





export interface SettlementRow {
  id: number;
  companyId: number;
  meterId: number;
  ownerId: number | null;
  roomId: number | null;
  /** exact ISO text of the reading's instant */
  at: string;
  prevAt: string | null;
  prevTotal: string;
  total: string;
  quantity: string;
  amountFen: number;
  lines: unknown[];
  periodKey: string;
  journalId: number | null;
  meterKind: number;
  note: string;
}


/** 公摊: the occupied rooms below each area with their owner and floor area (m²). */
export async function shareTargets(tx: Tx, areaIds: number[]) {
  if (!areaIds.length) return [];
  const r = await tx.execute(sql`
    WITH RECURSIVE t(root, id) AS (
      SELECT a.id, a.id FROM areas a WHERE a.id = ANY(${arr(areaIds)}::bigint[])
      UNION SELECT t.root, a.id FROM areas a JOIN t ON a.parent_id = t.id
    )
    SELECT t.root AS area_id, r.id AS room_id, o.id AS owner_id, r.size_m2
    FROM t JOIN rooms r ON r.area_id = t.id JOIN owners o ON o.room_id = r.id AND o.status = 1
    ORDER BY t.root, r.id`);
  return r.rows.map((x) => ({ areaId: Number(x.area_id), roomId: Number(x.room_id), ownerId: Number(x.owner_id), sizeM2: String(x.size_m2 ?? '') }));
}

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
  return r.rows.map((x) => ({
    accountId: Number(x.id),
    companyId: Number(x.company_id),
    wallet: String(x.wallet),
    balanceFen: Number(x.balance_fen),
    meterIds: (x.meter_ids as (string | number)[]).map(Number),
  }));
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

// ---- views: rooms and accounts ---------------------------------------------------------------------

export interface EnergyRoomFilter {
  companyId: number | null;
  searchArea?: number;
  roomName?: string;
  ownerName?: string;
  ownerPhone?: string;
  arrears?: number;
  alarm?: number;
}

/** The rooms (area scope by RLS) with their current owner and the owner's energy accounts. */
function energyRoomFrom(f: EnergyRoomFilter): SQL {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`r.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`r.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.roomName) w.push(sql`r.name ILIKE ${like(f.roomName)}`);
  if (f.ownerName) w.push(sql`o.name ILIKE ${like(f.ownerName)}`);
  if (f.ownerPhone) w.push(sql`o.phone LIKE ${like(f.ownerPhone)}`);
  if (f.arrears === 1) w.push(sql`(ae.balance_fen < 0 OR aw.balance_fen < 0)`);
  if (f.alarm === 1) w.push(sql`(ae.alarm_level > 0 OR aw.alarm_level > 0)`);
  return sql`FROM rooms r
    LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    LEFT JOIN accounts ae ON ae.owner_id = o.id AND ae.wallet = 'electric'
    LEFT JOIN accounts aw ON aw.owner_id = o.id AND aw.wallet = 'water'
    WHERE ${sql.join(w, sql` AND `)}`;
}

export async function energyRooms(tx: Tx, f: EnergyRoomFilter, limit: number, offset: number, withOther = false) {
  const from = energyRoomFrom(f);
  const rows = await tx.execute(sql`
    WITH page AS (SELECT r.id, o.id AS owner_id, ae.id AS e_id, ae.balance_fen AS e_bal, ae.alarm_level AS e_level, aw.id AS w_id, aw.balance_fen AS w_bal, aw.alarm_level AS w_level
      ${from} ORDER BY r.id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT r.id AS "roomId", r.name AS "roomName", r.area_id AS "areaId", (${areaPathOf(sql`r.area_id`)}) AS "areaName", r.size_m2 AS "sizeM2",
      page.owner_id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone",
      coalesce(page.e_bal, 0)::bigint AS "electricFen", coalesce(page.e_level, 0) AS "electricAlarm",
      coalesce(page.w_bal, 0)::bigint AS "waterFen", coalesce(page.w_level, 0) AS "waterAlarm",
      page.e_id AS "electricAccountId", page.w_id AS "waterAccountId",
      ${withOther ? sql`coalesce((SELECT ao.balance_fen FROM accounts ao WHERE ao.owner_id = page.owner_id AND ao.wallet = 'other'), 0)::bigint AS "otherFen",
        (SELECT ${localTime(sql`max(rc.created_at)`)} FROM receipts rc WHERE rc.owner_id = page.owner_id AND rc.kind IN ('business', 'billPay')) AS "lastPaidAt",
        coalesce((SELECT sum(rc.amount_fen) FROM receipts rc WHERE rc.owner_id = page.owner_id AND rc.kind IN ('business', 'billPay')
          AND rc.created_at >= date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'), 0)::bigint AS "monthPaidFen",` : sql``}
      mc.electric AS "electricMeters", mc.water AS "waterMeters", mc.closed AS "closedMeters"
    FROM page JOIN rooms r ON r.id = page.id
    LEFT JOIN owners o ON o.id = page.owner_id
    LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE m.kind = 1)::int AS electric, count(*) FILTER (WHERE m.kind = 2)::int AS water,
      count(*) FILTER (WHERE m.valve_state = 0)::int AS closed FROM meters m WHERE m.room_id = r.id AND m.status <> 2) mc ON true
    ORDER BY r.id DESC`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n ${from}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function energyRoomSum(tx: Tx, f: EnergyRoomFilter) {
  const r = await tx.execute(sql`
    SELECT count(*)::bigint AS rooms, count(o.id)::bigint AS occupied,
      coalesce(sum(ae.balance_fen), 0)::bigint AS electric, coalesce(sum(aw.balance_fen), 0)::bigint AS water,
      count(*) FILTER (WHERE ae.balance_fen < 0 OR aw.balance_fen < 0)::bigint AS arrears_rooms,
      coalesce(sum(least(coalesce(ae.balance_fen, 0), 0) + least(coalesce(aw.balance_fen, 0), 0)), 0)::bigint AS arrears,
      count(*) FILTER (WHERE ae.alarm_level > 0 OR aw.alarm_level > 0)::bigint AS alarm_rooms
    ${energyRoomFrom(f)}`);
  const x = r.rows[0];
  return {
    rooms: Number(x.rooms), occupied: Number(x.occupied), electricFen: Number(x.electric), waterFen: Number(x.water),
    arrearsRooms: Number(x.arrears_rooms), arrearsFen: -Number(x.arrears), alarmRooms: Number(x.alarm_rooms),
  };
}

export async function roomAccounts(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`
    SELECT id, wallet, balance_fen, alarm_level, status, close_deferred, ${localTime(sql`updated_at`)} AS updated_at
    FROM accounts WHERE owner_id = ${ownerId} ORDER BY id`);
  return r.rows.map((x) => ({
    id: Number(x.id), wallet: String(x.wallet), balanceFen: Number(x.balance_fen), alarmLevel: Number(x.alarm_level),
    status: Number(x.status), closeDeferred: x.close_deferred === true, updatedAt: String(x.updated_at),
  }));
}

export async function roomMeterDetails(tx: Tx, roomId: number) {
  const r = await tx.execute(sql`
    SELECT m.id, m.name, m.address, m.kind, m.plan, m.multiplier, m.status, m.valve_state AS "valveState", m.online,
      m.charging_scheme_id AS "chargingSchemeId", cs.name AS "chargingSchemeName", m.alarm_scheme_id AS "alarmSchemeId", als.name AS "alarmSchemeName",
      ml.total AS "lastTotal", ${localTime(sql`ml.read_at`)} AS "lastReadAt",
      sc.total AS "settledTotal", CASE WHEN sc.read_at = '-infinity' THEN NULL ELSE ${localTime(sql`sc.read_at`)} END AS "settledAt",
      EXISTS (SELECT 1 FROM protections p WHERE p.meter_id = m.id AND p.active AND (p.end_at IS NULL OR p.end_at > now())) AS "protected"
    FROM meters m
    LEFT JOIN charging_schemes cs ON cs.id = m.charging_scheme_id
    LEFT JOIN alarm_schemes als ON als.id = m.alarm_scheme_id
    LEFT JOIN meter_latest ml ON ml.meter_id = m.id
    LEFT JOIN settle_cursors sc ON sc.meter_id = m.id
    WHERE m.room_id = ${roomId} ORDER BY m.kind, m.id`);
  return r.rows;
}

// ---- views: the journal --------------------------------------------------------------------------------

export interface JournalFilter {
  companyId: number | null;
  areaRestricted: boolean;
  searchArea?: number;
  kinds?: string[];
  wallet?: string;
  payMethod?: string;
  roomId?: number;
  ownerId?: number;
  roomName?: string;
  ownerName?: string;
  from?: Date;
  to?: Date;
  audited?: number;
  /** deductions of one meter kind (1 电, 2 水) */
  meterKind?: number;
}

function journalWhere(f: JournalFilter): SQL {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`j.company_id = ${f.companyId}`);
  if (f.kinds?.length) w.push(sql`j.kind = ANY(${arr(f.kinds)}::varchar[])`);
  if (f.wallet) w.push(sql`j.wallet = ${f.wallet}`);
  if (f.payMethod) w.push(sql`j.pay_method = ${f.payMethod}`);
  if (f.roomId != null) w.push(sql`j.room_id = ${f.roomId}`);
  if (f.ownerId != null) w.push(sql`j.owner_id = ${f.ownerId}`);
  if (f.from) w.push(sql`j.created_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) w.push(sql`j.created_at < ${f.to.toISOString()}::timestamptz`);
  if (f.searchArea != null) w.push(sql`j.room_id IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`);
  else if (f.areaRestricted) w.push(sql`j.room_id IN (SELECT ra.id FROM rooms ra)`);
  if (f.roomName) w.push(sql`j.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.ownerName) w.push(sql`j.owner_id IN (SELECT os.id FROM owners os WHERE os.name ILIKE ${like(f.ownerName)})`);
  if (f.audited === 1) w.push(sql`EXISTS (SELECT 1 FROM journal_audits ja WHERE ja.journal_id = j.id)`);
  if (f.audited === 0) w.push(sql`NOT EXISTS (SELECT 1 FROM journal_audits ja WHERE ja.journal_id = j.id)`);
  if (f.meterKind != null) w.push(sql`j.wallet = ${f.meterKind === 2 ? 'water' : 'electric'}`);
  return sql.join(w, sql` AND `);
}

/** Journal rows, newest first, with room, owner, audit and (for deductions) the settlement they charge. */
export async function listJournal(tx: Tx, f: JournalFilter, limit: number, offset: number, withSettlement = false) {
  const where = journalWhere(f);
  const rows = await tx.execute(sql`
    WITH page AS (SELECT j.id FROM journal j WHERE ${where} ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT j.id, ${localTime(sql`j.created_at`)} AS "createdAt", j.room_id AS "roomId", r.name AS "roomName", j.owner_id AS "ownerId", o.name AS "ownerName",
      j.wallet, j.kind, j.amount_fen AS "amountFen", j.balance_after_fen AS "balanceAfterFen", j.pay_method AS "payMethod",
      j.ref_type AS "refType", j.ref_id AS "refId", j.operator_name AS "operatorName", j.memo,
      ja.audited_by_name AS "auditedBy", ${localTime(sql`ja.audited_at`)} AS "auditedAt", coalesce(ja.memo, '') AS "auditMemo",
      rc.no AS "receiptNo"
      ${withSettlement ? sql`, s.meter_id AS "meterId", m.name AS "meterName", m.address, s.prev_total AS "prevTotal", s.total,
        s.quantity, ${localTime(sql`s.read_at`)} AS "readAt"` : sql``}
    FROM page JOIN journal j ON j.id = page.id
    LEFT JOIN rooms r ON r.id = j.room_id
    LEFT JOIN owners o ON o.id = j.owner_id
    LEFT JOIN journal_audits ja ON ja.journal_id = j.id
    LEFT JOIN receipts rc ON rc.journal_id = j.id
    ${withSettlement ? sql`LEFT JOIN settlements s ON s.id = j.ref_id AND j.ref_type IN ('settlement', 'share') LEFT JOIN meters m ON m.id = s.meter_id` : sql``}
    ORDER BY j.created_at DESC, j.id DESC`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM journal j WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** Totals of journal rows by kind, wallet and pay method, with the audited share. */
export async function sumJournal(tx: Tx, f: JournalFilter) {
  const r = await tx.execute(sql`
    SELECT j.kind, j.wallet, j.pay_method, count(*)::bigint AS n, coalesce(sum(j.amount_fen), 0)::bigint AS amount,
      count(ja.journal_id)::bigint AS audited_n, coalesce(sum(j.amount_fen) FILTER (WHERE ja.journal_id IS NOT NULL), 0)::bigint AS audited_amount
    FROM journal j LEFT JOIN journal_audits ja ON ja.journal_id = j.id
    WHERE ${journalWhere(f)} GROUP BY j.kind, j.wallet, j.pay_method ORDER BY j.kind, j.wallet, j.pay_method`);
  return r.rows.map((x) => ({
    kind: String(x.kind), wallet: String(x.wallet), payMethod: String(x.pay_method), count: Number(x.n), amountFen: Number(x.amount),
    auditedCount: Number(x.audited_n), auditedFen: Number(x.audited_amount),
  }));
}

/** Σ quantity of the settlements the filtered deductions charge. */
export async function deductionQuantity(tx: Tx, f: JournalFilter) {
  const r = await tx.execute(sql`
    SELECT s.meter_kind, coalesce(sum(s.quantity), 0)::text AS q FROM journal j JOIN settlements s ON s.id = j.ref_id AND j.ref_type = 'settlement'
    WHERE ${journalWhere(f)} GROUP BY s.meter_kind`);
  return r.rows.map((x) => ({ meterKind: Number(x.meter_kind), quantity: String(x.q) }));
}

/** The journal rows among these ids that the caller may see. */
export async function visibleJournal(tx: Tx, ids: number[], areaRestricted: boolean) {
  const r = await tx.execute(sql`
    SELECT j.id, j.company_id FROM journal j WHERE j.id = ANY(${arr(ids)}::bigint[])
      ${areaRestricted ? sql`AND j.room_id IN (SELECT ra.id FROM rooms ra)` : sql``}`);
  return r.rows.map((x) => ({ id: Number(x.id), companyId: Number(x.company_id) }));
}

export async function insertAudits(tx: Tx, rows: { journalId: number; companyId: number; auditedBy: number; auditedByName: string; memo: string }[]) {
  if (!rows.length) return 0;
  const r = await tx.execute(sql`
    INSERT INTO journal_audits (journal_id, company_id, audited_by, audited_by_name, memo)
    SELECT * FROM unnest(${arr(rows.map((x) => x.journalId))}::bigint[], ${arr(rows.map((x) => x.companyId))}::bigint[],
      ${arr(rows.map((x) => x.auditedBy))}::bigint[], ${arr(rows.map((x) => x.auditedByName))}::varchar[], ${arr(rows.map((x) => x.memo))}::text[])
    ON CONFLICT (journal_id) DO NOTHING`);
  return r.rowCount ?? 0;
}

export async function recentJournal(tx: Tx, ownerId: number, limit: number) {
  return (await listJournal(tx, { companyId: null, areaRestricted: false, ownerId }, limit, 0)).rows;
}

// ---- views: settlements (/copyread) ---------------------------------------------------------------------

export interface SettlementFilter {
  companyId: number | null;
  searchArea?: number;
  roomName?: string;
  ownerName?: string;
  meterName?: string;
  address?: string;
  meterKind?: number;
  meterId?: number;
  roomId?: number;
  from?: Date;
  to?: Date;
}

/** Settlements of the meters the caller may see (the meters join carries the area scope). */
function settlementWhere(f: SettlementFilter): SQL {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`s.company_id = ${f.companyId}`);
  if (f.meterKind != null) w.push(sql`s.meter_kind = ${f.meterKind}`);
  if (f.meterId != null) w.push(sql`s.meter_id = ${f.meterId}`);
  if (f.roomId != null) w.push(sql`s.room_id = ${f.roomId}`);
  if (f.from) w.push(sql`s.read_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) w.push(sql`s.read_at < ${f.to.toISOString()}::timestamptz`);
  if (f.searchArea != null) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.meterName) w.push(sql`m.name ILIKE ${like(f.meterName)}`);
  if (f.address) w.push(sql`m.address LIKE ${like(f.address)}`);
  if (f.roomName) w.push(sql`s.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.ownerName) w.push(sql`s.owner_id IN (SELECT os.id FROM owners os WHERE os.name ILIKE ${like(f.ownerName)})`);
  return sql.join(w, sql` AND `);
}

const settlementColumns = sql`s.id, s.meter_id AS "meterId", m.name AS "meterName", m.address, s.meter_kind AS "meterKind",
  s.room_id AS "roomId", r.name AS "roomName", s.owner_id AS "ownerId", o.name AS "ownerName",
  ${localTime(sql`s.prev_read_at`)} AS "prevReadAt", ${localTime(sql`s.read_at`)} AS "readAt", s.prev_total AS "prevTotal", s.total,
  m.multiplier, s.quantity, s.amount_fen AS "amountFen", s.period_key AS "periodKey", s.note, s.journal_id AS "journalId", s.lines,
  ${localTime(sql`s.created_at`)} AS "settledAt"`;

/** The export's columns: the list's without the priced lines. */
const exportColumns = sql`s.id, s.meter_id AS "meterId", m.name AS "meterName", m.address, s.meter_kind AS "meterKind",
  r.name AS "roomName", o.name AS "ownerName", ${localTime(sql`s.prev_read_at`)} AS "prevReadAt", ${localTime(sql`s.read_at`)} AS "readAt",
  s.prev_total AS "prevTotal", s.total, m.multiplier, s.quantity, s.amount_fen AS "amountFen", s.period_key AS "periodKey", s.note,
  ${localTime(sql`s.created_at`)} AS "settledAt"`;

export async function listSettlements(tx: Tx, f: SettlementFilter, limit: number, offset: number) {
  const where = settlementWhere(f);
  const rows = await tx.execute(sql`
    WITH page AS (SELECT s.id FROM settlements s JOIN meters m ON m.id = s.meter_id WHERE ${where}
      ORDER BY s.read_at DESC, s.id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT ${settlementColumns}
    FROM page JOIN settlements s ON s.id = page.id JOIN meters m ON m.id = s.meter_id
    LEFT JOIN rooms r ON r.id = s.room_id LEFT JOIN owners o ON o.id = s.owner_id
    ORDER BY s.read_at DESC, s.id DESC`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM settlements s JOIN meters m ON m.id = s.meter_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** The next batch of an export, newest first, after (read_at, id) of the last row (keyset). */
export async function settlementsBefore(tx: Tx, f: SettlementFilter, before: { at: string; id: number } | null, limit: number) {
  // the plain bound lets the (company_id, read_at) index start at the keyset; the row comparison is exact
  const after = before ? sql`AND s.read_at <= ${before.at}::timestamptz AND (s.read_at, s.id) < (${before.at}::timestamptz, ${before.id})` : sql``;
  const r = await tx.execute(sql`
    SELECT ${exportColumns}, ${isoOf(sql`s.read_at`)} AS "readAtIso"
    FROM settlements s JOIN meters m ON m.id = s.meter_id
    LEFT JOIN rooms r ON r.id = s.room_id LEFT JOIN owners o ON o.id = s.owner_id
    WHERE ${settlementWhere(f)} ${after}
    ORDER BY s.read_at DESC, s.id DESC LIMIT ${limit}`);
  return r.rows;
}

export async function settlementSummary(tx: Tx, f: SettlementFilter) {
  const r = await tx.execute(sql`
    SELECT s.meter_kind, count(*)::bigint AS n, coalesce(sum(s.quantity), 0)::text AS q, coalesce(sum(s.amount_fen), 0)::bigint AS a,
      count(*) FILTER (WHERE s.note = 'vacant')::bigint AS vacant, ${localTime(sql`max(s.created_at)`)} AS last
    FROM settlements s JOIN meters m ON m.id = s.meter_id WHERE ${settlementWhere(f)} GROUP BY s.meter_kind`);
  const p = await tx.execute(sql`
    SELECT count(*) FILTER (WHERE m.charging_scheme_id IS NOT NULL AND (c.meter_id IS NULL OR ml.read_at > c.read_at))::bigint AS pending,
      count(*) FILTER (WHERE m.charging_scheme_id IS NULL)::bigint AS no_scheme
    FROM meters m LEFT JOIN meter_latest ml ON ml.meter_id = m.id LEFT JOIN settle_cursors c ON c.meter_id = m.id
    WHERE m.status = 1 ${f.companyId != null ? sql`AND m.company_id = ${f.companyId}` : sql``}
      ${f.searchArea != null ? sql`AND m.area_id IN ${areaAndBelow(f.searchArea)}` : sql``}
      AND (ml.meter_id IS NOT NULL OR m.charging_scheme_id IS NULL)`);
  return {
    byKind: r.rows.map((x) => ({ meterKind: Number(x.meter_kind), count: Number(x.n), quantity: String(x.q), amountFen: Number(x.a), vacant: Number(x.vacant), last: x.last as string | null })),
    pendingMeters: Number(p.rows[0]?.pending ?? 0),
    noSchemeMeters: Number(p.rows[0]?.no_scheme ?? 0),
  };
}

/** The meters (visible) of these ids or of this room, for settling on demand. */
export async function meterIdsFor(tx: Tx, t: { meterIds?: number[]; roomId?: number }) {
  const w = t.roomId != null ? sql`m.room_id = ${t.roomId}` : sql`m.id = ANY(${arr(t.meterIds ?? [])}::bigint[])`;
  const r = await tx.execute(sql`SELECT m.id FROM meters m WHERE ${w} ORDER BY m.id`);
  return r.rows.map((x) => Number(x.id));
}

// ---- views: bills -----------------------------------------------------------------------------------------

export interface BillFilter {
  companyId: number | null;
  areaRestricted: boolean;
  searchArea?: number;
  roomName?: string;
  ownerName?: string;
  from: Date;
  to: Date;
}

/** Monthly bills: per owner with money movements in the period, by wallet and kind. */
export async function ownerBills(tx: Tx, f: BillFilter, limit: number, offset: number) {
  const w: SQL[] = [sql`j.created_at >= ${f.from.toISOString()}::timestamptz`, sql`j.created_at < ${f.to.toISOString()}::timestamptz`];
  if (f.companyId != null) w.push(sql`j.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`j.room_id IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`);
  else if (f.areaRestricted) w.push(sql`j.room_id IN (SELECT ra.id FROM rooms ra)`);
  if (f.roomName) w.push(sql`j.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.ownerName) w.push(sql`j.owner_id IN (SELECT os.id FROM owners os WHERE os.name ILIKE ${like(f.ownerName)})`);
  const where = sql.join(w, sql` AND `);
  const sum = (kind: string, wallet?: string) =>
    sql`coalesce(sum(j.amount_fen) FILTER (WHERE j.kind = ${kind} ${wallet ? sql`AND j.wallet = ${wallet}` : sql``}), 0)::bigint`;
  const rows = await tx.execute(sql`
    WITH b AS (
      SELECT j.owner_id, max(j.room_id) AS room_id,
        ${sum('deduction', 'electric')} AS e_deduct, ${sum('deduction', 'water')} AS w_deduct, ${sum('fee')} AS fees,
        ${sum('prepay')} AS prepay, ${sum('refund')} AS refund, ${sum('subsidy')} AS subsidy
      FROM journal j WHERE ${where} GROUP BY j.owner_id ORDER BY j.owner_id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT b.owner_id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone", b.room_id AS "roomId", r.name AS "roomName",
      b.e_deduct AS "electricFen", b.w_deduct AS "waterFen", b.fees AS "feesFen", b.prepay AS "prepayFen", b.refund AS "refundFen", b.subsidy AS "subsidyFen",
      coalesce((SELECT sum(s.quantity) FROM settlements s WHERE s.owner_id = b.owner_id AND s.meter_kind = 1
        AND s.read_at >= ${f.from.toISOString()}::timestamptz AND s.read_at < ${f.to.toISOString()}::timestamptz), 0)::text AS "electricQuantity",
      coalesce((SELECT sum(s.quantity) FROM settlements s WHERE s.owner_id = b.owner_id AND s.meter_kind = 2
        AND s.read_at >= ${f.from.toISOString()}::timestamptz AND s.read_at < ${f.to.toISOString()}::timestamptz), 0)::text AS "waterQuantity",
      coalesce((SELECT a.balance_fen FROM accounts a WHERE a.owner_id = b.owner_id AND a.wallet = 'electric'), 0)::bigint AS "electricBalanceFen",
      coalesce((SELECT a.balance_fen FROM accounts a WHERE a.owner_id = b.owner_id AND a.wallet = 'water'), 0)::bigint AS "waterBalanceFen"
    FROM b JOIN owners o ON o.id = b.owner_id LEFT JOIN rooms r ON r.id = b.room_id
    ORDER BY b.owner_id DESC`);
  const c = await tx.execute(sql`SELECT count(DISTINCT j.owner_id)::bigint AS n FROM journal j WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** Energy bills per meter over a period: first and last reading, consumption and charge. */
export async function meterBills(tx: Tx, f: SettlementFilter & { from: Date; to: Date }, limit: number, offset: number) {
  const where = settlementWhere(f);
  const rows = await tx.execute(sql`
    WITH b AS (
      SELECT s.meter_id, count(*)::int AS n, sum(s.quantity) AS q, sum(s.amount_fen)::bigint AS a,
        (array_agg(s.prev_total ORDER BY s.read_at))[1] AS start_total, (array_agg(s.total ORDER BY s.read_at DESC))[1] AS end_total,
        min(s.read_at) AS first_at, max(s.read_at) AS last_at
      FROM settlements s JOIN meters m ON m.id = s.meter_id WHERE ${where}
      GROUP BY s.meter_id ORDER BY s.meter_id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT b.meter_id AS "meterId", m.name AS "meterName", m.address, m.kind AS "meterKind", m.multiplier,
      cs.name AS "schemeName", r.id AS "roomId", r.name AS "roomName", o.name AS "ownerName",
      b.start_total AS "startTotal", b.end_total AS "endTotal", b.q::text AS quantity, b.a AS "amountFen", b.n AS readings,
      ${localTime(sql`b.first_at`)} AS "firstReadAt", ${localTime(sql`b.last_at`)} AS "lastReadAt"
    FROM b JOIN meters m ON m.id = b.meter_id
    LEFT JOIN charging_schemes cs ON cs.id = m.charging_scheme_id
    LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    ORDER BY b.meter_id DESC`);
  const c = await tx.execute(sql`SELECT count(DISTINCT s.meter_id)::bigint AS n FROM settlements s JOIN meters m ON m.id = s.meter_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

// ---- views: receipts (/billprint) --------------------------------------------------------------------

export interface ReceiptFilter {
  companyId: number | null;
  areaRestricted: boolean;
  searchArea?: number;
  no?: string;
  roomName?: string;
  ownerName?: string;
  kind?: string;
  kinds?: string[];
  from?: Date;
  to?: Date;
}

function receiptWhere(f: ReceiptFilter): SQL {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`rc.company_id = ${f.companyId}`);
  if (f.no) w.push(sql`rc.no LIKE ${like(f.no)}`);
  if (f.kind) w.push(sql`rc.kind = ${f.kind}`);
  if (f.kinds?.length) w.push(sql`rc.kind = ANY(${arr(f.kinds)}::varchar[])`);
  if (f.from) w.push(sql`rc.created_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) w.push(sql`rc.created_at < ${f.to.toISOString()}::timestamptz`);
  if (f.searchArea != null) w.push(sql`rc.room_id IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`);
  else if (f.areaRestricted) w.push(sql`rc.room_id IN (SELECT ra.id FROM rooms ra)`);
  if (f.roomName) w.push(sql`rc.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.ownerName) w.push(sql`rc.owner_id IN (SELECT os.id FROM owners os WHERE os.name ILIKE ${like(f.ownerName)})`);
  return sql.join(w, sql` AND `);
}

const receiptColumns = sql`rc.id, rc.no, rc.kind, rc.pay_method AS "payMethod", rc.items, rc.amount_fen AS "amountFen",
  rc.print_count AS "printCount", ${localTime(sql`rc.last_printed_at`)} AS "lastPrintedAt", ${localTime(sql`rc.created_at`)} AS "createdAt",
  rc.operator_name AS "operatorName", rc.memo, rc.journal_id AS "journalId", rc.room_id AS "roomId", r.name AS "roomName",
  rc.owner_id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone", rc.company_id AS "companyId"`;

export async function listReceipts(tx: Tx, f: ReceiptFilter, limit: number, offset: number) {
  const where = receiptWhere(f);
  const rows = await tx.execute(sql`
    SELECT ${receiptColumns} FROM receipts rc LEFT JOIN rooms r ON r.id = rc.room_id LEFT JOIN owners o ON o.id = rc.owner_id
    WHERE ${where} ORDER BY rc.created_at DESC, rc.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM receipts rc WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function getReceipt(tx: Tx, id: number, areaRestricted: boolean) {
  const r = await tx.execute(sql`
    SELECT ${receiptColumns}, (${areaPathOf(sql`r.area_id`)}) AS "areaName", c.name AS "companyName", c.address AS "companyAddress",
      c.phone AS "companyPhone", c.bank_type AS "bankType"
    FROM receipts rc LEFT JOIN rooms r ON r.id = rc.room_id LEFT JOIN owners o ON o.id = rc.owner_id JOIN companies c ON c.id = rc.company_id
    WHERE rc.id = ${id} ${areaRestricted ? sql`AND rc.room_id IN (SELECT ra.id FROM rooms ra)` : sql``}`);
  return r.rows[0];
}

export async function markPrinted(tx: Tx, id: number) {
  const [r] = await tx
    .update(receipts)
    .set({ printCount: sql`${receipts.printCount} + 1`, lastPrintedAt: sql`now()` })
    .where(eq(receipts.id, id))
    .returning({ printCount: receipts.printCount });
  return r?.printCount;
}

// ---- room timed subsidies ------------------------------------------------------------------------------

export async function insertSubsidyPlan(tx: Tx, v: typeof subsidyPlans.$inferInsert) {
  const [r] = await tx.insert(subsidyPlans).values(v).returning({ id: subsidyPlans.id });
  return r.id;
}

export async function listSubsidyPlans(tx: Tx, f: { companyId: number | null; searchArea?: number; roomName?: string; enabled?: number; roomId?: number }, limit: number, offset: number) {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`p.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`r.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.roomName) w.push(sql`r.name ILIKE ${like(f.roomName)}`);
  if (f.enabled != null) w.push(sql`p.enabled = ${f.enabled === 1}`);
  if (f.roomId != null) w.push(sql`p.room_id = ${f.roomId}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT p.id, p.room_id AS "roomId", r.name AS "roomName", o.name AS "ownerName", p.wallet, p.amount_fen AS "amountFen",
      p.day_of_month AS "dayOfMonth", p.start_month AS "startMonth", p.end_month AS "endMonth", p.enabled, p.memo,
      ${localTime(sql`p.created_at`)} AS "createdAt",
      (SELECT count(*) FROM journal j WHERE j.company_id = p.company_id AND j.ref_type = 'subsidy_plan' AND j.ref_id = p.id)::int AS "creditedTimes"
    FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    WHERE ${where} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** A plan whose room the caller may see. */
export async function getSubsidyPlan(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT p.id, p.room_id, r.name AS room_name FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id WHERE p.id = ${id}`);
  return r.rows[0] ? { id: Number(r.rows[0].id), roomId: Number(r.rows[0].room_id), roomName: String(r.rows[0].room_name) } : undefined;
}

export async function setSubsidyEnabled(tx: Tx, id: number, enabled: boolean) {
  await tx.update(subsidyPlans).set({ enabled }).where(eq(subsidyPlans.id, id));
}

// ---- 公摊 meters -----------------------------------------------------------------------------------------

export async function listSharedMeters(tx: Tx, f: { companyId: number | null; searchArea?: number }, limit: number, offset: number) {
  const w: SQL[] = [sql`true`];
  if (f.companyId != null) w.push(sql`sm.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`sm.area_id IN ${areaAndBelow(f.searchArea)}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT sm.meter_id AS "meterId", m.name AS "meterName", m.address, m.kind AS "meterKind", sm.area_id AS "areaId",
      (${areaPathOf(sql`sm.area_id`)}) AS "areaName", sm.method, sm.memo, ${localTime(sql`sm.created_at`)} AS "createdAt",
      (SELECT count(*) FROM rooms r JOIN owners o ON o.room_id = r.id AND o.status = 1 WHERE r.area_id IN ${subtreeOf(sql`sm.area_id`)})::int AS "rooms"
    FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id JOIN areas a ON a.id = sm.area_id
    WHERE ${where} ORDER BY sm.created_at DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id JOIN areas a ON a.id = sm.area_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function findMeter(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT id, company_id, name, address, kind, room_id FROM meters WHERE id = ${id}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name), address: String(x.address), kind: Number(x.kind), roomId: x.room_id == null ? null : Number(x.room_id) } : undefined;
}

export async function findArea(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT id, company_id, name FROM areas WHERE id = ${id}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name) } : undefined;
}

export async function upsertSharedMeter(tx: Tx, v: { meterId: number; companyId: number; areaId: number; method: number; memo: string; createdBy: number }) {
  await tx
    .insert(sharedMeters)
    .values(v)
    .onConflictDoUpdate({ target: sharedMeters.meterId, set: { areaId: v.areaId, method: v.method, memo: v.memo } });
}

export async function deleteSharedMeters(tx: Tx, meterIds: number[]) {
  const r = await tx.delete(sharedMeters).where(inArray(sharedMeters.meterId, meterIds)).returning({ id: sharedMeters.meterId });
  return r.length;
}

export async function sharedMetersVisible(tx: Tx, meterIds: number[]) {
  const r = await tx.execute(sql`SELECT sm.meter_id FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id WHERE sm.meter_id = ANY(${arr(meterIds)}::bigint[])`);
  return r.rows.map((x) => Number(x.meter_id));
}

// ---- home figures ------------------------------------------------------------------------------------

export async function homeFigures(tx: Tx, f: { companyId: number | null; areaRestricted: boolean; searchArea?: number }) {
  const roomCond = f.searchArea != null
    ? sql`AND j.room_id IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`
    : f.areaRestricted ? sql`AND j.room_id IN (SELECT ra.id FROM rooms ra)` : sql``;
  const company = f.companyId != null ? sql`AND j.company_id = ${f.companyId}` : sql``;
  const day0 = sql`(date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai')`;
  const month0 = sql`(date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai')`;
  // a prepay by a real pay method is money received ('prepay'); a prepay by the system is a credit
  // ('system'); opening balances and subsidies are their own kinds (issue 11 item 9)
  const category = sql`CASE WHEN j.kind = 'prepay' AND j.pay_method NOT IN ('cash', 'wechat', 'alipay', 'bank') THEN 'system' ELSE j.kind END`;
  const money = await tx.execute(sql`
    SELECT ${category} AS kind, coalesce(sum(j.amount_fen) FILTER (WHERE j.created_at >= ${day0}), 0)::bigint AS today,
      coalesce(sum(j.amount_fen), 0)::bigint AS month, count(*) FILTER (WHERE j.created_at >= ${day0})::bigint AS today_n
    FROM journal j WHERE j.created_at >= ${month0} ${company} ${roomCond} GROUP BY 1`);
  const trend = await tx.execute(sql`
    SELECT to_char(j.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day,
      coalesce(sum(j.amount_fen) FILTER (WHERE j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')), 0)::bigint AS prepay,
      coalesce(-sum(j.amount_fen) FILTER (WHERE j.kind IN ('deduction', 'fee')), 0)::bigint AS deduction
    FROM journal j WHERE j.created_at >= ${day0} - interval '6 days' ${company} ${roomCond}
    GROUP BY 1 ORDER BY 1`);
  const acc = await tx.execute(sql`
    SELECT count(*) FILTER (WHERE a.balance_fen < 0)::bigint AS arrears_n, coalesce(-sum(a.balance_fen) FILTER (WHERE a.balance_fen < 0), 0)::bigint AS arrears,
      count(*) FILTER (WHERE a.alarm_level IN (1, 2))::bigint AS low_n, ${homeSupplyCounts},
      coalesce(sum(a.balance_fen) FILTER (WHERE a.wallet = 'electric'), 0)::bigint AS electric,
      coalesce(sum(a.balance_fen) FILTER (WHERE a.wallet = 'water'), 0)::bigint AS water
    FROM accounts a JOIN owners o ON o.id = a.owner_id AND o.status = 1 JOIN rooms r ON r.id = o.room_id
    WHERE a.status = 1 ${f.companyId != null ? sql`AND a.company_id = ${f.companyId}` : sql``}
      ${f.searchArea != null ? sql`AND r.area_id IN ${areaAndBelow(f.searchArea)}` : sql``}`);
  return {
    money: money.rows.map((x) => ({ kind: String(x.kind), todayFen: Number(x.today), todayCount: Number(x.today_n), monthFen: Number(x.month) })),
    trend: trend.rows.map((x) => ({ day: String(x.day), prepayFen: Number(x.prepay), deductionFen: Number(x.deduction) })),
    accounts: {
      arrearsCount: Number(acc.rows[0].arrears_n), arrearsFen: Number(acc.rows[0].arrears), lowCount: Number(acc.rows[0].low_n),
      closedCount: Number(acc.rows[0].closed_n), pendingCloseCount: Number(acc.rows[0].pending_n), electricFen: Number(acc.rows[0].electric), waterFen: Number(acc.rows[0].water),
    },
  };
}

// ---- periodic postings (monthly fees, minimum charges, timed subsidies) -----------------------------

/** The version of a meter's scheme in force at `at` (or its first version when none is yet). */
const versionAt = (at: string) => sql`LATERAL (
  SELECT v.monthly_fee_fen, v.minimum_charge_fen FROM charging_scheme_versions v WHERE v.scheme_id = m.charging_scheme_id
  ORDER BY (v.effective_from <= ${at}::timestamptz) DESC, CASE WHEN v.effective_from <= ${at}::timestamptz THEN v.effective_from END DESC NULLS LAST, v.effective_from
  LIMIT 1) v`;

export interface FeeDue {
  meterId: number;
  companyId: number;
  kind: number;
  roomId: number;
  ownerId: number;
  meterName: string;
  feeFen: number;
  chargedFen: number;
}

/** Meters owing the month's fixed fee (not yet posted under fee:<meterId>:<month>). */
export async function monthlyFeesDue(tx: Tx, month: string, start: Date, afterId: number, limit: number): Promise<FeeDue[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.kind, m.room_id, o.id AS owner_id, m.name, v.monthly_fee_fen
    FROM meters m JOIN owners o ON o.room_id = m.room_id AND o.status = 1
    JOIN ${versionAt(start.toISOString())} ON true
    WHERE m.id > ${afterId} AND m.status = 1 AND m.charging_scheme_id IS NOT NULL AND v.monthly_fee_fen > 0
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = m.company_id AND j.idempotency_key = 'fee:' || m.id || ':' || ${month})
    ORDER BY m.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    meterId: Number(x.id), companyId: Number(x.company_id), kind: Number(x.kind), roomId: Number(x.room_id), ownerId: Number(x.owner_id),
    meterName: String(x.name), feeFen: Number(x.monthly_fee_fen), chargedFen: 0,
  }));
}

/**
 * Meters with a minimum charge for a closed month, not yet topped up (min:<meterId>:<month>), whose
 * month is fully settled (a reading after the month's end is settled, or three days have passed),
 * with what their readings of the month were charged.
 */
export async function minimumChargesDue(tx: Tx, month: string, start: Date, end: Date, afterId: number, limit: number): Promise<FeeDue[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.kind, m.room_id, o.id AS owner_id, m.name, v.minimum_charge_fen,
      coalesce((SELECT sum(s.amount_fen) FROM settlements s WHERE s.meter_id = m.id
        AND s.read_at >= ${start.toISOString()}::timestamptz AND s.read_at < ${end.toISOString()}::timestamptz), 0)::bigint AS charged
    FROM meters m JOIN owners o ON o.room_id = m.room_id AND o.status = 1
    JOIN ${versionAt(new Date(end.getTime() - 1).toISOString())} ON true
    LEFT JOIN settle_cursors c ON c.meter_id = m.id
    WHERE m.id > ${afterId} AND m.status = 1 AND m.charging_scheme_id IS NOT NULL AND v.minimum_charge_fen > 0
      AND (c.read_at >= ${end.toISOString()}::timestamptz OR now() >= ${end.toISOString()}::timestamptz + interval '3 days')
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = m.company_id AND j.idempotency_key = 'min:' || m.id || ':' || ${month})
    ORDER BY m.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    meterId: Number(x.id), companyId: Number(x.company_id), kind: Number(x.kind), roomId: Number(x.room_id), ownerId: Number(x.owner_id),
    meterName: String(x.name), feeFen: Number(x.minimum_charge_fen), chargedFen: Number(x.charged),
  }));
}

/** Timed subsidies due this month (the day has come, not yet credited under subsidy:<planId>:<month>). */
export async function subsidiesDue(tx: Tx, month: string, day: number, limit: number) {
  const r = await tx.execute(sql`
    SELECT p.id, p.company_id, p.room_id, p.wallet, p.amount_fen, o.id AS owner_id
    FROM subsidy_plans p JOIN owners o ON o.room_id = p.room_id AND o.status = 1
    WHERE p.enabled AND p.start_month <= ${month} AND (p.end_month = '' OR p.end_month >= ${month}) AND p.day_of_month <= ${day}
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = p.company_id AND j.idempotency_key = 'subsidy:' || p.id || ':' || ${month})
    ORDER BY p.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    planId: Number(x.id), companyId: Number(x.company_id), roomId: Number(x.room_id), wallet: String(x.wallet), amountFen: Number(x.amount_fen), ownerId: Number(x.owner_id),
  }));
}

/** Takes a billing job's transaction-scoped advisory lock if free (one worker runs it at a time). */
export async function tryJobLock(tx: Tx, key: number): Promise<boolean> {
  const r = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(725100, ${key}) AS ok`);
  return r.rows[0]?.ok === true;
}

// ---- demo seed ------------------------------------------------------------------------------------------

export async function schemesOf(tx: Tx, companyId: number) {
  const c = await tx.execute(sql`SELECT id, kind, name FROM charging_schemes WHERE company_id = ${companyId} AND status = 1 ORDER BY id`);
  const a = await tx.execute(sql`SELECT id, kind, name, overdraft_fen FROM alarm_schemes WHERE company_id = ${companyId} AND status = 1 ORDER BY id`);
  return {
    charging: c.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind), name: String(x.name) })),
    alarm: a.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind), name: String(x.name), overdraftFen: Number(x.overdraft_fen) })),
  };
}

export async function metersWithoutScheme(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT id, kind FROM meters WHERE company_id = ${companyId} AND charging_scheme_id IS NULL AND status = 1 ORDER BY id`);
  return r.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind) }));
}

export async function setMeterSchemes(tx: Tx, rows: { id: number; schemeId: number; alarmSchemeId: number | null }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE meters m SET charging_scheme_id = v.s, alarm_scheme_id = coalesce(m.alarm_scheme_id, v.a)
    FROM unnest(${arr(rows.map((r) => r.id))}::bigint[], ${arr(rows.map((r) => r.schemeId))}::bigint[], ${arr(rows.map((r) => r.alarmSchemeId))}::bigint[]) AS v(id, s, a)
    WHERE m.id = v.id`);
}

/** The company's current owners, with which kinds of meters their room has. */
export async function ownersWithMeters(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`
    SELECT o.id, o.room_id, bool_or(m.kind = 1) AS electric, bool_or(m.kind = 2) AS water
    FROM owners o JOIN meters m ON m.room_id = o.room_id
    WHERE o.company_id = ${companyId} AND o.status = 1 GROUP BY o.id, o.room_id ORDER BY o.id`);
  return r.rows.map((x) => ({ ownerId: Number(x.id), roomId: Number(x.room_id), electric: x.electric === true, water: x.water === true }));
}

// ---- settlement, one batch in few round trips --------------------------------------------------------

export interface LockedMeter {
  cursor: CursorRow;
  terms: MeterTermsRow;
  readings: PendingReading[];
  /**
   * the period states stored in meter_periods between the cursor's period and the last reading's (a
   * superset), read only when the readings reach past the cursor's own period (whose state is on it)
   */
  periods: PeriodRow[];
  /**
   * the highest balance at which any active alarm scheme of the company raises something (alarm 1,
   * alarm 2, close − overdraft); null: the company has none. Above it, from level 0, nothing happens.
   */
  alarmCeilingFen: number | null;
}

/** The China-time period key of a timestamp (SQL), as period.ts computes it. */
const periodKeySql = (at: SQL, monthType: SQL) =>
  sql`to_char(${at} AT TIME ZONE 'Asia/Shanghai', CASE WHEN ${monthType} = 2 THEN 'YYYY' ELSE 'YYYY-MM' END)`;

/**
 * Locks the settle cursors of these meters (ascending ids; skipLocked: leave out the ones another
 * settlement holds) and reads, in the same statement, what pricing needs for each: the meter's terms,
 * its pending good readings (oldest first, at most `perMeter`), the period states those readings touch
 * and the company's alarm ceiling. Meters without a cursor are left out (ensureCursors first).
 */
export interface LockedBatch {
  meters: LockedMeter[];
  /** the price versions of the meters' schemes */
  versions: VersionRow[];
  /**
   * the accounts the readings of a batch without 公摊 meters charge (the current owners' wallets of
   * the meters' kinds), locked in id order after the cursors; null when the batch has a 公摊 meter
   * or a meter without a cursor yet (ledger.preparePostings then locks every account, in id order)
   */
  accounts: LockedAccount[] | null;
}

export async function lockAndLoad(tx: Tx, meterIds: number[], skipLocked: boolean, perMeter: number, lockAccounts = true): Promise<LockedBatch> {
  if (!meterIds.length) return { meters: [], versions: [], accounts: [] };
  const r = await tx.execute(sql`
    WITH c AS MATERIALIZED (
      SELECT meter_id, company_id, read_at, total, registers, period_key, period_quantity, period_exact, period_charged_fen FROM settle_cursors
      WHERE meter_id = ANY(${arr(meterIds)}::bigint[])
      ORDER BY meter_id FOR UPDATE ${skipLocked ? sql`SKIP LOCKED` : sql``}
    ), bm AS MATERIALIZED (
      -- the locked meters with their terms, read once (by primary key) for every use below
      SELECT c.meter_id, c.read_at, c.total, c.registers, c.period_key, c.period_quantity, c.period_exact, c.period_charged_fen, m.company_id, m.kind, m.multiplier, m.status, m.room_id, m.charging_scheme_id,
        s.charging_month_type, o.id AS owner_id, sm.area_id AS shared_area_id, sm.method AS shared_method
      FROM c
      JOIN meters m ON m.id = c.meter_id
      LEFT JOIN charging_schemes s ON s.id = m.charging_scheme_id
      LEFT JOIN owners o ON o.room_id = m.room_id AND o.status = 1
      LEFT JOIN shared_meters sm ON sm.meter_id = m.id
    ), fl AS MATERIALIZED (
      -- the accounts are locked here unless the batch has a 公摊 meter or a meter without a cursor yet
      -- (the caller creates the cursor, and preparePostings locks every account later, in id order)
      -- (every meter locked: each has a cursor; only a short batch looks for a missing one)
      SELECT NOT ${lockAccounts}::boolean OR EXISTS (SELECT 1 FROM bm WHERE bm.shared_area_id IS NOT NULL)
        OR ((SELECT count(*) FROM c) < ${meterIds.length}::int
          AND EXISTS (SELECT 1 FROM unnest(${arr(meterIds)}::bigint[]) AS k(id) WHERE NOT EXISTS (SELECT 1 FROM settle_cursors x WHERE x.meter_id = k.id))) AS shared
    ), ac AS MATERIALIZED (
      SELECT a.company_id, max(greatest(a.alarm1_fen, a.alarm2_fen, a.close_fen - a.overdraft_fen)) AS ceiling
      FROM alarm_schemes a WHERE a.company_id IN (SELECT DISTINCT company_id FROM bm) AND a.status = 1 GROUP BY a.company_id
    ), vs AS MATERIALIZED (
      SELECT json_agg(json_build_array(v.scheme_id, ${isoOf(sql`v.effective_from`)}, v.mode, v.unit_price::text, v.tiers, v.tou, v.monthly_fee_fen, v.minimum_charge_fen)
        ORDER BY v.scheme_id, v.effective_from) AS versions
      FROM charging_scheme_versions v
      WHERE v.scheme_id = ANY(ARRAY(SELECT DISTINCT charging_scheme_id FROM bm WHERE charging_scheme_id IS NOT NULL))
    ), acc AS MATERIALIZED (
      SELECT a.id, a.company_id, a.owner_id, a.room_id, a.wallet, a.balance_fen, a.status, a.alarm_level
      FROM (SELECT DISTINCT bm.owner_id, CASE bm.kind WHEN 2 THEN 'water' ELSE 'electric' END AS wallet FROM bm
            WHERE bm.owner_id IS NOT NULL AND NOT (SELECT shared FROM fl)) k
      JOIN accounts a ON a.owner_id = k.owner_id AND a.wallet = k.wallet
      ORDER BY a.id FOR UPDATE OF a
    ), accj AS MATERIALIZED (
      -- reading acc here, once, takes the account locks after every cursor lock
      SELECT coalesce(json_agg(json_build_array(id, company_id, owner_id, room_id, wallet, balance_fen::text, status, alarm_level) ORDER BY id), '[]') AS accounts
      FROM acc
    )
    -- one JSON document for the batch (one value to parse, not a row of many fields per meter)
    SELECT (SELECT versions FROM vs) AS versions, (SELECT CASE WHEN fl.shared THEN NULL ELSE accj.accounts END FROM accj, fl) AS accounts,
      coalesce(json_agg(json_build_array(c.meter_id, CASE WHEN c.read_at = '-infinity' THEN NULL ELSE ${isoOf(sql`c.read_at`)} END, c.total::text, c.registers,
        c.company_id, c.kind, c.multiplier::text, c.status, c.room_id, c.charging_scheme_id, c.charging_month_type,
        c.owner_id, c.shared_area_id, c.shared_method, ac.ceiling, x.readings, pp.periods,
        c.period_key, c.period_quantity::text, c.period_exact::text, c.period_charged_fen::text) ORDER BY c.meter_id), '[]') AS meters
    FROM bm c
    LEFT JOIN ac ON ac.company_id = c.company_id
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_array(${isoOf(sql`r.read_at`)}, r.total::text, r.registers) ORDER BY r.read_at) AS readings,
        min(r.read_at) AS first_at, max(r.read_at) AS last_at
      FROM (SELECT r.read_at, r.total, r.registers FROM readings r
            WHERE r.meter_id = c.meter_id AND r.read_at > c.read_at AND r.exception = ''
            ORDER BY r.read_at LIMIT ${perMeter}) r
    ) x ON c.status = 1 AND c.charging_scheme_id IS NOT NULL
    -- the periods the pending readings touch; the stored ones are read from meter_periods only when
    -- they are not just the cursor's own period (a new month, a first settlement)
    LEFT JOIN LATERAL (
      SELECT ${periodKeySql(sql`CASE WHEN c.read_at = '-infinity' THEN x.first_at ELSE c.read_at END`, sql`c.charging_month_type`)} AS first_key,
        ${periodKeySql(sql`x.last_at`, sql`c.charging_month_type`)} AS last_key
      WHERE x.last_at IS NOT NULL
    ) pk ON true
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_array(p.period_key, p.company_id, p.quantity::text, p.exact::text, p.charged_fen::text)) AS periods
      FROM meter_periods p
      WHERE p.meter_id = c.meter_id AND p.period_key BETWEEN pk.first_key AND pk.last_key
    ) pp ON pk.first_key IS NOT NULL AND NOT (c.period_key = pk.first_key AND c.period_key = pk.last_key)`);
  const first = r.rows[0];
  if (!first || !(first.meters as unknown[]).length) return { meters: [], versions: [], accounts: [] };
  type V = [number, string, string, string, VersionRow['tiers'] | null, VersionRow['tou'] | null, number, number];
  const versions: VersionRow[] = ((first.versions ?? []) as V[]).map(([schemeId, from, mode, unitPrice, tiers, tou, fee, minimum]) => ({
    schemeId: Number(schemeId), effectiveFrom: new Date(from), mode, unitPrice, tiers: tiers ?? [], tou: tou ?? { periods: [] },
    monthlyFeeFen: Number(fee), minimumChargeFen: Number(minimum),
  }));
  type A = [number, number, number, number | null, string, string, number, number];
  const accounts = first.accounts == null ? null : (first.accounts as A[]).map(([id, companyId, ownerId, roomId, wallet, balance, status, alarm]) => ({
    id: Number(id), companyId: Number(companyId), ownerId: Number(ownerId), roomId: orNull(roomId), wallet, balanceFen: Number(balance), status: Number(status), alarmLevel: Number(alarm),
  }));
  type M = [number, string | null, string, Record<string, string> | null, number, number, string, number, number | null, number | null, number | null,
    number | null, number | null, number | null, number | string | null, [string, string, Record<string, unknown> | null][] | null, [string, number, string, string, string][] | null,
    string, string, string, string];
  const meters = (first.meters as M[]).map(([meterId, at, total, registers, companyId, kind, multiplier, status, roomId, schemeId, monthType, ownerId, sharedAreaId, sharedMethod, ceiling, readings, periods,
    periodKey, periodQuantity, periodExact, periodCharged]): LockedMeter => ({
    cursor: {
      meterId, at, readAt: at == null ? null : new Date(at), total, registers: registers ?? {},
      period: periodKey === '' ? null : { key: periodKey, quantity: periodQuantity, exact: periodExact, chargedFen: Number(periodCharged) },
    },
    terms: { id: meterId, companyId, kind, multiplier, status, roomId, schemeId, monthType, ownerId, sharedAreaId, sharedMethod },
    readings: (readings ?? []).map(([ra, t, regs]) => ({ meterId, at: ra, readAt: new Date(ra), total: t, registers: regs ?? {} })),
    periods: (periods ?? []).map(([periodKey, cid, quantity, exact, charged]) => ({ meterId, periodKey, companyId: cid, quantity, exact, chargedFen: Number(charged) })),
    alarmCeilingFen: orNull(ceiling),
  }));
  return { meters, versions, accounts };
}

/** Meters of these ids that have no settle cursor yet. */
export async function metersWithoutCursor(tx: Tx, meterIds: number[]): Promise<number[]> {
  if (!meterIds.length) return [];
  const r = await tx.execute(sql`
    SELECT k.id FROM unnest(${arr(meterIds)}::bigint[]) AS k(id)
    WHERE NOT EXISTS (SELECT 1 FROM settle_cursors c WHERE c.meter_id = k.id)`);
  return r.rows.map((x) => Number(x.id));
}

/** A journal row of a settlement batch: its settlement (ref_id) is named by index. */
export interface BatchJournalRow {
  /** index of the settlement row this posting charges (its id becomes ref_id) */
  settlementIndex: number;
  companyId: number;
  accountId: number;
  ownerId: number;
  roomId: number | null;
  wallet: string;
  kind: string;
  amountFen: number;
  balanceAfterFen: number;
  idempotencyKey: string;
  payMethod: string;
  refType: string;
  memo: string;
}

/** A period state to keep in meter_periods: a period the meter's cursor has moved on from. */
export type BatchPeriodRow = PeriodRow;

/** A cursor's new position, with the state of the period it is now in. */
export interface BatchCursorRow {
  meterId: number;
  at: string;
  total: string;
  registers: Record<string, string>;
  periodKey: string;
  quantity: string;
  exact: string;
  chargedFen: number;
}

export interface BatchSettlementRow extends Omit<SettlementRow, 'id' | 'journalId'> {
  /** index of the journal row that charged this reading (its id becomes journal_id), or null */
  journalIndex: number | null;
}

/**
 * Writes a priced batch in ONE statement (a data-modifying CTE, so one round trip and one snapshot):
 * the journal rows (ids drawn in order after the accounts were locked, so an account's journal ids
 * follow its balance), the balances, the settlements (unique per meter and read_at: a reading already
 * settled fails the statement, and the caller's transaction with it), the cursors with the state of the period
 * each is now in, and the periods a cursor moved on from (into meter_periods). The settlement and
 * journal rows name each other (ref_id, journal_id) by ids drawn in the statement.
 */
export async function writeSettlementBatch(tx: Tx, b: {
  journal: BatchJournalRow[];
  balances: { accountId: number; balanceFen: number }[];
  settlements: BatchSettlementRow[];
  periods: BatchPeriodRow[];
  cursors: BatchCursorRow[];
}): Promise<{ inserted: number; journalIds: number[]; settlementIds: number[] }> {
  // array literals built here (see intArr); the JSON columns travel as one JSON array each
  const jn = <K extends keyof BatchJournalRow>(k: K) => intArr(b.journal.map((r) => r[k] as number | null));
  const jt = <K extends keyof BatchJournalRow>(k: K) => textArr(b.journal.map((r) => r[k] as string | null));
  const sn = <K extends keyof BatchSettlementRow>(k: K) => intArr(b.settlements.map((r) => r[k] as number | null));
  const st = <K extends keyof BatchSettlementRow>(k: K) => textArr(b.settlements.map((r) => r[k] as string | null));
  const qn = <K extends keyof BatchPeriodRow>(k: K) => intArr(b.periods.map((r) => r[k] as number));
  const qt = <K extends keyof BatchPeriodRow>(k: K) => textArr(b.periods.map((r) => r[k] as string));
  const cn = <K extends keyof BatchCursorRow>(k: K) => intArr(b.cursors.map((r) => r[k] as number));
  const ct = <K extends keyof BatchCursorRow>(k: K) => textArr(b.cursors.map((r) => r[k] as string));
  const cursorIds = cn('meterId');
  const r = await tx.execute(sql`
    WITH ids AS MATERIALIZED (
      -- ids drawn in order, after the accounts were locked: an account's journal ids follow its balance
      SELECT coalesce((SELECT array_agg(nextval('settlements_id_seq')) FROM generate_series(1, ${b.settlements.length}::int)), '{}') AS s,
        coalesce((SELECT array_agg(nextval('journal_id_seq')) FROM generate_series(1, ${b.journal.length}::int)), '{}') AS j,
        ${JSON.stringify(b.settlements.map((x) => x.lines))}::jsonb AS lines,
        ${JSON.stringify(b.cursors.map((x) => x.registers))}::jsonb AS registers
    ), j AS (
      INSERT INTO journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen,
        idempotency_key, pay_method, ref_type, ref_id, memo)
      SELECT ids.j[v.ord::int], v.company_id, v.account_id, v.owner_id, v.room_id, v.wallet, v.kind, v.amount_fen, v.balance_after_fen,
        v.idempotency_key, v.pay_method, v.ref_type, ids.s[v.s_ord + 1], v.memo
      FROM ids, unnest(${jn('settlementIndex')}::int[], ${jn('companyId')}::bigint[], ${jn('accountId')}::bigint[], ${jn('ownerId')}::bigint[],
        ${jn('roomId')}::bigint[], ${jt('wallet')}::varchar[], ${jt('kind')}::varchar[], ${jn('amountFen')}::bigint[], ${jn('balanceAfterFen')}::bigint[],
        ${jt('idempotencyKey')}::varchar[], ${jt('payMethod')}::varchar[], ${jt('refType')}::varchar[], ${jt('memo')}::text[])
        WITH ORDINALITY AS v(s_ord, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, ref_type, memo, ord)
      RETURNING 1
    ), bal AS (
      UPDATE accounts a SET balance_fen = v.b, updated_at = now()
      FROM unnest(${intArr(b.balances.map((x) => x.accountId))}::bigint[], ${intArr(b.balances.map((x) => x.balanceFen))}::bigint[]) AS v(id, b)
      -- the ANY keeps the plan on the primary key (a hash join would read the whole table)
      WHERE a.id = v.id AND a.id = ANY(${intArr(b.balances.map((x) => x.accountId))}::bigint[])
      RETURNING 1
    ), st AS (
      INSERT INTO settlements (id, company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity,
        amount_fen, lines, period_key, journal_id, meter_kind, note)
      SELECT ids.s[v.ord::int], v.company_id, v.meter_id, v.owner_id, v.room_id, v.read_at, v.prev_read_at, v.prev_total, v.total, v.quantity,
        v.amount_fen, ids.lines -> (v.ord::int - 1), v.period_key, ids.j[v.j_ord + 1], v.meter_kind, v.note
      FROM ids, unnest(${sn('companyId')}::bigint[], ${sn('meterId')}::bigint[], ${sn('ownerId')}::bigint[], ${sn('roomId')}::bigint[],
          ${st('at')}::timestamptz[], ${st('prevAt')}::timestamptz[], ${st('prevTotal')}::numeric[], ${st('total')}::numeric[], ${st('quantity')}::numeric[],
          ${sn('amountFen')}::bigint[], ${st('periodKey')}::varchar[], ${sn('journalIndex')}::int[], ${sn('meterKind')}::int[], ${st('note')}::varchar[])
        WITH ORDINALITY AS v(company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity, amount_fen, period_key, j_ord, meter_kind, note, ord)
      -- no ON CONFLICT: a reading settled twice (the cursor lock makes it impossible) fails the whole
      -- statement on settlements_reading; a speculative insertion would cost a probe and a WAL record a row
      RETURNING 1
    ), per AS (
      -- the periods the cursors moved on from (rare: a new month or year)
      INSERT INTO meter_periods AS p (meter_id, period_key, company_id, quantity, exact, charged_fen)
      SELECT * FROM unnest(${qn('meterId')}::bigint[], ${qt('periodKey')}::varchar[], ${qn('companyId')}::bigint[],
        ${qt('quantity')}::numeric[], ${qt('exact')}::numeric[], ${qn('chargedFen')}::bigint[])
      ON CONFLICT (meter_id, period_key) DO UPDATE
        SET quantity = excluded.quantity, exact = excluded.exact, charged_fen = excluded.charged_fen, updated_at = now()
      RETURNING 1
    ), cur AS (
      -- the cursor and the state of its current period: one row per meter. The registers come from ids
      -- through a scalar subquery (run once): an UPDATE … FROM ids would copy the whole ids row (every
      -- array and JSON document of the batch) for each cursor, to recheck it under concurrency
      UPDATE settle_cursors c SET read_at = v.read_at, total = v.total, registers = (SELECT registers FROM ids) -> (v.ord::int - 1),
        period_key = v.period_key, period_quantity = v.quantity, period_exact = v.exact, period_charged_fen = v.charged_fen, updated_at = now()
      FROM unnest(${cursorIds}::bigint[], ${ct('at')}::timestamptz[], ${ct('total')}::numeric[], ${ct('periodKey')}::varchar[],
        ${ct('quantity')}::numeric[], ${ct('exact')}::numeric[], ${cn('chargedFen')}::bigint[])
        WITH ORDINALITY AS v(meter_id, read_at, total, period_key, quantity, exact, charged_fen, ord)
      WHERE c.meter_id = v.meter_id AND c.meter_id = ANY(${cursorIds}::bigint[])
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM st)::int AS inserted,
      (SELECT count(*) FROM j)::int AS journaled, (SELECT count(*) FROM bal)::int AS balanced,
      (SELECT count(*) FROM per)::int AS periods, (SELECT count(*) FROM cur)::int AS cursors,
      (SELECT array_to_string(j, ',') FROM ids) AS journal_ids, (SELECT array_to_string(s, ',') FROM ids) AS settlement_ids`);
  const x = r.rows[0];
  // every row of the batch was written: anything else is a bug, and the caller's transaction must not stand
  if (Number(x.journaled) !== b.journal.length || Number(x.balanced) !== b.balances.length || Number(x.periods) !== b.periods.length || Number(x.cursors) !== b.cursors.length) {
    throw new Error(`settlement batch: wrote journal ${x.journaled}/${b.journal.length}, balances ${x.balanced}/${b.balances.length}, periods ${x.periods}/${b.periods.length}, cursors ${x.cursors}/${b.cursors.length}`);
  }
  return {
    inserted: Number(x.inserted),
    journalIds: x.journal_ids === '' ? [] : String(x.journal_ids).split(',').map(Number),
    settlementIds: x.settlement_ids === '' ? [] : String(x.settlement_ids).split(',').map(Number),
  };
}
