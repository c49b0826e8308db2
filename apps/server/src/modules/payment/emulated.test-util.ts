import { afterAll } from 'vitest';
import { ok, testApp, type TestApp } from '../../../test/helpers.ts';
import type { AuthSettings } from '../auth/index.ts';
import type { EventBus } from '../realtime/index.ts';
import { publicOf, type EmulatorKeys } from './emulator/keys.ts';
import { startEmulator, type Emulator, type EmulatorOptions } from './emulator/server.ts';
import { alipay } from './providers/alipay.ts';
import { wechatPay } from './providers/wechat.ts';
import type { Payments } from './service.ts';

// The local payment emulators wired into a test app: notifications go straight into the app through
// inject(), and the platform's WeChat Pay and Alipay gateways point at the emulators.

export const NOTIFY_URL = { wechat: 'http://127.0.0.1/wxpay/api/wxpay/notify', alipay: 'http://127.0.0.1/alipay/api/alipay/notify' };

/**
 * Starts the emulators; `app()` is the test app, built after them (it is only asked when a notification is
 * delivered). `lost(url)`: a notification to that URL is lost on the way (the emulator sees no answer).
 */
export function emulatorInto(keys: EmulatorKeys, app: () => TestApp, merchants?: EmulatorOptions['merchants'], lost?: (url: string) => boolean): Promise<Emulator> {
  return startEmulator({
    keys,
    merchants,
    deliver: async (url, headers, raw) => {
      if (lost?.(url)) return { status: 0, body: 'lost' };
      const u = new URL(url);
      const r = await app().app.inject({ method: 'POST', url: u.pathname + u.search, headers, payload: raw });
      return { status: r.statusCode, body: r.body };
    },
  });
}

/** The platform's own merchant on both channels, through the real provider code, against the emulator. */
export function emulatedGateways(keys: EmulatorKeys, em: Emulator): Payments['gateways'] {
  return {
    wechat: wechatPay({
      mchid: keys.wechat.mchid, appid: keys.wechat.appid, serialNo: keys.wechat.serialNo, privateKey: keys.wechat.merchantKey,
      platformSerial: keys.wechat.platformSerial, platformKey: publicOf(keys.wechat.platformKey), apiV3Key: keys.wechat.apiV3Key,
      baseUrl: em.url, notifyUrl: NOTIFY_URL.wechat,
    }),
    alipay: alipay({
      appId: keys.alipay.appId, sellerId: keys.alipay.sellerId, privateKey: keys.alipay.appKey, alipayPublicKey: publicOf(keys.alipay.alipayKey),
      gateway: `${em.url}/gateway.do`, notifyUrl: NOTIFY_URL.alipay,
    }),
  };
}

export interface PaymentHarness {
  t: TestApp;
  em: Emulator;
  payments: Payments;
  close(): Promise<void>;
}

/**
 * The emulators, then a test app whose WeChat Pay and Alipay gateways are theirs (they deliver their
 * notifications into it). `lost` as in {@link emulatorInto}.
 */
export async function paymentHarness(
  keys: EmulatorKeys,
  o: { auth?: AuthSettings; bus?: EventBus; lost?: (url: string) => boolean } = {},
): Promise<PaymentHarness> {
  const built: { app?: TestApp } = {};
  const em = await emulatorInto(keys, () => {
    if (!built.app) throw new Error('a notification before the test app was built');
    return built.app;
  }, undefined, o.lost);
  const payments: Payments = { ttlMs: 3600_000, gateways: emulatedGateways(keys, em) };
  const t = await testApp(o.auth, { payments, bus: o.bus }).catch(async (e: unknown) => {
    await em.close();
    throw e;
  });
  built.app = t;
  return {
    t, em, payments,
    close: async () => {
      await t.close();
      await em.close();
    },
  };
}

/** {@link paymentHarness} for a whole test file (`const h = await filePaymentHarness(keys);` at its top), closed after its last test. */
export async function filePaymentHarness(keys: EmulatorKeys, o: Parameters<typeof paymentHarness>[1] = {}): Promise<PaymentHarness> {
  const h = await paymentHarness(keys, o);
  afterAll(() => h.close());
  return h;
}

/** An electric top-up order of the room through WeChat Pay or Alipay, placed with the token; the answer's data. */
export async function placeOrder(t: TestApp, token: string, channel: 'wechat' | 'alipay', roomId: number, amount: string) {
  return ok(await t.call(token, { method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/pay' : '/alipay/api/alipay/pay', payload: { roomId, wallet: 'electric', amount } }));
}
