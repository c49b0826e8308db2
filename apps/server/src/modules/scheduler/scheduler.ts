import os from 'node:os';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import * as repo from './repo.ts';

// The one scheduler for every timed job of a process (settlement, calendar postings, deferred closes,
// the SMS outbox, pay applications, online-order queries, timed valve control, the worker's
// housekeeping, scheduled reading, offline sweep, partitions and retention). A job runs every
// `everyMs` after a first delay, never twice at once in one process: a tick while it runs is skipped,
// a `trigger` while it runs makes it run once more right after. Jobs that must run in one process
// at a time across the deployment take their own PostgreSQL lock (an advisory lock or SKIP LOCKED) —
// the scheduler only times them. Each run's outcome is recorded in `scheduled_jobs` (last and next
// run, duration, last error) for /task; recording is best effort (a database outage must not stop the
// jobs that buffer through it) and at most every few seconds for frequent jobs, failures always.

export interface JobSpec {
  /** stable key, e.g. 'billing.settlement' */
  name: string;
  /** Chinese name shown on /task */
  label: string;
  everyMs: number;
  /** delay before the first run (default: everyMs) */
  firstMs?: number;
  run: () => Promise<unknown>;
}

interface Log {
  error(o: unknown, msg?: string): void;
  warn?(o: unknown, msg?: string): void;
}

interface Job extends JobSpec {
  busy: boolean;
  again: boolean;
  lastRecordedAt: number;
  lastFailed: boolean;
  /** runs and failures not yet recorded */
  runs: number;
  failures: number;
}

/** a frequent job's successful runs are recorded at most this often */
export const RECORD_EVERY_MS = 5_000;

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private started = false;
  private stopped = false;
  private readonly host = `${os.hostname()}:${process.pid}`;

  constructor(private readonly deps: { db?: Db; log: Log; role: string }) {}

  /** Adds a job; once started, it is timed at once. */
  add(spec: JobSpec): this {
    if (this.jobs.has(spec.name)) throw new Error(`定时任务重复注册：${spec.name}`);
    const job: Job = { ...spec, busy: false, again: false, lastRecordedAt: 0, lastFailed: false, runs: 0, failures: 0 };
    this.jobs.set(spec.name, job);
    if (this.started) this.time(job);
    return this;
  }

  start(): this {
    if (this.started) return this;
    this.started = true;
    for (const job of this.jobs.values()) this.time(job);
    return this;
  }

  /** Runs the job now (or once more right after the run in progress). */
  trigger(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`没有这个定时任务：${name}`);
    return this.run(job, true);
  }

  names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Stops timing; waits for the runs in progress (at most graceMs). */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  private time(job: Job) {
    const first = setTimeout(() => void this.run(job, false), job.firstMs ?? job.everyMs);
    const every = setInterval(() => void this.run(job, false), job.everyMs);
    first.unref();
    every.unref();
    this.timers.push(first, every);
  }

  private async run(job: Job, triggered: boolean): Promise<void> {
    if (this.stopped) return;
    if (job.busy) {
      if (triggered) job.again = true;
      return;
    }
    job.busy = true;
    const p = this.once(job);
    this.running.add(p);
    try {
      await p;
    } finally {
      this.running.delete(p);
      job.busy = false;
    }
    if (job.again && !this.stopped) {
      job.again = false;
      await this.run(job, true);
    }
  }

  private async once(job: Job): Promise<void> {
    const startedAt = new Date();
    let error = '';
    try {
      await job.run();
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      this.deps.log.error({ err, job: job.name }, `定时任务执行失败：${job.label}`);
    }
    const failed = error !== '';
    const now = Date.now();
    job.runs++;
    if (failed) job.failures++;
    // successful frequent runs are recorded now and then; a failure, and the first success after one, always
    if (!failed && !job.lastFailed && now - job.lastRecordedAt < RECORD_EVERY_MS) return;
    job.lastFailed = failed;
    job.lastRecordedAt = now;
    await this.record(job, { startedAt, finishedAt: new Date(now), error });
  }

  private async record(job: Job, run: { startedAt: Date; finishedAt: Date; error: string }) {
    if (!this.deps.db) return;
    const counts = { runs: job.runs, failures: job.failures };
    try {
      await this.deps.db.tx(SYSTEM_SCOPE, (tx) =>
        repo.recordRun(tx, {
          name: job.name,
          label: job.label,
          role: this.deps.role,
          everyMs: job.everyMs,
          host: this.host,
          ...run,
          ...counts,
          nextRunAt: new Date(run.finishedAt.getTime() + job.everyMs),
        }));
      job.runs -= counts.runs;
      job.failures -= counts.failures;
    } catch (err) {
      this.deps.log.warn?.({ err, job: job.name }, '定时任务运行记录写入失败');
    }
  }
}
