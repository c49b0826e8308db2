import { bigint, date, index, integer, pgTable, primaryKey, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, ref, ts, blank } from './common.ts';

// Reconciliation with the payment providers (issue 14 item 5; modules/reconcile). A provider's daily
// statement is the merchant's, for every company: each paid trade of it is a row here, classified
// against our orders, plus a row for each order we credited that the statement lacks. A row belongs
// to the company of its order; a trade whose order we never had has no company (company_id NULL: only
// the platform sees it). Re-running a day updates its rows in place (one row per channel, day and
// out_trade_no).

export const reconcileRows = pgTable('reconcile_rows', {
  id: id(),
  /** the order's company; NULL: an order this platform never had */
  companyId: bigint('company_id', { mode: 'number' }),
  /** whose merchant's statement the row is of: a company's own merchant, 0 the platform's */
  merchantCompanyId: bigint('merchant_company_id', { mode: 'number' }).notNull().default(0),
  /** wechat | alipay */
  channel: varchar('channel', { length: 16 }).notNull(),
  /** the statement day (Beijing) */
  day: date('day', { mode: 'string' }).notNull(),
  outTradeNo: varchar('out_trade_no', { length: 64 }).notNull(),
  /** payment (a trade) | refund (a refund of the order: out_refund_no) */
  kind: varchar('kind', { length: 8 }).notNull().default('payment'),
  outRefundNo: blank('out_refund_no', 64),
  /** the provider's transaction number ('' when the statement has no such trade) */
  tradeNo: blank('trade_no', 64),
  /** the statement's payment time, YYYY-MM-DD HH:mm:ss ('' when none) */
  tradeTime: blank('trade_time', 19),
  /** the statement's amount, 分 (NULL when the statement has no such trade) */
  providerFen: bigint('provider_fen', { mode: 'number' }),
  paymentId: ref('payment_id'),
  /** our order's amount, 分 */
  ourFen: bigint('our_fen', { mode: 'number' }),
  /** our order's status when reconciled: paid | created | closed | '' (no order) */
  ourStatus: blank('our_status', 24),
  /** matched | missing_here | missing_there | amount_differs */
  outcome: varchar('outcome', { length: 16 }).notNull(),
  /** 补单: credited by the follow-up from this row */
  recoveredAt: ts('recovered_at'),
  recoveredBy: blank('recovered_by', 64),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('reconcile_rows_trade').on(t.channel, t.day, t.outTradeNo, t.outRefundNo),
  index('reconcile_rows_company_day').on(t.companyId, t.day, t.channel),
]);

/** The last run of a statement (channel, day): not tenant data (the statement is the merchant's). */
export const reconcileRuns = pgTable('reconcile_runs', {
  channel: varchar('channel', { length: 16 }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  statementRows: integer('statement_rows').notNull(),
  ranAt: ts('ran_at').notNull().defaultNow(),
  /** who ran it ('定时任务' for the daily job) */
  ranBy: blank('ran_by', 64),
  /** whose merchant's statement: a company's own merchant, 0 the platform's */
  merchantCompanyId: bigint('merchant_company_id', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.channel, t.day, t.merchantCompanyId] })]);
