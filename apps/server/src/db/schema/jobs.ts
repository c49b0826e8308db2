import { bigint, boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts, blankText } from './common.ts';

// The scheduler's record of each timed job (modules/scheduler): one row a job, written by whichever
// process ran it last. Not tenant data: the jobs work for every company.
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  label: text('label').notNull(),
  /** the process role that runs it (api, worker) */
  role: text('role').notNull(),
  everyMs: integer('every_ms').notNull(),
  lastStartedAt: ts('last_started_at'),
  lastFinishedAt: ts('last_finished_at'),
  lastDurationMs: integer('last_duration_ms'),
  lastOk: boolean('last_ok'),
  lastError: blankText('last_error'),
  lastErrorAt: ts('last_error_at'),
  nextRunAt: ts('next_run_at'),
  runs: bigint('runs', { mode: 'number' }).notNull().default(0),
  failures: bigint('failures', { mode: 'number' }).notNull().default(0),
  host: blankText('host'),
});
