import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as notify from './service.ts';

// /notesMessage: the balance alarms sent by SMS or phone, with their state (queued, sent, failed).
export default function notifyRoutes(app: FastifyInstance) {
  routes(app).endpoint(API.notify.list, ({ query }, ctx) => notify.listNotifications(ctx, query));
}
