import { ROUTES, OPERATION_KEYS } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import { companyOf, isPlatform, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { conflict, found, notFound, refuse } from '../../http/errors.ts';
import { offsetOf, type PageQuery } from '../../http/paging.ts';
import { hashPassword, randomPassword, resetPasswordPair, revokeUserSessions } from '../auth/index.ts';
import * as repo from './repo.ts';
import type { z } from 'zod';
import type { ManagerBody, RoleBody, RoleUpdateBody, UserCreateBody, UserUpdateBody } from '@meter/contracts';
import { ADMIN_ROUTES } from './schema.ts';

// Admin users and roles (SPEC §6). Company staff manage their own company's accounts and roles;
// platform admins manage company manager accounts (/administrator) and act inside a company with
// searchCompanyID.

async function assertUsernameFree(ctx: Ctx, username: string, exceptId?: number) {
  const taken = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.usernameTaken(tx, username));
  if (taken && taken !== exceptId) throw conflict(`用户名「${username}」已被使用`);
}

async function assertRoleUsable(ctx: Ctx, roleId: number | null | undefined, companyId: number | null) {
  if (roleId == null) return;
  const role = await ctx.tx((tx) => repo.getRole(tx, roleId));
  if (!role || role.companyId !== companyId) throw refuse('ROLE_INVALID', '所选角色不存在或不属于本单位');
}

export async function listUsers(ctx: Ctx, q: PageQuery & { username?: string; realName?: string; companyId?: number }) {
  const r = await ctx.tx((tx) =>
    repo.listUsers(tx, { ...q, managersOnly: isPlatform(ctx.user) && ctx.scope.allCompanies }, q.size, offsetOf(q)),
  );
  return new Page(r.rows, r.count);
}

export async function getUser(ctx: Ctx, id: number) {
  return found(await ctx.tx((tx) => repo.getUser(tx, id)), '账号');
}

export async function createUser(ctx: Ctx, b: z.output<typeof UserCreateBody>) {
  // a platform admin outside any company creates another platform admin
  const platformAdmin = isPlatform(ctx.user) && ctx.scope.companyId == null;
  const companyId = platformAdmin ? null : companyOf(ctx);
  await assertUsernameFree(ctx, b.username);
  await assertRoleUsable(ctx, b.roleId, companyId);
  const passwordHash = await hashPassword(b.password);
  ctx.audit.target = `账号 ${b.username}`;
  const id = await ctx.tx((tx) =>
    repo.insertUser(tx, {
      companyId,
      username: b.username,
      realName: b.realName,
      phone: b.phone,
      passwordHash,
      roleId: platformAdmin ? null : (b.roleId ?? null),
      access: platformAdmin ? 0 : 1,
      status: b.status,
    }),
  );
  return { id };
}

export async function updateUser(ctx: Ctx, id: number, b: z.output<typeof UserUpdateBody>) {
  const u = await getUser(ctx, id);
  if (id === ctx.user.id && b.status === 0) throw refuse('SELF_DISABLE', '不能禁用当前登录的账号');
  if (id === ctx.user.id && b.roleId !== undefined && (b.roleId ?? null) !== u.roleId) throw refuse('SELF_ROLE', '不能修改自己账号的角色');
  await assertRoleUsable(ctx, b.roleId, u.companyId);
  ctx.audit.target = `账号 ${u.username}`;
  await ctx.tx(async (tx) => {
    const v = { realName: b.realName, phone: b.phone, roleId: u.access === 0 ? undefined : b.roleId, status: b.status };
    await repo.updateUser(tx, id, Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)));
    if (b.status === 0) await revokeUserSessions(tx, id, 'disabled');
  });
  return null;
}

export async function deleteUser(ctx: Ctx, id: number) {
  if (id === ctx.user.id) throw refuse('SELF_DELETE', '不能删除当前登录的账号');
  const u = await getUser(ctx, id);
  ctx.audit.target = `账号 ${u.username}`;
  await ctx.tx((tx) => repo.deleteUser(tx, id));
  return null;
}

export async function resetPassword(ctx: Ctx, id: number) {
  const u = await getUser(ctx, id);
  const { password, hash } = await resetPasswordPair();
  ctx.audit.target = `账号 ${u.username}`;
  await ctx.tx(async (tx) => {
    await repo.updateUser(tx, id, { passwordHash: hash, passwordChangedAt: new Date(), failedCount: 0, lockedUntil: null });
    await revokeUserSessions(tx, id, 'reset');
  });
  return { password };
}

/** Platform admin: create or update the manager account of a company (its built-in 管理员 role). */
export async function saveManager(ctx: Ctx, b: z.output<typeof ManagerBody>) {
  const exists = await ctx.tx((tx) => repo.companyExists(tx, b.companyId));
  if (!exists) throw notFound('单位');
  await assertUsernameFree(ctx, b.username, b.id);
  ctx.audit.target = `单位 ${b.companyId} 管理员 ${b.username}`;
  const scope = { ...ctx.scope, companyId: b.companyId, allCompanies: false };
  return ctx.db.tx(scope, async (tx) => {
    const role = await repo.builtinRole(tx, b.companyId);
    const roleId =
      role?.id ??
      (await repo.insertRole(tx, {
        companyId: b.companyId,
        name: '管理员',
        memo: '单位管理员（内置）',
        access: 1,
        builtin: true,
        routes: ROUTES.filter((r) => r.access === undefined).map((r) => r.key),
        operations: [...OPERATION_KEYS],
      }));
    if (b.id) {
      const u = await repo.getUser(tx, b.id);
      if (!u || u.companyId !== b.companyId) throw notFound('账号');
      await repo.updateUser(tx, b.id, {
        username: b.username,
        realName: b.realName,
        phone: b.phone,
        status: b.status,
        ...(b.password ? { passwordHash: await hashPassword(b.password), passwordChangedAt: new Date() } : {}),
      });
      if (b.status === 0 || b.password) await revokeUserSessions(tx, b.id, b.password ? 'reset' : 'disabled');
      return { id: b.id };
    }
    if (!b.password) throw refuse('PASSWORD_REQUIRED', '新建账号须设置密码');
    const id = await repo.insertUser(tx, {
      companyId: b.companyId,
      username: b.username,
      realName: b.realName,
      phone: b.phone,
      passwordHash: await hashPassword(b.password),
      roleId,
      access: 1,
      status: b.status,
    });
    return { id };
  });
}

export async function listRoles(ctx: Ctx, q: PageQuery & { name?: string }) {
  const r = await ctx.tx((tx) => repo.listRoles(tx, q, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

export async function getRole(ctx: Ctx, id: number) {
  return found(await ctx.tx((tx) => repo.getRole(tx, id)), '角色');
}

export async function createRole(ctx: Ctx, b: z.output<typeof RoleBody>) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `角色 ${b.name}`;
  const id = await ctx.tx((tx) => repo.insertRole(tx, { ...b, companyId, access: 1 }));
  return { id };
}

export async function updateRole(ctx: Ctx, id: number, b: z.output<typeof RoleUpdateBody>) {
  const role = await getRole(ctx, id);
  ctx.audit.target = `角色 ${role.name}`;
  const grants = b.routes !== undefined || b.operations !== undefined;
  if (grants && id === ctx.user.roleId) throw refuse('SELF_ROLE', '不能修改自己所属角色的权限');
  if (role.builtin && b.routes && ADMIN_ROUTES.some((k) => !b.routes!.includes(k))) {
    throw refuse('ROLE_BUILTIN', '内置管理员角色须保留角色管理与账号管理权限');
  }
  const values = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length > 0) await ctx.tx((tx) => repo.updateRole(tx, id, values));
  return null;
}

export async function deleteRole(ctx: Ctx, id: number) {
  const role = await getRole(ctx, id);
  if (role.builtin) throw refuse('ROLE_BUILTIN', '内置角色不能删除');
  ctx.audit.target = `角色 ${role.name}`;
  await ctx.tx(async (tx) => {
    const n = await repo.usersWithRole(tx, id);
    if (n > 0) throw conflict(`该角色已分配给 ${n} 个账号，不能删除`);
    await repo.deleteRole(tx, id);
  });
  return null;
}

/**
 * A database without demo data (SEED_DEMO=0) must still let someone sign in: when no platform
 * administrator exists, one is made — with INITIAL_ADMIN_PASSWORD, or a random password that the
 * caller shows once. Runs under an advisory lock (two starting processes make one account).
 */
export async function ensurePlatformAdmin(db: Db, o: { username: string; password?: string }): Promise<{ username: string; password?: string } | undefined> {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    await repo.lockAdminBootstrap(tx);
    if (await repo.platformAdminExists(tx)) return undefined;
    const password = o.password ?? randomPassword();
    await repo.insertUser(tx, { username: o.username, realName: '平台管理员', passwordHash: await hashPassword(password), access: 0, userType: 0 });
    return { username: o.username, ...(o.password ? {} : { password }) };
  });
}
