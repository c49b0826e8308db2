import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from './client.ts';

// A lease held as a PostgreSQL session advisory lock on a connection of its own. PostgreSQL frees the
// lock when the session ends — at once when the holder's process dies (its socket closes), and
// within the TCP keepalive time set below when its machine or network goes silent — and another
// process trying every `retryMs` takes it then. The holder pings its connection every `pingMs`; a
// failed ping, a dropped connection or a terminated session is a lost lease (`onLost`), noticed before
// PostgreSQL's own keepalive lets anyone else take it, so two holders never overlap.

export const LEASE = {
  /** the gateway serving MQTT meters (one per database and topic prefix) */
  mqttMeters: 724300,
  /** a command worker's liveness (one per worker process; commands.claimed_by names it) */
  worker: 724301,
} as const;

export interface LeaseOptions {
  db: Db;
  key: number;
  /** second key (int4) */
  sub: number;
  log: Logger;
  /** what the lease is for (logs) */
  name: string;
  retryMs?: number;
  pingMs?: number;
  onAcquired?(): void | Promise<void>;
  onLost?(): void | Promise<void>;
}

/** A 31-bit key from a text (e.g. the MQTT topic prefix). */
export function leaseKeyOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h & 0x7fffffff;
}

export class SessionLease {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private busy = false;
  private _held = false;

  constructor(private readonly o: LeaseOptions) {}

  get held() {
    return this._held;
  }

  /** Starts trying; resolves after the first try (held or not). */
  async start() {
    await this.tick();
    this.schedule();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    const c = this.client;
    this.client = undefined;
    this._held = false;
    if (c) {
      await c.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', [this.o.key, this.o.sub]).catch(() => {});
      await c.end().catch(() => {});
    }
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick().finally(() => this.schedule()), this._held ? (this.o.pingMs ?? 2000) : (this.o.retryMs ?? 2000));
    this.timer.unref();
  }

  private async tick() {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (this._held) await this.ping();
      else await this.tryAcquire();
    } finally {
      this.busy = false;
    }
  }

  private async tryAcquire() {
    const pingMs = this.o.pingMs ?? 2000;
    const c = new pg.Client({ ...this.o.db.pool.options, keepAlive: true, query_timeout: Math.max(1000, pingMs), connectionTimeoutMillis: 5000 });
    c.on('error', () => void this.lost(c, 'connection error'));
    c.on('end', () => void this.lost(c, 'connection ended'));
    try {
      await c.connect();
      // a holder that goes silent (power, network) is noticed by PostgreSQL within ≈ 25 s
      await c.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3');
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int4, $2::int4) AS ok', [this.o.key, this.o.sub]);
      if (!r.rows[0]?.ok || this.stopped) {
        await c.end().catch(() => {});
        return;
      }
    } catch {
      await c.end().catch(() => {});
      return;
    }
    this.client = c;
    this._held = true;
    this.o.log.info({ lease: this.o.name }, '已取得租约');
    await this.o.onAcquired?.();
  }

  private async ping() {
    const c = this.client;
    if (!c) return;
    try {
      await c.query('SELECT 1');
    } catch {
      await this.lost(c, 'ping failed');
    }
  }

  private async lost(c: pg.Client, why: string) {
    if (this.client !== c) return;
    this.client = undefined;
    this._held = false;
    c.end().catch(() => {});
    if (this.stopped) return;
    this.o.log.warn({ lease: this.o.name, why }, '租约已失去（数据库连接中断），停止相应工作，稍后重试');
    await this.o.onLost?.();
  }
}
