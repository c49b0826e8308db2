import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { rowMapper } from '../../db/row-map.ts';

// The only SQL of reconciliation: our online orders (payments) as the statement needs them, the
// statement rows of a day (reconcile_rows) and its last run (reconcile_runs).

/** status: paid | created | closed (an unpaid order past its expiry counts as closed) */
const orderOf = rowMapper({ id: 'number', companyId: 'number', outTradeNo: 'string', amountFen: 'number', status: 'string' });
export type OrderHere = ReturnType<typeof orderOf>;
const orderCols = sql`id, company_id, out_trade_no, amount_fen, CASE WHEN status = 'created' AND expires_at < now() THEN 'closed' ELSE status END AS status`;

/** The column's time falls on this Beijing day. */
const onBeijingDay = (column: SQL, day: string) =>
  sql`${column} >= (${day}::date)::timestamp AT TIME ZONE 'Asia/Shanghai' AND ${column} < (${day}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'`;

/** Our orders of this channel with these out_trade_no. */
export async function ordersByNo(tx: Tx, channel: string, nos: string[]): Promise<OrderHere[]> {
  if (!nos.length) return [];
  const r = await tx.execute(sql`SELECT ${orderCols} FROM payments WHERE channel = ${channel} AND out_trade_no IN ${nos}`);
  return r.rows.map(orderOf);
}

/** The platform's merchant (0) or a company's own merchant (its id). */
export type Merchant = number;

/** Our orders of this channel and merchant credited on this Beijing day. */
export async function ordersPaidOn(tx: Tx, channel: string, day: string, merchant: Merchant = 0): Promise<OrderHere[]> {
  const r = await tx.execute(sql`
    SELECT ${orderCols} FROM payments
    WHERE channel = ${channel} AND status = 'paid' AND coalesce(merchant_company_id, 0) = ${merchant}
      AND ${onBeijingDay(sql.raw('paid_at'), day)}`);
  return r.rows.map(orderOf);
}

/** Which of these numbers (out_trade_no of payments, out_refund_no of refunds) another day's statement of the channel holds. */
async function inOtherStatements(tx: Tx, kind: 'payment' | 'refund', channel: string, day: string, nos: string[]): Promise<Set<string>> {
  if (!nos.length) return new Set();
  const no = sql.raw(kind === 'payment' ? 'out_trade_no' : 'out_refund_no');
  const r = await tx.execute(sql`
    SELECT DISTINCT ${no} AS no FROM reconcile_rows
    WHERE channel = ${channel} AND day <> ${day} AND kind = ${sql.raw(`'${kind}'`)} AND trade_no <> '' AND ${no} IN ${nos}`);
  return new Set(r.rows.map((x) => String(x.no)));
}

/** Which of these out_trade_no another day's statement of the channel holds as paid. */
export const paidInOtherStatements = (tx: Tx, channel: string, day: string, nos: string[]) => inOtherStatements(tx, 'payment', channel, day, nos);

/** status: processing | success | failed */
const refundOf = rowMapper({
  id: 'number', companyId: 'number', paymentId: 'number', outTradeNo: 'string', outRefundNo: 'string', amountFen: 'number', status: 'string',
});
export type RefundHere = ReturnType<typeof refundOf>;

/** Our refunds of this channel with these out_refund_no. */
export async function refundsByNo(tx: Tx, channel: string, nos: string[]): Promise<RefundHere[]> {
  if (!nos.length) return [];
  const r = await tx.execute(sql`SELECT * FROM payment_refunds WHERE channel = ${channel} AND out_refund_no IN ${nos}`);
  return r.rows.map(refundOf);
}

/** Our refunds of this channel and merchant that succeeded on this Beijing day. */
export async function refundsDoneOn(tx: Tx, channel: string, day: string, merchant: Merchant = 0): Promise<RefundHere[]> {
  const r = await tx.execute(sql`
    SELECT f.* FROM payment_refunds f JOIN payments p ON p.id = f.payment_id
    WHERE f.channel = ${channel} AND f.status = 'success' AND coalesce(p.merchant_company_id, 0) = ${merchant}
      AND ${onBeijingDay(sql.raw('f.finished_at'), day)}`);
  return r.rows.map(refundOf);
}

/** Which of these out_refund_no another day's statement of the channel holds. */
export const refundedInOtherStatements = (tx: Tx, channel: string, day: string, nos: string[]) => inOtherStatements(tx, 'refund', channel, day, nos);

export interface RowIn {
  companyId: number | null;
  outTradeNo: string;
  /** a refund row (else a trade) */
  kind?: 'refund';
  outRefundNo?: string;
  tradeNo: string;
  tradeTime: string;
  providerFen: number | null;
  paymentId: number | null;
  ourFen: number | null;
  ourStatus: string;
  outcome: string;
}

/** One run at a time per channel and day (another waits, then redoes it on fresh data). */
export async function lockDay(tx: Tx, channel: string, day: string, merchant: Merchant = 0) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(724043, hashtext(${`${channel}:${day}:${merchant}`}))`);
}

/** The companies whose own merchant of this channel is enabled. */
export async function companyMerchantsOf(tx: Tx, channel: string): Promise<number[]> {
  const r = await tx.execute(sql`
    SELECT company_id FROM company_merchants WHERE ${channel === 'wechat' ? sql`wx_enabled` : sql`ali_enabled`} ORDER BY company_id`);
  return r.rows.map((x) => Number(x.company_id));
}

/**
 * The day's rows become exactly `rows`: each (channel, day, out_trade_no) updated in place (a 补单
 * already made is kept), rows no longer found removed, and the run recorded.
 */
export async function saveDay(tx: Tx, channel: string, day: string, rows: RowIn[], statementRows: number, ranBy: string, merchant: Merchant = 0) {
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    await tx.execute(sql`
      INSERT INTO reconcile_rows (company_id, merchant_company_id, channel, day, out_trade_no, kind, out_refund_no, trade_no, trade_time, provider_fen, payment_id, our_fen, our_status, outcome)
      VALUES ${sql.join(part.map((r) => sql`(${r.companyId ?? (merchant || null)}, ${merchant}, ${channel}, ${day}, ${r.outTradeNo}, ${r.kind ?? 'payment'}, ${r.outRefundNo ?? ''}, ${r.tradeNo}, ${r.tradeTime}, ${r.providerFen}, ${r.paymentId}, ${r.ourFen}, ${r.ourStatus}, ${r.outcome})`), sql`, `)}
      ON CONFLICT (channel, day, out_trade_no, out_refund_no) DO UPDATE SET kind = EXCLUDED.kind,
        company_id = EXCLUDED.company_id, merchant_company_id = EXCLUDED.merchant_company_id, trade_no = EXCLUDED.trade_no, trade_time = EXCLUDED.trade_time, provider_fen = EXCLUDED.provider_fen,
        payment_id = EXCLUDED.payment_id, our_fen = EXCLUDED.our_fen, our_status = EXCLUDED.our_status, outcome = EXCLUDED.outcome, updated_at = now()`);
  }
  const keys = rows.map((r) => `${r.outTradeNo}|${r.outRefundNo ?? ''}`);
  await tx.execute(sql`
    DELETE FROM reconcile_rows WHERE channel = ${channel} AND day = ${day} AND merchant_company_id = ${merchant} ${keys.length ? sql`AND (out_trade_no || '|' || out_refund_no) NOT IN ${keys}` : sql``}`);
  await tx.execute(sql`
    INSERT INTO reconcile_runs (channel, day, merchant_company_id, statement_rows, ran_at, ran_by) VALUES (${channel}, ${day}, ${merchant}, ${statementRows}, now(), ${ranBy})
    ON CONFLICT (channel, day, merchant_company_id) DO UPDATE SET statement_rows = EXCLUDED.statement_rows, ran_at = now(), ran_by = EXCLUDED.ran_by`);
}

export async function runOf(tx: Tx, channel: string, day: string, merchant: Merchant = 0) {
  const r = await tx.execute(sql`
    SELECT ${localTime(sql`ran_at`)} AS ran_at, ran_by FROM reconcile_runs WHERE channel = ${channel} AND day = ${day} AND merchant_company_id = ${merchant}`);
  const x = r.rows[0];
  return x ? { ranAt: String(x.ran_at), ranBy: String(x.ran_by) } : null;
}

export interface RowFilter {
  /** the company asked for (null: every row the scope sees) */
  companyId: number | null;
  channel: string;
  day: string;
  outcome?: string;
}

function where(f: RowFilter): SQL {
  const w: SQL[] = [sql`x.channel = ${f.channel}`, sql`x.day = ${f.day}`];
  if (f.companyId != null) w.push(sql`x.company_id = ${f.companyId}`);
  if (f.outcome) w.push(sql`x.outcome = ${f.outcome}`);
  return sql.join(w, sql` AND `);
}

/** Count and amount per outcome (the statement's amount; ours when the statement lacks the trade). */
export async function sums(tx: Tx, f: RowFilter) {
  const r = await tx.execute(sql`
    SELECT x.outcome, count(*)::int AS n, coalesce(sum(coalesce(x.provider_fen, x.our_fen)), 0)::bigint AS fen FROM reconcile_rows x WHERE ${where(f)} GROUP BY x.outcome`);
  return r.rows.map((x) => ({ outcome: String(x.outcome), count: Number(x.n), fen: Number(x.fen) }));
}

const rowCols = sql`
  x.id, x.company_id AS "companyId", coalesce(c.name, '') AS "companyName", x.channel, to_char(x.day, 'YYYY-MM-DD') AS day, x.out_trade_no AS "outTradeNo",
  x.kind, x.out_refund_no AS "outRefundNo", x.trade_no AS "tradeNo", x.trade_time AS "tradeTime", x.provider_fen AS "providerFen", x.our_fen AS "ourFen", x.our_status AS "ourStatus",
  x.payment_id AS "paymentId", coalesce(r.name, '') AS "roomName", coalesce(o.name, '') AS "ownerName", x.outcome,
  ${localTime(sql`x.recovered_at`)} AS "recoveredAt", x.recovered_by AS "recoveredBy"`;
const rowJoins = sql`
  LEFT JOIN companies c ON c.id = x.company_id LEFT JOIN payments p ON p.id = x.payment_id
  LEFT JOIN rooms r ON r.id = p.room_id LEFT JOIN owners o ON o.id = p.owner_id`;
const ORDER = sql`ORDER BY CASE x.outcome WHEN 'matched' THEN 1 ELSE 0 END, x.trade_time, x.id`;

export async function listRows(tx: Tx, f: RowFilter, limit: number, offset: number) {
  const w = where(f);
  const rows = await tx.execute(sql`SELECT ${rowCols} FROM reconcile_rows x ${rowJoins} WHERE ${w} ${ORDER} LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::int AS n FROM reconcile_rows x WHERE ${w}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** One row (as the scope sees it), locked. */
export async function lockRow(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT ${rowCols} FROM reconcile_rows x ${rowJoins} WHERE x.id = ${id} FOR UPDATE OF x`);
  return r.rows[0];
}

/** 补单 done: the order is credited; the first to record it keeps its name and time. */
export async function markRecovered(tx: Tx, id: number, by: string) {
  await tx.execute(sql`
    UPDATE reconcile_rows SET outcome = 'matched', our_status = 'paid', recovered_by = CASE WHEN recovered_at IS NULL THEN ${by} ELSE recovered_by END,
      recovered_at = coalesce(recovered_at, now()), updated_at = now()
    WHERE id = ${id}`);
}
