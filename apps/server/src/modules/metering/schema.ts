import { z } from 'zod';
import { num } from '@meter/contracts';
import { AreaFilter, PageQuery, optText } from '../../http/paging.ts';
import { when } from '../control/index.ts';

// Request shapes of the metering API (zod, zh-CN messages): the meter list of the control pages,
// manual readings, protections (保电/保水), timed valve control and the meter-config log.

const id = num(z.number().int().positive());
const boolish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
  z.number().transform((n) => n !== 0),
]);
const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');
const meterKind = num(z.number().int().refine((v) => v === 1 || v === 2, { message: '表具类别应为 1（电表）或 2（水表）' }));

/** A register value: ≥ 0, at most 2 decimals, as an exact string. */
const reading = z
  .union([z.number(), z.string().trim()])
  .transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : v;
    if (!/^\d{1,12}(\.\d{1,2})?$/.test(s)) {
      ctx.addIssue({ code: 'custom', message: '读数应为不小于 0、最多两位小数的数值' });
      return z.NEVER;
    }
    return s;
  });

// ---- meters of the control pages ---------------------------------------------------------------

export const ControlMeterQuery = PageQuery.extend(AreaFilter.shape).extend({
  keyword: optText(64),
  kind: meterKind.optional(),
  roomId: id.optional(),
  online: boolish.optional(),
  /** 1 通/开, 0 断/关 */
  valveState: num(z.number().int().min(0).max(1)).optional(),
  protected: boolish.optional(),
  /** include 停用 meters (default: only meters in use) */
  withDisabled: boolish.optional().default(false),
});

// ---- manual reading -----------------------------------------------------------------------------

/** 0 正常抄表, 1 换表（新表起始读数）, 2 读数纠正 */
export const ADJUST_TEXT: Record<number, string> = { 0: '正常抄表', 1: '换表', 2: '读数纠正' };

export const ManualReadingBody = z
  .object({
    id,
    total: reading,
    /** when it was read (default now); not in the future */
    readAt: when(),
    adjust: num(z.number().int().min(0).max(2)).optional().default(0),
    /** why a replacement or correction (required for those) */
    reason: z.string().trim().max(200, '原因最多 200 个字').optional().default(''),
    memo,
  })
  .refine((v) => v.adjust === 0 || v.reason.length >= 2, { message: '换表或读数纠正必须填写原因（至少 2 个字）', path: ['reason'] });

// ---- protections --------------------------------------------------------------------------------

const target = {
  meterIds: z.array(id).min(1, '请选择表具').max(2000, '一次最多 2000 块表具').optional(),
  roomId: id.optional(),
  areaId: id.optional(),
};
const oneTarget = (v: { meterIds?: number[]; roomId?: number; areaId?: number }) =>
  [v.meterIds?.length ? 1 : 0, v.roomId ? 1 : 0, v.areaId ? 1 : 0].reduce((a, b) => a + b, 0) === 1;
const TARGET_MSG = { message: '请选择表具、房间或区域中的一项', path: ['meterIds'] };

export const ProtectStartBody = z
  .object({
    /** 1 保电 (electric meters), 2 保水 (water meters) */
    kind: meterKind,
    ...target,
    reason: z.string().trim().min(2, '请填写保护原因（至少 2 个字）').max(200, '原因最多 200 个字'),
    /** protection ends by itself then (optional) */
    endAt: when(),
  })
  .refine(oneTarget, TARGET_MSG);

export const ProtectEndBody = z
  .object({ kind: meterKind, ...target, memo })
  .refine(oneTarget, TARGET_MSG);

export const ProtectListQuery = PageQuery.extend(AreaFilter.shape).extend({
  kind: meterKind.optional(),
  /** true: in force now; false: ended or expired */
  active: boolish.optional(),
  keyword: optText(64),
  meterId: id.optional(),
  start: when(),
  end: when(true),
});

// ---- timed valve control ------------------------------------------------------------------------

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const timedFields = {
  action: z.enum(['open', 'close'], { message: '动作应为 open（合闸/开阀）或 close（拉闸/关阀）' }),
  repeat: z.enum(['once', 'daily'], { message: '执行方式应为 once（单次）或 daily（每天）' }),
  /** once: when */
  runAt: when(),
  /** daily: HH:mm, China time */
  timeOfDay: z.string().trim().optional().default(''),
  memo,
  /** a timed close of a phaseId-1 meter needs the valve-control password (SPEC §4; the server compares it) */
  password: z.string().max(64, '阀控密码最多 32 位').optional(),
};
const timedRule = (v: { repeat: string; runAt?: Date; timeOfDay: string }, ctx: z.RefinementCtx) => {
  if (v.repeat === 'once' && !v.runAt) ctx.addIssue({ code: 'custom', message: '请选择执行时间', path: ['runAt'] });
  if (v.repeat === 'daily' && !HHMM.test(v.timeOfDay)) ctx.addIssue({ code: 'custom', message: '每天执行的时刻应为 HH:mm', path: ['timeOfDay'] });
};

export const TimedCreateBody = z
  .object({ meterIds: z.array(id).min(1, '请选择表具').max(500, '一次最多 500 块表具'), ...timedFields })
  .superRefine(timedRule);

export const TimedUpdateBody = z
  .object({ id, ...timedFields, enabled: boolish.optional() })
  .superRefine(timedRule);

export const TimedEnableBody = z.object({
  ids: z.array(id).min(1, '请选择定时任务').max(1000),
  enabled: boolish,
  /** enabling a timed close of a phaseId-1 meter needs the valve-control password */
  password: z.string().max(64, '阀控密码最多 32 位').optional(),
});
export const TimedDeleteBody = z.object({ ids: z.array(id).min(1, '请选择定时任务').max(1000) });

export const TimedListQuery = PageQuery.extend(AreaFilter.shape).extend({
  keyword: optText(64),
  action: z.enum(['open', 'close']).optional(),
  repeat: z.enum(['once', 'daily']).optional(),
  enabled: boolish.optional(),
  meterId: id.optional(),
});

// ---- meter parameter log (meter_configs) --------------------------------------------------------

export const ConfigListQuery = PageQuery.extend(AreaFilter.shape).extend({
  meterId: id.optional(),
  keyword: optText(64),
  kind: meterKind.optional(),
  op: z.enum(['read', 'set']).optional(),
  start: when(),
  end: when(true),
});

export type Input<T extends z.ZodType> = z.output<T>;
