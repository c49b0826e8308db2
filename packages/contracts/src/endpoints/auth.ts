import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

// 认证 (/yonghu/api): login, the session's info, the lock screen and the own password (SPEC §7 Auth).

const tags = ['认证'];

export const LoginBody = z.object({
  username: z.string().trim().min(1, '请输入用户名').max(64),
  password: z.string().min(1, '请输入密码').max(128),
  /** only when admin/user/LoginCode says a code is required */
  code: z.string().max(16).optional(),
});

/** 8–64 characters with at least a letter and a digit. */
export const NewPassword = z
  .string()
  .min(8, '密码至少 8 位')
  .max(64, '密码最多 64 位')
  .regex(/[A-Za-z]/, '密码须包含字母')
  .regex(/\d/, '密码须包含数字');

export const ChangePasswordBody = z.object({
  oldPassword: z.string().min(1, '请输入原密码').max(128),
  newPassword: NewPassword,
});

export const UnlockBody = z.object({ password: z.string().min(1, '请输入密码').max(128) });
export const LoginCodeQuery = z.object({ username: z.string().trim().min(1, '请输入用户名').max(64) });

export const SessionUserRow = z.object({
  id: z.number(),
  username: z.string(),
  realName: z.string(),
  companyId: z.number().nullable(),
  roleId: z.number().nullable(),
  userType: z.number(),
});
export const SessionCompanyRow = z.object({
  id: z.number(),
  name: z.string(),
  bankType: z.number(),
  /** 0 智能水电表物联网管理平台, 1 智慧市场管理平台 (the branded edition) */
  edition: z.number(),
});
/** The session's info (login answers it with the token). */
export const SessionInfoRow = z.object({
  user: SessionUserRow,
  access: z.number(),
  routes: z.array(z.string()),
  operations: z.array(z.string()),
  company: SessionCompanyRow.nullable(),
});
export const LoginResultRow = SessionInfoRow.extend({ token: z.string() });
export const RoleInfoRow = z.object({
  access: z.number(),
  routes: z.array(z.string()),
  operations: z.array(z.string()),
  roleName: z.string(),
});

export const authEndpoints = {
  login: endpoint({ method: 'POST', path: '/yonghu/api/admin/login', summary: '登录', perm: false, body: LoginBody, response: LoginResultRow, tags }),
  logout: endpoint({ method: 'POST', path: '/yonghu/api/logout', summary: '退出登录', perm: {}, tags }),
  session: endpoint({ method: 'GET', path: '/yonghu/api/admin/user/token', summary: '当前会话信息', perm: {}, response: SessionInfoRow, tags }),
  role: endpoint({ method: 'GET', path: '/yonghu/api/admin/user/role', summary: '当前用户角色与权限', perm: {}, response: RoleInfoRow, tags }),
  loginCode: endpoint({
    method: 'GET', path: '/yonghu/api/admin/user/LoginCode', summary: '是否需要登录验证码', perm: false, query: LoginCodeQuery,
    response: z.object({ required: z.boolean() }), tags,
  }),
  unlock: endpoint({
    method: 'POST', path: '/yonghu/api/admin/user/unlock', summary: '解锁屏幕（校验登录密码）', perm: {}, body: UnlockBody, action: '解锁屏幕',
    response: z.null(), tags,
  }),
  changePassword: endpoint({ method: 'PUT', path: '/yonghu/api/admin/user/changePassword', summary: '修改密码', perm: {}, body: ChangePasswordBody, tags }),
};

export type LoginInput = z.input<typeof LoginBody>;
export type RoleInfo = z.output<typeof RoleInfoRow>;
