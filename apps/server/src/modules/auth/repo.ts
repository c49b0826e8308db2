import { and, eq, gt, isNull, sql, count, type SQL } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { Tx } from '../../db/client.ts';
import { newestPage } from '../../db/crud-repo.ts';
import { adminUsers, companies, loginAttempts, roles, sessions } from '../../db/schema/index.ts';

// The only SQL of the auth domain. Called in the system scope (before a tenant is known) for
// login and session lookup, in the user's scope otherwise.

export async function findUserForLogin(tx: Tx, username: string) {
  const rows = await tx.select().from(adminUsers).where(eq(adminUsers.username, username)).limit(1);
  return rows[0];
}

export async function countFailuresSince(tx: Tx, userId: number, since: Date) {
  const [r] = await tx
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.userId, userId), eq(loginAttempts.success, false), gt(loginAttempts.createdAt, since)));
  return r.n;
}

export async function recordAttempt(
  tx: Tx,
  a: { username: string; userId?: number; success: boolean; reason: string; ip: string },
) {
  await tx.insert(loginAttempts).values({ ...a, userId: a.userId ?? null });
}

/** Adds one failure atomically; locks the account when the limit is reached. Returns the new count. */
export async function addFailure(tx: Tx, userId: number, limit: number, lockMinutes: number) {
  const [r] = await tx
    .update(adminUsers)
    .set({
      failedCount: sql`CASE WHEN ${adminUsers.failedCount} + 1 >= ${limit} THEN 0 ELSE ${adminUsers.failedCount} + 1 END`,
      lockedUntil: sql`CASE WHEN ${adminUsers.failedCount} + 1 >= ${limit}
        THEN now() + make_interval(mins => ${lockMinutes}) ELSE ${adminUsers.lockedUntil} END`,
    })
    .where(eq(adminUsers.id, userId))
    .returning({ failedCount: adminUsers.failedCount, lockedUntil: adminUsers.lockedUntil });
  return r;
}

export async function markLoginSuccess(tx: Tx, userId: number) {
  await tx
    .update(adminUsers)
    .set({ failedCount: 0, lockedUntil: null, lastLoginAt: sql`now()` })
    .where(eq(adminUsers.id, userId));
}

export async function insertSession(
  tx: Tx,
  s: { tokenHash: string; userId: number; companyId: number | null; ip: string; userAgent: string; expiresAt: Date },
) {
  await tx.insert(sessions).values(s);
}

export async function revokeSession(tx: Tx, sessionId: number, reason: string) {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeUserSessions(tx: Tx, userId: number, reason: string) {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function getPasswordHash(tx: Tx, userId: number) {
  const [r] = await tx.select({ h: adminUsers.passwordHash }).from(adminUsers).where(eq(adminUsers.id, userId));
  return r?.h;
}

export async function setPassword(tx: Tx, userId: number, passwordHash: string) {
  await tx
    .update(adminUsers)
    .set({ passwordHash, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(adminUsers.id, userId));
}

export async function getCompanyBrief(tx: Tx, companyId: number) {
  const [r] = await tx
    .select({ id: companies.id, name: companies.name, bankType: companies.bankType, edition: companies.edition })
    .from(companies)
    .where(eq(companies.id, companyId));
  return r ?? null;
}

export async function getRole(tx: Tx, roleId: number) {
  const [r] = await tx.select().from(roles).where(eq(roles.id, roleId));
  return r;
}

export interface SessionRow {
  session_id: number;
  user_id: number;
  username: string;
  real_name: string;
  company_id: number | null;
  role_id: number | null;
  access: number;
  user_type: number;
  routes: string[] | null;
  operations: string[] | null;
  area_ids: number[] | null;
}

/**
 * The live session for a token hash, with its user, role and visible areas, in one round trip
 * (app_session, migration 0018). Touches last_seen_at at most every 30 s.
 */
export async function lookupSession(pool: Pool, tokenHash: string, idleMinutes: number): Promise<SessionRow | undefined> {
  const r = await pool.query<SessionRow>('SELECT * FROM app_session($1, $2)', [tokenHash, idleMinutes]);
  const row = r.rows[0];
  if (row?.area_ids) row.area_ids = row.area_ids.map(Number);
  return row;
}

// ---- 个人中心 ---------------------------------------------------------------------------------------

export async function getProfile(tx: Tx, userId: number) {
  const [r] = await tx
    .select({
      username: adminUsers.username, realName: adminUsers.realName, phone: adminUsers.phone, lastLoginAt: adminUsers.lastLoginAt,
      passwordChangedAt: adminUsers.passwordChangedAt, createdAt: adminUsers.createdAt,
    })
    .from(adminUsers)
    .where(eq(adminUsers.id, userId));
  return r;
}

export async function setProfile(tx: Tx, userId: number, v: { realName: string; phone: string }) {
  await tx.update(adminUsers).set({ ...v, updatedAt: sql`now()` }).where(eq(adminUsers.id, userId));
}

/**
 * The user's own login attempts, newest first, each success with the session it opened (written in
 * the same transaction, so with the same created_at) for its browser and whether it is still open.
 */
export async function loginLog(tx: Tx, userId: number, success: boolean | undefined, limit: number, offset: number) {
  const where: SQL[] = [eq(loginAttempts.userId, userId)];
  if (success !== undefined) where.push(eq(loginAttempts.success, success));
  const cond = and(...where);
  const select = tx
    .select({
      id: loginAttempts.id, success: loginAttempts.success, reason: loginAttempts.reason, ip: loginAttempts.ip, createdAt: loginAttempts.createdAt,
      userAgent: sql<string>`coalesce(${sessions.userAgent}, '')`,
      open: sql<boolean>`coalesce(${sessions.revokedAt} IS NULL AND ${sessions.expiresAt} > now(), false)`,
    })
    .from(loginAttempts)
    .leftJoin(sessions, and(eq(sessions.userId, loginAttempts.userId), eq(sessions.createdAt, loginAttempts.createdAt), eq(loginAttempts.success, true)))
    .$dynamic();
  return newestPage(tx, select, loginAttempts, cond, limit, offset);
}
