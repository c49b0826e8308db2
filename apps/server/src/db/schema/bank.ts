import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { companies } from './company.ts';
import { id, ref, tenantKey, createdAt, updatedAt, timestamps, ts, memo, withdrawalOutcome, blank, blankText, rowName, archiveTail } from './common.ts';

// Bank sub-merchants (module bank): the bank dictionary (platform), each company's bank information,
// its sub-merchant applications (Property_Info), every exchange with the bank (the log of /noteBocLog)
// and the sub-account's withdrawals to the settlement account. Money is integer 分; the sub-account's
// balance is the bank's (SubAccQuery), never a copy of ours.

/** 银行 (Bank/List): the platform's dictionary, no tenant. */
export const banks = pgTable('banks', {
  id: id(),
  name: rowName(),
  code: blank('code', 16),
  /** the company bankType (0 农业银行, 1 中国银行, 2 地方商业银行) this bank settles for, if any */
  bankType: integer('bank_type'),
  sort: integer('sort').notNull().default(0),
  ...archiveTail(),
}, (t) => [uniqueIndex('banks_name').on(t.name)]);

/** companyBocInfo: the company's own information at its settlement bank (one row per company). */
export const companyBankInfos = pgTable('company_bank_infos', {
  companyId: bigint('company_id', { mode: 'number' }).primaryKey().references(() => companies.id),
  merId: blank('mer_id', 32),
  branchName: blank('branch_name', 64),
  accountName: blank('account_name', 64),
  accountNo: blank('account_no', 32),
  contactName: blank('contact_name', 32),
  phone: blank('phone', 32),
  memo: memo(),
  updatedAt: updatedAt(),
});

/** Property_Info: a sub-merchant application and, once the bank opened it, the sub-merchant. */
export const propertyInfos = pgTable('property_infos', {
  ...tenantKey(),
  name: rowName(),
  shortName: varchar('short_name', { length: 20 }).notNull(),
  licenseNo: varchar('license_no', { length: 18 }).notNull(),
  legalPerson: varchar('legal_person', { length: 32 }).notNull(),
  legalIdNo: varchar('legal_id_no', { length: 18 }).notNull(),
  contactName: varchar('contact_name', { length: 32 }).notNull(),
  phone: varchar('phone', { length: 16 }).notNull(),
  address: blank('address', 200),
  bankId: ref('bank_id').references(() => banks.id),
  accountName: varchar('account_name', { length: 64 }).notNull(),
  accountNo: varchar('account_no', { length: 40 }).notNull(),
  /** the state machine of packages/contracts resources/bank.ts */
  status: varchar('status', { length: 12 }).notNull().default('draft'),
  subMerId: blank('sub_mer_id', 32),
  reason: blankText('reason'),
  memo: memo(),
  activatedAt: ts('activated_at'),
  ...timestamps(),
}, (t) => [
  uniqueIndex('property_infos_company_name').on(t.companyId, t.name),
  uniqueIndex('property_infos_sub_mer').on(t.subMerId).where(sql`sub_mer_id <> ''`),
]);

/** Every exchange with the bank (/noteBocLog): what was asked, what it answered, the state before and after. Append-only. */
export const bankLogs = pgTable('bank_logs', {
  ...tenantKey(),
  propertyId: ref('property_id'),
  subMerId: blank('sub_mer_id', 32),
  bankName: varchar('bank_name', { length: 32 }).notNull(),
  action: varchar('action', { length: 40 }).notNull(),
  ok: boolean('ok').notNull(),
  errCode: blank('err_code', 32),
  message: blankText('message'),
  statusFrom: blank('status_from', 12),
  statusTo: blank('status_to', 12),
  request: jsonb('request'),
  response: jsonb('response'),
  operatorName: blank('operator_name', 64),
  createdAt: createdAt(),
}, (t) => [index('bank_logs_company_time').on(t.companyId, t.createdAt)]);

/** A withdrawal from the sub-account to the settlement account: 0 处理中 → 1 已到账 | 2 失败. */
export const bankWithdrawals = pgTable('bank_withdrawals', {
  ...tenantKey(),
  propertyId: ref('property_id').notNull().references(() => propertyInfos.id),
  subMerId: varchar('sub_mer_id', { length: 32 }).notNull(),
  /** the client's id of the request: the same request twice is one withdrawal */
  requestId: varchar('request_id', { length: 64 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  status: integer('status').notNull().default(0),
  bankSerial: blank('bank_serial', 64),
  accountName: varchar('account_name', { length: 64 }).notNull(),
  accountNo: varchar('account_no', { length: 40 }).notNull(),
  ...withdrawalOutcome(),
}, (t) => [
  uniqueIndex('bank_withdrawals_request').on(t.companyId, t.requestId),
  index('bank_withdrawals_property').on(t.propertyId, t.id),
]);
