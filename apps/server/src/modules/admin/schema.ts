import { z } from 'zod';
import { OPERATION_KEYS, ROUTE_BY_KEY, num, phoneSchema } from '@meter/contracts';
import { PageQuery, optText } from '../../http/paging.ts';
import { NewPassword } from '@meter/contracts';

const username = z.string().trim().regex(/^[A-Za-z0-9_.@-]{3,32}$/, '用户名须为 3–32 位字母、数字或 _.@-');
const phone = phoneSchema('手机号', true).default('');
const realName = z.string().trim().max(32, '姓名最多 32 个字').default('');

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
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
/** PUT user: changes only what it names (a missing role is kept, not removed). */
export const UserUpdateBody = z.object({
  realName: z.string().trim().max(32, '姓名最多 32 个字').optional(),
  phone: phoneSchema('手机号', true).optional(),
  roleId: num(z.number().int().positive()).nullable().optional(),
  status: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const ManagerBody = z.object({
  id: num(z.number().int().positive()).optional(),
  companyId: num(z.number().int().positive()),
  username,
  realName,
  phone,
  password: NewPassword.optional(),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
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

/** The pages without which nobody of a company can manage its accounts and roles. */
export const ADMIN_ROUTES = ['systemRole', 'systemRecords'];
