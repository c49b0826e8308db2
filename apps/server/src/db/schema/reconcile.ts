import { bigint, date, index, integer, pgTable, primaryKey, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, ref, ts } from './common.ts';

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
  outRefundNo: varchar('out_refund_no', { length: 64 }).notNull().default(''),
  /** the provider's transaction number ('' when the statement has no such trade) */
  tradeNo: varchar('trade_no', { length: 64 }).notNull().default(''),
  /** the statement's payment time, YYYY-MM-DD HH:mm:ss ('' when none) */
  tradeTime: varchar('trade_time', { length: 19 }).notNull().default(''),
  /** the statement's amount, 分 (NULL when the statement has no such trade) */
  providerFen: bigint('provider_fen', { mode: 'number' }),
  paymentId: ref('payment_id'),
  /** our order's amount, 分 */
  ourFen: bigint('our_fen', { mode: 'number' }),
  /** our order's status when reconciled: paid | created | closed | '' (no order) */
  ourStatus: varchar('our_status', { length: 24 }).notNull().default(''),
  /** matched | missing_here | missing_there | amount_differs */
  outcome: varchar('outcome', { length: 16 }).notNull(),
  /** 补单: credited by the follow-up from this row */
  recoveredAt: ts('recovered_at'),
  recoveredBy: varchar('recovered_by', { length: 64 }).notNull().default(''),
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
  ranBy: varchar('ran_by', { length: 64 }).notNull().default(''),
  /** whose merchant's statement: a company's own merchant, 0 the platform's */
  merchantCompanyId: bigint('merchant_company_id', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.channel, t.day, t.merchantCompanyId] })]);
