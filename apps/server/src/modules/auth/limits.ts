import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { AppError } from '../../http/errors.ts';
import type { AuthSettings } from './service.ts';

// Login attempts per minute per IP address and per username (@fastify/rate-limit, in memory per
// process). Each limiter is its own plugin instance: one instance runs only its first limiter per request.

export async function limiter(app: FastifyInstance, o: RateLimitOptions): Promise<preHandlerAsyncHookHandler> {
  let handler: preHandlerAsyncHookHandler | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_req, c) => new AppError('TOO_MANY_REQUESTS', `尝试过于频繁，请 ${Math.max(1, Math.ceil(c.ttl / 1000))} 秒后再试`, 429),
    });
    handler = scope.rateLimit(o);
  });
  return handler!;
}

export async function loginLimits(app: FastifyInstance, settings: AuthSettings) {
  return {
    /** before the body is read */
    perIp: await limiter(app, { max: settings.loginPerIp ?? 30, timeWindow: 60_000, keyGenerator: (req) => req.ip }),
    /** after validation: the username sent, case-insensitive */
    perAccount: await limiter(app, {
      max: settings.loginPerAccount ?? 10,
      timeWindow: 60_000,
      keyGenerator: (req) => String((req.body as { username?: unknown } | undefined)?.username ?? '').toLowerCase(),
    }),
  };
}
