import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as scheduler from './service.ts';

// /task: the timed jobs of every process (platform administrators only: they run for all companies).
export default function schedulerRoutes(app: FastifyInstance) {
  routes(app).endpoint(API.system.jobs, (_i, ctx) => scheduler.listJobs(ctx));
}
