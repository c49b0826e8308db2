import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as config from './config-service.ts';
import * as notify from './service.ts';
import type { SmsSetup } from './sms/setup.ts';

// /notesMessage: the balance alarms sent by SMS or phone, with their state (queued, sent, failed),
// cost and delivery receipt; /sms/config: the company's SMS provider.
export default function notifyRoutes(app: FastifyInstance, sms: SmsSetup) {
  const r = routes(app);
  r.endpoint(API.notify.list, ({ query }, ctx) => notify.listNotifications(ctx, query));
  r.endpoint(API.notify.config, (_req, ctx) => config.getConfig(ctx, sms));
  r.endpoint(API.notify.saveConfig, ({ body }, ctx) => config.saveConfig(ctx, sms, body));
}
