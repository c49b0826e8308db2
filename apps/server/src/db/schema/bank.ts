import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { companies } from './company.ts';
import { companyId, createdAt, id, ref, ts, updatedAt, operator } from './common.ts';

// Bank sub-merchants (module bank): the bank dictionary (platform), each company's bank information,
// its sub-merchant applications (Property_Info), every exchange with the bank (the log of /noteBocLog)
// and the sub-account's withdrawals to the settlement account. Money is integer 分; the sub-account's
// balance is the bank's (SubAccQuery), never a copy of ours.

/** 银行 (Bank/List): the platform's dictionary, no tenant. */
export const banks = pgTable('banks', {
  id: id(),
  name: varchar('name', { length: 64 }).notNull(),
  code: varchar('code', { length: 16 }).notNull().default(''),
  /** the company bankType (0 农业银行, 1 中国银行, 2 地方商业银行) this bank settles for, if any */
  bankType: integer('bank_type'),
  sort: integer('sort').notNull().default(0),
  status: integer('status').notNull().default(1),
  memo: text('memo').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('banks_name').on(t.name)]);

/** companyBocInfo: the company's own information at its settlement bank (one row per company). */
export const companyBankInfos = pgTable('company_bank_infos', {
  companyId: bigint('company_id', { mode: 'number' }).primaryKey().references(() => companies.id),
  merId: varchar('mer_id', { length: 32 }).notNull().default(''),
  branchName: varchar('branch_name', { length: 64 }).notNull().default(''),
  accountName: varchar('account_name', { length: 64 }).notNull().default(''),
  accountNo: varchar('account_no', { length: 32 }).notNull().default(''),
  contactName: varchar('contact_name', { length: 32 }).notNull().default(''),
  phone: varchar('phone', { length: 32 }).notNull().default(''),
  memo: text('memo').notNull().default(''),
  updatedAt: updatedAt(),
});

/** Property_Info: a sub-merchant application and, once the bank opened it, the sub-merchant. */
export const propertyInfos = pgTable('property_infos', {
  id: id(),
  companyId: companyId(),
  name: varchar('name', { length: 64 }).notNull(),
  shortName: varchar('short_name', { length: 20 }).notNull(),
  licenseNo: varchar('license_no', { length: 18 }).notNull(),
  legalPerson: varchar('legal_person', { length: 32 }).notNull(),
  legalIdNo: varchar('legal_id_no', { length: 18 }).notNull(),
  contactName: varchar('contact_name', { length: 32 }).notNull(),
  phone: varchar('phone', { length: 16 }).notNull(),
  address: varchar('address', { length: 200 }).notNull().default(''),
  bankId: ref('bank_id').references(() => banks.id),
  accountName: varchar('account_name', { length: 64 }).notNull(),
  accountNo: varchar('account_no', { length: 40 }).notNull(),
  /** the state machine of packages/contracts resources/bank.ts */
  status: varchar('status', { length: 12 }).notNull().default('draft'),
  subMerId: varchar('sub_mer_id', { length: 32 }).notNull().default(''),
  reason: text('reason').notNull().default(''),
  memo: text('memo').notNull().default(''),
  activatedAt: ts('activated_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  uniqueIndex('property_infos_company_name').on(t.companyId, t.name),
  uniqueIndex('property_infos_sub_mer').on(t.subMerId).where(sql`sub_mer_id <> ''`),
]);

/** Every exchange with the bank (/noteBocLog): what was asked, what it answered, the state before and after. Append-only. */
export const bankLogs = pgTable('bank_logs', {
  id: id(),
  companyId: companyId(),
  propertyId: ref('property_id'),
  subMerId: varchar('sub_mer_id', { length: 32 }).notNull().default(''),
  bankName: varchar('bank_name', { length: 32 }).notNull(),
  action: varchar('action', { length: 40 }).notNull(),
  ok: boolean('ok').notNull(),
  errCode: varchar('err_code', { length: 32 }).notNull().default(''),
  message: text('message').notNull().default(''),
  statusFrom: varchar('status_from', { length: 12 }).notNull().default(''),
  statusTo: varchar('status_to', { length: 12 }).notNull().default(''),
  request: jsonb('request'),
  response: jsonb('response'),
  operatorName: varchar('operator_name', { length: 64 }).notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [index('bank_logs_company_time').on(t.companyId, t.createdAt)]);

/** A withdrawal from the sub-account to the settlement account: 0 处理中 → 1 已到账 | 2 失败. */
export const bankWithdrawals = pgTable('bank_withdrawals', {
  id: id(),
  companyId: companyId(),
  propertyId: ref('property_id').notNull().references(() => propertyInfos.id),
  subMerId: varchar('sub_mer_id', { length: 32 }).notNull(),
  /** the client's id of the request: the same request twice is one withdrawal */
  requestId: varchar('request_id', { length: 64 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  status: integer('status').notNull().default(0),
  bankSerial: varchar('bank_serial', { length: 64 }).notNull().default(''),
  accountName: varchar('account_name', { length: 64 }).notNull(),
  accountNo: varchar('account_no', { length: 40 }).notNull(),
  reason: text('reason').notNull().default(''),
  memo: text('memo').notNull().default(''),
  ...operator(),
  finishedAt: ts('finished_at'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('bank_withdrawals_request').on(t.companyId, t.requestId),
  index('bank_withdrawals_property').on(t.propertyId, t.id),
]);
