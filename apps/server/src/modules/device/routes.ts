import type { FastifyInstance } from 'fastify';
import {
  API, collectorResource, deviceLookupResource, focusResource, meterResource, type CrudEndpoints, type MeterListInput, type ResourceDef,
} from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { byService, registerCrud, type ServiceCrud } from '../../http/crud.ts';
import type { AnyTable } from '../../db/crud-repo.ts';
import { collectors, deviceLookups, focusDevices, meters } from '../../db/schema/index.ts';
import * as device from './service.ts';

// Device service (SPEC §7, /device/api/v1): collectors (gather), meters (device), focus devices and
// the device dictionaries. Pages: /recordsCollect (采集器档案) and /recordsTable (表具档案).
// Collectors, meters and focus rows are declared resources: their lists (joined names, area paths,
// the plan filter) and writes (plan permissions, address and protocol rules, IMEIs across the
// platform, readings that lock a meter) are the service's, through registerCrud's `handle`; the query
// and body are the declared search fields and form (typed as …ListInput, …Input).

export default function deviceRoutes(app: FastifyInstance) {
  const r = routes(app);
  const serviceCrud = <L, B>(def: ResourceDef, endpoints: CrudEndpoints, table: AnyTable, s: ServiceCrud<L, B>) =>
    registerCrud(app, { def, endpoints, table, tenancy: 'company', handle: byService(s) });

  // ---- 采集器 (gather) ----
  const C = API.collector;
  serviceCrud(collectorResource, C, collectors, {
    list: device.listCollectors, detail: device.getCollector, create: device.createCollector, update: device.updateCollector, remove: device.deleteCollector,
  });
  r.endpoint(C.secret, ({ query }, ctx) => device.getCollectorSecret(ctx, query.id));
  r.endpoint(C.resetSecret, ({ query }, ctx) => device.resetCollectorSecret(ctx, query.id));

  // ---- 表具 (device) ----
  const M = API.meter;
  serviceCrud(meterResource, M, meters, {
    list: device.listMeters, detail: device.getMeter, create: device.createMeter, update: device.updateMeter, remove: device.deleteMeter,
  });
  r.endpoint(M.listByBody, ({ body }, ctx) => device.listMeters(ctx, body as Record<string, unknown> & MeterListInput));
  r.endpoint(M.plans, (_i, ctx) => device.allowedPlans(ctx));
  r.endpoint(M.group, () => device.groupSuspended());
  r.endpoint(M.group2, () => device.groupSuspended());

  // ---- 关注设备 (focus) ----
  serviceCrud(focusResource, API.focus, focusDevices, {
    list: device.listFocus, detail: device.getFocus, create: device.createFocus, update: device.updateFocus, remove: device.deleteFocus,
  });

  // ---- 设备字典: option lists for every signed-in user (phase and brand paged, SPEC §7) ----
  const D = API.device;
  for (const kind of ['protocol', 'baud', 'gateway', 'port', 'caliber', 'type'] as const) {
    r.endpoint(D[`${kind}List`], (_i, ctx) => device.lookupList(ctx, kind));
  }
  for (const kind of ['phase', 'brand'] as const) r.endpoint(D[`${kind}List`], ({ query }, ctx) => device.lookupList(ctx, kind, query));
  // platform admins maintain the dictionaries
  registerCrud(app, {
    def: deviceLookupResource,
    endpoints: API.deviceLookup,
    table: deviceLookups,
    tenancy: 'platform',
    beforeWrite: device.lookupHooks.beforeWrite,
    beforeDelete: device.lookupHooks.beforeDelete,
    label: (row) => `设备字典 ${String(row.name ?? row.id)}`,
  });
}
