import type { FastifyInstance } from 'fastify';
import {
  CHARGING_SCHEME_OP, ChargingSchemeBody, ChargingSchemeUpdateBody, alarmSchemeResource, chargeCodeResource,
} from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { alarmSchemes, companyChargeCodes } from '../../db/schema/index.ts';
import * as scheme from './service.ts';
import { DeleteBody, SchemeIdParams, SchemeListQuery, SchemeTypeQuery } from './schema.ts';

// Archives: charging schemes (/recordsFees), company charge codes and alarm schemes (/recordsPolice).
// Pickers on the meter archive (/recordsTable) read schemes too.
const feesRead = { routes: ['recordsFees', 'recordsTable'] };
const feesWrite = { routes: ['recordsFees'], op: CHARGING_SCHEME_OP };
const codesRead = { routes: ['recordsFees', 'chargeCode', 'compre'] };
const codesWrite = { routes: ['recordsFees', 'chargeCode'], op: CHARGING_SCHEME_OP };
const alarmRead = { routes: ['recordsPolice', 'recordsTable'] };
const alarmWrite = { routes: ['recordsPolice'] };

export default function schemeRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['收费与报警方案'];
  const C = '/yewu/api/chargingscheme';
  r.get(`${C}/GetAllUsingList`, { summary: '在用收费方案（全部）', perm: feesRead, tags }, (_i, ctx) => scheme.usingSchemes(ctx));
  r.get(`${C}/GetListByType`, { summary: '按类型取在用收费方案', perm: feesRead, query: SchemeTypeQuery, tags }, ({ query }, ctx) =>
    scheme.usingSchemes(ctx, query.type));
  r.get(`${C}/list`, { summary: '收费方案列表', perm: feesRead, query: SchemeListQuery, tags }, ({ query }, ctx) =>
    scheme.listSchemes(ctx, query as Record<string, unknown> & { index: number; size: number }));
  r.get(`${C}/detail/:id`, { summary: '收费方案详情（含价格版本）', perm: feesRead, params: SchemeIdParams, tags }, ({ params }, ctx) =>
    scheme.getScheme(ctx, params.id));
  r.post(`${C}/detail`, { summary: '新增收费方案', perm: feesWrite, body: ChargingSchemeBody, tags }, ({ body }, ctx) =>
    scheme.createScheme(ctx, body));
  r.put(`${C}/detail`, { summary: '编辑收费方案', perm: feesWrite, body: ChargingSchemeUpdateBody, tags }, ({ body }, ctx) =>
    scheme.updateScheme(ctx, body as typeof body & { id: number }));
  r.delete(`${C}/detail`, { summary: '删除收费方案', perm: feesWrite, body: DeleteBody, tags }, ({ body }, ctx) =>
    scheme.deleteSchemes(ctx, body.ids));

  const K = '/yewu/api/sys_companychargecode';
  r.get(`${K}/SchemeEnum`, { summary: '收费类别枚举', perm: {}, tags }, () => scheme.schemeEnum());
  registerCrud(app, {
    def: chargeCodeResource,
    table: companyChargeCodes,
    tenancy: 'company',
    tags,
    read: codesRead,
    write: codesWrite,
    paths: {
      list: `${K}/List`,
      get: { url: `${K}/Detail`, id: 'query' },
      create: `${K}/Detail`,
      update: { url: `${K}/Detail`, id: 'body' },
      delete: { url: `${K}/Detail`, id: 'body' },
    },
    beforeWrite: scheme.chargeCodeBeforeWrite,
    present: scheme.presentChargeCodes,
    label: (row) => `收费码 ${String(row.code ?? row.id)}`,
  });

  const A = '/yewu/api/alarmscheme';
  registerCrud(app, {
    def: alarmSchemeResource,
    table: alarmSchemes,
    tenancy: 'company',
    tags,
    read: alarmRead,
    write: alarmWrite,
    paths: {
      list: `${A}/list`,
      get: { url: `${A}/detail/:id`, id: 'param' },
      create: `${A}/detail`,
      update: { url: `${A}/detail`, id: 'body' },
      delete: { url: `${A}/detail`, id: 'body' },
    },
    beforeWrite: scheme.alarmBeforeWrite,
    beforeDelete: scheme.alarmBeforeDelete,
    present: scheme.presentAlarmSchemes,
    label: (row) => `报警方案 ${String(row.name ?? row.id)}`,
  });
}
