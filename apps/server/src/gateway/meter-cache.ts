import type { Logger } from 'pino';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import * as repo from './repo.ts';

/**
 * Caches meters by address, loading misses in batches (many reports arrive at once). A lookup the
 * database could not answer is never taken for "unregistered": an address cached before keeps its
 * answer, the others wait, and the batch is asked again (backing off to RETRY_MAX_MS) until the
 * database answers — so a meter is not blacked out after an outage and no false 未登记的表具地址
 * is logged.
 */
export class MeterCache {
  private map = new Map<string, { ref: repo.MeterRef | null; at: number }>();
  private waiting = new Map<string, ((r: repo.MeterRef | null) => void)[]>();
  private scheduled = false;
  private failures = 0;
  /** lookups waiting for the database (the gateway counts them as backlog) */
  pending = 0;
  static readonly RETRY_MAX_MS = 2_000;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly ttlMs = 60_000,
  ) {}

  get(address: string): Promise<repo.MeterRef | null> {
    const hit = this.map.get(address);
    if (hit && Date.now() - hit.at < this.ttlMs) return Promise.resolve(hit.ref);
    return new Promise((resolve) => {
      this.pending++;
      const list = this.waiting.get(address);
      if (list) list.push(resolve);
      else this.waiting.set(address, [resolve]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.load());
      }
    });
  }

  peek(address: string) {
    return this.map.get(address)?.ref ?? null;
  }

  /** The cached answer while it is fresh at `now` (`undefined`: ask {@link get}). */
  fresh(address: string, now = Date.now()): repo.MeterRef | null | undefined {
    const hit = this.map.get(address);
    return hit && now - hit.at < this.ttlMs ? hit.ref : undefined;
  }

  update(address: string, patch: Partial<repo.MeterRef>) {
    const hit = this.map.get(address);
    if (hit?.ref) hit.ref = { ...hit.ref, ...patch };
  }

  private resolve(address: string, resolvers: ((r: repo.MeterRef | null) => void)[], ref: repo.MeterRef | null) {
    this.pending -= resolvers.length;
    for (const r of resolvers) r(ref);
  }

  private async load() {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    let refs: repo.MeterRef[];
    try {
      refs = await this.db.tx(SYSTEM_SCOPE, (tx) => repo.metersByAddress(tx, [...batch.keys()]));
    } catch (e) {
      // the database did not answer: what was known stays known, the rest waits for the next try
      if (this.failures++ === 0) this.log.error({ err: e, addresses: batch.size }, '查询表具失败（数据库不可用？），上报暂存，稍后重试');
      for (const [address, resolvers] of batch) {
        const known = this.map.get(address);
        if (known) this.resolve(address, resolvers, known.ref);
        else {
          const list = this.waiting.get(address);
          this.waiting.set(address, list ? [...resolvers, ...list] : resolvers);
        }
      }
      if (this.waiting.size && !this.scheduled) {
        this.scheduled = true;
        const delay = Math.min(MeterCache.RETRY_MAX_MS, 100 * 2 ** Math.min(this.failures, 5));
        setTimeout(() => void this.load(), delay).unref();
      }
      return;
    }
    if (this.failures) this.log.info({ failures: this.failures }, '查询表具已恢复');
    this.failures = 0;
    const found = new Map(refs.map((r) => [r.address, r]));
    const now = Date.now();
    for (const [address, resolvers] of batch) {
      const ref = found.get(address) ?? null;
      this.map.set(address, { ref, at: now });
      this.resolve(address, resolvers, ref);
    }
  }
}
