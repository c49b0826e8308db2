import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SUCCESS } from '@meter/contracts';
import type { Db } from '../db/client.ts';
import { healthOf, type DbWatch } from './health.ts';
import { httpDuration, httpRequests, metricsContentType, metricsText } from './metrics.ts';

// /healthz and /metrics of the API role, and the request metrics of every HTTP answer (route =
// the route's pattern, never the raw URL, so the label set stays small). /metrics on the public port
// answers a scraper on this host (the client address as TRUST_PROXY resolves it, so a local nginx does
// not make everyone local) or one that sends `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets 403.

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** whether a request may read /metrics: the token when one is set, else only from this host */
export function metricsAllowed(req: FastifyRequest, token: string | undefined): boolean {
  if (LOOPBACK.has(req.ip)) return true;
  if (!token) return false;
  const sent = Buffer.from(req.headers.authorization ?? '');
  const want = Buffer.from(`Bearer ${token}`);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

export function registerOps(app: FastifyInstance, o: { db: Db; watch: DbWatch; roles: string[]; metricsToken?: string }) {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    const h = await healthOf(o.watch, o.roles);
    if (h.status !== 'ok') return reply.status(503).send({ code: 'UNAVAILABLE', message: h.message, data: h });
    return { code: SUCCESS, message: '', data: h };
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!metricsAllowed(req, o.metricsToken)) {
      return reply.status(403).send({ code: 'FORBIDDEN', message: '运行指标仅对本机或携带 METRICS_TOKEN 的采集端开放' });
    }
    return reply.type(metricsContentType).send(await metricsText());
  });
}
