import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { newestPage, remove, update } from '../../db/crud-repo.ts';
import { adminUsers, companies, roles } from '../../db/schema/index.ts';

// Admin users and roles. Row-level security limits every statement to the scope's company.

const userColumns = {
  id: adminUsers.id,
  username: adminUsers.username,
  realName: adminUsers.realName,
  phone: adminUsers.phone,
  companyId: adminUsers.companyId,
  companyName: companies.name,
  roleId: adminUsers.roleId,
  roleName: roles.name,
  access: adminUsers.access,
  status: adminUsers.status,
  lastLoginAt: adminUsers.lastLoginAt,
  createdAt: adminUsers.createdAt,
};

export async function listUsers(
  tx: Tx,
  f: { username?: string; realName?: string; companyId?: number; managersOnly?: boolean },
  limit: number,
  offset: number,
) {
  const where: SQL[] = [];
  if (f.username) where.push(ilike(adminUsers.username, `%${f.username}%`));
  if (f.realName) where.push(ilike(adminUsers.realName, `%${f.realName}%`));
  if (f.companyId) where.push(eq(adminUsers.companyId, f.companyId));
  if (f.managersOnly) where.push(sql`(${adminUsers.companyId} IS NULL OR ${roles.builtin})`);
  const cond = where.length ? and(...where) : undefined;
  const base = () =>
    tx.select(userColumns).from(adminUsers).leftJoin(companies, eq(companies.id, adminUsers.companyId)).leftJoin(roles, eq(roles.id, adminUsers.roleId));
  const rows = await base().where(cond).orderBy(desc(adminUsers.id)).limit(limit).offset(offset);
  const [c] = await tx
    .select({ n: count() })
    .from(adminUsers)
    .leftJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(cond);
  return { rows, count: c.n };
}

export async function getUser(tx: Tx, id: number) {
  const [r] = await tx
    .select(userColumns)
    .from(adminUsers)
    .leftJoin(companies, eq(companies.id, adminUsers.companyId))
    .leftJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(eq(adminUsers.id, id));
  return r;
}

export async function usernameTaken(tx: Tx, username: string) {
  // usernames are unique across the platform; the check runs in the system scope
  const [r] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, username));
  return r?.id;
}

/** serialises the first-administrator check of processes starting together (released at commit) */
export async function lockAdminBootstrap(tx: Tx) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(724002)`);
}

/** whether any platform administrator (access 0) exists — a fresh production database has none */
export async function platformAdminExists(tx: Tx) {
  const [r] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.access, 0)).limit(1);
  return r !== undefined;
}

export async function insertUser(tx: Tx, v: typeof adminUsers.$inferInsert) {
  const [r] = await tx.insert(adminUsers).values(v).returning({ id: adminUsers.id });
  return r.id;
}

export async function updateUser(tx: Tx, id: number, v: Partial<typeof adminUsers.$inferInsert>) {
  const r = await tx
    .update(adminUsers)
    .set({ ...v, updatedAt: sql`now()` })
    .where(eq(adminUsers.id, id))
    .returning({ id: adminUsers.id });
  return r.length > 0;
}

export async function deleteUser(tx: Tx, id: number) {
  const r = await tx.delete(adminUsers).where(eq(adminUsers.id, id)).returning({ id: adminUsers.id });
  return r.length > 0;
}

export async function listRoles(tx: Tx, f: { name?: string }, limit: number, offset: number) {
  const cond = f.name ? ilike(roles.name, `%${f.name}%`) : undefined;
  return newestPage(tx, tx.select().from(roles).$dynamic(), roles, cond, limit, offset);
}

export async function getRole(tx: Tx, id: number) {
  const [r] = await tx.select().from(roles).where(eq(roles.id, id));
  return r;
}

export async function builtinRole(tx: Tx, companyId: number) {
  const [r] = await tx.select().from(roles).where(and(eq(roles.companyId, companyId), eq(roles.builtin, true)));
  return r;
}

export async function insertRole(tx: Tx, v: typeof roles.$inferInsert) {
  const [r] = await tx.insert(roles).values(v).returning({ id: roles.id });
  return r.id;
}

export function updateRole(tx: Tx, id: number, v: Partial<typeof roles.$inferInsert>) {
  return update(tx, roles, id, v);
}

export async function deleteRole(tx: Tx, id: number) {
  return (await remove(tx, roles, [id])).length > 0;
}

export async function usersWithRole(tx: Tx, roleId: number) {
  const [c] = await tx.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, roleId));
  return c.n;
}

export async function companyExists(tx: Tx, id: number) {
  const [r] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
  return !!r;
}
