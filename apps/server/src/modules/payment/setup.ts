import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import { API } from '@meter/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { sealingKey } from '../../sealed.ts';
import { companyMerchants, emulatorMerchants, pemOf } from './merchant.ts';
import { emulatorKeys, publicOf } from './emulator/keys.ts';
import { startEmulator, type Emulator } from './emulator/server.ts';
import { alipay } from './providers/alipay.ts';
import type { PayGateways } from './providers/gateway.ts';
import { wechatPay } from './providers/wechat.ts';
import { SIMULATED, type Payments } from './service.ts';

// The payment providers from the configuration (PAY_MODE): the real WeChat Pay / Alipay with the
// merchant keys named by path, the local emulators (their keys made under DATA_DIR at first start),
// or the simulated HMAC provider.

export type PaySettings = Pick<Config, 'PORT' | 'dataDir' | 'PAY_MODE' | 'PAY_CONFIG_KEY' | 'PAY_ORDER_TTL_MINUTES' | 'PAY_NOTIFY_BASE_URL' | 'PAY_EMULATOR_PORT' | 'PAY_EMULATOR_PUBLIC_URL'
  | 'WECHAT_MCHID' | 'WECHAT_APPID' | 'WECHAT_MERCHANT_SERIAL' | 'WECHAT_MERCHANT_KEY_PATH' | 'WECHAT_PLATFORM_SERIAL' | 'WECHAT_PLATFORM_KEY_PATH' | 'WECHAT_APIV3_KEY' | 'WECHAT_BASE_URL'
  | 'ALIPAY_APP_ID' | 'ALIPAY_SELLER_ID' | 'ALIPAY_APP_KEY_PATH' | 'ALIPAY_PUBLIC_KEY_PATH' | 'ALIPAY_GATEWAY'>;

/** the providers' notify callbacks (declared: API.payment.notifyWechat / notifyAlipay) */
export const NOTIFY_PATHS = { wechat: API.payment.notifyWechat.path, alipay: API.payment.notifyAlipay.path };

const read = (p: string) => fs.readFileSync(p, 'utf8');

/**
 * The payments of this process; in emulator mode with `emulator`, the emulator is started here too (it
 * serves the companies' own merchants stored in `db` as well as its own).
 */
export async function paymentsFromConfig(c: PaySettings, o: { emulator: boolean; db?: Db }): Promise<{ payments: Payments; emulator?: Emulator }> {
  const ttlMs = c.PAY_ORDER_TTL_MINUTES * 60_000;
  if (c.PAY_MODE === 'simulated') return { payments: { ...SIMULATED, ttlMs } };
  const base = c.PAY_NOTIFY_BASE_URL ?? `http://127.0.0.1:${c.PORT}`;
  const key = sealingKey(c.dataDir, 'pay-config-key', c.PAY_CONFIG_KEY);
  const notifyUrl = { wechat: base + NOTIFY_PATHS.wechat, alipay: base + NOTIFY_PATHS.alipay };
  const gateways: PayGateways = {};
  if (c.PAY_MODE === 'emulator') {
    const k = emulatorKeys(c.dataDir);
    const db = o.db;
    const emulator = o.emulator
      ? await startEmulator({ keys: k, port: c.PAY_EMULATOR_PORT, publicUrl: c.PAY_EMULATOR_PUBLIC_URL, merchants: db && ((channel, id) => emulatorMerchants(db, key, channel, id)) })
      : undefined;
    const url = emulator?.url ?? `http://127.0.0.1:${c.PAY_EMULATOR_PORT}`;
    gateways.wechat = wechatPay({
      mchid: k.wechat.mchid, appid: k.wechat.appid, serialNo: k.wechat.serialNo, privateKey: k.wechat.merchantKey,
      platformSerial: k.wechat.platformSerial, platformKey: publicOf(k.wechat.platformKey), apiV3Key: k.wechat.apiV3Key,
      baseUrl: url, notifyUrl: base + NOTIFY_PATHS.wechat,
    });
    gateways.alipay = alipay({
      appId: k.alipay.appId, sellerId: k.alipay.sellerId, privateKey: k.alipay.appKey, alipayPublicKey: publicOf(k.alipay.alipayKey),
      gateway: `${url}/gateway.do`, notifyUrl: base + NOTIFY_PATHS.alipay,
    });
    const merchants = companyMerchants({
      key, mode: 'emulator', wechatBase: url, alipayGateway: `${url}/gateway.do`, notifyUrl,
      emulator: { wxPlatformSerial: k.wechat.platformSerial, wxPlatformKey: pemOf(k.wechat.platformKey), aliPublicKey: pemOf(k.alipay.alipayKey) },
    });
    return { payments: { gateways, ttlMs, merchants }, emulator };
  }
  if (c.WECHAT_MCHID && c.WECHAT_APPID && c.WECHAT_MERCHANT_SERIAL && c.WECHAT_MERCHANT_KEY_PATH && c.WECHAT_PLATFORM_SERIAL && c.WECHAT_PLATFORM_KEY_PATH && c.WECHAT_APIV3_KEY) {
    gateways.wechat = wechatPay({
      mchid: c.WECHAT_MCHID, appid: c.WECHAT_APPID, serialNo: c.WECHAT_MERCHANT_SERIAL, privateKey: createPrivateKey(read(c.WECHAT_MERCHANT_KEY_PATH)),
      platformSerial: c.WECHAT_PLATFORM_SERIAL, platformKey: createPublicKey(read(c.WECHAT_PLATFORM_KEY_PATH)), apiV3Key: c.WECHAT_APIV3_KEY,
      baseUrl: c.WECHAT_BASE_URL, notifyUrl: base + NOTIFY_PATHS.wechat,
    });
  }
  if (c.ALIPAY_APP_ID && c.ALIPAY_SELLER_ID && c.ALIPAY_APP_KEY_PATH && c.ALIPAY_PUBLIC_KEY_PATH) {
    gateways.alipay = alipay({
      appId: c.ALIPAY_APP_ID, sellerId: c.ALIPAY_SELLER_ID, privateKey: createPrivateKey(read(c.ALIPAY_APP_KEY_PATH)),
      alipayPublicKey: createPublicKey(read(c.ALIPAY_PUBLIC_KEY_PATH)), gateway: c.ALIPAY_GATEWAY, notifyUrl: base + NOTIFY_PATHS.alipay,
    });
  }
  const merchants = companyMerchants({ key, mode: 'live', wechatBase: c.WECHAT_BASE_URL, alipayGateway: c.ALIPAY_GATEWAY, notifyUrl });
  return { payments: { gateways, ttlMs, live: true, merchants } };
}
