import type { FastifyInstance } from 'fastify';
import { routes } from '../../http/routes.ts';
import * as scheduler from './service.ts';

// /task: the timed jobs of every process (platform administrators only: they run for all companies).
export default function schedulerRoutes(app: FastifyInstance) {
  const r = routes(app);
  r.get('/yonghu/api/system/jobs', { summary: '定时任务运行情况', perm: { routes: ['task'], access: 0 }, tags: ['任务管理'] }, (_req, ctx) =>
    scheduler.listJobs(ctx));
}
