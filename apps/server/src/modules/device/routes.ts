import type { FastifyInstance } from 'fastify';
import {
  API, deviceLookupResource, type CollectorListInput, type FocusListInput, type MeterListInput,
} from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { deviceLookups } from '../../db/schema/index.ts';
import * as device from './service.ts';

// Device service (SPEC §7, /device/api/v1): collectors (gather), meters (device), focus devices and
// the device dictionaries. Pages: /recordsCollect (采集器档案) and /recordsTable (表具档案).

export default function deviceRoutes(app: FastifyInstance) {
  const r = routes(app);
  const D = API.device;
  // the list queries come from the declared resources' search fields (typed as …ListInput)

  // ---- 采集器 (gather) ----
  r.endpoint(D.collectors, ({ query }, ctx) => device.listCollectors(ctx, query as Record<string, unknown> & CollectorListInput));
  r.endpoint(D.collector, ({ query }, ctx) => device.getCollector(ctx, query.id));
  r.endpoint(D.createCollector, ({ body }, ctx) => device.createCollector(ctx, body));
  r.endpoint(D.updateCollector, ({ body }, ctx) => device.updateCollector(ctx, body.id, body));
  r.endpoint(D.collectorSecret, ({ query }, ctx) => device.getCollectorSecret(ctx, query.id));
  r.endpoint(D.resetCollectorSecret, ({ query }, ctx) => device.resetCollectorSecret(ctx, query.id));
  r.endpoint(D.deleteCollector, ({ query }, ctx) => device.deleteCollector(ctx, query.id));

  // ---- 表具 (device) ----
  r.endpoint(D.meters, ({ query }, ctx) => device.listMeters(ctx, query as Record<string, unknown> & MeterListInput));
  r.endpoint(D.metersByBody, ({ body }, ctx) => device.listMeters(ctx, body as Record<string, unknown> & MeterListInput));
  r.endpoint(D.plans, (_i, ctx) => device.allowedPlans(ctx));
  r.endpoint(D.meter, ({ query }, ctx) => device.getMeter(ctx, query.id));
  r.endpoint(D.createMeter, ({ body }, ctx) => device.createMeter(ctx, body));
  r.endpoint(D.updateMeter, ({ body }, ctx) => device.updateMeter(ctx, body.id, body));
  r.endpoint(D.deleteMeter, ({ query }, ctx) => device.deleteMeter(ctx, query.id));
  r.endpoint(D.group, () => device.groupSuspended());
  r.endpoint(D.group2, () => device.groupSuspended());

  // ---- 关注设备 (focus) ----
  r.endpoint(D.focusList, ({ query }, ctx) => device.listFocus(ctx, query as Record<string, unknown> & FocusListInput));
  r.endpoint(D.focus, ({ query }, ctx) => device.getFocus(ctx, query.id));
  r.endpoint(D.createFocus, ({ body }, ctx) => device.createFocus(ctx, body));
  r.endpoint(D.updateFocus, ({ body }, ctx) => device.updateFocus(ctx, body.id, body));
  r.endpoint(D.deleteFocus, ({ query }, ctx) => device.deleteFocus(ctx, query.id));

  // ---- 设备字典: option lists for every signed-in user (phase and brand paged, SPEC §7) ----
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
