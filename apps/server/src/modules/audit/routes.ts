import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as audit from './service.ts';

// /notesOperate: the audit log.
export default function auditRoutes(app: FastifyInstance) {
  routes(app).endpoint(API.system.auditLog, ({ query }, ctx) => audit.listLog(ctx, query));
}
