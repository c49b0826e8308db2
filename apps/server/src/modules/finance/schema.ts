import { z } from 'zod';
import { num } from '@meter/contracts';
import { AreaFilter, PageQuery } from '../../http/paging.ts';

// Input shapes of the finance day endpoints (zod, Chinese messages; a 400 names the field).

const id = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');
const day = z
  .string({ error: '请选择日期' })
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '日期格式应为 YYYY-MM-DD');
const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');

export const DayListQuery = PageQuery.extend(AreaFilter.shape).extend({
  startTime: day.optional().or(z.literal('').transform(() => undefined)),
  endTime: day.optional().or(z.literal('').transform(() => undefined)),
  /** closed | open */
  state: z.enum(['closed', 'open'], { error: '状态须为 closed（已日结）或 open（未日结）' }).optional(),
});
export type DayListInput = z.infer<typeof DayListQuery>;

export const DayQuery = AreaFilter.extend({ day });
export const CloseDayBody = z.object({ day, memo });
export const HandoverBody = z.object({ day, operatorId: id.optional(), memo });

export const VoidBody = z.object({
  receiptId: id,
  reason: z.string({ error: '请填写作废原因' }).trim().min(2, '请填写作废原因（至少 2 个字）').max(200, '作废原因最多 200 个字'),
});
export const VoidsQuery = AreaFilter.extend({
  /** receipt ids, comma separated */
  ids: z
    .string({ error: '请提供票据编号' })
    .trim()
    .regex(/^\d{1,18}(,\d{1,18}){0,199}$/, '票据编号须为逗号分隔的正整数（最多 200 个）')
    .transform((v) => [...new Set(v.split(',').map(Number))]),
});
