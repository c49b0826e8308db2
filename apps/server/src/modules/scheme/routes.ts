import type { FastifyInstance } from 'fastify';
import { API, alarmSchemeResource, chargeCodeResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { alarmSchemes, companyChargeCodes } from '../../db/schema/index.ts';
import * as scheme from './service.ts';

// Archives: charging schemes (/recordsFees), company charge codes and alarm schemes (/recordsPolice).
// Pickers on the meter archive (/recordsTable) read schemes too.
// Their paths and permissions are declared in packages/contracts (endpoints/scheme.ts, endpoints/crud.ts).

export default function schemeRoutes(app: FastifyInstance) {
  const r = routes(app);
  const S = API.scheme;
  r.endpoint(S.using, (_i, ctx) => scheme.usingSchemes(ctx));
  r.endpoint(S.byType, ({ query }, ctx) => scheme.usingSchemes(ctx, query.type));
  r.endpoint(S.list, ({ query }, ctx) => scheme.listSchemes(ctx, query as Record<string, unknown> & { index: number; size: number }));
  r.endpoint(S.detail, ({ params }, ctx) => scheme.getScheme(ctx, params.id));
  r.endpoint(S.create, ({ body }, ctx) => scheme.createScheme(ctx, body));
  r.endpoint(S.update, ({ body }, ctx) => scheme.updateScheme(ctx, body as typeof body & { id: number }));
  r.endpoint(S.remove, ({ body }, ctx) => scheme.deleteSchemes(ctx, body.ids));
  r.endpoint(S.schemeEnum, () => scheme.schemeEnum());

  registerCrud(app, {
    def: chargeCodeResource,
    endpoints: API.chargeCode,
    table: companyChargeCodes,
    tenancy: 'company',
    beforeWrite: scheme.chargeCodeBeforeWrite,
    present: scheme.presentChargeCodes,
    label: (row) => `收费码 ${String(row.code ?? row.id)}`,
  });

  registerCrud(app, {
    def: alarmSchemeResource,
    endpoints: API.alarmScheme,
    table: alarmSchemes,
    tenancy: 'company',
    beforeWrite: scheme.alarmBeforeWrite,
    beforeDelete: scheme.alarmBeforeDelete,
    present: scheme.presentAlarmSchemes,
    label: (row) => `报警方案 ${String(row.name ?? row.id)}`,
  });
}
