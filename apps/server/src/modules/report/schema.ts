import { z } from 'zod';
import { AreaFilter, PageQuery } from '../../http/paging.ts';

// Report filters: a period of China days (default: this month), optionally an area subtree.

const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '格式应为 YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const ReportQuery = AreaFilter.extend({ startTime: date, endTime: date });
export type ReportInput = z.infer<typeof ReportQuery>;
export const FeesQuery = PageQuery.extend(ReportQuery.shape);
