import { bigint, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ref, companyId, tenantKey, ts, memo, operator, blank } from './common.ts';

// The finance day (issue 14 items 13 and 14). Every journal row carries its business day
// (journal.business_day, set by the database when the row is written: the China date, or the next
// day still open when that date is closed for the company or for the row's operator). A closing
// locks a business day for the whole company (日结, operator_id NULL) or for one operator (交班):
// nothing is booked into it afterwards, and its slip keeps the totals it was closed with.

export const financeClosings = pgTable('finance_closings', {
  ...tenantKey(),
  /** the business day (China date) */
  day: date('day', { mode: 'string' }).notNull(),
  /** NULL: the company's day (日结); else one operator's shift hand-over (交班) */
  ...operator(),
  /** the figures at the close: per operator, pay method and kind (see modules/finance) */
  totals: jsonb('totals').$type<Record<string, unknown>>().notNull(),
  /** 实收净额 (receipts − refunds + reversals of real money), 分 */
  netFen: bigint('net_fen', { mode: 'number' }).notNull(),
  entries: integer('entries').notNull().default(0),
  closedBy: ref('closed_by').notNull(),
  closedByName: blank('closed_by_name', 64),
  memo: memo(),
  closedAt: ts('closed_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('finance_closings_day').on(t.companyId, t.day).where(sql`operator_id IS NULL`),
  uniqueIndex('finance_closings_shift').on(t.companyId, t.day, t.operatorId).where(sql`operator_id IS NOT NULL`),
  index('finance_closings_company_day').on(t.companyId, t.day),
]);

/** 作废: a receipt voided by a reversal entry in the journal (the receipt and its journal row never change). */
export const receiptVoids = pgTable('receipt_voids', {
  receiptId: ref('receipt_id').primaryKey(),
  companyId: companyId(),
  /** the journal row voided and the reversal row that voids it */
  journalId: ref('journal_id').notNull(),
  reversalJournalId: ref('reversal_journal_id').notNull(),
  reason: text('reason').notNull(),
  voidedBy: ref('voided_by').notNull(),
  voidedByName: blank('voided_by_name', 64),
  voidedAt: ts('voided_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('receipt_voids_journal').on(t.journalId)]);
