import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { businessDate, startOfBeijingDay } from '@meter/contracts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { companyRows, inPeriod, inRoomScope, type RoomScope } from '../../db/where.ts';

// The only SQL of the finance reports (/reportCheck, /reportFees, /reportDeduct, /reportBank).
// Days are China days; every figure comes from the journal or the settlements, so reports add up
// with the ledger by construction.

export interface ReportFilter extends RoomScope {
  from: Date;
  to: Date;
}

const day = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD')`;

function journalScope(f: ReportFilter): SQL {
  const w = companyRows('j.company_id', f.companyId);
  inPeriod(w, 'j.created_at', f);
  inRoomScope(w, 'j.room_id', f);
  return sql.join(w, sql` AND `);
}

/** 实收: money received (a prepay by cash, WeChat, Alipay or bank) — never an opening balance, subsidy or system credit */
const RECEIPT = sql`j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')`;
/** 系统入账: a prepay credited by the system (pay method 'system'), not money received */
const SYSTEM_CREDIT = sql`j.kind = 'prepay' AND j.pay_method NOT IN ('cash', 'wechat', 'alipay', 'bank')`;
const OPENING = sql`j.kind = 'opening'`;
/** 冲正 of money received (a voided counter receipt, modules/finance): signed, in the receipt's pay method */
const REVERSAL = sql`j.kind = 'reversal' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')`;

const fen = (cond: SQL) => sql`coalesce(sum(j.amount_fen) FILTER (WHERE ${cond}), 0)::bigint`;
const cnt = (cond: SQL) => sql`count(*) FILTER (WHERE ${cond})::int`;

/** 对账: per day, money in by pay method, refunds, and apart from them subsidies, system credits, opening balances and what was charged. */
export async function checkByDay(tx: Tx, f: ReportFilter) {
  const prepay = (m: string) => sql`j.kind = 'prepay' AND j.pay_method = ${m}`;
  const r = await tx.execute(sql`
    SELECT ${day(sql`j.created_at`)} AS day,
      ${cnt(prepay('cash'))} AS cash_n, ${fen(prepay('cash'))} AS cash,
      ${cnt(prepay('wechat'))} AS wechat_n, ${fen(prepay('wechat'))} AS wechat,
      ${cnt(prepay('alipay'))} AS alipay_n, ${fen(prepay('alipay'))} AS alipay,
      ${cnt(prepay('bank'))} AS bank_n, ${fen(prepay('bank'))} AS bank,
      ${cnt(sql`j.kind = 'refund'`)} AS refund_n, ${fen(sql`j.kind = 'refund'`)} AS refund,
      ${cnt(REVERSAL)} AS reversal_n, ${fen(REVERSAL)} AS reversal,
      ${cnt(sql`j.kind = 'subsidy'`)} AS subsidy_n, ${fen(sql`j.kind = 'subsidy'`)} AS subsidy,
      ${cnt(SYSTEM_CREDIT)} AS system_n, ${fen(SYSTEM_CREDIT)} AS system,
      ${cnt(OPENING)} AS opening_n, ${fen(OPENING)} AS opening,
      ${fen(sql`j.kind = 'deduction'`)} AS deduction, ${fen(sql`j.kind = 'fee'`)} AS fee
    FROM journal j WHERE ${journalScope(f)} GROUP BY 1 ORDER BY 1`);
  return r.rows;
}

/** 银行: per day and channel, money received through banks and online payments. */
export async function bankByDay(tx: Tx, f: ReportFilter) {
  const r = await tx.execute(sql`
    SELECT ${day(sql`j.created_at`)} AS day, j.pay_method AS channel, count(*)::int AS n, coalesce(sum(j.amount_fen), 0)::bigint AS amount,
      count(*) FILTER (WHERE ja.journal_id IS NOT NULL)::int AS audited_n
    FROM journal j LEFT JOIN journal_audits ja ON ja.journal_id = j.id
    WHERE ${journalScope(f)} AND j.kind = 'prepay' AND j.pay_method IN ('bank', 'wechat', 'alipay')
    GROUP BY 1, 2 ORDER BY 1, 2`);
  return r.rows;
}

/** 子账户提现: the bank sub-merchants' withdrawals asked in the period (newest first). */
export async function withdrawalsIn(tx: Tx, f: ReportFilter, limit = 500) {
  const w: SQL[] = [sql`w.created_at >= ${f.from.toISOString()}::timestamptz`, sql`w.created_at < ${f.to.toISOString()}::timestamptz`];
  if (f.companyId != null) w.push(sql`w.company_id = ${f.companyId}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT w.id, to_char(w.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS created_at,
      to_char(w.finished_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS finished_at, p.name AS property_name, w.sub_mer_id,
      w.amount_fen, w.status, w.bank_serial, w.reason, w.operator_name
    FROM bank_withdrawals w JOIN property_infos p ON p.id = w.property_id WHERE ${where} ORDER BY w.id DESC LIMIT ${limit}`);
  const totals = await tx.execute(sql`
    SELECT w.status, count(*)::int AS n, coalesce(sum(w.amount_fen), 0)::bigint AS amount FROM bank_withdrawals w WHERE ${where} GROUP BY w.status`);
  return { rows: rows.rows, totals: totals.rows };
}

/** 扣费: per day and meter kind, the settlements (charged or not) and their amounts. */
export async function deductByDay(tx: Tx, f: ReportFilter) {
  return wholeDays(f) ? deductFromRollup(tx, f) : deductFromSettlements(tx, f);
}

/** the period runs from a China midnight to a China midnight: usage_daily's days cover it exactly */
const wholeDays = (f: ReportFilter) => startOfBeijingDay(f.from).getTime() === f.from.getTime() && startOfBeijingDay(f.to).getTime() === f.to.getTime();

/**
 * 扣费 from the rollups kept by the settlements' statement trigger: for a whole company (or every company),
 * usage_company_daily plus the deltas not yet moved into it (0061: a row a company, day and kind); searched
 * by area or for a user bound to areas, usage_daily (0055: a row a meter, day and kind, joined to the meters
 * for their area). The same figures as deductFromSettlements (the integration tests compare them).
 */
export async function deductFromRollup(tx: Tx, f: ReportFilter) {
  return f.searchArea == null && !f.areaRestricted ? deductFromCompanyRollup(tx, f) : deductFromMeterRollup(tx, f);
}

/**
 * `meters` is the sum of the rows' counts of meters that had a settlement that day (+1 when a meter's
 * usage_daily row got its first one): a day and kind shows where that sum is above zero, as it shows in
 * usage_daily where a row holds settlements.
 */
export async function deductFromCompanyRollup(tx: Tx, f: ReportFilter) {
  const w: SQL[] = [sql`day >= ${businessDate(f.from)}::date`, sql`day < ${businessDate(f.to)}::date`];
  if (f.companyId != null) w.push(sql`company_id = ${f.companyId}`);
  const where = sql.join(w, sql` AND `);
  const cols = sql`day, meter_kind, settlements, meters, quantity, amount_fen, charged_fen, vacant_fen`;
  const r = await tx.execute(sql`
    SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.meter_kind, sum(u.settlements)::int AS n, sum(u.meters)::int AS meters,
      sum(u.quantity)::numeric(20, 4)::text AS quantity, sum(u.amount_fen)::bigint AS amount,
      sum(u.charged_fen)::bigint AS charged, sum(u.vacant_fen)::bigint AS vacant
    FROM (SELECT ${cols} FROM usage_company_daily WHERE ${where} UNION ALL SELECT ${cols} FROM usage_company_delta WHERE ${where}) u
    GROUP BY 1, 2 HAVING sum(u.meters) > 0 ORDER BY 1, 2`);
  return r.rows;
}

/** `meters` counts the usage_daily rows holding settlements, one per meter and kind that had a settlement that day. */
export async function deductFromMeterRollup(tx: Tx, f: ReportFilter) {
  const w: SQL[] = [sql`u.day >= ${businessDate(f.from)}::date`, sql`u.day < ${businessDate(f.to)}::date`, sql`u.settlements > 0`];
  if (f.companyId != null) w.push(sql`u.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  const r = await tx.execute(sql`
    SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.meter_kind, sum(u.settlements)::int AS n, count(*)::int AS meters,
      sum(u.quantity)::numeric(20, 4)::text AS quantity, sum(u.amount_fen)::bigint AS amount,
      sum(u.charged_fen)::bigint AS charged, sum(u.vacant_fen)::bigint AS vacant
    FROM usage_daily u JOIN meters m ON m.id = u.meter_id
    WHERE ${sql.join(w, sql` AND `)} GROUP BY 1, 2 ORDER BY 1, 2`);
  return r.rows;
}

/** 扣费 straight from the settlements: any period (the raw computation the rollup must equal). */
export async function deductFromSettlements(tx: Tx, f: ReportFilter) {
  const w: SQL[] = [sql`s.read_at >= ${f.from.toISOString()}::timestamptz`, sql`s.read_at < ${f.to.toISOString()}::timestamptz`];
  if (f.companyId != null) w.push(sql`s.company_id = ${f.companyId}`);
  if (f.searchArea != null) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  const r = await tx.execute(sql`
    SELECT ${day(sql`s.read_at`)} AS day, s.meter_kind, count(*)::int AS n, count(DISTINCT s.meter_id)::int AS meters,
      coalesce(sum(s.quantity), 0)::numeric(20, 4)::text AS quantity, coalesce(sum(s.amount_fen), 0)::bigint AS amount,
      coalesce(sum(s.amount_fen) FILTER (WHERE s.journal_id IS NOT NULL OR s.note = 'shared'), 0)::bigint AS charged,
      coalesce(sum(s.amount_fen) FILTER (WHERE s.note = 'vacant'), 0)::bigint AS vacant
    FROM settlements s JOIN meters m ON m.id = s.meter_id
    WHERE ${sql.join(w, sql` AND `)} GROUP BY 1, 2 ORDER BY 1, 2`);
  return r.rows;
}

/** What the fees report calls a room deleted since it was charged (the journal keeps its id, not its name). */
export const DELETED_ROOM = '已删除房间';

/** 费用: per room, consumption and charges of the period (keyset on room id, newest first). */
export async function feesByRoom(tx: Tx, f: ReportFilter, limit: number, offset: number) {
  const scope = journalScope(f);
  const sq = (kind: number) => sql`coalesce((SELECT sum(s.quantity) FROM settlements s WHERE s.room_id = b.room_id AND s.meter_kind = ${kind}
    AND s.read_at >= ${f.from.toISOString()}::timestamptz AND s.read_at < ${f.to.toISOString()}::timestamptz), 0)::text`;
  const rows = await tx.execute(sql`
    WITH b AS (
      SELECT j.room_id,
        ${fen(sql`j.kind = 'deduction' AND j.wallet = 'electric'`)} AS electric,
        ${fen(sql`j.kind = 'deduction' AND j.wallet = 'water'`)} AS water,
        ${fen(sql`j.kind = 'fee'`)} AS fees, ${fen(sql`j.kind = 'subsidy'`)} AS subsidy,
        ${fen(RECEIPT)} AS prepay, ${fen(SYSTEM_CREDIT)} AS system, ${fen(OPENING)} AS opening, ${fen(sql`j.kind = 'refund'`)} AS refund
      FROM journal j WHERE ${scope} AND j.room_id IS NOT NULL GROUP BY j.room_id ORDER BY j.room_id DESC LIMIT ${limit} OFFSET ${offset})
    SELECT b.room_id AS "roomId", coalesce(r.name, ${DELETED_ROOM}) AS "roomName", o.name AS "ownerName", b.electric, b.water, b.fees, b.subsidy, b.prepay, b.system, b.opening, b.refund,
      ${sq(1)} AS "electricQuantity", ${sq(2)} AS "waterQuantity"
    FROM b LEFT JOIN rooms r ON r.id = b.room_id LEFT JOIN owners o ON o.room_id = b.room_id AND o.status = 1
    ORDER BY b.room_id DESC`);
  const c = await tx.execute(sql`SELECT count(DISTINCT j.room_id)::bigint AS n FROM journal j WHERE ${scope} AND j.room_id IS NOT NULL`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function feesTotals(tx: Tx, f: ReportFilter) {
  const r = await tx.execute(sql`
    SELECT ${fen(sql`j.kind = 'deduction' AND j.wallet = 'electric'`)} AS electric, ${fen(sql`j.kind = 'deduction' AND j.wallet = 'water'`)} AS water,
      ${fen(sql`j.kind = 'fee'`)} AS fees, ${fen(sql`j.kind = 'subsidy'`)} AS subsidy,
      ${fen(RECEIPT)} AS prepay, ${fen(SYSTEM_CREDIT)} AS system, ${fen(OPENING)} AS opening, ${fen(sql`j.kind = 'refund'`)} AS refund
    FROM journal j WHERE ${journalScope(f)} AND j.room_id IS NOT NULL`);
  return r.rows[0];
}

export async function companyBankType(tx: Tx, companyId: number | null) {
  if (companyId == null) return null;
  const r = await tx.execute(sql`SELECT bank_type FROM companies WHERE id = ${companyId}`);
  return r.rows[0] ? Number(r.rows[0].bank_type) : null;
}
