// Auth and admin calls (/yonghu/api): login, session info, admin users, roles, audit log.
import type { LoginResult } from '@meter/contracts';
import { http, request, type Paged } from './request.ts';
import type { SessionInfo } from '../app/session.ts';

const P = '/yonghu/api';

export interface LoginBody {
  username: string;
  password: string;
  /** only when admin/user/LoginCode says a code is required */
  code?: string;
}

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

export interface RoleInfo {
  access: number;
  routes: string[];
  operations: string[];
  roleName: string;
}

export interface AuditLog {
  id: number;
  createdAt: string;
  username: string;
  method: string;
  path: string;
  action: string;
  target: string;
  ip: string;
}

export interface PageQuery {
  index: number;
  size: number;
  [k: string]: unknown;
}

export const authApi = {
  login: (body: LoginBody) => http.post<LoginResult>(`${P}/admin/login`, body),
  logout: () => http.post<unknown>(`${P}/logout`, undefined, { silent: true }),
  /** refresh the session info (same as LoginResult without the token) */
  sessionInfo: () => http.get<SessionInfo>(`${P}/admin/user/token`),
  role: () => http.get<RoleInfo>(`${P}/admin/user/role`),
  loginCodeRequired: (username: string) =>
    http.get<{ required: boolean }>(`${P}/admin/user/LoginCode`, { username }, { silent: true }),
  /** lock screen: check the login password on the server (code PASSWORD_WRONG → 密码错误) */
  unlock: (password: string) => http.post<unknown>(`${P}/admin/user/unlock`, { password }, { silent: true }),
};

export const userApi = {
  list: (q: PageQuery) => http.page<AdminUser>(`${P}/admin/user/list`, q),
  get: (id: number) => http.get<AdminUser>(`${P}/admin/user`, { id }),
  create: (body: AdminUserBody) => http.post<AdminUser>(`${P}/admin/user`, body),
  update: (id: number, body: Omit<AdminUserBody, 'password'>) => request<AdminUser>('PUT', `${P}/admin/user`, { params: { id }, data: body }),
  remove: (id: number) => request<unknown>('DELETE', `${P}/admin/user`, { params: { id } }),
  changePassword: (oldPassword: string, newPassword: string) =>
    http.put<unknown>(`${P}/admin/user/changePassword`, { oldPassword, newPassword }),
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
  list: (q: PageQuery) => http.page<AuditLog>(`${P}/admin/log/list`, q),
};

/** A timed job of the server (the scheduler's record, GET system/jobs; platform administrators). */
export interface ScheduledJob {
  name: string;
  label: string;
  role: string;
  roleText: string;
  everyMs: number;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastDurationMs: number | null;
  lastOk: boolean | null;
  lastError: string;
  lastErrorAt: string | null;
  nextRunAt: string | null;
  runs: number;
  failures: number;
  host: string;
  state: 'ok' | 'failed' | 'overdue';
  stateText: string;
}

export const jobsApi = {
  list: () => http.get<ScheduledJob[]>(`${P}/system/jobs`),
};

export type { Paged };
