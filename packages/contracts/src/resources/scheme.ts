import { z } from 'zod';
import { defineResource, formSchema } from '../resource.ts';
import { num } from '../input.ts';
import {
  CHARGING_MONTH_TYPES, MAX_AMOUNT_YUAN, normalizeVersion, schemeIssues,
  type PriceVersion,
} from './pricing.ts';

export * from './pricing.ts';

// Archives, schemes part (issue 3 §7–8): charging schemes (收费方案, /recordsFees) with their price
// versions, company charge codes (收费码, sys_companychargecode) and alarm schemes (报警方案,
// /recordsPolice).
//
// Money on the wire: every amount (fees, thresholds, charge-code amounts) is a 元 string with at
// most 2 decimals in requests ("20", "20.5" and 20.5 are accepted) and exactly 2 in answers
// ("20.00"); the database keeps integer 分. Unit prices are 元 strings with at most 4 decimals in,
// exactly 4 out ("0.6800").

/** 方案类型 of charging and alarm schemes: 1 电, 2 水 (the same numbers as SchemeEnum 电费/水费). */
export const SCHEME_KINDS: Record<number, string> = { 1: '电费', 2: '水费' };
export const ALARM_KINDS: Record<number, string> = { 1: '电表', 2: '水表' };

/** SchemeEnum of company charge codes (GET sys_companychargecode/SchemeEnum). */
export const SCHEME_ENUM: Record<number, string> = { 1: '电费', 2: '水费', 3: '物业费', 4: '公摊费', 5: '其他' };

export const SCHEME_STATUS: Record<number, string> = { 1: '在用', 0: '停用' };

/** The operation key for writing charging schemes and charge codes (SPEC §3 finance group). */
export const CHARGING_SCHEME_OP = 'finance.chargingScheme';

const HM = { re: '^(([01]\\d|2[0-3]):[0-5]\\d)?$', message: '时间格式应为 HH:mm（如 22:00）' };

/**
 * 收费方案 (chargingscheme): the scheme's own fields. Its prices live in `versions` (see
 * ChargingSchemeBody): the list and search form derive from these fields.
 */
export const chargingSchemeResource = defineResource({
  name: 'chargingScheme',
  title: '收费方案',
  fields: [
    { key: 'name', label: '方案名称', type: 'text', required: true, max: 64, search: 'like', unique: true },
    { key: 'kind', label: '方案类型', type: 'enum', options: SCHEME_KINDS, required: true, search: 'eq' },
    {
      key: 'chargingMonthType', label: '阶梯累计方式', type: 'enum', options: CHARGING_MONTH_TYPES,
      tooltip: '阶梯计价按月或按年累计用量；非阶梯方案留空',
    },
    { key: 'status', label: '状态', type: 'enum', options: SCHEME_STATUS, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
    { key: 'updatedAt', label: '更新时间', type: 'datetime', readonly: true },
  ],
});

const looseOpt = z.union([z.string(), z.number(), z.null()]).optional();

/** One price version in a request; the rules are in pricing.ts (versionIssues). */
export const PriceVersionBody = z.object({
  /** an existing version of this scheme (kept, updated in place); absent = a new version */
  id: num(z.number().int().positive()).nullish(),
  effectiveFrom: z.string().optional(),
  mode: z.string().optional(),
  unitPrice: looseOpt,
  tiers: z.array(z.object({ upTo: looseOpt, price: looseOpt })).max(50).optional(),
  tou: z.object({ periods: z.array(z.object({ name: z.string().optional(), price: looseOpt, ranges: z.array(z.string()).max(48).optional() })).max(8) }).optional(),
  monthlyFee: looseOpt,
  minimumCharge: looseOpt,
});
export type PriceVersionBody = z.input<typeof PriceVersionBody>;

/** A version as stored and answered: canonical prices, fees in 分. */
export type StoredVersion = PriceVersion & { id?: number };

const schemeFields = formSchema(chargingSchemeResource).extend({
  versions: z.array(PriceVersionBody, { error: '请至少添加一个价格版本' }).max(200),
});

/** The whole pricing model checked (pricing.ts), answered in canonical form. */
function pricedScheme<T extends typeof schemeFields>(schema: T) {
  return schema
    .superRefine((val, ctx) => {
      for (const i of schemeIssues(val)) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
    })
    .transform((val) => ({
      ...(typeof val.id === 'number' ? { id: val.id } : {}),
      name: val.name as string,
      kind: val.kind as number,
      chargingMonthType: (val.chargingMonthType ?? null) as 1 | 2 | null,
      status: val.status as number,
      memo: val.memo as string,
      versions: (val.versions as z.output<typeof PriceVersionBody>[])
        .map((v) => ({ ...(v.id ? { id: v.id } : {}), ...normalizeVersion(v) }) as StoredVersion)
        .sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom)),
    }));
}

/**
 * POST chargingscheme/detail: the scheme's fields plus all its versions. Validates the whole
 * pricing model and answers the canonical form: versions sorted by effectiveFrom, prices with 4
 * decimals, fees in 分.
 */
export const ChargingSchemeBody = pricedScheme(schemeFields);
/** PUT chargingscheme/detail: the same with the scheme's id. */
export const ChargingSchemeUpdateBody = pricedScheme(
  schemeFields.extend({ id: num(z.number({ error: '请指定收费方案' }).int().positive('请指定收费方案'), '请指定收费方案') }),
);
export type ChargingSchemeInput = z.output<typeof ChargingSchemeBody> & { id?: number };

// The answers of the charging-scheme endpoints (ChargingScheme, ChargingSchemeRow, …) are declared with
// them in endpoints/scheme.ts.

/** 收费码 (sys_companychargecode): a fee code of the company, unique per company. */
export const chargeCodeResource = defineResource({
  name: 'chargeCode',
  title: '收费码',
  fields: [
    {
      key: 'code', label: '收费码', type: 'text', required: true, max: 32, search: 'like', unique: true,
      pattern: { re: '^[A-Za-z0-9_-]+$', message: '收费码只能包含字母、数字、下划线和短横线' },
    },
    { key: 'name', label: '收费名称', type: 'text', required: true, max: 64, search: 'like' },
    { key: 'schemeType', label: '收费类别', type: 'enum', options: SCHEME_ENUM, required: true, search: 'eq' },
    { key: 'amount', label: '金额（元）', type: 'money', min: 0, max: MAX_AMOUNT_YUAN, default: '0', tooltip: '固定收费金额，单位元，最多两位小数' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** A charge code in an answer (amount in 元, 2 decimals). */
export interface ChargeCode {
  id: number;
  companyId: number;
  code: string;
  name: string;
  schemeType: number;
  amount: string;
  memo: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * 报警方案 (alarmscheme): balance thresholds (元 on the wire, 分 in the database), notify channels and
 * the hours in which an exhausted balance does not disconnect.
 */
export const alarmSchemeResource = defineResource({
  name: 'alarmScheme',
  title: '报警方案',
  fields: [
    { key: 'name', label: '方案名称', type: 'text', required: true, max: 64, search: 'like', unique: true },
    { key: 'kind', label: '表具类型', type: 'enum', options: ALARM_KINDS, required: true, search: 'eq' },
    { key: 'alarmAmount1', label: '一级报警金额（元）', type: 'money', required: true, min: 0, max: MAX_AMOUNT_YUAN, tooltip: '余额低于此金额时发送第一次报警' },
    { key: 'alarmAmount2', label: '二级报警金额（元）', type: 'money', required: true, min: 0, max: MAX_AMOUNT_YUAN, tooltip: '余额低于此金额时发送第二次报警，不能大于一级报警金额' },
    { key: 'closeAmount', label: '断闸金额（元）', type: 'money', required: true, min: 0, max: MAX_AMOUNT_YUAN, tooltip: '余额低于此金额（再扣除透支额度）时断电/关阀，不能大于二级报警金额' },
    { key: 'overdraftAmount', label: '透支额度（元）', type: 'money', min: 0, max: MAX_AMOUNT_YUAN, default: '0', tooltip: '允许余额低于断闸金额的额度' },
    { key: 'notifySms', label: '短信通知', type: 'bool', default: true },
    { key: 'notifyPhone', label: '电话通知', type: 'bool', default: false },
    { key: 'noCloseStart', label: '不断闸开始', type: 'text', max: 5, pattern: HM, tooltip: '每天此时段内余额不足也不自动断闸；可跨零点，如 22:00 至 08:00' },
    { key: 'noCloseEnd', label: '不断闸结束', type: 'text', max: 5, pattern: HM },
    { key: 'noCloseWeekend', label: '周末不断闸', type: 'bool', default: false },
    { key: 'status', label: '状态', type: 'enum', options: SCHEME_STATUS, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** An alarm scheme in an answer (amounts in 元, 2 decimals). */
export interface AlarmScheme {
  id: number;
  companyId: number;
  name: string;
  kind: number;
  alarmAmount1: string;
  alarmAmount2: string;
  closeAmount: string;
  overdraftAmount: string;
  notifySms: boolean;
  notifyPhone: boolean;
  noCloseStart: string;
  noCloseEnd: string;
  noCloseWeekend: boolean;
  status: number;
  memo: string;
  createdAt: string;
  updatedAt: string;
}
