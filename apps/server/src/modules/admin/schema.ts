import { z } from 'zod';
import { OPERATION_KEYS, ROUTE_BY_KEY } from '@meter/contracts';
import { PageQuery, optText } from '../../http/paging.ts';
import { NewPassword } from '../auth/index.ts';

const username = z.string().trim().regex(/^[A-Za-z0-9_.@-]{3,32}$/, '用户名须为 3–32 位字母、数字或 _.@-');
const phone = z.union([z.literal(''), z.string().trim().regex(/^1[3-9]\d{9}$/, '请输入正确的手机号码')]).default('');
const realName = z.string().trim().max(32, '姓名最多 32 个字').default('');

export const UserListQuery = PageQuery.extend({
  username: optText(),
  realName: optText(),
  companyId: z.coerce.number().int().positive().optional(),
  searchCompanyID: z.coerce.number().int().positive().optional(),
});

export const UserCreateBody = z.object({
  username,
  realName,
  phone,
  password: NewPassword,
  roleId: z.coerce.number().int().positive().nullable().optional(),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
export const UserUpdateBody = UserCreateBody.omit({ username: true, password: true });

export const ManagerBody = z.object({
  id: z.coerce.number().int().positive().optional(),
  companyId: z.coerce.number().int().positive(),
  username,
  realName,
  phone,
  password: NewPassword.optional(),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});

export const ResetPasswordBody = z.object({ id: z.coerce.number().int().positive() });

export const RoleListQuery = PageQuery.extend({ name: optText(), searchCompanyID: z.coerce.number().int().positive().optional() });

export const RoleBody = z.object({
  name: z.string().trim().min(1, '请输入角色名称').max(32, '角色名称最多 32 个字'),
  memo: z.string().trim().max(200).default(''),
  routes: z
    .array(z.string())
    .max(200)
    .default([])
    .refine((a) => a.every((k) => ROUTE_BY_KEY[k] && ROUTE_BY_KEY[k].access !== 0), '包含无效或不可分配的页面'),
  operations: z
    .array(z.string())
    .max(200)
    .default([])
    .refine((a) => a.every((k) => OPERATION_KEYS.includes(k)), '包含无效的操作权限'),
});
