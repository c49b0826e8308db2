import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { z } from 'zod';
import type { MerchantBody } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { platformTx, type Ctx } from '../../http/context.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { openSealed, sealSecret } from '../../sealed.ts';
import * as repo from './merchant-repo.ts';
import { alipay } from './providers/alipay.ts';
import type { Channel, PayGateway } from './providers/gateway.ts';
import { wechatPay } from './providers/wechat.ts';

// 支付商户 per company (issue 14 item 6): a company's own WeChat Pay / Alipay merchant. Its secrets
// (merchant private keys, APIv3 key) are sealed with PAY_CONFIG_KEY (sealed.ts) before they are stored
// and never answered: the form shows whether one is stored and its public half's fingerprint. An order
// of a company with an enabled merchant is made, queried, closed and its notification verified with
// that merchant (payments.merchant_company_id); otherwise the platform's merchant (setup.ts) serves it.
// A company merchant's notifications come to the same notify paths with ?merchant=<companyId>.

export interface MerchantSetup {
  /** seals and opens the stored secrets */
  key: Buffer;
  mode: 'emulator' | 'live';
  /** WeChat Pay API base (the emulator's in emulator mode) */
  wechatBase: string;
  /** Alipay gateway.do (the emulator's in emulator mode) */
  alipayGateway: string;
  /** the platform's notify URLs; a company merchant's add ?merchant=<companyId> */
  notifyUrl: Record<Channel, string>;
  /** the emulators' public keys (emulator mode): what a demo company fills in */
  emulator?: { wxPlatformSerial: string; wxPlatformKey: string; aliPublicKey: string };
}

export interface Merchants {
  setup: MerchantSetup;
  /** the company's own enabled merchant of this channel, or undefined (the platform's serves it) */
  forCompany(tx: Tx, companyId: number, channel: Channel): Promise<PayGateway | undefined>;
  /** the same outside a transaction (notify, query job) */
  load(db: Db, companyId: number, channel: Channel): Promise<PayGateway | undefined>;
}



/** the public half of a key, PEM */
export const pemOf = (k: KeyObject) => (k.type === 'public' ? k : createPublicKey(k)).export({ type: 'spki', format: 'pem' }).toString().trim();

/** The SHA-256 fingerprint of a key's public half (first 16 bytes, hex pairs): which key is stored, not the key. */
export function fingerprint(privatePem: string): string {
  const der = createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'der' });
  return (createHash('sha256').update(der).digest('hex').slice(0, 32).match(/../g) ?? []).join(':').toUpperCase();
}

/** Gateways built from the stored merchants, rebuilt when a merchant changes (its updated_at). */
export function companyMerchants(setup: MerchantSetup): Merchants {
  const cache = new Map<string, { stamp: string; gateway: PayGateway | undefined }>();
  async function forCompany(tx: Tx, companyId: number, channel: Channel) {
    const m = await repo.getMerchant(tx, companyId);
    if (!m) return undefined;
    const at = `${companyId}:${channel}`;
    const hit = cache.get(at);
    if (hit && hit.stamp === m.stamp) return hit.gateway;
    let gateway: PayGateway | undefined;
    try {
      gateway = build(setup, m, channel);
    } catch {
      throw refuse('PAY_MERCHANT_ERROR', '本单位支付商户的密钥无法使用（PAY_CONFIG_KEY 与保存时不同或密钥无效），请平台管理员在「单位管理 → 支付设置」重新填写');
    }
    cache.set(at, { stamp: m.stamp, gateway });
    return gateway;
  }
  return { setup, forCompany, load: (db, companyId, channel) => db.tx(SYSTEM_SCOPE, (tx) => forCompany(tx, companyId, channel)) };
}

function build(s: MerchantSetup, m: repo.MerchantRecord, channel: Channel): PayGateway | undefined {
  const notifyUrl = `${s.notifyUrl[channel]}?merchant=${m.companyId}`;
  if (channel === 'wechat') {
    if (!m.wxEnabled || !m.wxPrivateKeyEnc || !m.wxApiV3KeyEnc) return undefined;
    return wechatPay({
      mchid: m.wxMchid, appid: m.wxAppid, serialNo: m.wxSerialNo, privateKey: createPrivateKey(openSealed(s.key, m.wxPrivateKeyEnc)),
      platformSerial: m.wxPlatformSerial, platformKey: createPublicKey(m.wxPlatformKey), apiV3Key: openSealed(s.key, m.wxApiV3KeyEnc),
      baseUrl: s.wechatBase, notifyUrl,
    });
  }
  if (!m.aliEnabled || !m.aliPrivateKeyEnc) return undefined;
  return alipay({
    appId: m.aliAppId, sellerId: m.aliSellerId, privateKey: createPrivateKey(openSealed(s.key, m.aliPrivateKeyEnc)), alipayPublicKey: createPublicKey(m.aliPublicKey),
    gateway: s.alipayGateway, notifyUrl,
  });
}

const SIMULATED_MODE = 'simulated';

function present(companyId: number, name: string, m: (repo.MerchantRecord & { updatedAt: string }) | undefined, key: Buffer | undefined, merchants: Merchants | undefined) {
  const fp = (sealed: string | undefined) => {
    if (!sealed || !key) return '';
    try {
      return fingerprint(openSealed(key, sealed));
    } catch {
      return '无法解密（PAY_CONFIG_KEY 与保存时不同？请重新填写）';
    }
  };
  return {
    companyId, companyName: name,
    wxEnabled: m?.wxEnabled ?? false, wxMchid: m?.wxMchid ?? '', wxAppid: m?.wxAppid ?? '', wxSerialNo: m?.wxSerialNo ?? '',
    wxPrivateKeySet: Boolean(m?.wxPrivateKeyEnc), wxPrivateKeyFingerprint: fp(m?.wxPrivateKeyEnc),
    wxPlatformSerial: m?.wxPlatformSerial ?? '', wxPlatformKey: m?.wxPlatformKey ?? '', wxApiV3KeySet: Boolean(m?.wxApiV3KeyEnc),
    aliEnabled: m?.aliEnabled ?? false, aliAppId: m?.aliAppId ?? '', aliSellerId: m?.aliSellerId ?? '',
    aliPrivateKeySet: Boolean(m?.aliPrivateKeyEnc), aliPrivateKeyFingerprint: fp(m?.aliPrivateKeyEnc), aliPublicKey: m?.aliPublicKey ?? '',
    updatedAt: m?.updatedAt ?? null,
    mode: merchants?.setup.mode ?? SIMULATED_MODE,
    emulator: merchants?.setup.emulator ?? null,
  };
}

export async function getMerchant(ctx: Ctx, merchants: Merchants | undefined, companyId: number) {
  return platformTx(ctx, async (tx) => {
    const name = await repo.companyName(tx, companyId);
    if (name === undefined) throw notFound('单位');
    return present(companyId, name, await repo.getMerchant(tx, companyId), merchants?.setup.key, merchants);
  });
}

type Body = z.output<typeof MerchantBody>;

function privateKey(pem: string, label: string) {
  try {
    const k = createPrivateKey(pem);
    if (k.asymmetricKeyType !== 'rsa') throw new Error();
    return k.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch {
    throw badRequest(`${label}无法识别，请粘贴 RSA 私钥（PEM，-----BEGIN PRIVATE KEY-----）`);
  }
}
function publicKey(pem: string, label: string) {
  try {
    return pemOf(createPublicKey(pem));
  } catch {
    throw badRequest(`${label}无法识别，请粘贴 PEM 格式的公钥（-----BEGIN PUBLIC KEY-----）`);
  }
}

/**
 * Saves a company's merchant: new secrets sealed, blank ones kept — unless the merchant number (mchid,
 * Alipay app id) changed, whose keys belong to the old merchant. An enabled channel must be complete.
 */
export async function saveMerchant(ctx: Ctx, merchants: Merchants | undefined, b: Body) {
  if (!merchants) throw badRequest('当前为模拟支付模式（PAY_MODE=simulated），不使用单位支付商户');
  const { key } = merchants.setup;
  await platformTx(ctx, async (tx) => {
    const name = await repo.companyName(tx, b.companyId);
    if (name === undefined) throw notFound('单位');
    const old = await repo.getMerchant(tx, b.companyId);
    const sameWx = old?.wxMchid === b.wxMchid;
    const sameAli = old?.aliAppId === b.aliAppId;
    const wxPrivateKeyEnc = b.wxPrivateKey ? sealSecret(key, privateKey(b.wxPrivateKey, '商户 API 私钥')) : sameWx ? (old?.wxPrivateKeyEnc ?? '') : '';
    const wxApiV3KeyEnc = b.wxApiV3Key ? sealSecret(key, b.wxApiV3Key) : sameWx ? (old?.wxApiV3KeyEnc ?? '') : '';
    const aliPrivateKeyEnc = b.aliPrivateKey ? sealSecret(key, privateKey(b.aliPrivateKey, '应用私钥')) : sameAli ? (old?.aliPrivateKeyEnc ?? '') : '';
    const wxPlatformKey = b.wxPlatformKey ? publicKey(b.wxPlatformKey, '微信支付平台公钥') : '';
    const aliPublicKey = b.aliPublicKey ? publicKey(b.aliPublicKey, '支付宝公钥') : '';
    if (b.wxEnabled) {
      const need = !b.wxMchid ? '商户号' : !b.wxAppid ? 'AppID' : !b.wxSerialNo ? '商户证书序列号' : !wxPrivateKeyEnc ? '商户 API 私钥'
        : !b.wxPlatformSerial ? '平台证书序列号或平台公钥 ID' : !wxPlatformKey ? '微信支付平台公钥' : !wxApiV3KeyEnc ? 'APIv3 密钥' : '';
      if (need) throw badRequest(`启用微信支付商户须填写${need}`);
    }
    if (b.aliEnabled) {
      const need = !b.aliAppId ? '支付宝 AppID' : !b.aliSellerId ? '卖家 ID（PID）' : !aliPrivateKeyEnc ? '应用私钥' : !aliPublicKey ? '支付宝公钥' : '';
      if (need) throw badRequest(`启用支付宝商户须填写${need}`);
    }
    ctx.audit.target = `${name} 支付商户：微信${b.wxEnabled ? `启用 ${b.wxMchid}` : '停用'}，支付宝${b.aliEnabled ? `启用 ${b.aliAppId}` : '停用'}`;
    await repo.saveMerchant(tx, {
      companyId: b.companyId, wxEnabled: b.wxEnabled, wxMchid: b.wxMchid, wxAppid: b.wxAppid, wxSerialNo: b.wxSerialNo.toUpperCase(), wxPrivateKeyEnc,
      wxPlatformSerial: b.wxPlatformSerial, wxPlatformKey, wxApiV3KeyEnc, aliEnabled: b.aliEnabled, aliAppId: b.aliAppId, aliSellerId: b.aliSellerId,
      aliPrivateKeyEnc, aliPublicKey,
    }, ctx.user.id);
  });
  return getMerchant(ctx, merchants, b.companyId);
}

/** The stored merchant keys behind a mchid / app id, opened (the local emulator checks requests and signs notifications with them). */
export async function emulatorMerchants(db: Db, key: Buffer, channel: Channel, id: string) {
  const rows = await db.tx(SYSTEM_SCOPE, (tx) => repo.merchantsById(tx, channel, id));
  for (const m of rows) {
    try {
      if (channel === 'wechat') {
        return { wechat: { mchid: m.wxMchid, appid: m.wxAppid, serialNo: m.wxSerialNo, merchantPublicKey: createPublicKey(createPrivateKey(openSealed(key, m.wxPrivateKeyEnc))), apiV3Key: openSealed(key, m.wxApiV3KeyEnc) } };
      }
      return { alipay: { appId: m.aliAppId, sellerId: m.aliSellerId, appPublicKey: createPublicKey(createPrivateKey(openSealed(key, m.aliPrivateKeyEnc))) } };
    } catch {
      // sealed with another key: not usable here
    }
  }
  return undefined;
}
