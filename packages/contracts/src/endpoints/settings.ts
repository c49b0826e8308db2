import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { wireTimeOrNull } from '../query.ts';
import { defineResource, fieldSchema } from '../resource.ts';
import { MAX_AMOUNT_YUAN } from '../resources/pricing.ts';

// 系统配置 (sys_config, /headSet): the settings a company tunes, one value per item of the catalogue
// below (an item not set has its default). What a company already configures elsewhere stays there:
// SMS provider and reminders on /notesConfig, alarm thresholds in 报警方案 (/recordsPolice), the valve
// password on /headSet's own card. 导出配置 (/export/api/save/config): which columns each .xlsx export
// of the company carries (the exports and their columns: ../exports.ts).

const tags = ['系统配置'];
/** a company admin (account or role administration), or the platform admin for a company */
const configAdmin = { routes: ['systemRecords', 'systemRole', 'belongs'] };
const companyId = num(z.number({ error: '单位编号须为数字' }).int().positive('单位编号须为正整数'), '单位编号须为数字');

/** The items of sys_config (key, Chinese label, type, rules, default), shown on /headSet in this order. */
export const sysConfigResource = defineResource({
  name: 'sysConfig',
  title: '系统配置',
  fields: [
    { key: 'receiptTitle', label: '收据抬头', type: 'text', max: 64, default: '', tooltip: '打印在收据顶部；留空则使用单位名称' },
    { key: 'receiptFooter', label: '收据备注', type: 'textarea', max: 200, default: '', tooltip: '打印在收据底部，如客服电话、温馨提示' },
    {
      key: 'arrearsLine', label: '欠费线（元）', type: 'money', min: -MAX_AMOUNT_YUAN, max: MAX_AMOUNT_YUAN, default: '0',
      tooltip: '账户余额低于此金额的房间计为欠费（区域概况的欠费房间数与欠费金额）',
    },
  ],
});

export type SysConfigKey = 'receiptTitle' | 'receiptFooter' | 'arrearsLine';
export type SysConfigValues = Record<SysConfigKey, string>;

export const SysConfigQuery = z.object({ companyId: companyId.optional(), searchCompanyID: companyId.optional() });

/** PUT sys_config/detail: any of the items (an item left out keeps its value; '' resets a text). */
export const SysConfigBody = z
  .object({
    companyId: companyId.optional(),
    ...Object.fromEntries(sysConfigResource.fields.map((f) => [f.key, fieldSchema(f).optional()])),
  })
  .refine((b) => sysConfigResource.fields.some((f) => (b as Record<string, unknown>)[f.key] !== undefined), '请至少修改一项配置');

export const SysConfigRow = z.object({
  key: z.string(),
  label: z.string(),
  value: z.string(),
  defaultValue: z.string(),
  /** when the company last changed it (null = the default) */
  updatedAt: wireTimeOrNull,
  updatedBy: z.string(),
});

export const ExportColumnRow = z.object({ header: z.string(), shown: z.boolean() });
export const ExportConfigRow = z.object({
  key: z.string(),
  title: z.string(),
  columns: z.array(ExportColumnRow),
  updatedAt: wireTimeOrNull,
});

export const ExportConfigQuery = z.object({ searchCompanyID: companyId.optional() });
/** PUT /export/api/save/config: the columns one export carries, by header (the others are left out). */
export const ExportConfigBody = z.object({
  key: z.string({ error: '请指定导出' }).trim().min(1, '请指定导出').max(32),
  columns: z.array(z.string().trim().max(32), { error: '请选择导出的列' }).max(100).min(1, '至少保留一列'),
});

export const settingsEndpoints = {
  configList: endpoint({
    method: 'GET', path: '/yewu/api/sys_config/list', summary: '系统配置', perm: {}, query: SysConfigQuery, response: z.array(SysConfigRow), tags,
  }),
  configSave: endpoint({
    method: 'PUT', path: '/yewu/api/sys_config/detail', summary: '修改系统配置', action: '修改系统配置', perm: configAdmin,
    query: SysConfigQuery, body: SysConfigBody, response: z.array(SysConfigRow), tags,
  }),
  exportConfig: endpoint({
    method: 'GET', path: '/export/api/save/config', summary: '导出配置（各导出包含的列）', perm: {}, query: ExportConfigQuery, response: z.array(ExportConfigRow), tags,
  }),
  saveExportConfig: endpoint({
    method: 'PUT', path: '/export/api/save/config', summary: '保存导出配置', action: '保存导出配置', perm: configAdmin,
    query: ExportConfigQuery, body: ExportConfigBody, response: ExportConfigRow, tags,
  }),
};

export type SysConfigItem = z.output<typeof SysConfigRow>;
export type ExportConfig = z.output<typeof ExportConfigRow>;
export type SysConfigInput = z.output<typeof SysConfigBody>;
export type ExportConfigInput = z.output<typeof ExportConfigBody>;
