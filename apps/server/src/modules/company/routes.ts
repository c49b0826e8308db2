import type { FastifyInstance } from 'fastify';
import { API, companyClassifyResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { IdParams, IdsBody } from '../../http/paging.ts';
import { companyClassifies } from '../../db/schema/index.ts';
import * as repo from './repo.ts';
import * as company from './service.ts';
import * as valvePwd from './valve-password.ts';
import { CompanyBody, CompanyListQuery, CompanyUpdateBody, DevicePermissBody, DevicePermissQuery, ValvePwdCheckBody, ValvePwdSetBody } from './schema.ts';

const platformRead = { access: 0 as const, routes: ['belongs'] };
const platformWrite = { access: 0 as const, routes: ['belongs'] };
/** the valve dialog: whoever may switch valves */
const valve = { op: 'device.valve' };
/** a company admin (account or role administration) who may switch valves sets the password */
const valveAdmin = { access: 1 as const, routes: ['systemRecords', 'systemRole'], op: 'device.valve' };

export default function companyRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['单位'];
  const C = '/yewu/api/Company';
  r.get(`${C}/getUserCompanyList`, { summary: '可切换的单位列表', perm: {}, tags }, (_i, ctx) => ctx.tx(repo.visibleCompanies));
  r.get(`${C}/GetCompanyClassifyList`, { summary: '单位分类（全部）', perm: {}, tags }, (_i, ctx) => ctx.tx(repo.classifyOptions));
  r.get(`${C}/CompanyInfo`, { summary: '当前单位信息', perm: {}, tags }, (_i, ctx) => company.info(ctx));
  r.get(`${C}/GetReceiptAccount`, { summary: '收款账户（单位与结算银行）', perm: {}, tags }, (_i, ctx) => company.receiptAccount(ctx));
  r.get(`${C}/getValveControlPwd`, { summary: '是否已设置阀控密码（密码本身不出服务器）', perm: valve, tags }, (_i, ctx) => valvePwd.status(ctx));
  r.post(`${C}/checkValveControlPwd`, { summary: '校验阀控密码（阀控弹窗）', perm: valve, body: ValvePwdCheckBody, tags }, ({ body }, ctx) =>
    valvePwd.verify(ctx, body.password));
  r.put(`${C}/setValveControlPwd`, { summary: '设置/修改本单位阀控密码（已设置时须输入当前密码）', perm: valveAdmin, body: ValvePwdSetBody, action: '设置阀控密码', tags }, ({ body }, ctx) =>
    valvePwd.set(ctx, body.password, body.currentPassword));

  r.get(`${C}/list`, { summary: '单位列表', perm: platformRead, query: CompanyListQuery, tags }, ({ query }, ctx) => company.list(ctx, query));
  r.get(`${C}/detail/:id`, { summary: '单位详情', perm: platformRead, params: IdParams, tags }, ({ params }, ctx) => company.get(ctx, params.id));
  r.post(`${C}/detail`, { summary: '新增单位', perm: platformWrite, body: CompanyBody, tags }, ({ body }, ctx) => company.create(ctx, body));
  r.put(`${C}/detail`, { summary: '编辑单位', perm: platformWrite, body: CompanyUpdateBody, tags }, ({ body }, ctx) => company.update(ctx, body));
  r.delete(`${C}/detail`, { summary: '删除单位', perm: platformWrite, body: IdsBody, tags }, ({ body }, ctx) => company.remove(ctx, body.ids));

  const D = '/yewu/api/CompanyDevicePermiss/detail';
  r.get(D, { summary: '单位设备权限', perm: {}, query: DevicePermissQuery, tags }, ({ query }, ctx) => company.devicePermiss(ctx, query));
  r.post(D, { summary: '保存单位设备权限', perm: platformWrite, body: DevicePermissBody, tags }, ({ body }, ctx) =>
    company.saveDevicePermiss(ctx, body));

  registerCrud(app, {
    def: companyClassifyResource,
    endpoints: API.companyClassify,
    table: companyClassifies,
    tenancy: 'platform',
    beforeDelete: async (tx, _ctx, ids) => repo.assertClassifiesUnused(tx, ids),
    label: (row) => `单位分类 ${String(row.name ?? row.id)}`,
  });
}
