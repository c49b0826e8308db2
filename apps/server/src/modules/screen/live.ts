import type { FastifyBaseLogger } from 'fastify';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { EventBus } from '../realtime/index.ts';
import * as repo from './repo.ts';

// The credit watch: a top-up is written by several paths (the counter, online payment notifications,
// the owners' app, the query job), none of which speaks to the browsers. While some /screen is open
// (a summary was asked within IDLE_MS), this process looks at the journal every EVERY_MS — one read on
// the primary key — and sends a `payment` event for each new top-up, refund or reversal to the
// company's websockets, so a screen refreshes its figures within seconds of a payment. Nobody
// watching: no timer, no query.

export const EVERY_MS = 1_000;
export const IDLE_MS = 120_000;
const BATCH = 1_000;

export class CreditWatch {
  private timer: NodeJS.Timeout | undefined;
  private last: number | null = null;
  private touched = 0;
  private busy = false;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log?: Pick<FastifyBaseLogger, 'warn'>,
    private readonly everyMs = EVERY_MS,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** A screen asked for its figures: keep watching (start now, taking the journal's end as the baseline). */
  touch() {
    this.touched = Date.now();
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
    void this.tick();
  }

  get running() {
    return this.timer !== undefined;
  }

  async tick() {
    if (this.busy) return;
    if (Date.now() - this.touched > this.idleMs) return this.stop();
    this.busy = true;
    try {
      await this.db.read(SYSTEM_SCOPE, async (r) => {
        const top = await repo.newestJournalId(r);
        if (this.last == null || top <= this.last) {
          this.last = Math.max(this.last ?? 0, top);
          return;
        }
        const rows = await repo.creditsBetween(r, this.last, top, BATCH);
        this.last = rows.length === BATCH ? rows[rows.length - 1].id : top;
        if (!rows.length) return;
        this.bus.emitAll(rows.map((x) => ({
          companyId: x.companyId, kind: 'payment' as const,
          // a hint to refresh, no amount: every signed-in user of the company gets the socket's events
          body: { journalId: x.id, areaId: x.areaId, kind: x.kind },
        })));
      });
    } catch (e) {
      this.log?.warn({ err: (e as Error).message }, '大屏缴费监听查询失败，稍后重试');
    } finally {
      this.busy = false;
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    this.last = null;
  }
}
