import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ref, companyId, tenantKey, createdAt, updatedAt, ts, memo, blank, blankText } from './common.ts';
import { collectors, meterReadingKey, meters } from './device.ts';

// The device side (issue 4): readings, the latest value per meter, commands with a lifecycle,
// read tasks, warnings, raw device reports, protection and timed control.

/**
 * Readings: a time series PARTITIONED BY RANGE (read_at) by month. The partitioned table itself is
 * created in the custom migration 0005_control_partitions.sql (drizzle-kit cannot declare
 * partitioning); this declaration is for queries only and is excluded from drizzle-kit
 * (see drizzle.config.ts tablesFilter).
 * source: 1 automatic (scheduled), 2 on-demand, 3 manual, 4 device report.
 * A reading lower or older than the meter's last one is stored with `exception` set and never used
 * for settlement.
 */
export const readings = pgTable('readings', {
  id: bigint('id', { mode: 'number' }).notNull().default(sql`nextval('readings_id_seq')`),
  companyId: companyId(),
  meterId: ref('meter_id').notNull(),
  readAt: ts('read_at').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
  source: integer('source').notNull(),
  /** total energy (kWh) or volume (m³), the register settlement uses */
  total: numeric('total', { precision: 14, scale: 2 }).notNull(),
  /** other registers: sharp/peak/flat/valley, voltage, current, power, balance, battery … */
  registers: jsonb('registers').$type<Record<string, number | string | boolean>>().notNull().default({}),
  /** '' = good; else why it is not used: 'backwards', 'older', 'jump' */
  exception: blank('exception', 16),
  commandId: ref('command_id'),
  operatorId: ref('operator_id'),
}, (t) => [primaryKey({ columns: [t.meterId, t.readAt] })]);

/** The latest good reading per meter (one row, updated on ingest). */
export const meterLatest = pgTable('meter_latest', {
  ...meterReadingKey(),
  registers: jsonb('registers').$type<Record<string, number | string | boolean>>().notNull().default({}),
  source: integer('source').notNull(),
  updatedAt: updatedAt(),
});

/**
 * A command to a device. status: queued → sent → succeeded | failed | timed_out | expired.
 * kind: open, close, limit, read, config_read, config_set, time_sync, protect_on, protect_off.
 * At most one pending (queued/sent) command per meter and kind: a duplicate joins the pending one.
 */
export const commands = pgTable('commands', {
  ...tenantKey(),
  meterId: ref('meter_id').references(() => meters.id, { onDelete: 'cascade' }),
  collectorId: ref('collector_id').references(() => collectors.id),
  kind: varchar('kind', { length: 16 }).notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  status: varchar('status', { length: 12 }).notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(3),
  expiresAt: ts('expires_at').notNull(),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  /** who asked: an admin user, or null for the system (scheduler, settlement) */
  requestedBy: ref('requested_by'),
  requesterName: blank('requester_name', 64),
  /** 1 manual, 2 automatic (balance), 3 timed, 4 scheduled reading */
  origin: integer('origin').notNull().default(1),
  memo: memo(),
  /** a person's reason to override protection / no-disconnect hours */
  overrideReason: blankText('override_reason'),
  reply: jsonb('reply').$type<Record<string, unknown>>(),
  error: blankText('error'),
  readTaskId: ref('read_task_id'),
  createdAt: createdAt(),
  sentAt: ts('sent_at'),
  finishedAt: ts('finished_at'),
  /** the worker carrying out the current attempt: its lease key (a session advisory lock, jobs/lease.ts) */
  claimedBy: integer('claimed_by'),
  /** first seen 'sent' while its worker's lease was free (recovered once that lasts) */
  orphanAt: ts('orphan_at'),
}, (t) => [
  index('commands_company_created').on(t.companyId, t.createdAt),
  /** a meter's command history (valve checks, consecutive read failures) */
  index('commands_meter_created').on(t.meterId, t.createdAt),
  index('commands_read_task').on(t.readTaskId).where(sql`read_task_id IS NOT NULL`),
  index('commands_pending').on(t.status, t.nextAttemptAt).where(sql`status IN ('queued', 'sent')`),
  uniqueIndex('commands_one_pending').on(t.meterId, t.kind).where(sql`status IN ('queued', 'sent')`),
  /** the worker's claim: a collector's queued commands in claim order (people's before scheduled reads) */
  index('commands_queued_collector').on(t.collectorId, sql`(origin = 4)`, t.nextAttemptAt, t.id).where(sql`status = 'queued'`),
]);

/** A round of reading (scheduled or bulk on-demand): /task and device/read/task/list. */
export const readTasks = pgTable('read_tasks', {
  ...tenantKey(),
  /** 1 scheduled, 2 manual bulk */
  origin: integer('origin').notNull().default(1),
  total: integer('total').notNull().default(0),
  succeeded: integer('succeeded').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  status: varchar('status', { length: 12 }).notNull().default('running'),
  startedAt: ts('started_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
  requestedBy: ref('requested_by'),
});

/**
 * Device warnings (device/unusual/*, the /warn* pages). kind: one of WARNING_KINDS (contracts,
 * endpoints/control.ts).
 * status: 0 open, 1 handled. One open warning per meter and kind.
 */
export const deviceWarnings = pgTable('device_warnings', {
  ...tenantKey(),
  meterId: ref('meter_id').references(() => meters.id, { onDelete: 'cascade' }),
  collectorId: ref('collector_id').references(() => collectors.id, { onDelete: 'cascade' }),
  areaId: ref('area_id'),
  kind: varchar('kind', { length: 24 }).notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  status: integer('status').notNull().default(0),
  handledBy: ref('handled_by'),
  handledAt: ts('handled_at'),
  handleMemo: blankText('handle_memo'),
  createdAt: createdAt(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
}, (t) => [
  index('device_warnings_company_kind').on(t.companyId, t.kind, t.status),
  // NULL meter/collector ids must collide too, hence coalesce (a plain unique index treats NULLs as distinct)
  uniqueIndex('device_warnings_one_open')
    .on(sql`coalesce(${t.meterId}, 0)`, sql`coalesce(${t.collectorId}, 0)`, t.kind)
    .where(sql`status = 0`),
]);

/** Raw frames to and from devices (/deviceReportLog), kept for a limited time. */
export const deviceReports = pgTable('device_reports', {
  ...tenantKey(),
  meterId: ref('meter_id'),
  collectorId: ref('collector_id'),
  /** 'up' from the device, 'down' to it */
  direction: varchar('direction', { length: 4 }).notNull(),
  channel: varchar('channel', { length: 8 }).notNull(),
  hex: text('hex').notNull(),
  decoded: jsonb('decoded').$type<Record<string, unknown>>(),
  error: blankText('error'),
  createdAt: createdAt(),
}, (t) => [
  index('device_reports_company_time').on(t.companyId, t.createdAt),
  index('device_reports_meter_time').on(t.meterId, t.createdAt),
]);

/** 保电/保水: a room's meters are protected from automatic closes while this row is active. */
export const protections = pgTable('protections', {
  ...tenantKey(),
  meterId: ref('meter_id').notNull().references(() => meters.id, { onDelete: 'cascade' }),
  /** 1 电 (保电), 2 水 (保水) */
  kind: integer('kind').notNull(),
  active: boolean('active').notNull().default(true),
  reason: blankText('reason'),
  startAt: ts('start_at').notNull().defaultNow(),
  endAt: ts('end_at'),
  createdBy: ref('created_by'),
  endedBy: ref('ended_by'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('protections_one_active').on(t.meterId).where(sql`active`)]);

/** 定时阀控: open or close meters at a time (once) or every day. */
export const timedControls = pgTable('timed_controls', {
  ...tenantKey(),
  meterId: ref('meter_id').notNull().references(() => meters.id, { onDelete: 'cascade' }),
  /** 'open' | 'close' */
  action: varchar('action', { length: 8 }).notNull(),
  /** 'once' at runAt, or 'daily' at timeOfDay (HH:mm, Asia/Shanghai) */
  repeat: varchar('repeat', { length: 8 }).notNull().default('once'),
  runAt: ts('run_at'),
  timeOfDay: blank('time_of_day', 5),
  enabled: boolean('enabled').notNull().default(true),
  lastRunAt: ts('last_run_at'),
  memo: memo(),
  createdBy: ref('created_by'),
  createdAt: createdAt(),
});

/** Per-company third-party settings (company/third). */
export const companyThird = pgTable('company_third', {
  companyId: ref('company_id').primaryKey(),
  config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/** Device parameter snapshots read from meters (/constant, /advConfig, /notesConfig). */
export const meterConfigs = pgTable('meter_configs', {
  ...tenantKey(),
  meterId: ref('meter_id').notNull().references(() => meters.id, { onDelete: 'cascade' }),
  /** 'read' | 'set' */
  op: varchar('op', { length: 4 }).notNull(),
  params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
  commandId: ref('command_id'),
  createdBy: ref('created_by'),
  createdAt: createdAt(),
}, (t) => [index('meter_configs_meter').on(t.meterId, t.createdAt)]);
