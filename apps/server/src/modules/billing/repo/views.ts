// Read models: rooms and accounts, the journal, settlements, bills, receipts, home figures.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { localTime } from '../../../db/local-time.ts';
import { receipts } from '../../../db/schema/index.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import { areaPathOf } from '../../room/index.ts';
import { homeSupplyCounts } from '../supply-repo.ts';
import { arr, isoOf, like } from './sql.ts';
import { companyRows, inPeriod, inRoomScope, type RoomScope } from '../../../db/where.ts';

/** Rows of `alias` (with room_id and owner_id) whose room and owner names match (ILIKE) the ones searched for. */
function byNames(w: SQL[], alias: string, f: { roomName?: string; ownerName?: string }) {
  if (f.roomName) w.push(sql`${sql.raw(alias)}.room_id IN (SELECT rn.id FROM rooms rn WHERE rn.name ILIKE ${like(f.roomName)})`);
  if (f.ownerName) w.push(sql`${sql.raw(alias)}.owner_id IN (SELECT os.id FROM owners os WHERE os.name ILIKE ${like(f.ownerName)})`);
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
  const w = companyRows('r.company_id', f.companyId);
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
      m.phase_id AS "phaseId", m.charging_scheme_id AS "chargingSchemeId", cs.name AS "chargingSchemeName", m.alarm_scheme_id AS "alarmSchemeId", als.name AS "alarmSchemeName",
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

export interface JournalFilter extends RoomScope {
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
  const w = companyRows('j.company_id', f.companyId);
  if (f.kinds?.length) w.push(sql`j.kind = ANY(${arr(f.kinds)}::varchar[])`);
  if (f.wallet) w.push(sql`j.wallet = ${f.wallet}`);
  if (f.payMethod) w.push(sql`j.pay_method = ${f.payMethod}`);
  if (f.roomId != null) w.push(sql`j.room_id = ${f.roomId}`);
  if (f.ownerId != null) w.push(sql`j.owner_id = ${f.ownerId}`);
  inPeriod(w, 'j.created_at', f);
  inRoomScope(w, 'j.room_id', f);
  byNames(w, 'j', f);
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

/** What the settlement views match on besides the company and the time range. */
export interface SettlementMatch {
  searchArea?: number;
  roomName?: string;
  ownerName?: string;
  meterName?: string;
  address?: string;
  meterKind?: number;
  meterId?: number;
  roomId?: number;
}

export interface SettlementFilter extends SettlementMatch {
  companyId: number | null;
  from?: Date;
  to?: Date;
}

/** Settlements of the meters the caller may see (the meters join carries the area scope). */
function settlementWhere(f: SettlementFilter): SQL {
  const w = companyRows('s.company_id', f.companyId);
  if (f.meterKind != null) w.push(sql`s.meter_kind = ${f.meterKind}`);
  if (f.meterId != null) w.push(sql`s.meter_id = ${f.meterId}`);
  if (f.roomId != null) w.push(sql`s.room_id = ${f.roomId}`);
  inPeriod(w, 's.read_at', f);
  if (f.searchArea != null) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.meterName) w.push(sql`m.name ILIKE ${like(f.meterName)}`);
  if (f.address) w.push(sql`m.address LIKE ${like(f.address)}`);
  byNames(w, 's', f);
  return sql.join(w, sql` AND `);
}

const settlementColumns = sql`s.id, s.meter_id AS "meterId", m.name AS "meterName", m.address, s.meter_kind AS "meterKind",
  s.room_id AS "roomId", r.name AS "roomName", s.owner_id AS "ownerId", o.name AS "ownerName",
  ${localTime(sql`s.prev_read_at`)} AS "prevReadAt", ${localTime(sql`s.read_at`)} AS "readAt", s.prev_total AS "prevTotal", s.total,
  m.multiplier, s.quantity, s.amount_fen AS "amountFen", s.period_key AS "periodKey", s.note, s.journal_id AS "journalId", s.lines,
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

/**
 * The statement of an export batch as arrays (db/client readArrays): the sheet's 16 columns in order —
 * meter name, address, meter kind (→ type), room, owner, prev read, read, prev total, total, multiplier,
 * quantity, NULL (→ unit), amount (fen), period, note, settled — then id and read_at (ISO) for the keyset.
 * Newest first, after (read_at, id) of the last row (keyset); the plain bound lets the (company_id,
 * read_at) index start at the keyset, the row comparison is exact.
 */
export function settlementBatchSql(f: SettlementFilter, before: { at: string; id: number } | null, limit: number): SQL {
  const after = before ? sql`AND s.read_at <= ${before.at}::timestamptz AND (s.read_at, s.id) < (${before.at}::timestamptz, ${before.id})` : sql``;
  return sql`
    SELECT m.name, m.address, s.meter_kind, r.name, o.name, ${localTime(sql`s.prev_read_at`)}, ${localTime(sql`s.read_at`)},
      s.prev_total, s.total, m.multiplier, s.quantity, NULL, s.amount_fen, s.period_key, s.note, ${localTime(sql`s.created_at`)},
      s.id, ${isoOf(sql`s.read_at`)}
    FROM settlements s JOIN meters m ON m.id = s.meter_id
    LEFT JOIN rooms r ON r.id = s.room_id LEFT JOIN owners o ON o.id = s.owner_id
    WHERE ${settlementWhere(f)} ${after}
    ORDER BY s.read_at DESC, s.id DESC LIMIT ${limit}`;
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

export interface BillFilter extends RoomScope {
  roomName?: string;
  ownerName?: string;
  from: Date;
  to: Date;
}

/** Monthly bills: per owner with money movements in the period, by wallet and kind. */
export async function ownerBills(tx: Tx, f: BillFilter, limit: number, offset: number) {
  const w = companyRows('j.company_id', f.companyId);
  inPeriod(w, 'j.created_at', f);
  inRoomScope(w, 'j.room_id', f);
  byNames(w, 'j', f);
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

export interface ReceiptFilter extends RoomScope {
  no?: string;
  roomName?: string;
  ownerName?: string;
  kind?: string;
  kinds?: string[];
  from?: Date;
  to?: Date;
}

function receiptWhere(f: ReceiptFilter): SQL {
  const w = companyRows('rc.company_id', f.companyId);
  if (f.no) w.push(sql`rc.no LIKE ${like(f.no)}`);
  if (f.kind) w.push(sql`rc.kind = ${f.kind}`);
  if (f.kinds?.length) w.push(sql`rc.kind = ANY(${arr(f.kinds)}::varchar[])`);
  inPeriod(w, 'rc.created_at', f);
  inRoomScope(w, 'rc.room_id', f);
  byNames(w, 'rc', f);
  return sql.join(w, sql` AND `);
}

const receiptColumns = sql`rc.id, rc.no, rc.kind, rc.pay_method AS "payMethod", rc.items, rc.amount_fen AS "amountFen",
  rc.print_count AS "printCount", ${localTime(sql`rc.last_printed_at`)} AS "lastPrintedAt", ${localTime(sql`rc.created_at`)} AS "createdAt",
  rc.operator_name AS "operatorName", rc.memo, rc.journal_id AS "journalId", rc.room_id AS "roomId", r.name AS "roomName",
  rc.owner_id AS "ownerId", o.name AS "ownerName", o.phone AS "ownerPhone", rc.company_id AS "companyId",
  EXISTS (SELECT 1 FROM journal jo WHERE jo.id = rc.journal_id AND jo.ref_type IN ('payment', 'payRefund')) AS "online"`;

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

// ---- home figures ------------------------------------------------------------------------------------

/**
 * The /home figures: the same sums as the journal rows since the China month's first day. A user who
 * sees the whole company reads journal_company_daily plus the deltas not yet moved into it (0058: a few
 * rows a company a day, whatever the number of rooms); a user bound to areas, or a search by area, reads
 * journal_area_daily and its deltas (0062: a few rows an area a day, per room's own area; the tables carry
 * the rooms' area scope, and a search sums the areas of the subtree), all kept by the journal's trigger. An
 * area a room left keeps rows of no entries: a day, kind and pay method counts where it holds entries.
 */
export async function homeFigures(tx: Tx, f: RoomScope) {
  const areaCond = f.searchArea != null ? sql`AND area_id IN ${areaAndBelow(f.searchArea)}` : f.areaRestricted ? sql`` : null;
  const company = f.companyId != null ? sql`AND company_id = ${f.companyId}` : sql``;
  const day0 = sql`(now() AT TIME ZONE 'Asia/Shanghai')::date`;
  const month0 = sql`date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai')::date`;
  const since = (from: SQL) => areaCond
    ? sql`(SELECT day, kind, pay_method, sum(entries) AS entries, sum(amount_fen) AS amount_fen FROM (
        SELECT day, kind, pay_method, entries, amount_fen FROM journal_area_daily WHERE day >= ${from} ${company} ${areaCond}
        UNION ALL SELECT day, kind, pay_method, entries, amount_fen FROM journal_area_delta WHERE day >= ${from} ${company} ${areaCond}) a
        GROUP BY 1, 2, 3 HAVING sum(entries) <> 0)`
    : sql`(SELECT day, kind, pay_method, entries, amount_fen FROM journal_company_daily WHERE day >= ${from} ${company}
        UNION ALL SELECT day, kind, pay_method, entries, amount_fen FROM journal_company_delta WHERE day >= ${from} ${company})`;
  // a prepay by a real pay method is money received ('prepay'); a prepay by the system is a credit
  // ('system'); opening balances and subsidies are their own kinds (issue 11 item 9)
  const category = sql`CASE WHEN d.kind = 'prepay' AND d.pay_method NOT IN ('cash', 'wechat', 'alipay', 'bank') THEN 'system' ELSE d.kind END`;
  const money = await tx.execute(sql`
    SELECT ${category} AS kind, coalesce(sum(d.amount_fen) FILTER (WHERE d.day >= ${day0}), 0)::bigint AS today,
      coalesce(sum(d.amount_fen), 0)::bigint AS month, coalesce(sum(d.entries) FILTER (WHERE d.day >= ${day0}), 0)::bigint AS today_n
    FROM ${since(month0)} d GROUP BY 1`);
  const trend = await tx.execute(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
      coalesce(sum(d.amount_fen) FILTER (WHERE d.kind = 'prepay' AND d.pay_method IN ('cash', 'wechat', 'alipay', 'bank')), 0)::bigint AS prepay,
      coalesce(-sum(d.amount_fen) FILTER (WHERE d.kind IN ('deduction', 'fee')), 0)::bigint AS deduction
    FROM ${since(sql`${day0} - 6`)} d GROUP BY 1 ORDER BY 1`);
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
