import type { FastifyInstance } from 'fastify';
import {
  API, collectorResource, deviceLookupResource, focusResource, meterResource,
  type CollectorInput, type CollectorListInput, type FocusInput, type FocusListInput, type MeterInput, type MeterListInput,
} from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
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

  // ---- 采集器 (gather) ----
  const C = API.collector;
  registerCrud(app, {
    def: collectorResource,
    endpoints: C,
    table: collectors,
    tenancy: 'company',
    handle: {
      list: (q, ctx) => device.listCollectors(ctx, q as typeof q & CollectorListInput),
      detail: (id, ctx) => device.getCollector(ctx, id),
      create: (b, ctx) => device.createCollector(ctx, b as typeof b & CollectorInput),
      update: (b, ctx) => device.updateCollector(ctx, b.id as number, b as typeof b & CollectorInput),
      remove: ([id], ctx) => device.deleteCollector(ctx, id),
    },
  });
  r.endpoint(C.secret, ({ query }, ctx) => device.getCollectorSecret(ctx, query.id));
  r.endpoint(C.resetSecret, ({ query }, ctx) => device.resetCollectorSecret(ctx, query.id));

  // ---- 表具 (device) ----
  const M = API.meter;
  registerCrud(app, {
    def: meterResource,
    endpoints: M,
    table: meters,
    tenancy: 'company',
    handle: {
      list: (q, ctx) => device.listMeters(ctx, q as typeof q & MeterListInput),
      detail: (id, ctx) => device.getMeter(ctx, id),
      create: (b, ctx) => device.createMeter(ctx, b as typeof b & MeterInput),
      update: (b, ctx) => device.updateMeter(ctx, b.id as number, b as typeof b & MeterInput),
      remove: ([id], ctx) => device.deleteMeter(ctx, id),
    },
  });
  r.endpoint(M.listByBody, ({ body }, ctx) => device.listMeters(ctx, body as Record<string, unknown> & MeterListInput));
  r.endpoint(M.plans, (_i, ctx) => device.allowedPlans(ctx));
  r.endpoint(M.group, () => device.groupSuspended());
  r.endpoint(M.group2, () => device.groupSuspended());

  // ---- 关注设备 (focus) ----
  registerCrud(app, {
    def: focusResource,
    endpoints: API.focus,
    table: focusDevices,
    tenancy: 'company',
    handle: {
      list: (q, ctx) => device.listFocus(ctx, q as typeof q & FocusListInput),
      detail: (id, ctx) => device.getFocus(ctx, id),
      create: (b, ctx) => device.createFocus(ctx, b as typeof b & FocusInput),
      update: (b, ctx) => device.updateFocus(ctx, b.id as number, b as typeof b & FocusInput),
      remove: ([id], ctx) => device.deleteFocus(ctx, id),
    },
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
