import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { num } from '@meter/contracts';
import { AreaFilter, PageQuery, optText } from '../../http/paging.ts';
import { routes } from '../../http/routes.ts';
import * as notify from './service.ts';

// /notesMessage: the balance alarms sent by SMS or phone, with their state (queued, sent, failed).

const when = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss').optional().or(z.literal('').transform(() => undefined));
const Query = PageQuery.extend(AreaFilter.shape).extend({
  ownerName: optText(),
  phone: optText(20),
  status: z.enum(['queued', 'sending', 'sent', 'failed'], { error: '状态须为 queued、sending、sent 或 failed' }).optional(),
  level: num(z.number().int().min(1, '报警级别须为 1–3').max(3, '报警级别须为 1–3')).optional(),
  startTime: when,
  endTime: when,
});

export default function notifyRoutes(app: FastifyInstance) {
  const r = routes(app);
  r.get('/sms/log/list', { summary: '短信/电话提醒记录', perm: { routes: ['notesMessage'] }, query: Query, tags: ['短信记录'] }, ({ query }, ctx) =>
    notify.listNotifications(ctx, query));
}
