// Auth and admin calls (/yonghu/api): login, session info, admin users, roles, audit log.
import type { LoginInput } from '@meter/contracts';
import { http, request, type Paged } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

const P = '/yonghu/api';

export interface AdminUser {
  id: number;
  username: string;
  realName: string;
  phone: string;
  companyId: number | null;
  companyName?: string | null;
  roleId: number | null;
  roleName?: string | null;
  access: number;
  /** 1 启用, 0 禁用 */
  status: number;
  lastLoginAt?: string | null;
  createdAt?: string;
}

export interface AdminUserBody {
  username: string;
  realName: string;
  phone?: string;
  password?: string;
  roleId?: number | null;
  status: number;
}

export interface ManagerBody {
  id?: number;
  companyId: number;
  username: string;
  realName: string;
  phone?: string;
  password?: string;
}

export interface Role {
  id: number;
  name: string;
  memo: string;
  access: number;
  routes: string[];
  operations: string[];
  companyId: number | null;
  createdAt?: string;
}

export interface RoleBody {
  name: string;
  memo: string;
  routes: string[];
  operations: string[];
}

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
  list: (q: PageQuery) => http.page<AdminUser>(`${P}/admin/user/list`, q),
  get: (id: number) => http.get<AdminUser>(`${P}/admin/user`, { id }),
  create: (body: AdminUserBody) => http.post<AdminUser>(`${P}/admin/user`, body),
  update: (id: number, body: Omit<AdminUserBody, 'password'>) => request<AdminUser>('PUT', `${P}/admin/user`, { params: { id }, data: body }),
  remove: (id: number) => request<unknown>('DELETE', `${P}/admin/user`, { params: { id } }),
  resetPassword: (id: number) => http.put<{ password: string }>(`${P}/admin/user/resetPassword`, { id }),
  createManager: (body: ManagerBody) => http.post<AdminUser>(`${P}/admin/manager/user`, body),
  updateManager: (body: ManagerBody) => http.put<AdminUser>(`${P}/admin/manager/user`, body),
};

export const roleApi = {
  list: (q: PageQuery) => http.page<Role>(`${P}/admin/role/list`, q),
  get: (id: number) => http.get<Role>(`${P}/admin/role`, { id }),
  create: (body: RoleBody) => http.post<Role>(`${P}/admin/role`, body),
  update: (id: number, body: RoleBody) => request<Role>('PUT', `${P}/admin/role`, { params: { id }, data: body }),
  remove: (id: number) => request<unknown>('DELETE', `${P}/admin/role`, { params: { id } }),
};

export const logApi = {
  list: (q: PageQuery) => call(E.system.auditLog, { query: q }),
};

export const jobsApi = {
  list: () => call(E.system.jobs),
};

export type { Paged };
export type { AuditLog, LoginInput, RoleInfo, ScheduledJob } from '@meter/contracts';
