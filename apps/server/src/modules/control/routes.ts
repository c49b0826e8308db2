import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { closeBulk } from './bulk-close.ts';
import { reviewReading } from './review.ts';
import * as svc from './service.ts';
import type { ControlApi } from './service.ts';

// Device control (SPEC §7 device service): commands, readings, read tasks, exceptions — registered from
// their declarations (packages/contracts endpoints/control.ts). The valve-control password of a
// phaseId-1 close is checked in svc.valve.

export default function controlRoutes(app: FastifyInstance, api: ControlApi) {
  const r = routes(app);
  const C = API.control;

  // ---- commands
  r.endpoint(C.valve, ({ body }, ctx) => svc.valve(ctx, api, body));
  r.endpoint(C.closeBulk, ({ body }, ctx) => closeBulk(ctx, api, body));
  r.endpoint(C.limit, ({ body }, ctx) => svc.limit(ctx, api, body));
  r.endpoint(C.updateNo, ({ body }, ctx) => svc.updateNo(ctx, api, body));
  r.endpoint(C.read, ({ body }, ctx) => svc.read(ctx, api, body));
  r.endpoint(C.timeSync, ({ body }, ctx) => svc.timeSync(ctx, api, body.id));
  r.endpoint(C.loraList, ({ body }, ctx) => svc.loraList(ctx, body));
  r.endpoint(C.loraConfigRead, ({ query }, ctx) => svc.configRead(ctx, api, query.id));
  r.endpoint(C.loraConfigSet, ({ body }, ctx) => svc.configSet(ctx, api, body, 'lora'));
  r.endpoint(C.nbConfigSet, ({ body }, ctx) => svc.configSet(ctx, api, body, 'nb'));
  r.endpoint(C.configSet, ({ body }, ctx) => svc.configSet(ctx, api, body));
  r.endpoint(C.configRead, ({ body }, ctx) => svc.configReadMany(ctx, api, body));
  r.endpoint(C.commands, ({ query }, ctx) => svc.listCommands(ctx, query));
  r.endpoint(C.command, ({ query }, ctx) => svc.getCommand(ctx, query.id));

  // ---- readings and reading tasks
  r.endpoint(C.readTasks, ({ query }, ctx) => svc.readTasks(ctx, query));
  r.endpoint(C.readFails, ({ query }, ctx) => svc.readFails(ctx, query));
  r.endpoint(C.unread, ({ query }, ctx) => svc.unread(ctx, query));
  r.endpoint(C.noPower, ({ query }, ctx) => svc.noPower(ctx, query));
  r.endpoint(C.readings, ({ query }, ctx) => svc.readings(ctx, query));
  r.endpoint(C.reports, ({ query }, ctx) => svc.reports(ctx, query));
  r.endpoint(C.billByDevice, ({ query }, ctx) => svc.billByDevice(ctx, query));

  // ---- exceptions
  r.endpoint(C.warnings, ({ query }, ctx) => svc.unusual(ctx, query));
  r.endpoint(C.deal, ({ body }, ctx) => svc.deal(ctx, api, body));
  r.endpoint(C.acceptReading, ({ body }, ctx) => reviewReading(ctx, api, body, true));
  r.endpoint(C.rejectReading, ({ body }, ctx) => reviewReading(ctx, api, body, false));
  r.endpoint(C.openWarnings, ({ query }, ctx) => svc.unusualOpen(ctx, query));
  r.endpoint(C.power, ({ query }, ctx) => svc.powerReport(ctx, query));

  // ---- third-party settings
  r.endpoint(C.third, (_i, ctx) => svc.getThird(ctx));
  r.endpoint(C.saveThird, ({ body }, ctx) => svc.saveThird(ctx, body));
}
