import type { FastifyRequest, FastifyReply } from 'fastify';
import { CONTROL_CHARS } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

const SECRET_KEYS = /pass|pwd|token|secret|privatekey|apiv3key/i;
const CONTROL = new RegExp(CONTROL_CHARS.source, 'g');

/** Text as it can be stored: control characters (PostgreSQL refuses U+0000) shown as U+FFFD, cut to max. */
const clean = (s: string, max: number) => s.replace(CONTROL, '\uFFFD').slice(0, max);

/** A copy of the request body with secrets masked, cut to a reasonable size. */
function redact(v: unknown, depth = 0): unknown {
  if (v == null || depth > 4) return v;
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => redact(x, depth + 1));
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).slice(0, 100).map(([k, x]) => [clean(k, 64), SECRET_KEYS.test(k) ? '******' : redact(x, depth + 1)]),
    );
  }
  if (typeof v === 'string') return v.length > 500 ? `${clean(v, 500)}…` : clean(v, 500);
  return v;
}

export type AuditRow = typeof auditLog.$inferInsert;

/** One audit row per mutation by a person (DESIGN §5): who, what, when, from where, on what, result. */
export async function writeAudit(db: Db, req: FastifyRequest, reply: FastifyReply, code: string) {
  const row = auditRow(req, reply, code);
  if (row) await db.tx(SYSTEM_SCOPE, (tx) => tx.insert(auditLog).values(row));
}

/**
 * The audit row of a request, or null when nobody is known (an anonymous request to a signed-in route).
 * Refused writes are rows too (an anonymous one, e.g. a login refused at the schema, under the name it sent).
 */
export function auditRow(req: FastifyRequest, reply: FastifyReply, code: string): AuditRow | null {
  const ctx = req.ctx;
  const pub = req.publicCtx;
  if (!ctx && !pub) return null;
  const sent = (req.body as Record<string, unknown> | undefined)?.username;
  const audit = ctx?.audit ?? pub?.audit ?? {};
  const cfgAction = req.routeOptions.config?.action;
  const idFromQuery = (req.query as Record<string, unknown> | undefined)?.id;
  const params = req.params as Record<string, unknown> | undefined;
  const target = audit.target ?? (idFromQuery != null ? `id=${String(idFromQuery)}` : params?.id != null ? `id=${String(params.id)}` : '');
  return {
    createdAt: new Date(),
    companyId: ctx ? (ctx.scope.companyId ?? ctx.user.companyId) : (pub?.audit.companyId ?? null),
    userId: ctx?.user.id ?? pub?.audit.userId ?? null,
    username: clean(ctx?.user.username ?? pub?.audit.username ?? (typeof sent === 'string' ? sent : ''), 64),
    method: req.method,
    path: clean(req.routeOptions.url ?? req.url.split('?')[0], 500),
    action: audit.action ?? cfgAction ?? '',
    target: clean(target, 500),
    ip: clean(req.ip, 64),
    status: reply.statusCode,
    code: clean(code, 48),
    detail: { query: redact(req.query), body: redact(req.body) } as Record<string, unknown>,
  };
}

/**
 * Writes audit rows; a row the database refuses because it cannot be reached is kept in memory
 * (bounded) and written, in its original order and with its original time, when the database is
 * back (issue 11 item 12: no audit row lost to an outage). Retried every `retryMs`; flushed at close.
 */
export class AuditWriter {
  private pending: AuditRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  dropped = 0;

  constructor(
    private db: Db,
    private log: { warn(o: object, m: string): void; error(o: object, m: string): void; info(o: object, m: string): void },
    private o: { max?: number; retryMs?: number; isUnavailable?: (e: unknown) => boolean; onDepth?: (n: number) => void } = {},
  ) {}

  get depth() {
    return this.pending.length;
  }

  async write(row: AuditRow) {
    if (this.pending.length) return this.keep(row); // keep the order: older rows first
    try {
      await this.insert([row]);
    } catch (e) {
      if (this.o.isUnavailable && !this.o.isUnavailable(e)) throw e;
      this.keep(row);
    }
  }

  private insert(rows: AuditRow[]) {
    return this.db.tx(SYSTEM_SCOPE, async (tx) => {
      await tx.insert(auditLog).values(rows);
    });
  }

  private keep(row: AuditRow) {
    const max = this.o.max ?? 10_000;
    if (this.pending.length >= max) {
      this.pending.shift();
      if (this.dropped++ % 1000 === 0) this.log.error({ max, dropped: this.dropped }, `审计记录缓冲已满（${max} 条），最早的记录被丢弃；请尽快恢复数据库`);
    }
    if (!this.pending.length) this.log.warn({}, '审计记录写入失败（数据库不可用），已暂存内存，数据库恢复后补写');
    this.pending.push(row);
    this.o.onDepth?.(this.pending.length);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), this.o.retryMs ?? 2000);
      this.timer.unref();
    }
  }

  /** Writes what is kept, in batches; stops at the first failure (tried again later). */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      try {
        while (this.pending.length) {
          const batch = this.pending.slice(0, 500);
          await this.insert(batch);
          this.pending.splice(0, batch.length);
          this.o.onDepth?.(this.pending.length);
          if (!this.pending.length) this.log.info({ rows: batch.length }, '暂存的审计记录已补写');
        }
        clearInterval(this.timer);
        this.timer = undefined;
      } catch {
        // still unavailable: the timer tries again
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  async close() {
    await this.flush();
    clearInterval(this.timer);
    if (this.pending.length) this.log.error({ rows: this.pending.length }, `进程退出时仍有 ${this.pending.length} 条审计记录未能写入数据库`);
  }
}
