import { createSign, createVerify, type KeyObject } from 'node:crypto';
import { parseAlipayBillZip, StatementError } from './bills.ts';
import { NotifyRefused, RefundRefused, type PaidTransaction, type PayGateway, type QueryResult } from './gateway.ts';
import { formatBeijing } from '../../../time.ts';

// Alipay open API (https://opendocs.alipay.com/open/), RSA2 written against the protocol with
// node:crypto: a request's parameters, sorted by name, without `sign` and empty values, joined as
// k=v&k=v, signed RSA-SHA256 with the app private key; an answer is verified over the raw JSON text
// of its `<method>_response` member with the Alipay public key; an asynchronous notification is
// verified over its sorted parameters minus sign and sign_type. alipay.trade.precreate (QR),
// .query, .close, .refund; the trade statement by alipay.data.dataservice.bill.downloadurl.query
// (bill_type trade) → bill_download_url, a zip of GBK CSVs (bills.ts).

export interface AlipayConfig {
  appId: string;
  /** the merchant's PID (2088…): a notification's seller_id must equal it */
  sellerId: string;
  privateKey: KeyObject;
  alipayPublicKey: KeyObject;
  /** https://openapi.alipay.com/gateway.do, or the local emulator */
  gateway: string;
  notifyUrl: string;
}

export function signContent(params: Record<string, string>, omitSignType = false): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && !(omitSignType && k === 'sign_type') && params[k] !== '' && params[k] != null)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export const rsa2Sign = (key: KeyObject, content: string) => createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
export const rsa2Verify = (key: KeyObject, content: string, sign: string) => {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(key, sign, 'base64');
  } catch {
    return false;
  }
};

/** The raw text of `"<member>": {…}` in an answer (the signed bytes), found without re-serialising. */
export function rawMember(text: string, member: string): string | null {
  const at = text.indexOf(`"${member}"`);
  if (at < 0) return null;
  let i = text.indexOf('{', at + member.length + 2);
  if (i < 0) return null;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** yyyy-MM-dd HH:mm:ss, Beijing time */
export function alipayTime(d: Date): string {
  return formatBeijing(d);
}

export const yuan = (fen: number) => (fen / 100).toFixed(2);
/** '12.50' → 1250; anything but a plain amount → NaN */
export const fenOf = (s: unknown) => (typeof s === 'string' && /^\d{1,10}(\.\d{1,2})?$/.test(s) ? Math.round(Number(s) * 100) : NaN);

export class AlipayError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function alipay(c: AlipayConfig): PayGateway {
  async function call(method: string, biz: Record<string, unknown>, extra: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const params: Record<string, string> = {
      app_id: c.appId, method, format: 'JSON', charset: 'utf-8', sign_type: 'RSA2', timestamp: alipayTime(new Date()), version: '1.0',
      biz_content: JSON.stringify(biz), ...extra,
    };
    params.sign = rsa2Sign(c.privateKey, signContent(params));
    const res = await fetch(c.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const member = `${method.replace(/\./g, '_')}_response`;
    const raw = rawMember(text, member);
    const sign = (JSON.parse(text) as { sign?: string }).sign;
    if (!raw || !sign || !rsa2Verify(c.alipayPublicKey, raw, sign)) throw new AlipayError('SIGN_ERROR', '支付宝应答验签失败');
    return JSON.parse(raw) as Record<string, unknown>;
  }
  const fail = (r: Record<string, unknown>, what: string) => new AlipayError(String(r.sub_code ?? r.code), `支付宝${what}失败：${String(r.sub_msg ?? r.msg ?? '')}`);
  return {
    channel: 'alipay',
    async create(o) {
      const r = await call('alipay.trade.precreate', { out_trade_no: o.outTradeNo, total_amount: yuan(o.amountFen), subject: o.subject, time_expire: alipayTime(o.expiresAt) }, { notify_url: c.notifyUrl });
      if (r.code !== '10000' || typeof r.qr_code !== 'string') throw fail(r, '下单');
      return r.qr_code;
    },
    async query(no): Promise<QueryResult> {
      const r = await call('alipay.trade.query', { out_trade_no: no });
      if (r.code === '40004' && r.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'missing' };
      if (r.code !== '10000') throw fail(r, '查询');
      if (r.out_trade_no !== no) throw new AlipayError('FAIL', '支付宝查询应答的订单号不符');
      const s = r.trade_status;
      if (s === 'TRADE_SUCCESS' || s === 'TRADE_FINISHED') {
        // a signed answer to our own app's query: the merchant is ours
        return { state: 'paid', paid: { outTradeNo: no, tradeNo: String(r.trade_no ?? ''), amountFen: fenOf(r.total_amount), merchantOk: true } };
      }
      return { state: s === 'TRADE_CLOSED' ? 'closed' : 'open' };
    },
    async close(no) {
      const r = await call('alipay.trade.close', { out_trade_no: no });
      // an order nobody scanned does not exist at Alipay yet: closed all the same
      if (r.code !== '10000' && r.sub_code !== 'ACQ.TRADE_NOT_EXIST') throw fail(r, '关单');
    },
    async cancel(no) {
      const r = await call('alipay.trade.cancel', { out_trade_no: no });
      if (r.code !== '10000') throw fail(r, '撤销');
      return r.action === 'refund' ? 'refund' : 'close';
    },
    async refund(o) {
      const r = await call('alipay.trade.refund', { out_trade_no: o.outTradeNo, out_request_no: o.outRefundNo, refund_amount: yuan(o.refundFen), refund_reason: o.reason });
      // 40004 is a business answer (amount, trade state): nothing refunded; 20000 / ACQ.SYSTEM_ERROR: unknown, asked again later
      if (r.code === '40004' && r.sub_code !== 'ACQ.SYSTEM_ERROR') throw new RefundRefused(fail(r, '退款').message);
      if (r.code !== '10000') throw fail(r, '退款');
      // fund_change N: this out_request_no was refunded before, or is still being refunded: the query tells
      return { refundId: String(r.trade_no ?? ''), status: r.fund_change === 'Y' ? 'SUCCESS' : 'PROCESSING' };
    },
    async refundQuery(o) {
      const r = await call('alipay.trade.fastpay.refund.query', { out_trade_no: o.outTradeNo, out_request_no: o.outRefundNo });
      if (r.code === '40004' && r.sub_code === 'ACQ.TRADE_NOT_EXIST') return null;
      if (r.code !== '10000') throw fail(r, '退款查询');
      // REFUND_SUCCESS: refunded; no refund_status: Alipay has no successful refund of this request number
      return r.refund_status === 'REFUND_SUCCESS' ? { refundId: String(r.trade_no ?? ''), status: 'SUCCESS' } : null;
    },
    async statement(day) {
      const r = await call('alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: day });
      if (r.code === '40004' && r.sub_code === 'isp.bill_not_exist') return [];
      if (r.code !== '10000' || typeof r.bill_download_url !== 'string') throw fail(r, '查询对账单下载地址');
      const res = await fetch(r.bill_download_url, { signal: AbortSignal.timeout(30_000) });
      if (res.status !== 200) throw new AlipayError('FAIL', `支付宝下载对账单失败（HTTP ${res.status}）`);
      try {
        return await parseAlipayBillZip(Buffer.from(await res.arrayBuffer()));
      } catch (e) {
        throw new AlipayError('FAIL', e instanceof StatementError ? e.message : '支付宝对账单文件格式无法识别');
      }
    },
    verifyNotify(n) {
      const p = Object.fromEntries(new URLSearchParams(n.raw));
      if (!p.sign || p.sign_type !== 'RSA2') throw new NotifyRefused(400, 'SIGN_ERROR', '支付宝通知缺少签名');
      if (!rsa2Verify(c.alipayPublicKey, signContent(p, true), p.sign)) throw new NotifyRefused(400, 'SIGN_ERROR', '支付宝通知验签失败');
      if (p.trade_status !== 'TRADE_SUCCESS' && p.trade_status !== 'TRADE_FINISHED') return null;
      const paid: PaidTransaction = {
        outTradeNo: p.out_trade_no ?? '', tradeNo: p.trade_no ?? '', amountFen: fenOf(p.total_amount),
        merchantOk: p.app_id === c.appId && p.seller_id === c.sellerId,
      };
      return paid;
    },
    ack: () => ({ status: 200, type: 'text/plain; charset=utf-8', body: 'success' }),
    nack: () => ({ status: 200, type: 'text/plain; charset=utf-8', body: 'fail' }),
  };
}
