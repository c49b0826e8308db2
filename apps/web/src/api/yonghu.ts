// Auth and admin calls (/yonghu/api): login, session info, admin users, roles, audit log.
import type { AdminUserInput, AdminUserUpdateInput, LoginInput, ManagerInput, RoleInput } from '@meter/contracts';
import type { Paged } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export interface PageQuery {
  index: number;
  size: number;
  [k: string]: unknown;
}

export const authApi = {
  login: (body: LoginInput) => call(E.auth.login, { body }),
  logout: () => call(E.auth.logout, {}, { silent: true }),
  /** refresh the session info (same as LoginResult without the token) */
  sessionInfo: () => call(E.auth.session),
  role: () => call(E.auth.role),
  loginCodeRequired: (username: string) => call(E.auth.loginCode, { query: { username } }, { silent: true }),
  /** lock screen: check the login password on the server (code PASSWORD_WRONG → 密码错误) */
  unlock: (password: string) => call(E.auth.unlock, { body: { password } }, { silent: true }),
  changePassword: (oldPassword: string, newPassword: string) => call(E.auth.changePassword, { body: { oldPassword, newPassword } }),
};

export const userApi = {
  list: (q: PageQuery) => call(E.admin.userList, { query: q }),
  get: (id: number) => call(E.admin.user, { query: { id } }),
  create: (body: AdminUserInput) => call(E.admin.createUser, { body }),
  update: (id: number, body: AdminUserUpdateInput) => call(E.admin.updateUser, { query: { id }, body }),
  remove: (id: number) => call(E.admin.deleteUser, { query: { id } }),
  resetPassword: (id: number) => call(E.admin.resetPassword, { body: { id } }),
  createManager: (body: ManagerInput) => call(E.admin.createManager, { body }),
  updateManager: (body: ManagerInput) => call(E.admin.updateManager, { body }),
};

export const roleApi = {
  list: (q: PageQuery) => call(E.admin.roleList, { query: q }),
  get: (id: number) => call(E.admin.role, { query: { id } }),
  create: (body: RoleInput) => call(E.admin.createRole, { body }),
  update: (id: number, body: RoleInput) => call(E.admin.updateRole, { query: { id }, body }),
  remove: (id: number) => call(E.admin.deleteRole, { query: { id } }),
};

export const logApi = {
  list: (q: PageQuery) => call(E.system.auditLog, { query: q }),
};

export const jobsApi = {
  list: () => call(E.system.jobs),
};

export type { Paged };
export type { AdminUser, AuditLog, LoginInput, Role, RoleInfo, ScheduledJob } from '@meter/contracts';
export type { AdminUserInput as AdminUserBody, ManagerInput as ManagerBody, RoleInput as RoleBody } from '@meter/contracts';
