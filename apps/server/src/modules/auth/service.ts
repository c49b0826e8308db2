import { OPERATION_KEYS, ROUTES, type LoginResult } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Scope } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { refuse, unauthorized } from '../../http/errors.ts';
import { Page } from '../../http/envelope.ts';
import { formatBeijing } from '../../time.ts';
import { offsetOf } from '../../http/paging.ts';
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
  /** login attempts per minute per IP address and per username (defaults 30 and 10) */
  loginPerIp?: number;
  loginPerAccount?: number;
}
export const authSettings = (
  c: Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS' | 'AUTH_SESSION_CACHE_MS' | 'LOGIN_RATE_PER_IP' | 'LOGIN_RATE_PER_ACCOUNT'>,
): AuthSettings => ({
  idleMinutes: c.SESSION_IDLE_MINUTES,
  maxHours: c.SESSION_MAX_HOURS,
  sessionCacheMs: c.AUTH_SESSION_CACHE_MS,
  loginPerIp: c.LOGIN_RATE_PER_IP,
  loginPerAccount: c.LOGIN_RATE_PER_ACCOUNT,
});

/**
 * The one answer to every failed login (unknown user, wrong password, locked, disabled, too many
 * failures): nothing tells an outsider which usernames exist or what state an account is in.
 */
export const LOGIN_FAILED_MESSAGE = `用户名或密码错误（连续错误 ${LOCK_AFTER_FAILURES} 次账号将锁定 ${LOCK_MINUTES} 分钟）`;
const loginFailed = () => refuse('LOGIN_FAILED', LOGIN_FAILED_MESSAGE);

/** A platform admin's role holds everything; a company user's role holds what was granted. */
function grants(access: number, role: { routes: string[]; operations: string[] } | undefined) {
  if (access === 0) return { routes: ROUTES.map((r) => r.key), operations: [...OPERATION_KEYS] };
  return { routes: role?.routes ?? [], operations: role?.operations ?? [] };
}


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
  // every path verifies one argon2 hash, so the time taken does not tell them apart either
  if (!user) {
    await dummyVerify(input.password);
    await db.tx(SYSTEM_SCOPE, (tx) => repo.recordAttempt(tx, { username, success: false, reason: 'no_user', ip }));
    throw loginFailed();
  }
  ctx.audit.userId = user.id;
  ctx.audit.companyId = user.companyId;
  const fail = async (reason: string) =>
    db.tx(SYSTEM_SCOPE, (tx) => repo.recordAttempt(tx, { username, userId: user.id, success: false, reason, ip }));

  const refusedBefore = async (reason: string) => {
    await dummyVerify(input.password);
    await fail(reason);
    return loginFailed();
  };
  if (user.status !== 1) throw await refusedBefore('disabled');
  if (user.lockedUntil && user.lockedUntil.getTime() > Date.now()) throw await refusedBefore('locked');
  const hourFailures = await db.tx(SYSTEM_SCOPE, (tx) =>
    repo.countFailuresSince(tx, user.id, new Date(Date.now() - 3600_000)),
  );
  if (hourFailures >= MAX_FAILURES_PER_HOUR) throw await refusedBefore('rate');
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await db.tx(SYSTEM_SCOPE, async (tx) => {
      await repo.recordAttempt(tx, { username, userId: user.id, success: false, reason: 'password', ip });
      await repo.addFailure(tx, user.id, LOCK_AFTER_FAILURES, LOCK_MINUTES);
    });
    throw loginFailed();
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

// ---- 个人中心 (/headUser) ----------------------------------------------------------------------------

/** Beijing wall-clock text, null kept */
const wallClock = (d: Date | null) => (d ? formatBeijing(d) : null);

const LOGIN_FAILURES: Record<string, string> = {
  password: '密码错误', disabled: '账号已停用', locked: '账号已锁定', rate: '失败次数过多', no_user: '账号不存在',
};

export async function profile(ctx: Ctx) {
  const r = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.getProfile(tx, ctx.user.id));
  if (!r) throw unauthorized();
  return { ...r, lastLoginAt: wallClock(r.lastLoginAt), passwordChangedAt: wallClock(r.passwordChangedAt), createdAt: formatBeijing(r.createdAt) };
}

export async function saveProfile(ctx: Ctx, input: { realName: string; phone: string }) {
  ctx.audit.target = `账号 ${ctx.user.username}`;
  await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.setProfile(tx, ctx.user.id, input));
  return profile(ctx);
}

/** 登录记录: the signed-in user's own attempts (login_attempts), the browser of each session opened. */
export async function loginLog(ctx: Ctx, q: { index: number; size: number; success?: number }) {
  const success = q.success === undefined ? undefined : q.success === 1;
  const r = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.loginLog(tx, ctx.user.id, success, q.size, offsetOf(q)));
  return new Page(
    r.rows.map((x) => ({
      id: x.id, success: x.success, reasonText: x.success ? '' : (LOGIN_FAILURES[x.reason] ?? '登录失败'), ip: x.ip, userAgent: x.userAgent,
      createdAt: formatBeijing(x.createdAt), current: x.success && x.open,
    })),
    r.count,
  );
}
