import { bigint, boolean, index, integer, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { id, ref, companyId, tenantKey, createdAt, updatedAt, timestamps, memo, blank, blankText, inUse, archiveTail } from './common.ts';

/** 单位分类: a platform-wide dictionary (no tenant). */
export const companyClassifies = pgTable('company_classifies', {
  id: id(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  memo: memo(),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
});

/** 单位 (tenant). Row-level security shows a company only its own row. */
export const companies = pgTable('companies', {
  id: id(),
  name: varchar('name', { length: 128 }).notNull().unique(),
  classifyId: bigint('classify_id', { mode: 'number' }).references(() => companyClassifies.id),
  contact: blank('contact', 64),
  phone: blank('phone', 32),
  address: blankText('address'),
  /** 0 农业银行, 1 中国银行, 2 地方银行 */
  bankType: integer('bank_type').notNull().default(0),
  /** 0 智能水电表物联网管理平台, 1 智慧市场管理平台 */
  edition: integer('edition').notNull().default(0),
  /** SMS price per notify type, in 分: 1 短信, 2 电话 */
  smsPriceFen: integer('sms_price_fen').notNull().default(10),
  phonePriceFen: integer('phone_price_fen').notNull().default(20),
  /** 短信余额 in 分, topped up by the platform and charged per priced message; null = no credit kept */
  smsCreditFen: bigint('sms_credit_fen', { mode: 'number' }),
  /** whether device-plan permissions are checked (SPEC §5) */
  deviceCheck: boolean('device_check').notNull().default(false),
  /** argon2id hash of the valve-control password ('' = not set); a value from before 0029 may be plain until first used */
  valveControlPwd: blankText('valve_control_pwd'),
  /** CompanyDevicePermiss: the plan codes this company may use (checked when deviceCheck is on) */
  collectorPlans: integer('collector_plans').array().notNull().default([]),
  electricPlans: integer('electric_plans').array().notNull().default([]),
  waterPlans: integer('water_plans').array().notNull().default([]),
  /** 充值档位 (Company/GetPayGear): the amounts offered to owners, 分, ascending */
  payGears: integer('pay_gears').array().notNull().default([]),
  status: inUse(),
  ...timestamps(),
});

/**
 * 短信服务商 per company (/sms/config): log (default: the message goes to the log), aliyun 阿里云短信,
 * tencent 腾讯云短信. The secret is stored encrypted (AES-256-GCM, key from SMS_CONFIG_KEY or
 * DATA_DIR/sms-config-key) and never answered back.
 */
export const smsConfigs = pgTable('sms_configs', {
  companyId: companyId().primaryKey(),
  provider: varchar('provider', { length: 16 }).notNull().default('log'),
  accessKeyId: blank('access_key_id', 128),
  secretEnc: blankText('secret_enc'),
  signName: blank('sign_name', 64),
  /** 阿里云 TemplateCode / 腾讯云 TemplateId of the notice template (one variable: content) */
  templateCode: blank('template_code', 64),
  /** 腾讯云 SmsSdkAppId */
  sdkAppId: blank('sdk_app_id', 32),
  region: blank('region', 32),
  /** 语音通知: 阿里云 TtsCode / 腾讯云 VMS TemplateId (one variable: content) */
  voiceTemplateCode: blank('voice_template_code', 64),
  /** 阿里云 CalledShowNumber (主叫显号) */
  voiceShowNumber: blank('voice_show_number', 32),
  /** 腾讯云 VoiceSdkAppid */
  voiceSdkAppId: blank('voice_sdk_app_id', 32),
  updatedBy: ref('updated_by'),
  updatedAt: updatedAt(),
});

/** 短信模板 (/alermSmsConfigTemplate): platform-wide message templates per event, with {variables}. */
export const smsTemplates = pgTable('sms_templates', {
  id: id(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  /** 1 余额不足, 2 欠费停止供应, 3 恢复供应, 4 缴费到账 */
  event: integer('event').notNull(),
  content: text('content').notNull(),
  ...archiveTail(),
});

/** 短信提醒规则 (alermSmsConfig): per company, meter kind and event — template, threshold, channel. */
export const smsRules = pgTable('sms_rules', {
  companyId: companyId(),
  /** 1 电表, 2 水表 */
  meterKind: integer('meter_kind').notNull(),
  event: integer('event').notNull(),
  templateId: bigint('template_id', { mode: 'number' }).references(() => smsTemplates.id),
  /** 余额不足 only: remind only at or below this balance (分; 0 = at every alarm of the scheme) */
  thresholdFen: integer('threshold_fen').notNull().default(0),
  /** sms, phone, both, off */
  channel: varchar('channel', { length: 8 }).notNull().default('sms'),
  updatedAt: updatedAt(),
}, (t) => [primaryKey({ columns: [t.companyId, t.meterKind, t.event] })]);

/** 系统配置 (sys_config): one value per company and catalogue item (sysConfigResource); unset = the default. */
export const companyConfigs = pgTable('company_configs', {
  companyId: companyId(),
  key: varchar('key', { length: 64 }).notNull(),
  value: text('value').notNull(),
  updatedBy: ref('updated_by'),
  updatedAt: updatedAt(),
}, (t) => [primaryKey({ columns: [t.companyId, t.key] })]);

/** 导出配置 (/export/api/save/config): the columns a company's export leaves out (by header; none = all). */
export const exportConfigs = pgTable('export_configs', {
  companyId: companyId(),
  exportKey: varchar('export_key', { length: 32 }).notNull(),
  hidden: text('hidden').array().notNull().default([]),
  updatedBy: ref('updated_by'),
  updatedAt: updatedAt(),
}, (t) => [primaryKey({ columns: [t.companyId, t.exportKey] })]);

/** 短信余额流水: top-ups, charges per message and refunds of messages not delivered (issue 14 item 10). */
export const smsCreditJournal = pgTable('sms_credit_journal', {
  ...tenantKey(),
  /** topup 充值, charge 扣费, refund 退回 */
  kind: varchar('kind', { length: 8 }).notNull(),
  /** signed: + top-up / refund, − charge */
  amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
  /** the balance after it */
  balanceFen: bigint('balance_fen', { mode: 'number' }).notNull(),
  notificationId: ref('notification_id'),
  memo: blank('memo', 200),
  operatorName: blank('operator_name', 64),
  createdAt: createdAt(),
}, (t) => [index('sms_credit_journal_company').on(t.companyId, t.id)]);
