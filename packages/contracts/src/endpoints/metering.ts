import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, CompanyQuery, PageQuery, optText, wireTime, wireTimeOrNull, ref, blankRef, coded } from '../query.ts';
import { boolish, MeterListRow, when } from './control.ts';

// Metering (SPEC §2 control, records and archive pages, /device/api/v1): the meter list of the control
// pages, 人工抄表, 保电/保水, 定时阀控 and the meter-parameter log. Reading, command, task, report and
// warning lists are the control module's (endpoints/control.ts).

const id = num(z.number().int().positive());
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

// ---- meters of the control pages ----------------------------------------------------------------

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

export const ProtectEndBody = z.object({ kind: meterKind, ...target, memo }).refine(oneTarget, TARGET_MSG);

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

export const TimedUpdateBody = z.object({ id, ...timedFields, enabled: boolish.optional() }).superRefine(timedRule);

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

// ---- answers ------------------------------------------------------------------------------------

/** A meter of the control pages: a meter of the lists (its `online`: the meter or its collector) with reading, 通断, 保电 and what is pending for it. */
export const ControlMeterRow = MeterListRow.extend({
  kindText: z.string(),
  unit: z.string(),
  ...blankRef('phase'),
  status: z.number(),
  /** the meter itself is online */
  meterOnline: z.boolean(),
  lastSource: z.number().nullable(),
  initialReading: z.string(),
  protection: z.object({ id: z.number(), reason: z.string(), startAt: wireTime, endAt: wireTimeOrNull }).nullable(),
  /** kinds of the commands pending for it */
  pending: z.array(z.string()),
  timedCount: z.number(),
  /** SPEC §4: closing a phase-1 meter asks the valve-control password first */
  needsValvePassword: z.boolean(),
});

export const ManualReadingResult = z.object({
  ...ref('meter'),
  address: z.string(),
  total: z.string(),
  readAt: wireTime,
  ...coded('adjust', z.number()),
  previousTotal: z.string(),
  usage: z.string().nullable(),
  message: z.string(),
});

export const ProtectionRow = z.object({
  id: z.number(),
  meterId: z.number(),
  /** 1 保电, 2 保水 */
  ...coded('kind', z.number()),
  meterName: z.string(),
  address: z.string(),
  meterKind: z.number(),
  valveState: z.number().nullable(),
  roomName: z.string(),
  areaName: z.string(),
  reason: z.string(),
  startAt: wireTime,
  endAt: wireTimeOrNull,
  /** in force now */
  active: z.boolean(),
  statusText: z.string(),
  createdByName: z.string(),
  endedByName: z.string(),
  createdAt: wireTime,
});

export const TimedControlRow = z.object({
  id: z.number(),
  companyId: z.number(),
  ...ref('meter'),
  address: z.string(),
  kind: z.number(),
  phaseId: z.number().nullable(),
  valveState: z.number().nullable(),
  meterStatus: z.number(),
  roomName: z.string(),
  areaName: z.string(),
  action: z.enum(['open', 'close']),
  actionText: z.string(),
  repeat: z.enum(['once', 'daily']),
  repeatText: z.string(),
  runAt: wireTimeOrNull,
  timeOfDay: z.string(),
  scheduleText: z.string(),
  enabled: z.boolean(),
  lastRunAt: wireTimeOrNull,
  nextRunAt: wireTimeOrNull,
  memo: z.string(),
  createdBy: z.number().nullable(),
  createdByName: z.string(),
  createdAt: wireTime,
  needsValvePassword: z.boolean(),
  lastCommand: z.object({ id: z.number(), status: z.string(), statusText: z.string(), error: z.string(), createdAt: wireTime }).nullable(),
});

export const MeterConfigRow = z.object({
  id: z.number(),
  ...ref('meter'),
  address: z.string(),
  kind: z.number(),
  roomName: z.string(),
  areaName: z.string(),
  /** read | set */
  ...coded('op', z.string()),
  params: z.record(z.string(), z.unknown()),
  commandId: z.number().nullable(),
  commandStatus: z.string(),
  operatorName: z.string(),
  createdAt: wireTime,
});

// ---- endpoints ----------------------------------------------------------------------------------

const V1 = '/device/api/v1';
/** Pages that pick meters to act on. */
const CONTROL_PAGES = ['casualCopy', 'longRange', 'peopleCasualCopy', 'timeChangeControl', 'keepElectric', 'keepWater', 'constant', 'advConfig'];
const PROTECT_PAGES = ['keepElectric', 'keepWater'];
const protectOp = { routes: PROTECT_PAGES, op: 'device.protect' };
const timedWrite = { routes: ['timeChangeControl'], op: 'device.timedValve' };
const company = CompanyQuery;
const protectTags = ['保电保水'];
const timedTags = ['定时阀控'];

export const meteringEndpoints = {
  meters: endpoint({
    method: 'GET', path: `${V1}/control/meter/list`, summary: '控制页面的表具列表（读数、通断、保电状态）', perm: { routes: CONTROL_PAGES }, query: ControlMeterQuery,
    response: ControlMeterRow, paged: true, tags: ['表具控制'],
  }),
  manualReading: endpoint({
    method: 'POST', path: `${V1}/manual/reading`, summary: '人工抄表（与上次读数核对；换表/纠正须填原因）', perm: { routes: ['peopleCasualCopy'], op: 'device.manualRead' },
    action: '人工抄表', query: company, body: ManualReadingBody, response: ManualReadingResult, tags: ['人工抄表'],
  }),
  protectStart: endpoint({
    method: 'POST', path: `${V1}/protect/start`, summary: '开启保电/保水（按表具、房间或区域）', perm: protectOp, query: company, body: ProtectStartBody,
    response: z.object({ meters: z.number(), started: z.number(), renewed: z.number(), commands: z.number(), endAt: wireTimeOrNull, message: z.string() }), tags: protectTags,
  }),
  protectEnd: endpoint({
    method: 'POST', path: `${V1}/protect/end`, summary: '解除保电/保水（按表具、房间或区域）', perm: protectOp, query: company, body: ProtectEndBody,
    response: z.object({ meters: z.number(), ended: z.number(), commands: z.number(), message: z.string() }), tags: protectTags,
  }),
  protections: endpoint({
    method: 'GET', path: `${V1}/protect/list`, summary: '保电/保水列表与记录', perm: { routes: [...PROTECT_PAGES, 'notesKeepElectric', 'notesKeepWater'] }, query: ProtectListQuery,
    response: ProtectionRow, paged: true, tags: protectTags,
  }),
  timedList: endpoint({
    method: 'GET', path: `${V1}/timed/list`, summary: '定时阀控任务列表', perm: { routes: ['timeChangeControl'] }, query: TimedListQuery, response: TimedControlRow, paged: true, tags: timedTags,
  }),
  timedCreate: endpoint({
    method: 'POST', path: `${V1}/timed`, summary: '新增定时阀控', perm: timedWrite, query: company, body: TimedCreateBody,
    response: z.object({ ids: z.array(z.number()), created: z.number(), message: z.string() }), tags: timedTags,
  }),
  timedUpdate: endpoint({ method: 'PUT', path: `${V1}/timed`, summary: '编辑定时阀控', perm: timedWrite, query: company, body: TimedUpdateBody, response: z.null(), tags: timedTags }),
  timedEnable: endpoint({
    method: 'POST', path: `${V1}/timed/enable`, summary: '启用/停用定时阀控', perm: timedWrite, query: company, body: TimedEnableBody,
    response: z.object({ changed: z.number(), message: z.string() }), tags: timedTags,
  }),
  timedDelete: endpoint({
    method: 'DELETE', path: `${V1}/timed`, summary: '删除定时阀控', perm: timedWrite, query: company, body: TimedDeleteBody, response: z.object({ deleted: z.number() }), tags: timedTags,
  }),
  configs: endpoint({
    method: 'GET', path: `${V1}/config/list`, summary: '表具参数读取/设置记录', perm: { routes: ['notesConfig', 'constant', 'advConfig'] }, query: ConfigListQuery,
    response: MeterConfigRow, paged: true, tags: ['表具参数'],
  }),
};

export type ControlMeter = z.output<typeof ControlMeterRow>;
export type ManualResult = z.output<typeof ManualReadingResult>;
export type Protection = z.output<typeof ProtectionRow>;
export type TimedControl = z.output<typeof TimedControlRow>;
export type MeterConfig = z.output<typeof MeterConfigRow>;
