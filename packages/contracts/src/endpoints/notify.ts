import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, optText, PageQuery } from '../query.ts';

// 短信记录 (/sms, /notesMessage): the balance alarms sent by SMS or phone, with their state.

const when = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss').optional().or(z.literal('').transform(() => undefined));

export const NOTIFICATION_STATES = ['queued', 'sending', 'sent', 'failed'] as const;

export const NotificationQuery = PageQuery.extend(AreaFilter.shape).extend({
  ownerName: optText(),
  phone: optText(20),
  status: z.enum(NOTIFICATION_STATES, { error: '状态须为 queued、sending、sent 或 failed' }).optional(),
  level: num(z.number().int().min(1, '报警级别须为 1–3').max(3, '报警级别须为 1–3')).optional(),
  startTime: when,
  endTime: when,
});

/** A notification as the list shows it; times are Beijing time text (YYYY-MM-DD HH:mm:ss). */
export const NotificationRow = z.object({
  id: z.number(),
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  meterId: z.number().nullable(),
  /** 1 低于报警1, 2 低于报警2, 3 欠费（断电/关阀通知） */
  level: z.number(),
  /** sms 短信, phone 电话 */
  channel: z.enum(['sms', 'phone']),
  phone: z.string(),
  content: z.string(),
  status: z.enum(NOTIFICATION_STATES),
  provider: z.string(),
  priceFen: z.number(),
  error: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

export const notifyEndpoints = {
  list: endpoint({
    method: 'GET', path: '/sms/log/list', summary: '短信/电话提醒记录', perm: { routes: ['notesMessage'] }, query: NotificationQuery,
    response: NotificationRow, paged: true, tags: ['短信记录'],
  }),
};

export type Notification = z.output<typeof NotificationRow>;
