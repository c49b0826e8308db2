import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';

// The only SQL of the companies' own payment merchants (company_merchants).

export interface MerchantRecord {
  companyId: number;
  wxEnabled: boolean;
  wxMchid: string;
  wxAppid: string;
  wxSerialNo: string;
  wxPrivateKeyEnc: string;
  wxPlatformSerial: string;
  wxPlatformKey: string;
  wxApiV3KeyEnc: string;
  aliEnabled: boolean;
  aliAppId: string;
  aliSellerId: string;
  aliPrivateKeyEnc: string;
  aliPublicKey: string;
}

const COLUMNS = sql`company_id AS "companyId", wx_enabled AS "wxEnabled", wx_mchid AS "wxMchid", wx_appid AS "wxAppid", wx_serial_no AS "wxSerialNo",
  wx_private_key_enc AS "wxPrivateKeyEnc", wx_platform_serial AS "wxPlatformSerial", wx_platform_key AS "wxPlatformKey", wx_apiv3_key_enc AS "wxApiV3KeyEnc",
  ali_enabled AS "aliEnabled", ali_app_id AS "aliAppId", ali_seller_id AS "aliSellerId", ali_private_key_enc AS "aliPrivateKeyEnc", ali_public_key AS "aliPublicKey"`;

const record = (x: Record<string, unknown>): MerchantRecord => ({
  companyId: Number(x.companyId), wxEnabled: x.wxEnabled === true, wxMchid: String(x.wxMchid), wxAppid: String(x.wxAppid), wxSerialNo: String(x.wxSerialNo),
  wxPrivateKeyEnc: String(x.wxPrivateKeyEnc), wxPlatformSerial: String(x.wxPlatformSerial), wxPlatformKey: String(x.wxPlatformKey), wxApiV3KeyEnc: String(x.wxApiV3KeyEnc),
  aliEnabled: x.aliEnabled === true, aliAppId: String(x.aliAppId), aliSellerId: String(x.aliSellerId), aliPrivateKeyEnc: String(x.aliPrivateKeyEnc), aliPublicKey: String(x.aliPublicKey),
});

/** The company's merchant (as stored: secrets sealed) and when it last changed. */
export async function getMerchant(tx: Tx, companyId: number): Promise<(MerchantRecord & { updatedAt: string; stamp: string }) | undefined> {
  const r = await tx.execute(sql`SELECT ${COLUMNS}, ${localTime(sql`updated_at`)} AS "updatedAt", updated_at::text AS stamp FROM company_merchants WHERE company_id = ${companyId}`);
  const x = r.rows[0];
  return x ? { ...record(x), updatedAt: String(x.updatedAt), stamp: String(x.stamp) } : undefined;
}

export async function companyName(tx: Tx, companyId: number): Promise<string | undefined> {
  const r = await tx.execute(sql`SELECT name FROM companies WHERE id = ${companyId}`);
  return r.rows[0] ? String(r.rows[0].name) : undefined;
}

export async function saveMerchant(tx: Tx, m: MerchantRecord, userId: number) {
  await tx.execute(sql`
    INSERT INTO company_merchants (company_id, wx_enabled, wx_mchid, wx_appid, wx_serial_no, wx_private_key_enc, wx_platform_serial, wx_platform_key, wx_apiv3_key_enc,
      ali_enabled, ali_app_id, ali_seller_id, ali_private_key_enc, ali_public_key, updated_by, updated_at)
    VALUES (${m.companyId}, ${m.wxEnabled}, ${m.wxMchid}, ${m.wxAppid}, ${m.wxSerialNo}, ${m.wxPrivateKeyEnc}, ${m.wxPlatformSerial}, ${m.wxPlatformKey}, ${m.wxApiV3KeyEnc},
      ${m.aliEnabled}, ${m.aliAppId}, ${m.aliSellerId}, ${m.aliPrivateKeyEnc}, ${m.aliPublicKey}, ${userId}, clock_timestamp())
    ON CONFLICT (company_id) DO UPDATE SET wx_enabled = EXCLUDED.wx_enabled, wx_mchid = EXCLUDED.wx_mchid, wx_appid = EXCLUDED.wx_appid,
      wx_serial_no = EXCLUDED.wx_serial_no, wx_private_key_enc = EXCLUDED.wx_private_key_enc, wx_platform_serial = EXCLUDED.wx_platform_serial,
      wx_platform_key = EXCLUDED.wx_platform_key, wx_apiv3_key_enc = EXCLUDED.wx_apiv3_key_enc, ali_enabled = EXCLUDED.ali_enabled,
      ali_app_id = EXCLUDED.ali_app_id, ali_seller_id = EXCLUDED.ali_seller_id, ali_private_key_enc = EXCLUDED.ali_private_key_enc,
      ali_public_key = EXCLUDED.ali_public_key, updated_by = EXCLUDED.updated_by, updated_at = clock_timestamp()`);
}

/** Enabled merchants with this WeChat mchid / Alipay app id (the local emulator checks requests with them). */
export async function merchantsById(tx: Tx, channel: 'wechat' | 'alipay', merchantId: string): Promise<MerchantRecord[]> {
  const r = await tx.execute(channel === 'wechat'
    ? sql`SELECT ${COLUMNS} FROM company_merchants WHERE wx_enabled AND wx_mchid = ${merchantId}`
    : sql`SELECT ${COLUMNS} FROM company_merchants WHERE ali_enabled AND ali_app_id = ${merchantId}`);
  return r.rows.map(record);
}
