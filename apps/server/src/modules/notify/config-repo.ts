import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';

// The only SQL of the per-company SMS provider settings (sms_configs, /sms/config).

export interface SmsConfigRow {
  companyId: number;
  provider: string;
  accessKeyId: string;
  secretEnc: string;
  signName: string;
  templateCode: string;
  sdkAppId: string;
  region: string;
  voiceTemplateCode: string;
  voiceShowNumber: string;
  voiceSdkAppId: string;
  updatedAt: string | null;
}

const cols = sql`company_id AS "companyId", provider, access_key_id AS "accessKeyId", secret_enc AS "secretEnc", sign_name AS "signName",
  template_code AS "templateCode", sdk_app_id AS "sdkAppId", region, voice_template_code AS "voiceTemplateCode", voice_show_number AS "voiceShowNumber",
  voice_sdk_app_id AS "voiceSdkAppId", ${localTime(sql`updated_at`)} AS "updatedAt"`;

const rowOf = (x: Record<string, unknown>): SmsConfigRow => ({
  companyId: Number(x.companyId), provider: String(x.provider), accessKeyId: String(x.accessKeyId), secretEnc: String(x.secretEnc),
  signName: String(x.signName), templateCode: String(x.templateCode), sdkAppId: String(x.sdkAppId), region: String(x.region),
  voiceTemplateCode: String(x.voiceTemplateCode), voiceShowNumber: String(x.voiceShowNumber), voiceSdkAppId: String(x.voiceSdkAppId),
  updatedAt: x.updatedAt == null ? null : String(x.updatedAt),
});

export async function getSmsConfig(tx: Tx, companyId: number): Promise<SmsConfigRow | null> {
  const r = await tx.execute(sql`SELECT ${cols} FROM sms_configs WHERE company_id = ${companyId}`);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** The settings of several companies at once (the sender's batch). */
export async function smsConfigsOf(tx: Tx, companyIds: number[]): Promise<SmsConfigRow[]> {
  if (!companyIds.length) return [];
  const r = await tx.execute(sql`SELECT ${cols} FROM sms_configs WHERE company_id = ANY(${sql.param(companyIds)}::bigint[])`);
  return r.rows.map(rowOf);
}

/** The sealed secrets stored under an AccessKey ID / SecretId (the local emulators check signatures with them). */
export async function secretsByKeyId(tx: Tx, provider: string, accessKeyId: string): Promise<string[]> {
  const r = await tx.execute(sql`SELECT secret_enc FROM sms_configs WHERE provider = ${provider} AND access_key_id = ${accessKeyId} AND secret_enc <> ''`);
  return r.rows.map((x) => String(x.secret_enc));
}

export async function saveSmsConfig(tx: Tx, c: Omit<SmsConfigRow, 'updatedAt'>, updatedBy: number | null) {
  await tx.execute(sql`
    INSERT INTO sms_configs (company_id, provider, access_key_id, secret_enc, sign_name, template_code, sdk_app_id, region,
      voice_template_code, voice_show_number, voice_sdk_app_id, updated_by, updated_at)
    VALUES (${c.companyId}, ${c.provider}, ${c.accessKeyId}, ${c.secretEnc}, ${c.signName}, ${c.templateCode}, ${c.sdkAppId}, ${c.region},
      ${c.voiceTemplateCode}, ${c.voiceShowNumber}, ${c.voiceSdkAppId}, ${updatedBy}, now())
    ON CONFLICT (company_id) DO UPDATE SET provider = EXCLUDED.provider, access_key_id = EXCLUDED.access_key_id, secret_enc = EXCLUDED.secret_enc,
      sign_name = EXCLUDED.sign_name, template_code = EXCLUDED.template_code, sdk_app_id = EXCLUDED.sdk_app_id, region = EXCLUDED.region,
      voice_template_code = EXCLUDED.voice_template_code, voice_show_number = EXCLUDED.voice_show_number, voice_sdk_app_id = EXCLUDED.voice_sdk_app_id,
      updated_by = EXCLUDED.updated_by, updated_at = now()`);
}

/** The company's SMS prices per notify type (分): 1 短信, 2 电话 (SPEC §3). */
export async function smsPrices(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT sms_price_fen, phone_price_fen FROM companies WHERE id = ${companyId}`);
  const x = r.rows[0];
  return { smsPriceFen: Number(x?.sms_price_fen ?? 0), phonePriceFen: Number(x?.phone_price_fen ?? 0) };
}
