import { OPERATION_KEYS, ROUTES, type LoginResult } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Scope } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { refuse, unauthorized } from '../../http/errors.ts';
import type { AuthUser, Ctx, PublicCtx } from '../../http/context.ts';
import { dummyVerify, hashPassword, hashToken, newToken, verifyPassword } from './crypto.ts';
import * as repo from './repo.ts';
import type { SessionCache } from './session-cache.ts';

export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MINUTES = 15;
export const MAX_FAILURES_PER_HOUR = 100;

export interface AuthSettings {
  idleMinutes: number;
  maxHours: number;
  /** how long a looked-up session may be reused (SessionCache); absent or 0: every request looks it up */
  sessionCacheMs?: number;
}
export const authSettings = (c: Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS' | 'AUTH_SESSION_CACHE_MS'>): AuthSettings => ({
  idleMinutes: c.SESSION_IDLE_MINUTES,
  maxHours: c.SESSION_MAX_HOURS,
  sessionCacheMs: c.AUTH_SESSION_CACHE_MS,
});

/** A platform admin's role holds everything; a company user's role holds what was granted. */
function grants(access: number, role: { routes: string[]; operations: string[] } | undefined) {
  if (access === 0) return { routes: ROUTES.map((r) => r.key), operations: [...OPERATION_KEYS] };
  return { routes: role?.routes ?? [], operations: role?.operations ?? [] };
}

const minutesLeft = (until: Date) => Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000));

export async function login(
  ctx: PublicCtx,
  settings: AuthSettings,
  input: { username: string; password: string },
): Promise<LoginResult> {
  const { db, ip } = ctx;
  const username = input.username;
  ctx.audit.username = username;
  ctx.audit.target = `账号 ${username}`;
  const user = await db.tx(SYSTEM_SCOPE, (tx) => repo.findUserForLogin(tx, username));
  if (!user) {
    await dummyVerify(input.password);
    await db.tx(SYSTEM_SCOPE, (tx) => repo.recordAttempt(tx, { username, success: false, reason: 'no_user', ip }));
    throw refuse('LOGIN_FAILED', '用户名或密码错误');
  }
  ctx.audit.userId = user.id;
  ctx.audit.companyId = user.companyId;
  const fail = async (reason: string) =>
    db.tx(SYSTEM_SCOPE, (tx) => repo.recordAttempt(tx, { username, userId: user.id, success: false, reason, ip }));

  if (user.status !== 1) {
    await fail('disabled');
    throw refuse('ACCOUNT_DISABLED', '该账号已被禁用，请联系管理员');
  }
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now()) {
    await fail('locked');
    throw refuse('ACCOUNT_LOCKED', `密码连续错误次数过多，账号已锁定，请 ${minutesLeft(user.lockedUntil)} 分钟后再试`);
  }
  const hourFailures = await db.tx(SYSTEM_SCOPE, (tx) =>
    repo.countFailuresSince(tx, user.id, new Date(Date.now() - 3600_000)),
  );
  if (hourFailures >= MAX_FAILURES_PER_HOUR) {
    await fail('rate');
    throw refuse('ACCOUNT_RATE_LIMITED', '该账号一小时内登录失败次数过多，请稍后再试');
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    const r = await db.tx(SYSTEM_SCOPE, async (tx) => {
      await repo.recordAttempt(tx, { username, userId: user.id, success: false, reason: 'password', ip });
      return repo.addFailure(tx, user.id, LOCK_AFTER_FAILURES, LOCK_MINUTES);
    });
    if (r.lockedUntil && r.lockedUntil.getTime() > Date.now()) {
      throw refuse('ACCOUNT_LOCKED', `密码连续错误 ${LOCK_AFTER_FAILURES} 次，账号已锁定 ${LOCK_MINUTES} 分钟`);
    }
    throw refuse('LOGIN_FAILED', `用户名或密码错误，再错 ${LOCK_AFTER_FAILURES - r.failedCount} 次账号将被锁定`);
  }

  const token = newToken();
  const info = await db.tx(SYSTEM_SCOPE, async (tx) => {
    await repo.markLoginSuccess(tx, user.id);
    await repo.recordAttempt(tx, { username, userId: user.id, success: true, reason: '', ip });
    await repo.insertSession(tx, {
      tokenHash: hashToken(token),
      userId: user.id,
      companyId: user.companyId,
      ip,
      userAgent: ctx.userAgent.slice(0, 500),
      expiresAt: new Date(Date.now() + settings.maxHours * 3600_000),
    });
    return sessionInfo(tx, user);
  });
  ctx.audit.action = '登录';
  return { token, ...info };
}

async function sessionInfo(
  tx: Parameters<Parameters<Db['tx']>[1]>[0],
  user: { id: number; username: string; realName: string; companyId: number | null; roleId: number | null; access: number; userType: number },
): Promise<Omit<LoginResult, 'token'>> {
  const role = user.roleId ? await repo.getRole(tx, user.roleId) : undefined;
  const g = grants(user.access, role);
  const company = user.companyId ? await repo.getCompanyBrief(tx, user.companyId) : null;
  return {
    user: {
      id: user.id,
      username: user.username,
      realName: user.realName,
      companyId: user.companyId,
      roleId: user.roleId,
      userType: user.userType,
    },
    access: user.access,
    routes: g.routes,
    operations: g.operations,
    company,
  };
}

/** Resolves the Authorization header to a user and scope; throws 401 when there is no live session. */
export async function authenticate(
  db: Db,
  settings: AuthSettings,
  token: string | undefined,
  searchCompanyID: number | undefined,
  cache?: SessionCache,
): Promise<{ user: AuthUser; scope: Scope }> {
  if (!token) throw unauthorized();
  const tokenHash = hashToken(token);
  let s = cache?.get(tokenHash);
  if (!s) {
    const gen = cache?.generation ?? 0;
    s = await repo.lookupSession(db.pool, tokenHash, settings.idleMinutes);
    if (s) cache?.set(tokenHash, s, gen);
  }
  if (!s) throw unauthorized();
  const g = grants(s.access, s.routes ? { routes: s.routes, operations: s.operations ?? [] } : undefined);
  const user: AuthUser = {
    id: s.user_id,
    username: s.username,
    realName: s.real_name,
    companyId: s.company_id,
    roleId: s.role_id,
    access: s.access,
    userType: s.user_type,
    routes: g.routes,
    operations: g.operations,
    sessionId: s.session_id,
  };
  // A platform admin acts across companies, or inside one with searchCompanyID.
  const scope: Scope =
    s.access === 0
      ? { companyId: searchCompanyID ?? null, allCompanies: searchCompanyID == null, areaIds: null, userId: s.user_id }
      : { companyId: s.company_id, allCompanies: false, areaIds: s.area_ids, userId: s.user_id };
  return { user, scope };
}

export async function logout(ctx: Ctx) {
  ctx.audit.action = '退出登录';
  await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.revokeSession(tx, ctx.user.sessionId, 'logout'));
}

export async function currentSession(ctx: Ctx) {
  return ctx.db.tx(SYSTEM_SCOPE, (tx) => sessionInfo(tx, ctx.user));
}

export function currentRole(ctx: Ctx) {
  return ctx.tx(async (tx) => {
    const role = ctx.user.roleId ? await repo.getRole(tx, ctx.user.roleId) : undefined;
    return {
      access: ctx.user.access,
      routes: ctx.user.routes,
      operations: ctx.user.operations,
      roleName: ctx.user.access === 0 ? '平台管理员' : (role?.name ?? ''),
    };
  });
}

/** Whether a login code (SMS) is needed for this account. Not in demo or this edition: never. */
export function loginCode(_username: string) {
  return { required: false };
}

/** The lock screen checks the login password on the server. */
export async function unlock(ctx: Ctx, password: string) {
  const h = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.getPasswordHash(tx, ctx.user.id));
  if (!h || !(await verifyPassword(h, password))) throw refuse('PASSWORD_WRONG', '密码错误');
  return null;
}

export async function changePassword(ctx: Ctx, input: { oldPassword: string; newPassword: string }) {
  const h = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.getPasswordHash(tx, ctx.user.id));
  if (!h || !(await verifyPassword(h, input.oldPassword))) throw refuse('PASSWORD_WRONG', '原密码错误');
  if (input.oldPassword === input.newPassword) throw refuse('PASSWORD_SAME', '新密码不能与原密码相同');
  const next = await hashPassword(input.newPassword);
  ctx.audit.target = `账号 ${ctx.user.username}`;
  await ctx.db.tx(SYSTEM_SCOPE, async (tx) => {
    await repo.setPassword(tx, ctx.user.id, next);
    await repo.revokeUserSessions(tx, ctx.user.id, 'password');
  });
  return null;
}
