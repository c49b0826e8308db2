import { defineResource } from '../resource.ts';
import { COLLECTOR_PLANS, ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS } from '../plans.ts';

// Archives, device part (issue 3 §5–6): collectors (gather), meters (device), focus devices and the
// device dictionaries (lookups). The server validates with these declarations; the web builds its
// tables and forms from them.

/** 1 电表, 2 水表 */
export const METER_KINDS: Record<number, string> = { 1: '电表', 2: '水表' };
export const METER_KIND = { electric: 1, water: 2 } as const;

/** 1 在用, 0 停用, 2 已销表 (set only by 销表, never by the archive form) */
export const METER_STATUS: Record<number, string> = { 1: '在用', 0: '停用', 2: '已销表' };
export const METER_CLOSED = 2;

/** relay/valve state reported by the device: 1 通, 0 断 (labels by meter kind) */
export const VALVE_STATE_LABELS: Record<number, Record<number, string>> = {
  1: { 1: '合闸', 0: '拉闸' },
  2: { 1: '开阀', 0: '关阀' },
};

/** The device dictionaries of SPEC §7 (one table, one kind per list). */
export const LOOKUP_KINDS: Record<string, string> = {
  protocol: '通讯协议',
  baud: '波特率',
  phase: '相位',
  gateway: '网关',
  port: '端口',
  brand: '品牌',
  caliber: '口径',
  type: '表具类型',
};
export type LookupKind = 'protocol' | 'baud' | 'phase' | 'gateway' | 'port' | 'brand' | 'caliber' | 'type';

/** The meter field that references each dictionary. */
export const LOOKUP_FIELDS: Record<LookupKind, string> = {
  protocol: 'protocolId',
  baud: 'baudId',
  phase: 'phaseId',
  gateway: 'gatewayId',
  port: 'portId',
  brand: 'brandId',
  caliber: 'caliberId',
  type: 'typeId',
};

/** phaseId 1 = 单相: switching such a meter off asks for the valve-control password (SPEC §4). */
export const PHASE_SINGLE = 1;

const ELECTRIC_KIND_LABELS: Record<string, string> = { average: '普通', lora: 'LoRa', nb: 'NB-IoT', multiUser: '多用户', zdc: 'ZDC' };
const WATER_KIND_LABELS: Record<string, string> = { average: '普通', fourgaverage: '4G', nb: 'NB-IoT', lora: 'LoRa' };

export interface PlanOption {
  value: number;
  label: string;
}

const planOptions = (kinds: Record<string, number[]>, labels: Record<string, string>): PlanOption[] =>
  Object.entries(kinds).flatMap(([k, codes]) => codes.map((value) => ({ value, label: `${labels[k] ?? k}（${value}）` })));

/** Every plan a meter of this kind may have, labelled 类别（代码）. */
export const ELECTRIC_PLAN_OPTIONS: PlanOption[] = planOptions(ELECTRIC_PLAN_KINDS, ELECTRIC_KIND_LABELS);
export const WATER_PLAN_OPTIONS: PlanOption[] = planOptions(WATER_PLAN_KINDS, WATER_KIND_LABELS);
export const COLLECTOR_PLAN_OPTIONS: PlanOption[] = Object.entries(COLLECTOR_PLANS).map(([v, label]) => ({ value: Number(v), label }));

export function meterPlanLabel(kind: number, plan: number): string {
  const opts = kind === METER_KIND.water ? WATER_PLAN_OPTIONS : ELECTRIC_PLAN_OPTIONS;
  return opts.find((o) => o.value === plan)?.label ?? String(plan);
}

/**
 * Meter address rule: DL/T 645 addresses are 12 digits, CJ/T 188 addresses 14. The protocol decides
 * when it is one of these two; otherwise the kind does (电表 → DL/T 645, 水表 → CJ/T 188).
 */
export function addressDigits(kind: number, protocolCode?: string | null): 12 | 14 {
  const p = (protocolCode ?? '').toUpperCase();
  if (p.startsWith('DLT645')) return 12;
  if (p.startsWith('CJT188')) return 14;
  return kind === METER_KIND.water ? 14 : 12;
}

export const IMEI_RE = /^\d{15}$/;

/** 采集器 (gather). */
export const collectorResource = defineResource({
  name: 'collector',
  title: '采集器',
  fields: [
    { key: 'name', label: '采集器名称', type: 'text', required: true, max: 64, search: 'like' },
    {
      key: 'imei', label: 'IMEI', type: 'text', required: true, max: 15, search: 'like',
      pattern: { re: '^\\d{15}$', message: 'IMEI 须为 15 位数字' },
    },
    {
      key: 'plan', label: '采集器方案', type: 'enum', required: true, search: 'eq',
      options: Object.fromEntries(Object.entries(COLLECTOR_PLANS).map(([k, v]) => [k, v])),
    },
    { key: 'areaId', label: '安装区域', type: 'ref', required: true, ref: { url: '/yewu/api/GetAreaTreeNoRoom' } },
    { key: 'simNo', label: 'SIM 卡号', type: 'text', max: 20, pattern: { re: '^\\d{0,20}$', message: 'SIM 卡号只能是数字' } },
    { key: 'installAddress', label: '安装位置', type: 'text', max: 200 },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'areaName', label: '区域', type: 'text', readonly: true },
    { key: 'meterCount', label: '表具数', type: 'int', readonly: true },
    { key: 'online', label: '在线', type: 'bool', readonly: true, search: 'eq' },
    { key: 'lastSeenAt', label: '最后通讯', type: 'datetime', readonly: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** 表具 (device): an electricity or water meter in a room. */
export const meterResource = defineResource({
  name: 'meter',
  title: '表具',
  fields: [
    { key: 'name', label: '表具名称', type: 'text', max: 64, search: 'like' },
    { key: 'kind', label: '表具类别', type: 'enum', required: true, search: 'eq', options: { 1: '电表', 2: '水表' } },
    { key: 'plan', label: '表具方案', type: 'int', required: true, min: 0, max: 9999, search: 'eq' },
    {
      key: 'address', label: '表地址', type: 'text', required: true, max: 14, search: 'like',
      pattern: { re: '^(\\d{12}|\\d{14})$', message: '表地址须为 12 位（DL/T 645）或 14 位（CJ/T 188）数字' },
      tooltip: '电表 DL/T 645 为 12 位数字，水表 CJ/T 188 为 14 位数字',
    },
    { key: 'roomId', label: '房间', type: 'ref', required: true, search: 'eq', ref: { url: '/yewu/api/GetAreaTree' } },
    { key: 'collectorId', label: '采集器', type: 'ref', search: 'eq', ref: { url: '/device/api/v1/gather/list' } },
    { key: 'imei', label: 'IMEI', type: 'text', max: 15, pattern: { re: '^(\\d{15})?$', message: 'IMEI 须为 15 位数字' } },
    { key: 'protocolId', label: '通讯协议', type: 'ref', ref: { url: '/device/api/v1/protocol/list' } },
    { key: 'baudId', label: '波特率', type: 'ref', ref: { url: '/device/api/v1/baud/list' } },
    { key: 'phaseId', label: '相位', type: 'ref', ref: { url: '/device/api/v1/phase/list' } },
    { key: 'gatewayId', label: '网关', type: 'ref', ref: { url: '/device/api/v1/gateway/list' } },
    { key: 'portId', label: '端口', type: 'ref', ref: { url: '/device/api/v1/port/list' } },
    { key: 'brandId', label: '品牌', type: 'ref', ref: { url: '/device/api/v1/brand/list' } },
    { key: 'caliberId', label: '口径', type: 'ref', ref: { url: '/device/api/v1/caliber/list' } },
    { key: 'typeId', label: '表具类型', type: 'ref', ref: { url: '/device/api/v1/type/list' } },
    { key: 'multiplier', label: '倍率', type: 'decimal', scale: 2, min: 0.01, max: 100000, default: '1' },
    { key: 'initialReading', label: '初始读数', type: 'decimal', scale: 2, min: 0, max: 999999999, default: '0' },
    { key: 'chargingSchemeId', label: '收费方案', type: 'ref', ref: { url: '/yewu/api/chargingscheme/GetAllUsingList' } },
    { key: 'alarmSchemeId', label: '报警方案', type: 'ref', ref: { url: '/yewu/api/alarmscheme/list' } },
    { key: 'installDate', label: '安装日期', type: 'date' },
    {
      key: 'reportInterval', label: '上报周期（分钟）', type: 'int', min: 0, max: 10080, default: 0,
      tooltip: '表具主动上报的周期。0 表示按通讯方式（NB 表按系统设置的 NB 上报周期，其余按连接心跳）；直连表具连续 3 个周期无通讯才判为离线',
    },
    // 已销表 (2) is searchable but set only by 销表: the service refuses it on the archive form
    { key: 'status', label: '状态', type: 'enum', options: { 1: '在用', 0: '停用', 2: '已销表' }, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    // answered, not written: names from the joins and the device-side state the gateway maintains
    { key: 'roomName', label: '房间名称', type: 'text', readonly: true, search: 'like' },
    { key: 'areaId', label: '区域', type: 'ref', readonly: true },
    { key: 'areaName', label: '区域名称', type: 'text', readonly: true },
    { key: 'ownerName', label: '业主', type: 'text', readonly: true },
    { key: 'collectorName', label: '采集器名称', type: 'text', readonly: true },
    { key: 'online', label: '在线', type: 'bool', readonly: true, search: 'eq' },
    { key: 'valveState', label: '通断状态', type: 'int', readonly: true },
    { key: 'lastSeenAt', label: '最后通讯', type: 'datetime', readonly: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** 关注设备. */
export const focusResource = defineResource({
  name: 'focus',
  title: '关注设备',
  fields: [
    { key: 'meterId', label: '表具', type: 'ref', required: true, ref: { url: '/device/api/v1/device/list' } },
    { key: 'memo', label: '关注原因', type: 'textarea', max: 200 },
    { key: 'address', label: '表地址', type: 'text', readonly: true, search: 'like' },
    { key: 'kind', label: '表具类别', type: 'enum', readonly: true, search: 'eq', options: { 1: '电表', 2: '水表' } },
    { key: 'roomName', label: '房间', type: 'text', readonly: true },
    { key: 'online', label: '在线', type: 'bool', readonly: true },
    { key: 'valveState', label: '通断状态', type: 'int', readonly: true },
    { key: 'createdAt', label: '关注时间', type: 'datetime', readonly: true },
  ],
});

/** 设备字典 (platform-wide; platform admins maintain it). */
export const deviceLookupResource = defineResource({
  name: 'deviceLookup',
  title: '设备字典',
  fields: [
    { key: 'kind', label: '字典类别', type: 'enum', required: true, search: 'eq', options: LOOKUP_KINDS },
    { key: 'name', label: '名称', type: 'text', required: true, max: 64, search: 'like' },
    { key: 'code', label: '编码', type: 'text', max: 32, tooltip: '通讯协议以 DLT645 / CJT188 开头时按该协议校验表地址' },
    { key: 'sort', label: '排序', type: 'int', min: 0, max: 9999, default: 0 },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

// The rows the device service answers (LookupRow, CollectorRow, MeterRow, FocusRow) are declared with
// their endpoints (endpoints/device.ts).
