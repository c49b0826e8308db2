import type { FastifyInstance } from 'fastify';
import { routes, publicCtx } from '../../http/routes.ts';
import * as auth from './service.ts';
import type { loginLimits } from './limits.ts';
import { ChangePasswordBody, LoginBody, LoginCodeQuery, UnlockBody } from './schema.ts';

export default function authRoutes(app: FastifyInstance, settings: auth.AuthSettings, limits: Awaited<ReturnType<typeof loginLimits>>) {
  const r = routes(app);
  const tags = ['认证'];
  // attempts per minute from one address (before the body is read) and for one username (after validation)
  const hooks = { onRequest: [limits.perIp], preHandler: [limits.perAccount] };
  r.post('/yonghu/api/admin/login', { summary: '登录', perm: false, body: LoginBody, tags, hooks }, ({ body }, _c, req) =>
    auth.login(publicCtx(req), settings, body));
  r.post('/yonghu/api/logout', { summary: '退出登录', perm: {}, tags }, (_i, ctx) => auth.logout(ctx));
  r.get('/yonghu/api/admin/user/token', { summary: '当前会话信息', perm: {}, tags }, (_i, ctx) => auth.currentSession(ctx));
  r.get('/yonghu/api/admin/user/role', { summary: '当前用户角色与权限', perm: {}, tags }, (_i, ctx) => auth.currentRole(ctx));
  r.get('/yonghu/api/admin/user/LoginCode', { summary: '是否需要登录验证码', perm: false, query: LoginCodeQuery, tags },
    ({ query }) => auth.loginCode(query.username));
  r.post('/yonghu/api/admin/user/unlock', { summary: '解锁屏幕（校验登录密码）', perm: {}, body: UnlockBody, tags, action: '解锁屏幕' },
    ({ body }, ctx) => auth.unlock(ctx, body.password));
  r.put('/yonghu/api/admin/user/changePassword', { summary: '修改密码', perm: {}, body: ChangePasswordBody, tags },
    ({ body }, ctx) => auth.changePassword(ctx, body));
}
