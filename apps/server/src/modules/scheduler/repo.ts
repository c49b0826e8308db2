import { desc, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { scheduledJobs } from '../../db/schema/index.ts';

export interface RunRecord {
  name: string;
  label: string;
  role: string;
  everyMs: number;
  host: string;
  startedAt: Date;
  finishedAt: Date;
  nextRunAt: Date;
  /** '' = succeeded */
  error: string;
  /** runs and failures since the last record (frequent runs are recorded now and then) */
  runs: number;
  failures: number;
}

/** Records one run of a job (the row is created at its first run). */
export async function recordRun(tx: Tx, r: RunRecord): Promise<void> {
  const failed = r.error !== '';
  const values = {
    name: r.name,
    label: r.label,
    role: r.role,
    everyMs: r.everyMs,
    host: r.host,
    lastStartedAt: r.startedAt,
    lastFinishedAt: r.finishedAt,
    lastDurationMs: Math.max(0, r.finishedAt.getTime() - r.startedAt.getTime()),
    lastOk: !failed,
    nextRunAt: r.nextRunAt,
    runs: r.runs,
    failures: r.failures,
    ...(failed ? { lastError: r.error.slice(0, 2000), lastErrorAt: r.finishedAt } : {}),
  };
  await tx
    .insert(scheduledJobs)
    .values(values)
    .onConflictDoUpdate({
      target: scheduledJobs.name,
      set: {
        label: values.label,
        role: values.role,
        everyMs: values.everyMs,
        host: values.host,
        lastStartedAt: values.lastStartedAt,
        lastFinishedAt: values.lastFinishedAt,
        lastDurationMs: values.lastDurationMs,
        lastOk: values.lastOk,
        nextRunAt: values.nextRunAt,
        runs: sql`${scheduledJobs.runs} + ${r.runs}`,
        failures: sql`${scheduledJobs.failures} + ${values.failures}`,
        ...(failed ? { lastError: values.lastError, lastErrorAt: values.lastErrorAt } : {}),
      },
    });
}

export function listJobs(tx: Tx) {
  return tx.select().from(scheduledJobs).orderBy(scheduledJobs.role, desc(scheduledJobs.everyMs), scheduledJobs.name);
}
