import type { FastifyRequest, FastifyReply } from 'fastify';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

const SECRET_KEYS = /pass|pwd|token|secret/i;

/** A copy of the request body with secrets masked, cut to a reasonable size. */
function redact(v: unknown, depth = 0): unknown {
  if (v == null || depth > 4) return v;
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => redact(x, depth + 1));
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, SECRET_KEYS.test(k) ? '******' : redact(x, depth + 1)]),
    );
  }
  if (typeof v === 'string' && v.length > 500) return `${v.slice(0, 500)}…`;
  return v;
}

/** One audit row per mutation by a person (DESIGN §5): who, what, when, from where, on what, result. */
export async function writeAudit(db: Db, req: FastifyRequest, reply: FastifyReply, code: string) {
  const ctx = req.ctx;
  const pub = req.publicCtx;
  if (!ctx && !pub?.audit.username) return;
  const audit = ctx?.audit ?? pub?.audit ?? {};
  const cfgAction = req.routeOptions.config?.action;
  const idFromQuery = (req.query as Record<string, unknown> | undefined)?.id;
  const params = req.params as Record<string, unknown> | undefined;
  const target = audit.target ?? (idFromQuery != null ? `id=${idFromQuery}` : params?.id != null ? `id=${params.id}` : '');
  await db.tx(SYSTEM_SCOPE, (tx) =>
    tx.insert(auditLog).values({
      companyId: ctx ? (ctx.scope.companyId ?? ctx.user.companyId) : (pub?.audit.companyId ?? null),
      userId: ctx?.user.id ?? pub?.audit.userId ?? null,
      username: ctx?.user.username ?? pub?.audit.username ?? '',
      method: req.method,
      path: req.routeOptions.url ?? req.url.split('?')[0],
      action: audit.action ?? cfgAction ?? '',
      target: target.slice(0, 500),
      ip: req.ip,
      status: reply.statusCode,
      code,
      detail: { query: redact(req.query), body: redact(req.body) } as Record<string, unknown>,
    }),
  );
}
