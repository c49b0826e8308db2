import { z } from 'zod';
import { num } from '@meter/contracts';
import { AreaFilter, PageQuery, optText } from '../../http/paging.ts';
import { DLT645_PARAM_KEYS } from '../../gateway/frames.ts';
import { COMMAND_KIND_LIST, COMMAND_STATUS } from './rules.ts';
import { fromBeijingFields, parseBeijing } from '../../time.ts';

// Request shapes of the control API (zod, zh-CN messages). Ids and numbers may arrive as strings.

const id = num(z.number().int().positive());
const boolish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'), z.number().transform((n) => n !== 0)]);
const reason = z.string().trim().max(200).optional().default('');

/** China-time calendar day (YYYY-MM-DD) or an ISO instant. `endOfDay` moves a day to the next midnight. */
export const when = (endOfDay = false) =>
  z
    .string()
    .trim()
    .max(32)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      const t = day ? fromBeijingFields(+day[1], +day[2], +day[3] + (endOfDay ? 1 : 0)).getTime() : parseBeijing(v);
      if (Number.isNaN(t)) {
        ctx.addIssue({ code: 'custom', message: '日期格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss' });
        return z.NEVER;
      }
      return new Date(t);
    });

/** Money or a register value: up to 2 decimals, as an exact string. */
const amount = (max: number) =>
  z
    .union([z.number(), z.string().trim()])
    .transform((v, ctx) => {
      const s = typeof v === 'number' ? String(v) : v;
      if (!/^\d+(\.\d{1,2})?$/.test(s) || Number(s) > max) {
        ctx.addIssue({ code: 'custom', message: `应为 0 至 ${max} 之间、最多两位小数的数值` });
        return z.NEVER;
      }
      return s;
    });

export const OpenBody = z.object({
  id,
  /** true 合闸/开阀, false 拉闸/关阀 */
  open: boolish,
  memo: z.string().trim().max(200).optional().default(''),
  /** a person's reason to close a protected meter or inside no-disconnect hours */
  overrideReason: reason,
  /** the valve-control password typed in the dialog: switching a phaseId-1 meter off needs it (checked here) */
  password: z.string().max(64, '阀控密码最多 32 位').optional(),
});

export const LimitBody = z.object({ id, limitPrice: amount(999999.99), memo: z.string().trim().max(200).optional().default('') });

export const UpdateNoBody = z.object({
  id,
  no: z.string().trim().regex(/^\d{12}$/, '表号应为 12 位数字'),
  memo: z.string().trim().max(200).optional().default(''),
});

export const ReadBody = z.object({
  ids: z.array(id).min(1, '请选择要抄读的表具').max(5000),
  /** also read voltage, current, power, balance and the clock */
  full: boolish.optional().default(false),
});

export const IdBody = z.object({ id });
export const IdOrIdsBody = z
  .object({ id: id.optional(), ids: z.array(id).max(500).optional() })
  .refine((v) => v.id || v.ids?.length, { message: '请选择表具', path: ['id'] });

const paramValue = z.union([z.number(), z.string().trim().max(32)]).transform((v) => String(v));
export const ConfigSetBody = z.object({
  id,
  /** electric: alarm1Money, alarm2Money, overdraftLimit, hoardLimit, closeAllowMoney, ctRatio, ptRatio; water: settleDay, syncTime */
  params: z.record(z.string(), paramValue).refine((p) => Object.keys(p).length > 0, { message: '请至少设置一个参数' }),
  memo: z.string().trim().max(200).optional().default(''),
});
export const ELECTRIC_PARAM_KEYS = DLT645_PARAM_KEYS;
export const WATER_PARAM_KEYS = ['settleDay', 'syncTime'];

export const MeterListQuery = PageQuery.extend(AreaFilter.shape).extend({
  keyword: optText(64),
  /** 1 电表, 2 水表 */
  kind: num(z.number().int().min(1).max(2)).optional(),
});

export const LoraListBody = MeterListQuery;

export const FailListQuery = MeterListQuery.extend({ num: num(z.number().int().min(1).max(1000)).default(2) });

export const UnreadQuery = MeterListQuery.extend({
  /** not read since this day (default: today, China time) */
  date: when(),
});

export const PowerReportQuery = MeterListQuery.extend({ meterId: id.optional(), start: when(), end: when(true) });

const csv = <T extends string>(values: readonly T[]) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const list = (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
      const bad = list.find((s) => !values.includes(s as T));
      if (bad) {
        ctx.addIssue({ code: 'custom', message: `不支持的取值 ${bad}` });
        return z.NEVER;
      }
      return list as T[];
    });

export const WARNING_KIND_LIST = ['offline', 'consumption_closed', 'backwards', 'implausible', 'valve_mismatch', 'valve_fault', 'low_battery', 'clock_drift', 'read_fail', 'rate_error', 'power_off'] as const;

export const UnusualQuery = MeterListQuery.extend({
  type: csv(WARNING_KIND_LIST),
  /** 0 未处理, 1 已处理 */
  status: num(z.number().int().min(0).max(1)).optional(),
  start: when(),
  end: when(true),
});

export const DealBody = z
  .object({ id: id.optional(), ids: z.array(id).max(1000).optional(), memo: z.string().trim().max(500).optional().default('') })
  .refine((v) => v.id || v.ids?.length, { message: '请选择要处理的异常', path: ['id'] });

/** 接受 / 驳回 a reading held as implausible (the warning's id) */
export const ReviewBody = z.object({ id, memo: z.string().trim().max(500).optional().default('') });

export const CommandListQuery = MeterListQuery.extend({
  type: csv(COMMAND_KIND_LIST),
  status: csv(Object.keys(COMMAND_STATUS) as (keyof typeof COMMAND_STATUS)[]),
  meterId: id.optional(),
  origin: num(z.number().int().min(1).max(4)).optional(),
  start: when(),
  end: when(true),
});

export const ReadTaskQuery = PageQuery.extend({ origin: num(z.number().int().min(1).max(2)).optional(), start: when(), end: when(true) });

export const ReadingListQuery = MeterListQuery.extend({
  meterId: id.optional(),
  /** 1 自动, 2 随机, 3 人工, 4 上报 */
  source: num(z.number().int().min(1).max(4)).optional(),
  /** only readings set aside as exceptions (true) or only good ones (false) */
  exception: boolish.optional(),
  start: when(),
  end: when(true),
});

export const ReportListQuery = PageQuery.extend(AreaFilter.shape).extend({
  meterId: id.optional(),
  collectorId: id.optional(),
  keyword: optText(64),
  errorsOnly: boolish.optional(),
  start: when(),
  end: when(true),
});

export const BillByDeviceQuery = z
  .object({ roomId: id.optional(), userId: id.optional(), days: num(z.number().int().min(1).max(366)).default(31) })
  .refine((v) => v.roomId || v.userId, { message: '请指定房间或业主', path: ['roomId'] });

export const ThirdBody = z
  .record(z.string(), z.unknown())
  .refine((b) => b.config === undefined || (typeof b.config === 'object' && b.config !== null && !Array.isArray(b.config)), {
    message: '须为对象',
    path: ['config'],
  });
