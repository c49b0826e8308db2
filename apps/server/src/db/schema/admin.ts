import { index, integer, jsonb, pgTable, text, varchar, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { id, ref, createdAt, timestamps, ts, memo, clientIp, sessionLife, blank, blankText, rowName, inUse } from './common.ts';
import { companies } from './company.ts';

/** 角色: a route list and operation keys (SPEC §3). company_id NULL = a platform role. */
export const roles = pgTable('roles', {
  id: id(),
  companyId: ref('company_id').references(() => companies.id),
  name: rowName(),
  memo: memo(),
  /** 0 platform, 1 company */
  access: integer('access').notNull().default(1),
  routes: text('routes').array().notNull().default([]),
  operations: text('operations').array().notNull().default([]),
  builtin: boolean('builtin').notNull().default(false),
  ...timestamps(),
}, (t) => [uniqueIndex('roles_company_name').on(t.companyId, t.name)]);

/** 管理员账号: platform admins (company_id NULL, access 0) and company staff. */
export const adminUsers = pgTable('admin_users', {
  id: id(),
  companyId: ref('company_id').references(() => companies.id),
  username: varchar('username', { length: 64 }).notNull().unique(),
  realName: blank('real_name', 64),
  phone: blank('phone', 20),
  passwordHash: text('password_hash').notNull(),
  roleId: ref('role_id').references(() => roles.id),
  access: integer('access').notNull().default(1),
  userType: integer('user_type').notNull().default(1),
  /** 1 启用, 0 禁用 */
  status: inUse(),
  failedCount: integer('failed_count').notNull().default(0),
  lockedUntil: ts('locked_until'),
  lastLoginAt: ts('last_login_at'),
  passwordChangedAt: ts('password_changed_at'),
  ...timestamps(),
}, (t) => [index('admin_users_company').on(t.companyId)]);

/** Sessions: only the SHA-256 of the token is stored. */
export const sessions = pgTable('sessions', {
  id: id(),
  tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
  userId: ref('user_id').notNull().references(() => adminUsers.id, { onDelete: 'cascade' }),
  companyId: ref('company_id'),
  ...sessionLife(),
  revokedReason: varchar('revoked_reason', { length: 32 }),
}, (t) => [index('sessions_user').on(t.userId)]);

/** Every login attempt, for lockout and the hourly failure cap. */
export const loginAttempts = pgTable('login_attempts', {
  id: id(),
  username: varchar('username', { length: 64 }).notNull(),
  userId: ref('user_id'),
  success: boolean('success').notNull(),
  reason: blank('reason', 32),
  ip: clientIp(),
  createdAt: createdAt(),
}, (t) => [index('login_attempts_user_time').on(t.userId, t.createdAt)]);

/** Areas bound to an admin user: the user sees only these areas and what lies below them. */
export const userAreas = pgTable('user_areas', {
  userId: ref('user_id').notNull().references(() => adminUsers.id, { onDelete: 'cascade' }),
  areaId: ref('area_id').notNull(),
  companyId: ref('company_id').notNull(),
}, (t) => [uniqueIndex('user_areas_pk').on(t.userId, t.areaId)]);

/** 操作日志: append-only; the app role may only INSERT and SELECT. */
export const auditLog = pgTable('audit_log', {
  id: id(),
  companyId: ref('company_id'),
  userId: ref('user_id'),
  username: blank('username', 64),
  method: varchar('method', { length: 8 }).notNull(),
  path: text('path').notNull(),
  action: blankText('action'),
  target: blankText('target'),
  ip: clientIp(),
  status: integer('status').notNull().default(0),
  code: blank('code', 48),
  detail: jsonb('detail'),
  createdAt: createdAt(),
}, (t) => [index('audit_log_company_time').on(t.companyId, t.createdAt)]);

