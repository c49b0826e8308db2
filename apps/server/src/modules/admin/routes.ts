import type { FastifyInstance } from 'fastify';
import { routes } from '../../http/routes.ts';
import { IdQuery } from '../../http/paging.ts';
import * as admin from './service.ts';
import { ManagerBody, ResetPasswordBody, RoleBody, RoleListQuery, RoleUpdateBody, UserCreateBody, UserListQuery, UserUpdateBody } from './schema.ts';

const users = { routes: ['systemRecords', 'administrator'] };
const roles = { routes: ['systemRole'] };
const platform = { access: 0 as const, routes: ['administrator'] };

export default function adminRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['账号与角色'];
  const U = '/yonghu/api/admin/user';
  r.get(`${U}/list`, { summary: '账号列表', perm: users, query: UserListQuery, tags }, ({ query }, ctx) => admin.listUsers(ctx, query));
  r.get(U, { summary: '账号详情', perm: users, query: IdQuery, tags }, ({ query }, ctx) => admin.getUser(ctx, query.id));
  r.post(U, { summary: '新增账号', perm: users, body: UserCreateBody, tags }, ({ body }, ctx) => admin.createUser(ctx, body));
  r.put(U, { summary: '编辑账号', perm: users, query: IdQuery, body: UserUpdateBody, tags }, ({ query, body }, ctx) =>
    admin.updateUser(ctx, query.id, body));
  r.delete(U, { summary: '删除账号', perm: users, query: IdQuery, tags }, ({ query }, ctx) => admin.deleteUser(ctx, query.id));
  r.put(`${U}/resetPassword`, { summary: '重置密码', perm: users, body: ResetPasswordBody, tags }, ({ body }, ctx) =>
    admin.resetPassword(ctx, body.id));
  r.post('/yonghu/api/admin/manager/user', { summary: '新增单位管理员', perm: platform, body: ManagerBody, tags }, ({ body }, ctx) =>
    admin.saveManager(ctx, body));
  r.put('/yonghu/api/admin/manager/user', { summary: '编辑单位管理员', perm: platform, body: ManagerBody, tags }, ({ body }, ctx) =>
    admin.saveManager(ctx, body));

  const R = '/yonghu/api/admin/role';
  r.get(`${R}/list`, { summary: '角色列表', perm: roles, query: RoleListQuery, tags }, ({ query }, ctx) => admin.listRoles(ctx, query));
  r.get(R, { summary: '角色详情', perm: roles, query: IdQuery, tags }, ({ query }, ctx) => admin.getRole(ctx, query.id));
  r.post(R, { summary: '新增角色', perm: roles, body: RoleBody, tags }, ({ body }, ctx) => admin.createRole(ctx, body));
  r.put(R, { summary: '编辑角色', perm: roles, query: IdQuery, body: RoleUpdateBody, tags }, ({ query, body }, ctx) =>
    admin.updateRole(ctx, query.id, body));
  r.delete(R, { summary: '删除角色', perm: roles, query: IdQuery, tags }, ({ query }, ctx) => admin.deleteRole(ctx, query.id));
}
