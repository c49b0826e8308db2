import type { FastifyInstance } from 'fastify';
import { areaPermissionResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { IdParams } from '../../http/paging.ts';
import { areaPermissions } from '../../db/schema/index.ts';
import * as area from './service.ts';
import { AreaBody, AreaUpdateBody, BindUserBody, ChildAreaQuery, NoBindTreeQuery, TreeQuery, UserTreeQuery } from './schema.ts';

/** the area archive page */
const areaPage = { routes: ['recordsArea'] };
/** where accounts are managed (company staff; platform admins for company managers) */
const accounts = { routes: ['systemRecords', 'administrator'] };

export default function areaRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['区域'];
  const Y = '/yewu/api';
  r.get(`${Y}/GetAreaTree`, { summary: '区域树（含房间）', perm: {}, query: TreeQuery, tags }, ({ query }, ctx) =>
    area.areaTree(ctx, query, { rooms: true }));
  r.get(`${Y}/GetAreaTreeNoRoom`, { summary: '区域树（不含房间）', perm: {}, query: TreeQuery, tags }, ({ query }, ctx) =>
    area.areaTree(ctx, query, { rooms: false }));
  r.get(`${Y}/GetAreaTreeNoRoomV2`, { summary: '区域树（不含房间，仅普通区域可选）', perm: {}, query: TreeQuery, tags }, ({ query }, ctx) =>
    area.areaTree(ctx, query, { rooms: false, v2: true }));
  r.get(`${Y}/GetUserBindAreaTree`, { summary: '账号已绑定的区域树', perm: accounts, query: UserTreeQuery, tags }, ({ query }, ctx) =>
    area.userBindTree(ctx, query));
  r.get(`${Y}/GetNoUserBindAreaTreeV2`, { summary: '账号可绑定的区域树', perm: accounts, query: NoBindTreeQuery, tags }, ({ query }, ctx) =>
    area.noUserBindTree(ctx, query));

  r.get(`${Y}/Area/GetAllChildArea`, { summary: '下级区域列表', perm: areaPage, query: ChildAreaQuery, tags }, ({ query }, ctx) =>
    area.childAreas(ctx, query));
  r.get(`${Y}/Area/GetAddressOptions`, { summary: '已使用的区域地址（地址选择提示）', perm: areaPage, tags }, (_i, ctx) => area.addressOptions(ctx));
  r.post(`${Y}/Area/Detail`, { summary: '新增区域', perm: areaPage, body: AreaBody, tags }, ({ body }, ctx) => area.create(ctx, body));
  r.put(`${Y}/Area/Detail`, { summary: '编辑区域', perm: areaPage, body: AreaUpdateBody, tags }, ({ body }, ctx) => area.update(ctx, body));
  r.delete(`${Y}/Area/Detail/:id`, { summary: '删除区域', perm: areaPage, params: IdParams, tags }, ({ params }, ctx) =>
    area.remove(ctx, params.id));

  const P = `${Y}/AreaPermission`;
  r.get(`${P}/GetUsingList`, { summary: '在用的区域权限', perm: accounts, tags }, (_i, ctx) => area.usingPermissions(ctx));
  r.post(`${P}/BindUser`, { summary: '设置账号绑定的区域', perm: accounts, body: BindUserBody, tags }, ({ body }, ctx) =>
    area.bindUser(ctx, body));
  registerCrud(app, {
    def: areaPermissionResource,
    table: areaPermissions,
    tenancy: 'company',
    tags,
    read: { routes: ['systemRecords', 'administrator', 'recordsArea'] },
    write: { routes: ['systemRecords', 'recordsArea'] },
    paths: {
      list: `${P}/List`,
      get: { url: `${P}/Detail`, id: 'query' },
      create: `${P}/Detail`,
      update: { url: `${P}/Detail`, id: 'body' },
      delete: { url: `${P}/Detail`, id: 'body' },
    },
    present: area.presentPermissions,
    beforeWrite: area.checkPermissionAreas,
    label: (row) => `区域权限 ${String(row.name ?? row.id)}`,
  });
}
