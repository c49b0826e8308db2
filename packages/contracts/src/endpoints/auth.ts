import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num, phoneSchema } from '../input.ts';
import { PageQuery, wireTime, wireTimeOrNull } from '../query.ts';

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

/** 个人中心: the own name and phone (the username, role and company are set by an administrator). */
export const ProfileBody = z.object({
  realName: z.string({ error: '请输入姓名' }).trim().min(1, '请输入姓名').max(64, '姓名最多 64 个字'),
  phone: phoneSchema('手机号码', true).default(''),
});
export const ProfileRow = z.object({
  username: z.string(),
  realName: z.string(),
  phone: z.string(),
  lastLoginAt: wireTimeOrNull,
  passwordChangedAt: wireTimeOrNull,
  createdAt: wireTime,
});
export const LoginLogQuery = PageQuery.extend({
  /** only successes (1) or only failures (0) */
  success: num(z.number().int().min(0, '登录结果无效').max(1, '登录结果无效'), '登录结果无效').optional(),
});
/** One login attempt of the signed-in user (login_attempts), with the session it opened. */
export const LoginLogRow = z.object({
  id: z.number(),
  success: z.boolean(),
  /** why a failure failed, in Chinese ('' for a success) */
  reasonText: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: wireTime,
  /** a success whose session is still open */
  current: z.boolean(),
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
  profile: endpoint({ method: 'GET', path: '/yonghu/api/admin/user/profile', summary: '个人信息', perm: {}, response: ProfileRow, tags }),
  saveProfile: endpoint({
    method: 'PUT', path: '/yonghu/api/admin/user/profile', summary: '修改个人信息', action: '修改个人信息', perm: {}, body: ProfileBody, response: ProfileRow, tags,
  }),
  loginLog: endpoint({
    method: 'GET', path: '/yonghu/api/admin/user/loginLog', summary: '本人登录记录', perm: {}, query: LoginLogQuery, response: LoginLogRow, paged: true, tags,
  }),
  changePassword: endpoint({ method: 'PUT', path: '/yonghu/api/admin/user/changePassword', summary: '修改密码', perm: {}, body: ChangePasswordBody, tags }),
};

export type LoginInput = z.input<typeof LoginBody>;
export type RoleInfo = z.output<typeof RoleInfoRow>;
export type Profile = z.output<typeof ProfileRow>;
export type LoginLog = z.output<typeof LoginLogRow>;
