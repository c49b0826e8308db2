import type { FastifyInstance } from 'fastify';
import { API, alarmSchemeResource, chargeCodeResource, chargingSchemeResource, type ChargingSchemeInput } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { alarmSchemes, chargingSchemes, companyChargeCodes } from '../../db/schema/index.ts';
import * as scheme from './service.ts';

// Archives: charging schemes (/recordsFees), company charge codes and alarm schemes (/recordsPolice).
// Pickers on the meter archive (/recordsTable) read schemes too.
// Their paths and permissions are declared in packages/contracts (endpoints/scheme.ts, endpoints/crud.ts).

export default function schemeRoutes(app: FastifyInstance) {
  const r = routes(app);
  const S = API.scheme;
  r.endpoint(S.using, (_i, ctx) => scheme.usingSchemes(ctx));
  r.endpoint(S.byType, ({ query }, ctx) => scheme.usingSchemes(ctx, query.type));
  r.endpoint(S.schemeEnum, () => scheme.schemeEnum());

  // the charging schemes: their price versions (list with the version in effect, detail, writes that keep
  // the versions in step, in-use refusals) are the service's; the bodies are the declared, canonical ones
  registerCrud(app, {
    def: chargingSchemeResource, endpoints: S, table: chargingSchemes, tenancy: 'company',
    handle: {
      list: (q, ctx) => scheme.listSchemes(ctx, q), detail: (id, ctx) => scheme.getScheme(ctx, id), remove: (ids, ctx) => scheme.deleteSchemes(ctx, ids),
      create: (b, ctx) => scheme.createScheme(ctx, b as ChargingSchemeInput), update: (b, ctx) => scheme.updateScheme(ctx, b as ChargingSchemeInput & { id: number }),
    },
  });

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
