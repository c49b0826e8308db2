import { defineResource } from '../resource.ts';
import { EDITION_TITLES } from '../api.ts';
import type { PlanOption } from './device.ts';
import { BANK_NAMES, COLLECTOR_PLANS, ELECTRIC_PLAN_KINDS, ELECTRIC_PLANS, WATER_PLAN_KINDS, WATER_PLANS } from '../plans.ts';

/** 单位分类 (CompanyClassify): a platform-wide dictionary. */
export const companyClassifyResource = defineResource({
  name: 'companyClassify',
  title: '单位分类',
  fields: [
    { key: 'name', label: '分类名称', type: 'text', required: true, max: 64, search: 'like', unique: true },
    { key: 'sort', label: '排序', type: 'int', min: 0, max: 9999, default: 0 },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** Notify types an SMS price is set for (SPEC §3: 1 短信, 2 电话). */
export const NOTIFY_TYPES: Record<number, string> = { 1: '短信', 2: '电话' };

const labels = (m: Record<number, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v]));

/**
 * 单位 (Company): the tenant, managed by platform admins on /belongs. Device-plan permissions are set
 * apart (CompanyDevicePermiss); the valve-control password is write-only here (blank keeps it).
 */
export const companyResource = defineResource({
  name: 'company',
  title: '单位',
  fields: [
    { key: 'name', label: '单位名称', type: 'text', required: true, max: 128, search: 'like', unique: true, width: 200 },
    { key: 'classifyId', label: '单位分类', type: 'ref', ref: { url: '/yewu/api/Company/GetCompanyClassifyList' }, search: 'eq' },
    { key: 'contact', label: '联系人', type: 'text', max: 64 },
    { key: 'phone', label: '联系电话', type: 'text', max: 32, pattern: { re: '^[0-9+\\-() ]{0,32}$', message: '联系电话只能包含数字、空格和 +-()' } },
    { key: 'address', label: '地址', type: 'text', max: 200, hideInTable: true },
    { key: 'bankType', label: '结算银行', type: 'enum', options: labels(BANK_NAMES), required: true, default: 0 },
    { key: 'edition', label: '平台版本', type: 'enum', options: labels(EDITION_TITLES), required: true, default: 0 },
    { key: 'smsPriceFen', label: '短信单价（分/条）', type: 'int', min: 0, max: 10000, default: 10 },
    { key: 'phonePriceFen', label: '电话单价（分/次）', type: 'int', min: 0, max: 10000, default: 20 },
    { key: 'deviceCheck', label: '设备类型校验', type: 'bool', default: false, tooltip: '开启后，单位只能使用“设备权限”中勾选的采集器、电表和水表类型' },
    { key: 'valveControlPwd', label: '阀控密码', type: 'password', max: 32, hideInTable: true, tooltip: '关阀时需输入的密码；编辑时留空表示不修改',
      pattern: { re: '^\\S{0,32}$', message: '阀控密码不能包含空格' } },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

export interface PlanGroup {
  kind: string;
  label: string;
  options: PlanOption[];
}

const PLAN_KIND_LABELS: Record<string, string> = { average: '普通', fourgaverage: '4G', lora: 'LoRa', nb: 'NB-IoT', multiUser: '多用户', zdc: 'ZDC' };

const groups = (kinds: Record<string, number[]>): PlanGroup[] =>
  Object.entries(kinds).map(([kind, values]) => ({
    kind,
    label: PLAN_KIND_LABELS[kind] ?? kind,
    options: values.map((v) => ({ value: v, label: `${PLAN_KIND_LABELS[kind] ?? kind}（${v}）` })),
  }));

/** The checklists of the device-permission dialog, grouped by kind (SPEC §3 plan values). */
export const DEVICE_PLAN_OPTIONS = {
  collector: Object.entries(COLLECTOR_PLANS).map(([v, label]) => ({ value: Number(v), label })) as PlanOption[],
  electric: groups(ELECTRIC_PLAN_KINDS),
  water: groups(WATER_PLAN_KINDS),
};

export const ALL_COLLECTOR_PLANS: number[] = Object.keys(COLLECTOR_PLANS).map(Number);
export { ELECTRIC_PLANS as ALL_ELECTRIC_PLANS, WATER_PLANS as ALL_WATER_PLANS };

export interface DevicePermiss {
  deviceCheck: boolean;
  collectorPlans: number[];
  electricPlans: number[];
  waterPlans: number[];
}

/**
 * Whether a company may use a device plan (SPEC §5): checked only when deviceCheck is on; otherwise
 * every plan is allowed.
 */
export function planAllowed(p: DevicePermiss, kind: 'collector' | 'electric' | 'water', plan: number): boolean {
  if (!p.deviceCheck) return true;
  const list = kind === 'collector' ? p.collectorPlans : kind === 'electric' ? p.electricPlans : p.waterPlans;
  return list.includes(plan);
}
