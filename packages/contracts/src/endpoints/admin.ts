import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num, phoneSchema } from '../input.ts';
import { OPERATION_KEYS } from '../permissions.ts';
import { IdQuery, optText, PageQuery, wireTime, wireTimeOrNull, optionalRef } from '../query.ts';
import { ROUTE_BY_KEY } from '../routes.ts';
import { NewPassword } from './auth.ts';

// 账号与角色 (/yonghu/api/admin): the company's staff accounts (/systemRecords), its roles (/systemRole)
// and, for the platform, the companies' manager accounts (/administrator) (SPEC §6).

const tags = ['账号与角色'];

const username = z.string().trim().regex(/^[A-Za-z0-9_.@-]{3,32}$/, '用户名须为 3–32 位字母、数字或 _.@-');
const phone = phoneSchema('手机号', true).default('');
const realName = z.string().trim().max(32, '姓名最多 32 个字').default('');
const status = z.union([z.literal(0), z.literal(1)]);

export const UserListQuery = PageQuery.extend({
  username: optText(),
  realName: optText(),
  companyId: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

export const UserCreateBody = z.object({
  username,
  realName,
  phone,
  password: NewPassword,
  roleId: num(z.number().int().positive()).nullable().optional(),
  status: status.default(1),
});
/** PUT user: changes only what it names (a missing role is kept, not removed). */
export const UserUpdateBody = z.object({
  realName: z.string().trim().max(32, '姓名最多 32 个字').optional(),
  phone: phoneSchema('手机号', true).optional(),
  roleId: num(z.number().int().positive()).nullable().optional(),
  status: status.optional(),
});

export const ManagerBody = z.object({
  id: num(z.number().int().positive()).optional(),
  companyId: num(z.number().int().positive()),
  username,
  realName,
  phone,
  password: NewPassword.optional(),
  status: status.default(1),
});

export const ResetPasswordBody = z.object({ id: num(z.number().int().positive()) });

export const RoleListQuery = PageQuery.extend({ name: optText(), searchCompanyID: num(z.number().int().positive()).optional() });

const roleName = z.string().trim().min(1, '请输入角色名称').max(32, '角色名称最多 32 个字');
const roleMemo = z.string().trim().max(200, '备注最多 200 个字');
const roleRoutes = z
  .array(z.string().max(64))
  .max(200)
  .refine((a) => a.every((k) => ROUTE_BY_KEY[k] && ROUTE_BY_KEY[k].access !== 0), '包含无效或不可分配的页面');
const roleOperations = z
  .array(z.string().max(64))
  .max(200)
  .refine((a) => a.every((k) => OPERATION_KEYS.includes(k)), '包含无效的操作权限');

export const RoleBody = z.object({
  name: roleName,
  memo: roleMemo.default(''),
  routes: roleRoutes.default([]),
  operations: roleOperations.default([]),
});

/** PUT role: changes only what it names (a missing field is kept, not emptied). */
export const RoleUpdateBody = z.object({
  name: roleName.optional(),
  memo: roleMemo.optional(),
  routes: roleRoutes.optional(),
  operations: roleOperations.optional(),
});

/** An account as the lists and the detail show it (with its company's and role's names). */
export const AdminUserRow = z.object({
  id: z.number(),
  username: z.string(),
  realName: z.string(),
  phone: z.string(),
  ...optionalRef('company'),
  ...optionalRef('role'),
  /** 0 platform, 1 company */
  access: z.number(),
  /** 1 启用, 0 禁用 */
  status: z.number(),
  lastLoginAt: wireTimeOrNull,
  createdAt: wireTime,
});

export const RoleRow = z.object({
  id: z.number(),
  companyId: z.number().nullable(),
  name: z.string(),
  memo: z.string(),
  access: z.number(),
  routes: z.array(z.string()),
  operations: z.array(z.string()),
  /** the company's built-in 管理员 role: not deletable, keeps the account and role pages */
  builtin: z.boolean(),
  createdAt: wireTime,
  updatedAt: wireTime,
});

const Created = z.object({ id: z.number() });

const users = { routes: ['systemRecords', 'administrator'] };
const roles = { routes: ['systemRole'] };
const platform = { access: 0 as const, routes: ['administrator'] };
const U = '/yonghu/api/admin/user';
const R = '/yonghu/api/admin/role';

export const adminEndpoints = {
  userList: endpoint({ method: 'GET', path: `${U}/list`, summary: '账号列表', perm: users, query: UserListQuery, response: AdminUserRow, paged: true, tags }),
  user: endpoint({ method: 'GET', path: U, summary: '账号详情', perm: users, query: IdQuery, response: AdminUserRow, tags }),
  createUser: endpoint({ method: 'POST', path: U, summary: '新增账号', perm: users, body: UserCreateBody, response: Created, tags }),
  updateUser: endpoint({ method: 'PUT', path: U, summary: '编辑账号', perm: users, query: IdQuery, body: UserUpdateBody, response: z.null(), tags }),
  deleteUser: endpoint({ method: 'DELETE', path: U, summary: '删除账号', perm: users, query: IdQuery, response: z.null(), tags }),
  resetPassword: endpoint({
    method: 'PUT', path: `${U}/resetPassword`, summary: '重置密码', perm: users, body: ResetPasswordBody,
    response: z.object({ password: z.string() }), tags,
  }),
  createManager: endpoint({ method: 'POST', path: '/yonghu/api/admin/manager/user', summary: '新增单位管理员', perm: platform, body: ManagerBody, response: Created, tags }),
  updateManager: endpoint({ method: 'PUT', path: '/yonghu/api/admin/manager/user', summary: '编辑单位管理员', perm: platform, body: ManagerBody, response: Created, tags }),

  roleList: endpoint({ method: 'GET', path: `${R}/list`, summary: '角色列表', perm: roles, query: RoleListQuery, response: RoleRow, paged: true, tags }),
  role: endpoint({ method: 'GET', path: R, summary: '角色详情', perm: roles, query: IdQuery, response: RoleRow, tags }),
  createRole: endpoint({ method: 'POST', path: R, summary: '新增角色', perm: roles, body: RoleBody, response: Created, tags }),
  updateRole: endpoint({ method: 'PUT', path: R, summary: '编辑角色', perm: roles, query: IdQuery, body: RoleUpdateBody, response: z.null(), tags }),
  deleteRole: endpoint({ method: 'DELETE', path: R, summary: '删除角色', perm: roles, query: IdQuery, response: z.null(), tags }),
};

export type AdminUser = z.output<typeof AdminUserRow>;
export type Role = z.output<typeof RoleRow>;
export type AdminUserInput = z.input<typeof UserCreateBody>;
export type AdminUserUpdateInput = z.input<typeof UserUpdateBody>;
export type ManagerInput = z.input<typeof ManagerBody>;
export type RoleInput = z.input<typeof RoleBody>;
