import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { ref, tenantKey, createdAt, timestamps, ts, memo, withdrawalOutcome, blank, blankText, rowName } from './common.ts';

// Pay-application (汇付 AdaPay) merchant accounts, their money and their withdrawals (module payapp).
// Money is integer 分. The balance of an account changes only with a row of its append-only journal,
// written in the same transaction under the account's row lock: balance_fen == Σ journal, always.

/** A company's merchant account at the payment provider. Deleted accounts stay (their journal refers to them). */
export const payApps = pgTable('pay_apps', {
  ...tenantKey(),
  name: rowName(),
  /** 1 企业, 2 个人 */
  kind: integer('kind').notNull().default(1),
  legalPerson: varchar('legal_person', { length: 32 }).notNull(),
  contactName: blank('contact_name', 32),
  /** 统一社会信用代码 (企业) or 身份证号 (个人) */
  idNo: varchar('id_no', { length: 18 }).notNull(),
  phone: varchar('phone', { length: 16 }).notNull(),
  bankName: varchar('bank_name', { length: 64 }).notNull(),
  bankAccountName: varchar('bank_account_name', { length: 64 }).notNull(),
  bankAccountNo: varchar('bank_account_no', { length: 32 }).notNull(),
  /** pending 审核中, opened 已开通, disabled 已停用, rejected 未通过 */
  status: varchar('status', { length: 10 }).notNull().default('pending'),
  /** the provider's id of the account (set when it accepted the application) */
  providerAppId: blank('provider_app_id', 64),
  reason: blankText('reason'),
  balanceFen: bigint('balance_fen', { mode: 'number' }).notNull().default(0),
  memo: memo(),
  createdBy: ref('created_by'),
  openedAt: ts('opened_at'),
  /**
   * when this account last collected online payments: the next collection looks only at payments
   * created since two days and paid since ten minutes before it (a notification's transaction is far
   * shorter; a late notification far sooner), so the worker's sweep stays a small range scan
   */
  lastCollectAt: ts('last_collect_at'),
  deletedAt: ts('deleted_at'),
  ...timestamps(),
}, (t) => [
  uniqueIndex('pay_apps_company_name').on(t.companyId, t.name).where(sql`deleted_at IS NULL`),
  index('pay_apps_company').on(t.companyId, t.id),
]);

/**
 * The merchant journal. kind: collect 收款 (an online payment collected through the account),
 * withdrawal 提现, fee 提现手续费, reversal 提现失败退回. amount_fen is signed. Append-only.
 */
export const payAppJournal = pgTable('pay_app_journal', {
  ...tenantKey(),
  appId: ref('app_id').notNull().references(() => payApps.id),
  kind: varchar('kind', { length: 12 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  balanceAfterFen: bigint('balance_after_fen', { mode: 'number' }).notNull(),
  /** pay:<out_trade_no>, wd:<withdrawal id>, wdfee:<id>, wdback:<id> */
  idempotencyKey: varchar('idempotency_key', { length: 128 }).notNull(),
  refType: blank('ref_type', 16),
  refId: ref('ref_id'),
  operatorName: blank('operator_name', 64),
  memo: memo(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('pay_app_journal_idempotency').on(t.companyId, t.idempotencyKey),
  index('pay_app_journal_app').on(t.appId, t.id),
]);

/** A withdrawal to the account's settlement bank card: 0 处理中 → 1 提现成功 | 2 提现失败 (money back). */
export const payAppWithdrawals = pgTable('pay_app_withdrawals', {
  ...tenantKey(),
  appId: ref('app_id').notNull().references(() => payApps.id),
  /** the client's id of the request: the same request twice is one withdrawal */
  requestId: varchar('request_id', { length: 64 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  feeFen: bigint('fee_fen', { mode: 'number' }).notNull().default(0),
  status: integer('status').notNull().default(0),
  /** the card the money goes to, as it was when asked */
  bankName: varchar('bank_name', { length: 64 }).notNull(),
  bankAccountName: varchar('bank_account_name', { length: 64 }).notNull(),
  bankAccountNo: varchar('bank_account_no', { length: 32 }).notNull(),
  /** the provider's number, once it accepted the request */
  providerNo: blank('provider_no', 64),
  ...withdrawalOutcome(),
}, (t) => [
  uniqueIndex('pay_app_withdrawals_request').on(t.companyId, t.requestId),
  index('pay_app_withdrawals_company_time').on(t.companyId, t.createdAt),
  index('pay_app_withdrawals_pending').on(t.id).where(sql`status = 0`),
]);
