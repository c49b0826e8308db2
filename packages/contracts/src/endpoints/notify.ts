import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { Money } from './billing-input.ts';
import { AreaFilter, CompanyQuery, optText, PageQuery, optionalRef } from '../query.ts';

// 短信记录 (/sms, /notesMessage): the balance alarms sent by SMS or phone, with their state.

const when = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss').optional().or(z.literal('').transform(() => undefined));

/** held: 短信余额不足, waiting for the platform to top the company's SMS credit up (then queued again) */
export const NOTIFICATION_STATES = ['queued', 'sending', 'sent', 'failed', 'held'] as const;

/** 短信服务商: log 仅记录日志（默认）, aliyun 阿里云短信, tencent 腾讯云短信 */
export const SMS_PROVIDERS = ['log', 'aliyun', 'tencent'] as const;
export const SMS_PROVIDER_NAMES: Record<string, string> = { log: '仅记录日志', aliyun: '阿里云短信', tencent: '腾讯云短信', test: '测试' };

export const NotificationQuery = PageQuery.extend(AreaFilter.shape).extend({
  ownerName: optText(),
  phone: optText(20),
  status: z.enum(NOTIFICATION_STATES, { error: '状态须为 queued、sending、sent、failed 或 held' }).optional(),
  level: num(z.number().int().min(1, '类型须为 1–8').max(8, '类型须为 1–8')).optional(),
  startTime: when,
  endTime: when,
});

/** A notification as the list shows it; times are Beijing time text (YYYY-MM-DD HH:mm:ss). */
export const NotificationRow = z.object({
  id: z.number(),
  ...optionalRef('owner'),
  meterId: z.number().nullable(),
  /** 1 低于报警1, 2 低于报警2, 3 欠费（断电/关阀通知）, 4 恢复供应, 5 缴费到账, 6 群发, 7 公告通知, 8 业主端登录验证码 */
  level: z.number(),
  /** sms 短信, phone 电话 */
  channel: z.enum(['sms', 'phone']),
  phone: z.string(),
  content: z.string(),
  status: z.enum(NOTIFICATION_STATES),
  provider: z.string(),
  priceFen: z.number(),
  /** what it cost the company: its price once the provider accepted it, 0 if refused or undelivered */
  costFen: z.number(),
  error: z.string(),
  /** tries so far */
  attempts: z.number(),
  /** the provider's id of the message (阿里云 BizId, 腾讯云 SerialNo) and its answer to the last try */
  providerRef: z.string(),
  answer: z.string(),
  /** delivery receipt: '' not yet, delivered 已送达, undelivered 未送达 */
  receipt: z.enum(['', 'delivered', 'undelivered']),
  receiptText: z.string(),
  receiptAt: z.string().nullable(),
  /** a refused try that will be tried again: when */
  nextTryAt: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const text = (max: number, label: string) => z.string().trim().max(max, `${label}最多 ${max} 个字符`).optional().default('');

/** POST /sms/config: the company's SMS provider. An empty secret keeps the one stored. */
export const SmsConfigBody = z.object({
  provider: z.enum(SMS_PROVIDERS, { error: '服务商须为 log、aliyun 或 tencent' }),
  accessKeyId: text(128, 'AccessKey ID / SecretId '),
  secret: z.string().max(256, '密钥最多 256 个字符').optional().default(''),
  signName: text(64, '短信签名'),
  templateCode: text(64, '模板编号'),
  sdkAppId: text(32, 'SdkAppId '),
  region: text(32, '地域'),
  /** 语音通知 (notify type 2): 阿里云 TtsCode (TTS_…) / 腾讯云 VMS TemplateId; blank = phone notices only logged */
  voiceTemplateCode: text(64, '语音模板编号'),
  /** 阿里云 主叫显号 (CalledShowNumber) */
  voiceShowNumber: text(32, '主叫显号'),
  /** 腾讯云 VoiceSdkAppid */
  voiceSdkAppId: text(32, 'VoiceSdkAppid '),
});

/** GET /sms/config: the settings as stored, the secret only as whether it is set; the company's prices (SPEC §3). */
export const SmsConfigRow = z.object({
  companyId: z.number(),
  provider: z.enum(SMS_PROVIDERS),
  accessKeyId: z.string(),
  secretSet: z.boolean(),
  signName: z.string(),
  templateCode: z.string(),
  sdkAppId: z.string(),
  region: z.string(),
  voiceTemplateCode: z.string(),
  voiceShowNumber: z.string(),
  voiceSdkAppId: z.string(),
  updatedAt: z.string().nullable(),
  /** 'emulator': messages go to the local emulators (演示), 'live': to the real services */
  mode: z.enum(['emulator', 'live']),
  smsPriceFen: z.number(),
  phonePriceFen: z.number(),
});

/** 短信余额 of a company (GET /sms/credit): what the header and the SMS pages warn with. */
export const SmsCreditRow = z.object({
  companyId: z.number().nullable(),
  /** whether the platform keeps an SMS credit for the company (without one, messages are not limited) */
  kept: z.boolean(),
  balanceFen: z.number(),
  balance: z.string(),
  smsPriceFen: z.number(),
  phonePriceFen: z.number(),
  /** messages held for want of credit (余额不足), sent once the credit is topped up */
  heldCount: z.number(),
  /** out 余额不足（暂停发送）, low 余额偏低（不足 20 条）, '' enough or not kept */
  state: z.enum(['', 'low', 'out']),
  /** the warning to show ('' none) */
  warning: z.string(),
});

/** POST /sms/credit/topup (platform): adds to a company's SMS credit and releases its held messages. */
export const SmsTopUpBody = z.object({
  companyId: num(z.number({ error: '请选择单位' }).int().positive('请选择单位'), '请选择单位'),
  amount: Money,
  memo: z.string().trim().max(200, '备注最多 200 个字符').optional().default(''),
});

export const SmsCreditJournalRow = z.object({
  id: z.number(),
  companyId: z.number(),
  /** topup 充值, charge 扣费, refund 退回 */
  kind: z.enum(['topup', 'charge', 'refund']),
  kindText: z.string(),
  amount: z.string(),
  balance: z.string(),
  notificationId: z.number().nullable(),
  memo: z.string(),
  operatorName: z.string(),
  createdAt: z.string(),
});

export const notifyEndpoints = {
  list: endpoint({
    method: 'GET', path: '/sms/log/list', summary: '短信/电话提醒记录', perm: { routes: ['notesMessage'] }, query: NotificationQuery,
    response: NotificationRow, paged: true, tags: ['短信记录'],
  }),
  config: endpoint({
    method: 'GET', path: '/sms/config', summary: '短信服务商配置', perm: { routes: ['systemSend'] }, response: SmsConfigRow, tags: ['短信'],
  }),
  saveConfig: endpoint({
    method: 'POST', path: '/sms/config', summary: '保存短信服务商配置', perm: { routes: ['systemSend'] }, action: '保存短信服务商配置', body: SmsConfigBody,
    response: SmsConfigRow, tags: ['短信'],
  }),
  credit: endpoint({
    method: 'GET', path: '/sms/credit', summary: '短信余额（余额不足时提醒）', perm: {}, query: CompanyQuery, response: SmsCreditRow, tags: ['短信'],
  }),
  creditTopUp: endpoint({
    method: 'POST', path: '/sms/credit/topup', summary: '短信余额充值（平台）', perm: { access: 0 as const, routes: ['belongs'] }, action: '短信余额充值', body: SmsTopUpBody,
    response: SmsCreditRow.extend({ released: z.number() }), tags: ['短信'],
  }),
  creditJournal: endpoint({
    method: 'GET', path: '/sms/credit/journal', summary: '短信余额流水', perm: { routes: ['notesMessage', 'systemSend', 'belongs'] }, query: PageQuery.extend(CompanyQuery.shape),
    response: SmsCreditJournalRow, paged: true, tags: ['短信'],
  }),
};

export type Notification = z.output<typeof NotificationRow>;
export type SmsConfig = z.output<typeof SmsConfigRow>;
export type SmsCredit = z.output<typeof SmsCreditRow>;
export type SmsCreditJournal = z.output<typeof SmsCreditJournalRow>;
