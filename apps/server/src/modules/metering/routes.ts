import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import type { ControlApi } from '../control/index.ts';
import * as svc from './service.ts';

// Metering (SPEC §2 control, records and archive pages): the meter list of the control pages, 人工抄表,
// 保电/保水, 定时阀控 and the meter-parameter log, registered from their declarations (packages/contracts
// endpoints/metering.ts). The valve-control password of a timed close is checked in the service.

export default function meteringRoutes(app: FastifyInstance, api: ControlApi) {
  const r = routes(app);
  const M = API.metering;
  r.endpoint(M.meters, ({ query }, ctx) => svc.controlMeters(ctx, query));
  r.endpoint(M.manualReading, ({ body }, ctx) => svc.manualReading(ctx, api.bus, body));
  r.endpoint(M.protectStart, ({ body }, ctx) => svc.protectStart(ctx, api, body));
  r.endpoint(M.protectEnd, ({ body }, ctx) => svc.protectEnd(ctx, api, body));
  r.endpoint(M.protections, ({ query }, ctx) => svc.protections(ctx, query));
  r.endpoint(M.timedList, ({ query }, ctx) => svc.timedList(ctx, query));
  r.endpoint(M.timedCreate, ({ body }, ctx) => svc.timedCreate(ctx, body));
  r.endpoint(M.timedUpdate, ({ body }, ctx) => svc.timedUpdate(ctx, body));
  r.endpoint(M.timedEnable, ({ body }, ctx) => svc.timedEnable(ctx, body));
  r.endpoint(M.timedDelete, ({ body }, ctx) => svc.timedDelete(ctx, body));
  r.endpoint(M.configs, ({ query }, ctx) => svc.configs(ctx, query));
}
