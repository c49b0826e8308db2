import type { StatementRow } from './bills.ts';

// What the payment service needs from a payment provider (WeChat Pay API v3, Alipay open API):
// a QR order, a query, a close, a refund, and a verified notification. The providers' own code
// (wechat.ts, alipay.ts) checks every signature; the service checks the result against the order.

export type Channel = 'wechat' | 'alipay';

/** A paid transaction as the provider reported it (notify or query), signature already verified. */
export interface PaidTransaction {
  outTradeNo: string;
  /** the provider's transaction number */
  tradeNo: string;
  /** the amount paid, 分 */
  amountFen: number;
  /** the merchant fields of the message (mchid/appid, seller_id/app_id) equal ours */
  merchantOk: boolean;
}

export interface QueryResult {
  /** paid; open (not paid yet); closed (closed, revoked or failed at the provider); missing (the provider has no such order) */
  state: 'paid' | 'open' | 'closed' | 'missing';
  paid?: PaidTransaction;
}

/** A notification the provider's rules refuse: HTTP status and a Chinese reason; nothing is credited. */
export class NotifyRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The provider definitely refused a refund (a business answer, not a lost connection): nothing was refunded. */
export class RefundRefused extends Error {}

/** A refund as the provider answers it: SUCCESS, PROCESSING (the notify / query tells the end), or failed (ABNORMAL, CLOSED, FAIL). */
export interface RefundAnswer {
  /** the provider's refund number */
  refundId: string;
  status: 'SUCCESS' | 'PROCESSING' | 'FAILED';
  /** the provider's words when it failed */
  message?: string;
}

/** A refund result notification (WeChat REFUND.SUCCESS / ABNORMAL / CLOSED), signature and decryption checked. */
export interface RefundNotice extends RefundAnswer {
  outTradeNo: string;
  outRefundNo: string;
  amountFen: number;
  merchantOk: boolean;
}

export interface NotifyRequest {
  headers: Record<string, string | string[] | undefined>;
  /** the body exactly as received */
  raw: string;
}

export interface PayGateway {
  channel: Channel;
  /** a QR (Native / precreate) order: the code URL the payer's app opens */
  create(o: { outTradeNo: string; subject: string; amountFen: number; expiresAt: Date }): Promise<string>;
  query(outTradeNo: string): Promise<QueryResult>;
  close(outTradeNo: string): Promise<void>;
  /**
   * 撤销 (Alipay alipay.trade.cancel), for a counter order the payer gave up on: unpaid → closed; paid
   * meanwhile → the provider refunds it. Answers what it did. Providers without it are closed instead.
   */
  cancel?(outTradeNo: string): Promise<'close' | 'refund'>;
  /** a refund of a paid order; out_refund_no makes it idempotent at the provider. Throws RefundRefused on a definite no */
  refund(o: { outTradeNo: string; outRefundNo: string; refundFen: number; totalFen: number; reason: string }): Promise<RefundAnswer>;
  /** the state of a refund sent earlier (WeChat GET …/refunds/{out_refund_no}, Alipay alipay.trade.fastpay.refund.query); null: the provider has no such refund */
  refundQuery(o: { outTradeNo: string; outRefundNo: string }): Promise<RefundAnswer | null>;
  /** the paid trades of the provider's daily statement (对账单) of a Beijing day YYYY-MM-DD; [] when the provider has none for that day */
  statement(day: string): Promise<StatementRow[]>;
  /** verifies the notification (signature, time, serial, decryption); throws NotifyRefused. Returns the paid transaction, or null for a non-payment event */
  verifyNotify(n: NotifyRequest): PaidTransaction | null;
  /** a refund result notification (WeChat Pay), verified as verifyNotify does; null for another event. Providers without one answer refunds synchronously */
  verifyRefundNotify?(n: NotifyRequest): RefundNotice | null;
  /** what the provider must receive once the credit is committed */
  ack(): { status: number; type: string; body: string };
  /** what the provider receives when the notification is refused (it will retry) */
  nack(e: NotifyRefused): { status: number; type: string; body: string };
}

export interface PayGateways {
  wechat?: PayGateway;
  alipay?: PayGateway;
}

export const header = (h: NotifyRequest['headers'], name: string): string => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};
