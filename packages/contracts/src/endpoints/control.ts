import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, CompanyQuery, IdQuery, PageQuery, optText, wireTime, wireTimeOrNull, ref, blankRef, coded } from '../query.ts';
import { fromBeijingFields, parseBeijing } from '../time.ts';

// Device control (SPEC §7 device service, /device/api/v1): commands (device/order/*), readings and read
// tasks (device/read/*, device/reading/list), device exceptions (device/unusual/*), the raw report log,
// a room's meters for its bill and the company's third-party settings. The metering module's meter
// list, 人工抄表, 保电/保水 and 定时阀控 are endpoints/metering.ts.

// ---- shared pieces ------------------------------------------------------------------------------

export const COMMAND_KINDS = {
  open: '合闸/开阀',
  close: '拉闸/关阀',
  limit: '透支限额下发',
  read: '抄表',
  config_read: '参数读取',
  config_set: '参数设置',
  time_sync: '校时',
  protect_on: '保电',
  protect_off: '保电解除',
} as const;
export type CommandKind = keyof typeof COMMAND_KINDS;
export const COMMAND_KIND_LIST = Object.keys(COMMAND_KINDS) as CommandKind[];

export const COMMAND_STATUS = {
  queued: '排队中',
  sent: '已下发',
  succeeded: '成功',
  failed: '失败',
  timed_out: '超时',
  expired: '已过期',
} as const;
export type CommandStatus = keyof typeof COMMAND_STATUS;
const COMMAND_STATUS_LIST = Object.keys(COMMAND_STATUS) as CommandStatus[];

/** The kinds of device warnings and what a user reads for each (the lists, the pages' search, /screen, the messages). */
export const WARNING_KINDS = {
  offline: '设备离线过久',
  consumption_closed: '断电/关阀状态下仍有用量',
  backwards: '读数倒走或早于上次读数',
  implausible: '读数异常跳变（待确认）',
  valve_mismatch: '阀门/继电器状态与指令不符',
  valve_fault: '阀门故障',
  low_battery: '电池电压低',
  clock_drift: '表计时钟偏差',
  read_fail: '连续抄表失败',
  rate_error: '倍率异常',
  no_read: '长时间无读数',
} as const;
export type WarningKind = keyof typeof WARNING_KINDS;
export const WARNING_KIND_LIST = Object.keys(WARNING_KINDS) as WarningKind[];
/** What a user reads for a warning's kind (the kind itself when it is not one of WARNING_KINDS). */
export const warningKindText = (kind: string): string => (Object.hasOwn(WARNING_KINDS, kind) ? WARNING_KINDS[kind as WarningKind] : kind);

const id = num(z.number().int().positive());
/** true/false as JSON, as text ('true', '1', …) or as a number */
export const boolish = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'), z.number().transform((n) => n !== 0)]);
const reason = z.string().trim().max(200).optional().default('');
const memo = z.string().trim().max(200).optional().default('');

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

// ---- requests -----------------------------------------------------------------------------------

export const OpenBody = z.object({
  id,
  /** true 合闸/开阀, false 拉闸/关阀 */
  open: boolish,
  memo,
  /** a person's reason to close a protected meter or inside no-disconnect hours */
  overrideReason: reason,
  /** the valve-control password typed in the dialog: switching a phaseId-1 meter off needs it (checked by the server) */
  password: z.string().max(64, '阀控密码最多 32 位').optional(),
});

export const LimitBody = z.object({ id, limitPrice: amount(999999.99), memo });

export const UpdateNoBody = z.object({ id, no: z.string().trim().regex(/^\d{12}$/, '表号应为 12 位数字'), memo });

export const ReadBody = z.object({
  ids: z.array(id).min(1, '请选择要抄读的表具').max(5000),
  /** also read voltage, current, power, balance and the clock */
  full: boolish.optional().default(false),
});

/** 批量拉闸/关阀 (/longRange): one request queues every close as a task (its progress on /task and the page) */
export const BulkCloseBody = z.object({
  ids: z.array(id).min(1, '请选择要拉闸/关阀的表具').max(20000, '一次最多拉闸/关阀 20000 块表具'),
  memo,
  /** a person's reason to close protected meters or inside no-disconnect hours (forces those too) */
  overrideReason: reason,
  /** the valve-control password typed in the confirmation: asked when any meter has phaseId 1 */
  password: z.string().max(64, '阀控密码最多 32 位').optional(),
});

export const MeterIdBody = z.object({ id });
export const IdOrIdsBody = z
  .object({ id: id.optional(), ids: z.array(id).max(500).optional() })
  .refine((v) => v.id || v.ids?.length, { message: '请选择表具', path: ['id'] });

const paramValue = z.union([z.number(), z.string().trim().max(32)]).transform((v) => String(v));
export const ConfigSetBody = z.object({
  id,
  /** electric: alarm1Money, alarm2Money, overdraftLimit, hoardLimit, closeAllowMoney, ctRatio, ptRatio; water: settleDay, syncTime */
  params: z.record(z.string(), paramValue).refine((p) => Object.keys(p).length > 0, { message: '请至少设置一个参数' }),
  memo,
});

/** the meter lists of the warning and LoRa pages: keyword, meter kind, area */
export const MeterFilterQuery = PageQuery.extend(AreaFilter.shape).extend({
  keyword: optText(64),
  /** 1 电表, 2 水表 */
  kind: num(z.number().int().min(1).max(2)).optional(),
});
export const LoraListBody = MeterFilterQuery;
export const FailListQuery = MeterFilterQuery.extend({ num: num(z.number().int().min(1).max(1000)).default(2) });
/** not read since `date` (default: today, China time) */
export const UnreadQuery = MeterFilterQuery.extend({ date: when() });
export const PowerReportQuery = MeterFilterQuery.extend({ meterId: id.optional(), start: when(), end: when(true) });

export const UnusualQuery = MeterFilterQuery.extend({
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

export const CommandListQuery = MeterFilterQuery.extend({
  type: csv(COMMAND_KIND_LIST),
  status: csv(COMMAND_STATUS_LIST),
  meterId: id.optional(),
  origin: num(z.number().int().min(1).max(4)).optional(),
  start: when(),
  end: when(true),
});

/** origin 1 定时抄表, 2 批量抄表, 3 批量拉闸/关阀; id: one task (a page following its progress) */
export const ReadTaskQuery = PageQuery.extend({ id: id.optional(), origin: num(z.number().int().min(1).max(3)).optional(), start: when(), end: when(true) });

export const ReadingListQuery = MeterFilterQuery.extend({
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

/** ?id= of a meter or a command, with the company a platform admin works in */
const IdInCompany = IdQuery.extend(CompanyQuery.shape);

// ---- answers ------------------------------------------------------------------------------------

const json = z.record(z.string(), z.unknown());

/** A command as the pages show it (device/order, device/order/list, the answer of every command request). */
export const CommandRow = z.object({
  id: z.number(),
  ...blankRef('meter'),
  address: z.string(),
  ...coded('kind', z.enum(COMMAND_KIND_LIST)),
  ...coded('status', z.enum(COMMAND_STATUS_LIST)),
  attempts: z.number(),
  maxAttempts: z.number(),
  memo: z.string(),
  overrideReason: z.string(),
  requesterName: z.string(),
  /** 1 a person, 2 automatic (balance), 3 timed control, 4 scheduled reading */
  origin: z.number(),
  reply: json.nullable(),
  error: z.string(),
  createdAt: wireTime,
  sentAt: wireTimeOrNull,
  finishedAt: wireTimeOrNull,
  expiresAt: wireTime,
  /** an identical command was already pending: this request joined it */
  joined: z.boolean().optional(),
  /** the result in words (single commands) */
  message: z.string().optional(),
});
export const CommandListRow = CommandRow.extend({ roomName: z.string(), areaName: z.string() });

export const ReadResult = z.object({ taskId: z.number().nullable(), queued: z.number(), commands: z.array(CommandRow) });

/** A meter of a bulk close that was not queued, and why (overridable: a reason may force it) */
export const BulkCloseRefusal = z.object({ meterId: z.number(), name: z.string(), code: z.string(), message: z.string(), overridable: z.boolean() });
/** taskId: the task counting the queued closes (null when none was queued); joined: a close was already pending (not sent again) */
export const BulkCloseResult = z.object({ taskId: z.number().nullable(), queued: z.number(), joined: z.number(), refused: z.array(BulkCloseRefusal) });

/** A meter in the warning lists (unread, failed reads, no power) and the LoRa list. */
export const MeterListRow = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  address: z.string(),
  kind: z.number(),
  plan: z.number(),
  online: z.boolean(),
  valveState: z.number().nullable(),
  lastSeenAt: wireTimeOrNull,
  ...blankRef('room'),
  ...blankRef('area'),
  ...blankRef('collector'),
  collectorOnline: z.boolean().nullable(),
  lastReadAt: wireTimeOrNull,
  lastTotal: z.string().nullable(),
});
export const ReadFailRow = MeterListRow.extend({ fails: z.number(), lastFailAt: wireTime, lastError: z.string() });
export const NoPowerRow = MeterListRow.extend({ closedAt: wireTimeOrNull });
export const LoraMeterRow = MeterListRow.extend({ config: json.nullable(), configAt: wireTimeOrNull });

export const ReadTaskRow = z.object({
  id: z.number(),
  ...ref('company'),
  /** 1 定时抄表, 2 批量抄表, 3 批量拉闸/关阀 */
  ...coded('origin', z.number()),
  total: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  pending: z.number(),
  ...coded('status', z.string()),
  startedAt: wireTime,
  finishedAt: wireTimeOrNull,
  requestedBy: z.number().nullable(),
  requestedByName: z.string(),
});

export const ReadingRow = z.object({
  id: z.number(),
  ...ref('meter'),
  address: z.string(),
  meterKind: z.number(),
  roomName: z.string(),
  areaName: z.string(),
  readAt: wireTime,
  receivedAt: wireTime,
  /** 1 自动, 2 随机, 3 人工, 4 上报 */
  ...coded('source', z.number()),
  total: z.string(),
  registers: json,
  exception: z.string(),
  commandId: z.number().nullable(),
  ...blankRef('operator'),
});

export const DeviceReportRow = z.object({
  id: z.number(),
  ...blankRef('meter'),
  address: z.string(),
  ...blankRef('collector'),
  collectorImei: z.string(),
  direction: z.string(),
  channel: z.string(),
  hex: z.string(),
  decoded: json.nullable(),
  error: z.string(),
  createdAt: wireTime,
});

export const PowerRow = z.object({
  ...ref('meter'),
  address: z.string(),
  roomName: z.string(),
  areaName: z.string(),
  readAt: wireTime,
  total: z.string(),
  activePower: z.unknown(),
  voltageA: z.unknown(),
  currentA: z.unknown(),
  source: z.number(),
});

export const WarningRow = z.object({
  id: z.number(),
  companyId: z.number(),
  meterId: z.number().nullable(),
  collectorId: z.number().nullable(),
  areaId: z.number().nullable(),
  ...coded('kind', z.string()),
  detail: json,
  /** 0 未处理, 1 已处理 */
  ...coded('status', z.number()),
  handledBy: z.number().nullable(),
  handledByName: z.string(),
  handledAt: wireTimeOrNull,
  handleMemo: z.string(),
  createdAt: wireTime,
  lastSeenAt: wireTime,
  meterName: z.string(),
  address: z.string(),
  meterKind: z.number().nullable(),
  valveState: z.number().nullable(),
  meterOnline: z.boolean().nullable(),
  collectorName: z.string(),
  collectorImei: z.string(),
  areaName: z.string(),
  roomName: z.string(),
});

/** A room's (or owner's) meter with its recent readings and the usage between them. */
export const DeviceBillRow = z.object({
  ...ref('meter'),
  address: z.string(),
  kind: z.number(),
  unit: z.string(),
  roomName: z.string(),
  valveState: z.number().nullable(),
  online: z.boolean(),
  lastReadAt: wireTimeOrNull,
  lastTotal: z.string().nullable(),
  periodStart: wireTimeOrNull,
  periodEnd: wireTimeOrNull,
  usage: z.string(),
  readings: z.array(z.object({ readAt: wireTime, total: z.string(), source: z.number(), sourceText: z.string(), usage: z.string().nullable() })),
});

export const ThirdConfig = z.object({ companyId: z.number(), config: json, updatedAt: wireTimeOrNull.optional() });

// ---- endpoints ----------------------------------------------------------------------------------

const V1 = '/device/api/v1';
const tags = ['设备控制'];
const VALVE_PAGES = ['longRange', 'casualCopy', 'recordsTable', 'keepElectric', 'keepWater'];
const CONFIG_PAGES = ['constant', 'advConfig', 'recordsTable', 'notesConfig'];
const WARN_PAGES = ['warnElectricOff', 'warnWaterOff', 'warnElectricError', 'warnWaterValveError', 'warnElectricRateError', 'warnCopyReadError', 'deviceNoRead', 'home'];
const READ_PAGES = ['casualCopy', 'recordsTable', 'longRange'];
const configOp = { routes: CONFIG_PAGES, op: 'device.constant' };
const COMMAND_PAGES = ['notesControl', 'notesElectricity', 'notesConfig', 'longRange', 'casualCopy', 'task'];
/** Marking warnings handled is a write: a warning page (not the always-allowed home) and its own operation key. */
export const DEAL_PERM = { routes: WARN_PAGES.filter((k) => k !== 'home'), op: 'device.edit' };
const review = { routes: WARN_PAGES, op: 'device.manualRead' };
const warnRead = { routes: WARN_PAGES };
const third = { routes: ['belongs', 'systemSend'] };
const company = CompanyQuery;

export const controlEndpoints = {
  // ---- commands
  valve: endpoint({
    method: 'POST', path: `${V1}/device/order/open`, summary: '合闸/拉闸（开阀/关阀）', perm: { routes: VALVE_PAGES, op: 'device.valve' }, query: company, body: OpenBody,
    response: CommandRow, tags,
  }),
  limit: endpoint({
    method: 'POST', path: `${V1}/device/order/limit`, summary: '透支限额下发', perm: { routes: [...VALVE_PAGES, ...CONFIG_PAGES], op: 'device.overdraft' }, query: company,
    body: LimitBody, response: CommandRow, tags,
  }),
  updateNo: endpoint({ method: 'POST', path: `${V1}/device/order/update/no`, summary: '修改表号', perm: configOp, query: company, body: UpdateNoBody, response: CommandRow, tags }),
  read: endpoint({
    method: 'POST', path: `${V1}/device/order/read`, summary: '随机抄表（按表具）', perm: { routes: READ_PAGES, op: 'device.readEnergy' }, query: company, body: ReadBody,
    response: ReadResult, tags,
  }),
  /** every close queued in one request as a task (origin 3); the page and /task follow its progress */
  closeBulk: endpoint({
    method: 'POST', path: `${V1}/device/order/close/bulk`, summary: '批量拉闸/关阀（任务）', perm: { routes: ['longRange'], op: 'device.valve' }, query: company,
    body: BulkCloseBody, response: BulkCloseResult, tags,
  }),
  timeSync: endpoint({ method: 'POST', path: `${V1}/device/order/time/sync`, summary: '校时', perm: configOp, query: company, body: MeterIdBody, response: CommandRow, tags }),
  /**
   * A page of LoRa meters, paged by index/size in the body (the answer carries `count` too). Declared
   * with its rows as an array: a `paged` declaration takes its paging in the query (endpoint.test.ts).
   */
  loraList: endpoint({
    method: 'POST', path: `${V1}/device/order/lora/list`, summary: 'LoRa 表具列表（含最近参数）', perm: { routes: CONFIG_PAGES }, action: '查询LoRa表具', body: LoraListBody,
    response: z.array(LoraMeterRow), tags,
  }),
  loraConfigRead: endpoint({ method: 'POST', path: `${V1}/device/order/lora/config/read`, summary: 'LoRa 表参数读取', perm: configOp, query: IdInCompany, response: CommandRow, tags }),
  loraConfigSet: endpoint({ method: 'POST', path: `${V1}/device/order/lora/config/set`, summary: 'LoRa 表参数设置', perm: configOp, query: company, body: ConfigSetBody, response: CommandRow, tags }),
  nbConfigSet: endpoint({ method: 'POST', path: `${V1}/device/order/nb/config/set`, summary: 'NB 表参数设置', perm: configOp, query: company, body: ConfigSetBody, response: CommandRow, tags }),
  configSet: endpoint({ method: 'POST', path: `${V1}/device/order/config/set`, summary: '表具参数设置', perm: configOp, query: company, body: ConfigSetBody, response: CommandRow, tags }),
  /** one meter: its command (waited for); several: each command */
  configRead: endpoint({
    method: 'POST', path: `${V1}/device/read/config`, summary: '表具参数读取', perm: configOp, query: company, body: IdOrIdsBody,
    response: z.union([CommandRow, z.array(CommandRow)]), tags,
  }),
  commands: endpoint({ method: 'GET', path: `${V1}/device/order/list`, summary: '指令记录（阀控记录）', perm: { routes: COMMAND_PAGES }, query: CommandListQuery, response: CommandListRow, paged: true, tags }),
  command: endpoint({
    method: 'GET', path: `${V1}/device/order`, summary: '指令详情', perm: { routes: [...COMMAND_PAGES, 'constant', 'advConfig'] }, query: IdInCompany, response: CommandRow, tags,
  }),

  // ---- readings and reading tasks
  readTasks: endpoint({ method: 'GET', path: `${V1}/device/read/task/list`, summary: '抄表任务列表', perm: { routes: ['task', 'casualCopy', 'copyLog'] }, query: ReadTaskQuery, response: ReadTaskRow, paged: true, tags }),
  readFails: endpoint({ method: 'GET', path: `${V1}/device/read/fail/list`, summary: '连续抄表失败的表具', perm: warnRead, query: FailListQuery, response: ReadFailRow, paged: true, tags }),
  unread: endpoint({ method: 'GET', path: `${V1}/device/read/unread/list`, summary: '未抄读的表具', perm: warnRead, query: UnreadQuery, response: MeterListRow, paged: true, tags }),
  noPower: endpoint({ method: 'GET', path: `${V1}/device/nopower/list`, summary: '断电/关阀的表具', perm: warnRead, query: MeterFilterQuery, response: NoPowerRow, paged: true, tags }),
  readings: endpoint({
    method: 'GET', path: `${V1}/device/reading/list`, summary: '抄表记录', perm: { routes: ['notesCopy', 'rgNotesCopy', 'copyLog', 'copyread', 'casualCopy', 'peopleCasualCopy'] },
    query: ReadingListQuery, response: ReadingRow, paged: true, tags,
  }),
  reports: endpoint({ method: 'GET', path: `${V1}/device/report/list`, summary: '设备上报日志（原始报文）', perm: { routes: ['deviceReportLog'] }, query: ReportListQuery, response: DeviceReportRow, paged: true, tags }),
  billByDevice: endpoint({
    method: 'GET', path: `${V1}/user/bill/by/device`, summary: '房间/业主的表具读数与用量', perm: { routes: ['energy', 'compre', 'copyread', 'recordsRoom', 'recordsOwner', 'billprint'] },
    query: BillByDeviceQuery, response: z.array(DeviceBillRow), tags,
  }),

  // ---- exceptions
  warnings: endpoint({ method: 'GET', path: `${V1}/device/unusual/list`, summary: '设备异常列表', perm: warnRead, query: UnusualQuery, response: WarningRow, paged: true, tags }),
  deal: endpoint({
    method: 'PUT', path: `${V1}/device/unusual/deal`, summary: '处理设备异常', perm: DEAL_PERM, query: company, body: DealBody,
    response: z.object({ handled: z.number(), skipped: z.number() }), tags,
  }),
  acceptReading: endpoint({
    method: 'PUT', path: `${V1}/device/unusual/reading/accept`, summary: '接受异常跳变读数（按该读数计费）', perm: review, query: company, body: ReviewBody,
    response: z.object({ accepted: z.number(), rejected: z.number(), memo: z.string() }), tags,
  }),
  rejectReading: endpoint({
    method: 'PUT', path: `${V1}/device/unusual/reading/reject`, summary: '驳回异常跳变读数（不计费）', perm: review, query: company, body: ReviewBody,
    response: z.object({ accepted: z.number(), rejected: z.number(), memo: z.string() }), tags,
  }),
  openWarnings: endpoint({ method: 'GET', path: `${V1}/device/unusual/open/list`, summary: '阀门/继电器异常（未处理）', perm: warnRead, query: UnusualQuery, response: WarningRow, paged: true, tags }),
  power: endpoint({ method: 'GET', path: `${V1}/device/power/report`, summary: '功率记录', perm: { routes: ['notesPower', 'home'] }, query: PowerReportQuery, response: PowerRow, paged: true, tags }),

  // ---- third-party settings
  third: endpoint({ method: 'GET', path: `${V1}/company/third`, summary: '第三方配置', perm: third, query: company, response: ThirdConfig, tags }),
  saveThird: endpoint({ method: 'POST', path: `${V1}/company/third`, summary: '保存第三方配置', perm: third, body: ThirdBody, response: ThirdConfig, tags }),
};

export type Command = z.output<typeof CommandRow>;
export type CommandListItem = z.output<typeof CommandListRow>;
export type ReadResultData = z.output<typeof ReadResult>;
export type MeterListItem = z.output<typeof MeterListRow>;
export type Reading = z.output<typeof ReadingRow>;
export type Warning = z.output<typeof WarningRow>;
export type PowerReading = z.output<typeof PowerRow>;
export type ReadTask = z.output<typeof ReadTaskRow>;
export type BulkCloseResultData = z.output<typeof BulkCloseResult>;
export type DeviceReport = z.output<typeof DeviceReportRow>;
