import { bigint, date, index, integer, numeric, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { companyId, ref, ts } from './common.ts';

// Growth (issue 16 item 9, migrations 0054–0055): the journal's idempotency keys apart from the
// partitioned journal, and the rollups kept by statement triggers in the same statement as the rows
// they add up (settlements → usage_daily/usage_hourly, journal → journal_daily). The app never writes
// these tables itself.

/** (company, idempotency key) → the journal row posted under it: a posting happens once. */
export const journalKeys = pgTable('journal_keys', {
  companyId: companyId(),
  idempotencyKey: varchar('idempotency_key', { length: 128 }).notNull(),
  journalId: ref('journal_id').notNull(),
  /** the row's created_at: with journal_id, its primary key (the partition it is in) */
  createdAt: ts('created_at').notNull(),
}, (t) => [primaryKey({ name: 'journal_keys_pk', columns: [t.companyId, t.idempotencyKey] })]);

/** Settlements per meter, China day of read_at and meter kind (the 扣费报表's figures). */
export const usageDaily = pgTable('usage_daily', {
  meterId: ref('meter_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  meterKind: integer('meter_kind').notNull(),
  companyId: companyId(),
  settlements: integer('settlements').notNull().default(0),
  quantity: numeric('quantity', { precision: 20, scale: 4 }).notNull().default('0'),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
  /** charged to an owner or apportioned (journal_id set, or note 'shared') */
  chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
  /** note 'vacant': no owner, not charged */
  vacantFen: bigint('vacant_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [
  primaryKey({ name: 'usage_daily_pk', columns: [t.meterId, t.day, t.meterKind] }),
  index('usage_daily_company_day').on(t.companyId, t.day),
]);

/** Settlements per meter and hour of read_at. */
export const usageHourly = pgTable('usage_hourly', {
  meterId: ref('meter_id').notNull(),
  hour: ts('hour').notNull(),
  companyId: companyId(),
  settlements: integer('settlements').notNull().default(0),
  quantity: numeric('quantity', { precision: 20, scale: 4 }).notNull().default('0'),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ name: 'usage_hourly_pk', columns: [t.meterId, t.hour] })]);

/** Journal rows per company, China day of created_at, room (0: none), kind and pay method (/home). */
export const journalDaily = pgTable('journal_daily', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  roomId: ref('room_id').notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  payMethod: varchar('pay_method', { length: 12 }).notNull(),
  entries: integer('entries').notNull().default(0),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [
  primaryKey({ name: 'journal_daily_pk', columns: [t.companyId, t.day, t.roomId, t.kind, t.payMethod] }),
  /** a moved room's rows (0062) */
  index('journal_daily_room').on(t.roomId),
]);

/**
 * What each journal statement adds per company, China day, kind and pay method (0058: append only, written by
 * the journal's trigger); the billing.rollups job moves it into journal_company_daily.
 */
export const journalCompanyDelta = pgTable('journal_company_delta', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  payMethod: varchar('pay_method', { length: 12 }).notNull(),
  entries: integer('entries').notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
}, (t) => [index('journal_company_delta_company_day').on(t.companyId, t.day)]);

/** The journal per company, China day, kind and pay method (/home), without the deltas not yet moved in. */
export const journalCompanyDaily = pgTable('journal_company_daily', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  payMethod: varchar('pay_method', { length: 12 }).notNull(),
  entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ name: 'journal_company_daily_pk', columns: [t.companyId, t.day, t.kind, t.payMethod] })]);

/**
 * What each settlements statement adds per company, China day and meter kind (0061: append only, written by
 * the settlements' trigger); `meters` counts usage_daily rows going from no settlement to some (+1) or back (−1).
 * The billing.rollups job moves it into usage_company_daily.
 */
export const usageCompanyDelta = pgTable('usage_company_delta', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  meterKind: integer('meter_kind').notNull(),
  settlements: integer('settlements').notNull(),
  meters: integer('meters').notNull(),
  quantity: numeric('quantity', { precision: 24, scale: 4 }).notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  chargedFen: bigint('charged_fen', { mode: 'number' }).notNull(),
  vacantFen: bigint('vacant_fen', { mode: 'number' }).notNull(),
}, (t) => [index('usage_company_delta_company_day').on(t.companyId, t.day)]);

/** Settlements per company, China day and meter kind (the 扣费报表 of a whole company), without the deltas not yet moved in. */
export const usageCompanyDaily = pgTable('usage_company_daily', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  meterKind: integer('meter_kind').notNull(),
  settlements: bigint('settlements', { mode: 'number' }).notNull().default(0),
  /** meters (usage_daily rows) with a settlement that day */
  meters: bigint('meters', { mode: 'number' }).notNull().default(0),
  quantity: numeric('quantity', { precision: 24, scale: 4 }).notNull().default('0'),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
  chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
  vacantFen: bigint('vacant_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ name: 'usage_company_daily_pk', columns: [t.companyId, t.day, t.meterKind] })]);

/**
 * What each journal statement adds per company, China day, room's area, kind and pay method (0062: append
 * only, written by the journal's trigger, and by the rooms' trigger when a room moves or goes); the
 * billing.rollups job moves it into journal_area_daily.
 */
export const journalAreaDelta = pgTable('journal_area_delta', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  areaId: ref('area_id').notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  payMethod: varchar('pay_method', { length: 12 }).notNull(),
  entries: integer('entries').notNull(),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
}, (t) => [index('journal_area_delta_company_day').on(t.companyId, t.day)]);

/** The journal per company, China day, room's area, kind and pay method (/home by area), without the deltas not yet moved in. */
export const journalAreaDaily = pgTable('journal_area_daily', {
  companyId: companyId(),
  day: date('day', { mode: 'string' }).notNull(),
  areaId: ref('area_id').notNull(),
  kind: varchar('kind', { length: 12 }).notNull(),
  payMethod: varchar('pay_method', { length: 12 }).notNull(),
  entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ name: 'journal_area_daily_pk', columns: [t.companyId, t.day, t.areaId, t.kind, t.payMethod] })]);
