import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';

// The company's reminder rules (/yewu/api/alermSmsConfig, page /systemSend): which 短信模板 (a declared
// CRUD resource, crudApi.smsTemplate in endpoints/crud.ts), threshold and channel each meter kind and
// event uses.

const tags = ['短信'];
const rules = { routes: ['systemSend'] };

/** sms 短信, phone 电话, both 短信和电话, off 不发送 */
export const RULE_CHANNELS: Record<string, string> = { sms: '短信', phone: '电话', both: '短信和电话', off: '不发送' };

export const SmsRule = z.object({
  meterKind: num(z.number().int().min(1).max(2, '表类型须为 1 电表或 2 水表')),
  event: num(z.number().int().min(1).max(4, '事件须为 1–4')),
  templateId: num(z.number().int().positive()).nullable(),
  /** 余额不足 only: remind only when the balance is at or below this (分; 0 = at every alarm of the scheme) */
  thresholdFen: num(z.number().int().min(0, '阈值不能为负').max(100_000_000, '阈值过大')).default(0),
  channel: z.enum(['sms', 'phone', 'both', 'off'], { error: '发送方式须为 sms、phone、both 或 off' }),
});

export const SmsRulesBody = z.object({ rules: z.array(SmsRule).min(1, '请至少设置一条规则').max(8) });

export const SmsRuleRow = SmsRule.extend({
  templateName: z.string().nullable(),
  templateContent: z.string().nullable(),
  /** whether the company saved this rule (false: the default — the scheme's channels, the built-in text) */
  saved: z.boolean(),
});

export const smsEndpoints = {
  ruleList: endpoint({
    method: 'GET', path: '/yewu/api/alermSmsConfig/ConfigList', summary: '短信提醒规则', perm: rules, response: z.array(SmsRuleRow), tags,
  }),
  ruleSave: endpoint({
    method: 'POST', path: '/yewu/api/alermSmsConfig', summary: '保存短信提醒规则', perm: rules, action: '保存短信提醒规则', body: SmsRulesBody, response: z.array(SmsRuleRow), tags,
  }),
};

export type SmsRuleAnswer = z.output<typeof SmsRuleRow>;

// 群发短信 (/systemSend): owners chosen by area, arrears or meter kind; a preview of the count and the
// cost, a confirmation carrying the previewed count, then progress while the worker sends.

export const BULK_VARIABLES = ['company', 'owner', 'room'] as const;

export const BulkFilter = z.object({
  /** the area and everything below it */
  areaId: num(z.number().int().positive()).optional(),
  /** only owners with a negative balance on an electric or water account */
  arrearsOnly: z.boolean().optional().default(false),
  /** only owners whose room has a meter of this kind (1 电表, 2 水表) */
  meterKind: num(z.number().int().min(1).max(2, '表类型须为 1 电表或 2 水表')).optional(),
});

const bulkContent = z.string().trim().min(1, '请输入短信内容').max(300, '短信内容最多 300 个字')
  .refine((v) => [...v.matchAll(/\{(\w+)\}/g)].every((m) => (BULK_VARIABLES as readonly string[]).includes(m[1])), '短信内容只能使用变量 {company} {owner} {room}');

export const BulkPreviewBody = BulkFilter.extend({ content: bulkContent });
export const BulkSendBody = BulkPreviewBody.extend({
  /** the count the user confirmed: refused when the list changed since the preview */
  expectCount: num(z.number().int().min(1, '没有可发送的业主')),
});

export const BulkPreview = z.object({
  /** owners chosen, and those of them with a valid mobile number (the ones sent to) */
  owners: z.number(),
  count: z.number(),
  priceFen: z.number(),
  costFen: z.number(),
  /** the first few messages as they will read */
  sample: z.array(z.object({ ownerName: z.string(), phone: z.string(), roomName: z.string(), content: z.string() })),
});

export const BulkProgress = z.object({
  batch: z.string(),
  total: z.number(),
  queued: z.number(),
  sending: z.number(),
  sent: z.number(),
  failed: z.number(),
  costFen: z.number(),
  done: z.boolean(),
});

const bulk = { routes: ['systemSend'] };
export const bulkEndpoints = {
  preview: endpoint({
    method: 'POST', path: '/sms/bulk/preview', summary: '群发短信预览', perm: bulk, action: false, body: BulkPreviewBody, response: BulkPreview, tags,
  }),
  send: endpoint({
    method: 'POST', path: '/sms/bulk/send', summary: '群发短信', perm: bulk, action: '群发短信', body: BulkSendBody, response: BulkProgress, tags,
  }),
  progress: endpoint({
    method: 'GET', path: '/sms/bulk/progress', summary: '群发进度', perm: bulk, query: z.object({ batch: z.string().regex(/^[0-9a-f-]{36}$/, '批次号无效') }),
    response: BulkProgress, tags,
  }),
};
