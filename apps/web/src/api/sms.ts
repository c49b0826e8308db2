// 短信 (/sms): the company's SMS provider (/sms/config).
import type { SmsConfig, SmsCredit, SmsCreditJournal } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export type { SmsConfig, SmsCredit, SmsCreditJournal };

export interface SmsConfigInput {
  provider: 'log' | 'aliyun' | 'tencent';
  accessKeyId?: string;
  /** empty: keep the stored one */
  secret?: string;
  signName?: string;
  templateCode?: string;
  sdkAppId?: string;
  region?: string;
  /** 语音通知 (电话提醒): 阿里云 TtsCode / 腾讯云 VMS TemplateId, 阿里云 主叫显号, 腾讯云 VoiceSdkAppid */
  voiceTemplateCode?: string;
  voiceShowNumber?: string;
  voiceSdkAppId?: string;
}

export const smsApi = {
  config: () => call(E.notify.config),
  saveConfig: (body: SmsConfigInput) => call(E.notify.saveConfig, { body }),
  /** 短信余额 of the user's company (a platform admin: of the company picked at the top) */
  credit: (company?: string) => call(E.notify.credit, { query: company ? { searchCompanyID: company } : {} }),
  /** platform: adds to a company's SMS credit; held messages are sent again */
  topUp: (body: { companyId: number; amount: string; memo?: string }) => call(E.notify.creditTopUp, { body }),
  creditJournal: (q: { index: number; size: number }, company?: string) =>
    call(E.notify.creditJournal, { query: { ...q, ...(company ? { searchCompanyID: company } : {}) } }),
};

export type { SmsRuleAnswer } from '@meter/contracts';

export interface SmsRuleInput {
  meterKind: number;
  event: number;
  templateId: number | null;
  thresholdFen: number;
  channel: 'sms' | 'phone' | 'both' | 'off';
}

type TemplateQuery = { index: number; size: number; name?: string; event?: number; status?: number };

export const smsTemplateApi = {
  /** the declared resource's list (the page itself is a CrudPage on E.smsTemplate) */
  list: (q: TemplateQuery) => call(E.smsTemplate.list, { query: q }),
  rules: () => call(E.sms.ruleList),
  saveRules: (rules: SmsRuleInput[]) => call(E.sms.ruleSave, { body: { rules } }),
};

export interface BulkInput {
  areaId?: number;
  arrearsOnly?: boolean;
  meterKind?: number;
  content: string;
}

export const bulkSmsApi = {
  preview: (body: BulkInput) => call(E.bulk.preview, { body }),
  send: (body: BulkInput & { expectCount: number }) => call(E.bulk.send, { body }),
  progress: (batch: string) => call(E.bulk.progress, { query: { batch } }),
};
