import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, wireTime, optionalRef, ref } from '../query.ts';
import { ALL_COLLECTOR_PLANS, ALL_ELECTRIC_PLANS, ALL_WATER_PLANS } from '../resources/company.ts';

// 单位 (/yewu/api/Company, /belongs): the platform's company list, what staff read of their own company
// (info, receipt account), the valve-control password and the company's device-plan permissions
// (CompanyDevicePermiss). The companies' five CRUD endpoints and the company classifies are declared
// resources (./crud.ts: `company`, `companyClassify`).

export const companyTags = ['单位'];
const tags = companyTags;
/** company management: platform admins on /belongs */
export const companyPlatform = { access: 0 as const, routes: ['belongs'] };
const platform = companyPlatform;
/** the valve dialog: whoever may switch valves */
const valve = { op: 'device.valve' };
/** a company admin (account or role administration) who may switch valves sets the password */
const valveAdmin = { access: 1 as const, routes: ['systemRecords', 'systemRole'], op: 'device.valve' };

const planList = (all: number[], label: string) =>
  z
    .array(num(z.number().int()))
    .max(100)
    .default([])
    .refine((a) => a.every((v) => all.includes(v)), `${label}包含无效的类型代码`)
    .transform((a) => [...new Set(a)].sort((x, y) => x - y));

export const DevicePermissQuery = z.object({
  companyId: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

export const DevicePermissBody = z.object({
  companyId: num(z.number().int().positive()),
  deviceCheck: z.boolean(),
  collectorPlans: planList(ALL_COLLECTOR_PLANS, '采集器类型'),
  electricPlans: planList(ALL_ELECTRIC_PLANS, '电表类型'),
  waterPlans: planList(ALL_WATER_PLANS, '水表类型'),
});

/** The valve-control password typed in the dialog (compared on the server). */
export const ValvePwdCheckBody = z.object({ password: z.string({ error: '请输入阀控密码' }).max(64, '阀控密码最多 32 位') });
/** A company admin sets the valve-control password. */
export const ValvePwdSetBody = z.object({
  password: z.string({ error: '请输入阀控密码' }).trim().min(4, '阀控密码至少 4 位').max(32, '阀控密码最多 32 位').regex(/^\S+$/, '阀控密码不能包含空格'),
  /** the password in use, when one is set */
  currentPassword: z.string().max(64, '阀控密码最多 32 位').optional(),
});

/** id and name: the header's company picker, the classify select */
export const NamedOptionRow = z.object({ id: z.number(), name: z.string() });

/** The SMS price of one notify type (SPEC §3: 1 短信, 2 电话), in 分 and as 元 text. */
export const SmsPriceRow = z.object({ notifyType: z.number(), name: z.string(), priceFen: z.number(), price: z.string() });

/** A company as answered (list, detail, CompanyInfo): names of its codes, never the valve password itself. */
export const CompanyInfoRow = z.object({
  id: z.number(),
  name: z.string(),
  ...optionalRef('classify'),
  contact: z.string(),
  phone: z.string(),
  address: z.string(),
  bankType: z.number(),
  bankName: z.string(),
  edition: z.number(),
  editionName: z.string(),
  unitLabel: z.string(),
  smsPriceFen: z.number(),
  phonePriceFen: z.number(),
  smsPrices: z.array(SmsPriceRow),
  deviceCheck: z.boolean(),
  /** whether a valve-control password is set */
  hasValveControlPwd: z.boolean(),
  collectorPlans: z.array(z.number()),
  electricPlans: z.array(z.number()),
  waterPlans: z.array(z.number()),
  createdAt: wireTime,
});

/** Who receives the money on receipts: the company and its settlement bank. */
export const ReceiptAccountRow = z.object({
  ...ref('company'),
  accountName: z.string(),
  bankType: z.number(),
  bankName: z.string(),
  contact: z.string(),
  phone: z.string(),
  address: z.string(),
});

/** The plans a company may use (the lists apply when deviceCheck is on). */
export const DevicePermissRow = z.object({
  ...ref('company'),
  deviceCheck: z.boolean(),
  collectorPlans: z.array(z.number()),
  electricPlans: z.array(z.number()),
  waterPlans: z.array(z.number()),
});

export const COMPANY_PATH = '/yewu/api/Company';
const C = COMPANY_PATH;
const D = '/yewu/api/CompanyDevicePermiss/detail';

/** besides the companies' five (the registry's `company` group, ./crud.ts) */
export const companyEndpoints = {
  userCompanies: endpoint({
    method: 'GET', path: `${C}/getUserCompanyList`, summary: '可切换的单位列表', perm: {}, response: z.array(NamedOptionRow), tags,
  }),
  classifyOptions: endpoint({
    method: 'GET', path: `${C}/GetCompanyClassifyList`, summary: '单位分类（全部）', perm: {}, response: z.array(NamedOptionRow), tags,
  }),
  info: endpoint({
    method: 'GET', path: `${C}/CompanyInfo`, summary: '当前单位信息', perm: {}, query: CompanyQuery, response: CompanyInfoRow.nullable(), tags,
  }),
  receiptAccount: endpoint({
    method: 'GET', path: `${C}/GetReceiptAccount`, summary: '收款账户（单位与结算银行）', perm: {}, query: CompanyQuery,
    response: ReceiptAccountRow, tags,
  }),
  valvePwdStatus: endpoint({
    method: 'GET', path: `${C}/getValveControlPwd`, summary: '是否已设置阀控密码（密码本身不出服务器）', perm: valve, query: CompanyQuery,
    response: z.object({ set: z.boolean() }), tags,
  }),
  checkValvePwd: endpoint({
    method: 'POST', path: `${C}/checkValveControlPwd`, summary: '校验阀控密码（阀控弹窗）', perm: valve, query: CompanyQuery, body: ValvePwdCheckBody,
    response: z.null(), tags,
  }),
  setValvePwd: endpoint({
    method: 'PUT', path: `${C}/setValveControlPwd`, summary: '设置/修改本单位阀控密码（已设置时须输入当前密码）', perm: valveAdmin,
    action: '设置阀控密码', query: CompanyQuery, body: ValvePwdSetBody, response: z.null(), tags,
  }),

  devicePermiss: endpoint({
    method: 'GET', path: D, summary: '单位设备权限', perm: {}, query: DevicePermissQuery, response: DevicePermissRow, tags,
  }),
  saveDevicePermiss: endpoint({
    method: 'POST', path: D, summary: '保存单位设备权限', perm: platform, body: DevicePermissBody, response: z.null(), tags,
  }),
};

export type NamedOption = z.output<typeof NamedOptionRow>;
export type SmsPrice = z.output<typeof SmsPriceRow>;
export type CompanyRow = z.output<typeof CompanyInfoRow>;
export type ReceiptAccount = z.output<typeof ReceiptAccountRow>;
export type CompanyDevicePermiss = z.output<typeof DevicePermissRow>;
export type DevicePermissInput = z.input<typeof DevicePermissBody>;
