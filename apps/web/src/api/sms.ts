// 短信 (/sms): the company's SMS provider (/sms/config).
import type { SmsConfig } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export type { SmsConfig };

export interface SmsConfigInput {
  provider: 'log' | 'aliyun' | 'tencent';
  accessKeyId?: string;
  /** empty: keep the stored one */
  secret?: string;
  signName?: string;
  templateCode?: string;
  sdkAppId?: string;
  region?: string;
}

export const smsApi = {
  config: () => call(E.notify.config),
  saveConfig: (body: SmsConfigInput) => call(E.notify.saveConfig, { body }),
};
