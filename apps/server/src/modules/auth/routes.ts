import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes, publicCtx } from '../../http/routes.ts';
import * as auth from './service.ts';
import type { loginLimits } from './limits.ts';

export default function authRoutes(app: FastifyInstance, settings: auth.AuthSettings, limits: Awaited<ReturnType<typeof loginLimits>>) {
  const r = routes(app);
  const A = API.auth;
  // attempts per minute from one address (before the body is read) and for one username (after validation)
  r.endpoint(A.login, ({ body }, _c, req) => auth.login(publicCtx(req), settings, body), { onRequest: [limits.perIp], preHandler: [limits.perAccount] });
  r.endpoint(A.logout, (_i, ctx) => auth.logout(ctx));
  r.endpoint(A.session, (_i, ctx) => auth.currentSession(ctx));
  r.endpoint(A.role, (_i, ctx) => auth.currentRole(ctx));
  r.endpoint(A.loginCode, ({ query }) => auth.loginCode(query.username));
  r.endpoint(A.unlock, ({ body }, ctx) => auth.unlock(ctx, body.password));
  r.endpoint(A.changePassword, ({ body }, ctx) => auth.changePassword(ctx, body));
  r.endpoint(A.profile, (_i, ctx) => auth.profile(ctx));
  r.endpoint(A.saveProfile, ({ body }, ctx) => auth.saveProfile(ctx, body));
  r.endpoint(A.loginLog, ({ query }, ctx) => auth.loginLog(ctx, query));
}
