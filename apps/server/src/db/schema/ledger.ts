import { sql } from 'drizzle-orm';
import { bigint, bigserial, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, varchar, boolean } from 'drizzle-orm/pg-core';
import { ref, companyId, tenantKey, createdAt, updatedAt, timestamps, ts, memo, operator, blank, blankText, inUse } from './common.ts';
import { owners, rooms } from './area.ts';
import { meterReadingKey, meters } from './device.ts';

// Money (issue 5, DESIGN §5). Amounts are integer 分 (bigint). Every balance change is one row of
// the append-only journal, posted in the same transaction that updates the account's balance:
// balance == Σ journal, always. Each external or retried effect carries an idempotency key.

/** An owner's wallet: 'electric' 电费, 'water' 水费, 'subsidy' 补贴, 'other' 其他费用 (综合缴费 items paid and charged at once). */
export const accounts = pgTable('accounts', {
  ...tenantKey(),
  ownerId: ref('owner_id').notNull().references(() => owners.id),
  roomId: ref('room_id').references(() => rooms.id),
  wallet: varchar('wallet', { length: 12 }).notNull(),
  balanceFen: bigint('balance_fen', { mode: 'number' }).notNull().default(0),
  /** the lowest alarm level reached since the balance was last above alarm 1: 0 none, 1, 2, 3 = close threshold */
  alarmLevel: integer('alarm_level').notNull().default(0),
  /**
   * an automatic close is owed but the control module could not take it yet (保电/保水, no-disconnect
   * hours): the billing worker asks again until it is queued or the balance recovers
   */
  closeDeferred: boolean('close_deferred').notNull().default(false),
  /** 1 open, 0 closed (account cancelled) */
  status: inUse(),
  ...timestamps(),
}, (t) => [uniqueIndex('accounts_owner_wallet').on(t.ownerId, t.wallet), index('accounts_company_room').on(t.companyId, t.roomId)]);

/** a partitioned table's id: drawn from its sequence, unique with the partition key (its primary key) */
const partitionedId = () => bigserial('id', { mode: 'number' }).notNull();

/**
 * The journal. kind: prepay 充值, refund 退费, subsidy 补贴, deduction 扣费, fee 费用, reversal 冲正,
 * withdrawal 提现. amount_fen is signed (+ credit, − debit). Append-only for the app role.
 * Partitioned by China month of created_at (migration 0054): the primary key is (id, created_at), and
 * a posting's key is unique in journal_keys, written by the journal's statement trigger.
 */
export const journal = pgTable('journal', {
  id: partitionedId(),
  companyId: companyId(),
  accountId: ref('account_id').notNull().references(() => accounts.id),
  ownerId: ref('owner_id').notNull(),
  roomId: ref('room_id'),
  wallet: varchar('wallet', { length: 12 }).notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  balanceAfterFen: bigint('balance_after_fen', { mode: 'number' }).notNull(),
  idempotencyKey: varchar('idempotency_key', { length: 128 }).notNull(),
  /** cash 现金, wechat 微信, alipay 支付宝, bank 银行, system 系统 */
  payMethod: varchar('pay_method', { length: 12 }).notNull().default('system'),
  refType: blank('ref_type', 16),
  refId: ref('ref_id'),
  reversesId: ref('reverses_id'),
  ...operator(),
  memo: memo(),
  createdAt: createdAt(),
  /** the business day (China date) the row counts on: set by the database on insert (migration 0036, modules/finance) */
  businessDay: date('business_day', { mode: 'string' }),
}, (t) => [
  primaryKey({ name: 'journal_pk', columns: [t.id, t.createdAt] }),
  index('journal_account').on(t.accountId, t.id),
  index('journal_company_time').on(t.companyId, t.createdAt),
  index('journal_company_day').on(t.companyId, t.businessDay),
]);

/** Finance audit of journal rows (/financerecode): the journal itself never changes. */
export const journalAudits = pgTable('journal_audits', {
  /** a journal row (no foreign key: the journal is partitioned; visibleJournal checks it first) */
  journalId: ref('journal_id').primaryKey(),
  companyId: companyId(),
  auditedBy: ref('audited_by').notNull(),
  auditedByName: blank('audited_by_name', 64),
  memo: memo(),
  auditedAt: ts('audited_at').notNull().defaultNow(),
});

/** One settlement per reading: the reading's consumption priced and deducted exactly once. Partitioned by China month of read_at (0054). */
export const settlements = pgTable('settlements', {
  id: partitionedId(),
  companyId: companyId(),
  meterId: ref('meter_id').notNull().references(() => meters.id),
  ownerId: ref('owner_id'),
  roomId: ref('room_id'),
  readAt: ts('read_at').notNull(),
  prevReadAt: ts('prev_read_at'),
  prevTotal: numeric('prev_total', { precision: 14, scale: 2 }).notNull(),
  total: numeric('total', { precision: 14, scale: 2 }).notNull(),
  /** (total − prev_total) × the meter's multiplier */
  quantity: numeric('quantity', { precision: 16, scale: 4 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  lines: jsonb('lines').$type<unknown[]>().notNull().default([]),
  periodKey: varchar('period_key', { length: 7 }).notNull(),
  journalId: ref('journal_id'),
  /** 1 电, 2 水 (the meter's kind, for reports) */
  meterKind: integer('meter_kind').notNull().default(1),
  /** '' charged to the room's owner; 'vacant' no owner (not charged); 'shared' 公摊 apportioned; 'backwards' register went back */
  note: blank('note', 16),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ name: 'settlements_pk', columns: [t.id, t.readAt] }),
  uniqueIndex('settlements_reading').on(t.meterId, t.readAt),
  index('settlements_company_time').on(t.companyId, t.readAt),
  index('settlements_owner_time').on(t.ownerId, t.readAt),
]);

/**
 * Per meter and accumulation period (YYYY-MM or YYYY): what was consumed and charged in it — for the
 * periods a meter's settlement has moved on from; the current period's state is on its settle cursor.
 */
export const meterPeriods = pgTable('meter_periods', {
  meterId: ref('meter_id').notNull().references(() => meters.id, { onDelete: 'cascade' }),
  periodKey: varchar('period_key', { length: 7 }).notNull(),
  companyId: companyId(),
  quantity: numeric('quantity', { precision: 16, scale: 4 }).notNull().default('0'),
  exact: numeric('exact', { precision: 24, scale: 10 }).notNull().default('0'),
  chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
}, (t) => [primaryKey({ columns: [t.meterId, t.periodKey] })]);

/** The last settled reading per meter: settlement resumes from here. */
export const settleCursors = pgTable('settle_cursors', {
  ...meterReadingKey(),
  /** the settled reading's 尖峰平谷 registers (TOU deltas start here) */
  registers: jsonb('registers').$type<Record<string, unknown>>().notNull().default({}),
  /**
   * the state of the accumulation period the settled reading falls in ('' none yet): it moves with
   * the cursor in the same row update; meter_periods keeps the periods a meter has moved on from
   */
  periodKey: blank('period_key', 7),
  periodQuantity: numeric('period_quantity', { precision: 16, scale: 4 }).notNull().default('0'),
  periodExact: numeric('period_exact', { precision: 24, scale: 10 }).notNull().default('0'),
  periodChargedFen: bigint('period_charged_fen', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/**
 * 公摊: a public meter (a corridor, a pump, a lift) whose consumption is apportioned over the occupied
 * rooms of an area subtree, by area (rooms.size_m2) or equally. A meter listed here is settled like any
 * other, but its charge is split over the rooms' owners instead of charged to its own room.
 */
export const sharedMeters = pgTable('shared_meters', {
  meterId: ref('meter_id').primaryKey().references(() => meters.id, { onDelete: 'cascade' }),
  companyId: companyId(),
  /** the rooms below this area share the meter */
  areaId: ref('area_id').notNull(),
  /** 1 by area (size_m2), 2 equally */
  method: integer('method').notNull().default(1),
  memo: memo(),
  createdBy: ref('created_by'),
  createdAt: createdAt(),
});

/** Online payments (WeChat Pay / Alipay): a notification credits once per out_trade_no. */
export const payments = pgTable('payments', {
  ...tenantKey(),
  ownerId: ref('owner_id').notNull(),
  accountId: ref('account_id').notNull().references(() => accounts.id),
  roomId: ref('room_id'),
  /** wechat 微信, alipay 支付宝 */
  channel: varchar('channel', { length: 12 }).notNull(),
  outTradeNo: varchar('out_trade_no', { length: 64 }).notNull(),
  subject: blank('subject', 128),
  /** what the payer's app opens (a QR code's content) */
  codeUrl: blankText('code_url'),
  expiresAt: ts('expires_at'),
  createdBy: ref('created_by'),
  /** whose merchant took the order: the company's own (company_merchants), null = the platform's */
  merchantCompanyId: ref('merchant_company_id'),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  /** created, paid, closed */
  status: varchar('status', { length: 8 }).notNull().default('created'),
  providerTradeNo: blank('provider_trade_no', 64),
  journalId: ref('journal_id'),
  paidAt: ts('paid_at'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('payments_out_trade_no').on(t.outTradeNo), index('payments_company_time').on(t.companyId, t.createdAt)]);

/** Online refunds of paid orders: one per out_refund_no (the provider's idempotency key). */
export const paymentRefunds = pgTable('payment_refunds', {
  ...tenantKey(),
  paymentId: ref('payment_id').notNull().references(() => payments.id),
  channel: varchar('channel', { length: 12 }).notNull(),
  outTradeNo: varchar('out_trade_no', { length: 64 }).notNull(),
  outRefundNo: varchar('out_refund_no', { length: 64 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  reason: blank('reason', 80),
  /** processing, success, failed */
  status: varchar('status', { length: 12 }).notNull().default('processing'),
  providerRefundNo: blank('provider_refund_no', 64),
  providerMessage: blank('provider_message', 255),
  /** the refund's debit (kind refund) and, once the provider failed it, its reversal */
  journalId: ref('journal_id'),
  reversalJournalId: ref('reversal_journal_id'),
  createdBy: ref('created_by'),
  createdByName: blank('created_by_name', 64),
  finishedAt: ts('finished_at'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('payment_refunds_out_refund_no').on(t.outRefundNo), index('payment_refunds_payment').on(t.paymentId),
  index('payment_refunds_company_time').on(t.companyId, t.createdAt),
]);

/** Receipts for /billprint: one per counter operation, printed any number of times. */
export const receipts = pgTable('receipts', {
  ...tenantKey(),
  journalId: ref('journal_id').notNull(),
  ownerId: ref('owner_id').notNull(),
  roomId: ref('room_id'),
  no: varchar('no', { length: 32 }).notNull(),
  /** prepay 充值, refund 退费, subsidy 补贴, billPay 账单缴费, business 综合缴费, close 销户退费 */
  kind: varchar('kind', { length: 12 }).notNull().default('prepay'),
  payMethod: varchar('pay_method', { length: 12 }).notNull().default('cash'),
  items: jsonb('items').$type<{ item: string; amountFen: number }[]>().notNull().default([]),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  operatorName: blank('operator_name', 64),
  memo: memo(),
  printCount: integer('print_count').notNull().default(0),
  lastPrintedAt: ts('last_printed_at'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('receipts_journal').on(t.journalId),
  uniqueIndex('receipts_no').on(t.companyId, t.no),
  index('receipts_company_time').on(t.companyId, t.createdAt),
]);

/** 房间定时补贴: a monthly allowance credited by the scheduler exactly once per period. */
export const subsidyPlans = pgTable('subsidy_plans', {
  ...tenantKey(),
  roomId: ref('room_id').notNull().references(() => rooms.id),
  wallet: varchar('wallet', { length: 12 }).notNull().default('electric'),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  dayOfMonth: integer('day_of_month').notNull().default(1),
  startMonth: varchar('start_month', { length: 7 }).notNull(),
  endMonth: blank('end_month', 7),
  enabled: boolean('enabled').notNull().default(true),
  memo: memo(),
  createdBy: ref('created_by'),
  createdAt: createdAt(),
});

/** Balance alarms and SMS (/notesMessage): one per threshold crossing. */
export const notifications = pgTable('notifications', {
  ...tenantKey(),
  ownerId: ref('owner_id'),
  accountId: ref('account_id'),
  meterId: ref('meter_id'),
  /** 1 报警1, 2 报警2, 3 欠费关阀 */
  level: integer('level').notNull(),
  /** sms 短信, phone 电话 */
  channel: varchar('channel', { length: 8 }).notNull(),
  phone: blank('phone', 20),
  content: text('content').notNull(),
  /** queued, sending (claimed by a sender until lease_until), sent, failed, held (短信余额不足: queued again by a top-up) */
  status: varchar('status', { length: 8 }).notNull().default('queued'),
  /** a 'sending' row belongs to its sender until then; later another sender may try once more */
  leaseUntil: ts('lease_until'),
  /** times handed to the provider (with the same idempotency key each time) */
  sendAttempts: integer('send_attempts').notNull().default(0),
  provider: varchar('provider', { length: 16 }).notNull().default('log'),
  priceFen: integer('price_fen').notNull().default(0),
  idempotencyKey: varchar('idempotency_key', { length: 128 }).notNull(),
  error: blankText('error'),
  createdAt: createdAt(),
  sentAt: ts('sent_at'),
  /** a failed try that may be tried again waits queued until then (back-off) */
  nextTryAt: ts('next_try_at'),
  /** the provider's id of the accepted message (阿里云 BizId, 腾讯云 SerialNo) */
  providerRef: blank('provider_ref', 64),
  /** the provider's answer to the last try, as it came (for the record) */
  answer: blankText('answer'),
  /** the delivery receipt: '' none yet, delivered, undelivered */
  receipt: blank('receipt', 12),
  receiptText: blankText('receipt_text'),
  receiptAt: ts('receipt_at'),
  /** what the message cost the company (its price per notify type once the provider accepted it) */
  costFen: integer('cost_fen').notNull().default(0),
  /** what was charged to the company's SMS credit for it (refunded when it fails or is not delivered) */
  creditFen: integer('credit_fen').notNull().default(0),
}, (t) => [uniqueIndex('notifications_idempotency').on(t.companyId, t.idempotencyKey), index('notifications_held').on(t.companyId).where(sql`status = 'held'`)]);

/**
 * A company's own WeChat Pay / Alipay merchant (支付商户, issue 14 item 6): used for its owners' online
 * payments instead of the platform's. The private keys and the APIv3 key are stored sealed
 * (AES-256-GCM, PAY_CONFIG_KEY or DATA_DIR/pay-config-key) and never answered back; the providers'
 * public keys are public and stored plain.
 */
export const companyMerchants = pgTable('company_merchants', {
  companyId: companyId().primaryKey(),
  wxEnabled: boolean('wx_enabled').notNull().default(false),
  wxMchid: blank('wx_mchid', 32),
  wxAppid: blank('wx_appid', 64),
  /** serial of the merchant API certificate */
  wxSerialNo: blank('wx_serial_no', 64),
  wxPrivateKeyEnc: blankText('wx_private_key_enc'),
  /** platform certificate serial or public key ID (PUB_KEY_ID_…) */
  wxPlatformSerial: blank('wx_platform_serial', 128),
  /** the platform public key (PEM, public) */
  wxPlatformKey: blankText('wx_platform_key'),
  wxApiV3KeyEnc: blankText('wx_apiv3_key_enc'),
  aliEnabled: boolean('ali_enabled').notNull().default(false),
  aliAppId: blank('ali_app_id', 32),
  aliSellerId: blank('ali_seller_id', 32),
  aliPrivateKeyEnc: blankText('ali_private_key_enc'),
  /** 支付宝公钥 (PEM, public) */
  aliPublicKey: blankText('ali_public_key'),
  updatedBy: ref('updated_by'),
  updatedAt: updatedAt(),
});
