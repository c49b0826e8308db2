import type { FastifyInstance } from 'fastify';
import { API, CHARGING_SCHEME_OP, alarmSchemeResource, chargeCodeResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { alarmSchemes, companyChargeCodes } from '../../db/schema/index.ts';
import * as scheme from './service.ts';

// Archives: charging schemes (/recordsFees), company charge codes and alarm schemes (/recordsPolice).
// Pickers on the meter archive (/recordsTable) read schemes too.
const codesRead = { routes: ['recordsFees', 'chargeCode', 'compre'] };
const codesWrite = { routes: ['recordsFees', 'chargeCode'], op: CHARGING_SCHEME_OP };
const alarmRead = { routes: ['recordsPolice', 'recordsTable'] };
const alarmWrite = { routes: ['recordsPolice'] };

export default function schemeRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['收费与报警方案'];
  const S = API.scheme;
  r.endpoint(S.using, (_i, ctx) => scheme.usingSchemes(ctx));
  r.endpoint(S.byType, ({ query }, ctx) => scheme.usingSchemes(ctx, query.type));
  r.endpoint(S.list, ({ query }, ctx) => scheme.listSchemes(ctx, query as Record<string, unknown> & { index: number; size: number }));
  r.endpoint(S.detail, ({ params }, ctx) => scheme.getScheme(ctx, params.id));
  r.endpoint(S.create, ({ body }, ctx) => scheme.createScheme(ctx, body));
  r.endpoint(S.update, ({ body }, ctx) => scheme.updateScheme(ctx, body as typeof body & { id: number }));
  r.endpoint(S.remove, ({ body }, ctx) => scheme.deleteSchemes(ctx, body.ids));
  r.endpoint(S.schemeEnum, () => scheme.schemeEnum());

  const K = '/yewu/api/sys_companychargecode';
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
