import type { Logger } from 'pino';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { controlRepo as repo, readsEnded } from '../modules/control/index.ts';
import type { DeviceEvent } from '../modules/realtime/index.ts';

// The worker's outcomes of attempts, written in batches: each finished attempt joins the next write,
// one transaction (one statement) for every attempt that ended while the previous write ran. A bulk
// run of thousands of commands then costs a few round trips to the database per batch instead of
// one transaction per command. A write that fails (the database away) is retried with backoff for
// a while, so a command does not stay 'sent' behind a live worker.

/** How long a worker keeps trying to record an outcome while the database is away. */
export const RESULT_RETRY_MS = 5 * 60_000;
/** attempts written by one statement at most */
const MAX_BATCH = 500;

export type Written = { row: repo.CommandRow; areaId: number | null } | undefined;

interface Pending {
  result: repo.AttemptResult;
  /** when the attempt started (Date.now()): gives up RESULT_RETRY_MS after it */
  started: number;
  resolve(w: Written): void;
}

export class ResultWriter {
  private queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly deps: { db: Db; log: Logger; publish(events: DeviceEvent[]): void },
    private readonly stopped: () => boolean,
  ) {}

  /**
   * Records an attempt's outcome; resolves with the command as written and its device's area, or
   * undefined when the attempt was no longer this worker's (recovered meanwhile) or could not be
   * written in time.
   */
  write(result: repo.AttemptResult, started: number): Promise<Written> {
    return new Promise((resolve) => {
      this.queue.push({ result, started, resolve });
      void this.drain();
    });
  }

  /** Reads that keep failing raise 连续抄表失败, a good one closes it: after the outcomes are safe, so it never holds them up. */
  private async warnReadFails(rows: repo.CommandRow[]) {
    if (!rows.some((c) => c.kind === 'read')) return;
    try {
      this.deps.publish(await this.deps.db.tx(SYSTEM_SCOPE, (tx) => readsEnded(tx, rows)));
    } catch (e) {
      this.deps.log.warn({ err: e }, '更新连续抄表失败预警失败');
    }
  }

  private async drain() {
    if (this.writing) return;
    this.writing = true;
    try {
      for (let wait = 250; this.queue.length; ) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const rows = await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.finishAttempts(tx, batch.map((p) => p.result)));
          const ended = new Map(rows.map((w) => [`${w.row.id}:${w.row.attempts}`, w]));
          for (const p of batch) p.resolve(ended.get(`${p.result.id}:${p.result.attempt}`));
          wait = 250;
          await this.warnReadFails(rows.map((w) => w.row));
        } catch (e) {
          const keep: Pending[] = [];
          for (const p of batch) {
            if (this.stopped() || Date.now() - p.started > RESULT_RETRY_MS) {
              this.deps.log.error({ err: e, commandId: p.result.id }, '写入指令结果失败');
              p.resolve(undefined);
            } else keep.push(p);
          }
          if (keep.length) this.deps.log.warn({ err: e, commandIds: keep.map((p) => p.result.id) }, '写入指令结果失败，稍后重试');
          this.queue.unshift(...keep);
          if (keep.length) await new Promise((r) => setTimeout(r, wait));
          wait = Math.min(wait * 2, 5000);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
