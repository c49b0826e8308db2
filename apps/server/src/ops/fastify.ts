import type { FastifyInstance } from 'fastify';
import { SUCCESS } from '@meter/contracts';
import type { Db } from '../db/client.ts';
import { healthOf, type DbWatch } from './health.ts';
import { httpDuration, httpRequests, metricsContentType, metricsText } from './metrics.ts';

// /healthz and /metrics of the API role, and the request metrics of every HTTP answer (route =
// the route's pattern, never the raw URL, so the label set stays small).

export function registerOps(app: FastifyInstance, o: { db: Db; watch: DbWatch; roles: string[] }) {
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
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => reply.type(metricsContentType).send(await metricsText()));
}
