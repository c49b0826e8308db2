import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { num } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { PageQuery, offsetOf, optText } from '../../http/paging.ts';
import { Page } from '../../http/envelope.ts';
import type { Ctx } from '../../http/context.ts';
import * as repo from './repo.ts';

const dateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '时间格式应为 YYYY-MM-DD HH:mm:ss')
  .transform((s) => new Date(`${s.replace(' ', 'T')}${s.length === 10 ? 'T00:00:00' : ''}+08:00`))
  .optional();

const LogQuery = PageQuery.extend({
  username: optText(),
  action: optText(),
  startTime: z.union([z.literal(''), dateTime]).optional(),
  endTime: z.union([z.literal(''), dateTime]).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

async function listLog(ctx: Ctx, q: z.output<typeof LogQuery>) {
  const f = {
    username: q.username,
    action: q.action,
    start: q.startTime instanceof Date ? q.startTime : undefined,
    end: q.endTime instanceof Date ? q.endTime : undefined,
  };
  const r = await ctx.tx((tx) => repo.list(tx, f, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

export default function auditRoutes(app: FastifyInstance) {
  const r = routes(app);
  r.get('/yonghu/api/admin/log/list', { summary: '操作日志', perm: { routes: ['notesOperate'] }, query: LogQuery, tags: ['操作日志'] },
    ({ query }, ctx) => listLog(ctx, query));
}
