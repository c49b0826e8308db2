import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The payment provider of this offline build: a simulated WeChat Pay / Alipay. Creating an order
// returns what a real provider would (a code URL the payer's app opens, shown as a QR code); a paid
// order is announced by a signed notification (HMAC-SHA256 over the order fields), delivered to the
// same notify endpoints a real provider would call. Nothing leaves the machine.
//
// The signing secret is PAY_NOTIFY_SECRET (shared by every API process behind a load balancer);
// unset, each process makes a random one — enough for one process, where the simulated provider
// delivers its notifications in-process. A real provider plugs in here with its own signature check.

export type Channel = 'wechat' | 'alipay';

const secret = process.env.PAY_NOTIFY_SECRET || randomBytes(32).toString('hex');

/** HMAC-SHA256 of a provider message's signed text, hex (payments here, withdrawals in payapp). */
export function signText(text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** Does `sign` sign `text`? (constant time; anything but 64 hex digits is refused) */
export function verifyText(text: string, sign: string): boolean {
  const want = Buffer.from(signText(text), 'hex');
  const got = Buffer.from(/^[0-9a-f]{64}$/.test(sign) ? sign : '', 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

export interface Notification {
  out_trade_no: string;
  /** the provider's transaction number */
  trade_no: string;
  /** the amount paid, 分 */
  total_fee: number;
  sign: string;
}

const payload = (n: Omit<Notification, 'sign'>) => `${n.out_trade_no}|${n.trade_no}|${n.total_fee}`;

export const sign = (n: Omit<Notification, 'sign'>): string => signText(payload(n));

export const verify = (n: Notification): boolean => verifyText(payload(n), n.sign);

/** What the payer's app opens for this order. */
export function codeUrl(channel: Channel, outTradeNo: string): string {
  return channel === 'wechat' ? `weixin://wxpay/bizpayurl?pr=SIM${outTradeNo}` : `https://qr.alipay.com/sim/${outTradeNo}`;
}

/** The provider's transaction number of a simulated payment. */
export function providerTradeNo(channel: Channel): string {
  return `${channel === 'wechat' ? '4200' : '2088'}${Date.now()}${randomBytes(4).toString('hex')}`;
}
