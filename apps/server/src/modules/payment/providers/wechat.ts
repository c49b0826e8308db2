import { createDecipheriv, createHash, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto';
import { parseWechatTradeBill, StatementError } from './bills.ts';
import { header, NotifyRefused, RefundRefused, type NotifyRequest, type PaidTransaction, type PayGateway, type QueryResult, type RefundAnswer } from './gateway.ts';
import { isoBeijing } from '../../../time.ts';

// WeChat Pay API v3 (https://pay.weixin.qq.com/doc/v3/merchant/), written against the protocol with
// node:crypto:
// - requests carry `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,nonce_str=…,signature=…,timestamp=…,serial_no=…`,
//   RSA-SHA256 (PKCS#1 v1.5) with the merchant private key over `METHOD\nURL\ntimestamp\nnonce\nbody\n`;
// - answers and notifications are verified: `Wechatpay-Timestamp` within 5 minutes, `Wechatpay-Serial`
//   equal to the platform certificate serial / public key ID we hold, `WECHATPAY/SIGNTEST/` probes
//   refused, RSA-SHA256 with the platform public key over `timestamp\nnonce\nbody\n` on the raw body;
// - a notification's `resource` is AEAD_AES_256_GCM with the APIv3 key (the 16-byte tag checked);
// - the trade statement: GET /v3/bill/tradebill (signed answer: download_url, hash_type, hash_value),
//   then the file from download_url (a signed request; the file itself is not signed, its SHA1 is checked).

export interface WechatConfig {
  mchid: string;
  appid: string;
  /** serial number of the merchant API certificate */
  serialNo: string;
  privateKey: KeyObject;
  /** serial of the platform certificate, or the platform public key ID (PUB_KEY_ID_…) */
  platformSerial: string;
  platformKey: KeyObject;
  /** the APIv3 key: 32 characters */
  apiV3Key: string;
  /** https://api.mch.weixin.qq.com, or the local emulator */
  baseUrl: string;
  notifyUrl: string;
  /** the clock used for the timestamp window (tests) */
  now?: () => number;
}

export const MAX_SKEW_SECONDS = 300;

export const signMessage = (key: KeyObject, message: string) => createSign('RSA-SHA256').update(message).sign(key, 'base64');
/** 签名串 of a merchant's request: five lines, each ending in \n (an empty body is an empty line). */
export const requestMessage = (method: string, url: string, timestamp: number | string, nonce: string, body: string) => `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
/** 验签名串 of an answer or a notification: three lines, each ending in \n. */
export const verifyMessage = (timestamp: string, nonce: string, body: string) => `${timestamp}\n${nonce}\n${body}\n`;

export function authorization(c: Pick<WechatConfig, 'mchid' | 'serialNo' | 'privateKey'>, method: string, url: string, body: string, timestamp = Math.floor(Date.now() / 1000), nonce = randomBytes(16).toString('hex')) {
  const signature = signMessage(c.privateKey, requestMessage(method, url, timestamp, nonce, body));
  return `WECHATPAY2-SHA256-RSA2048 mchid="${c.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${c.serialNo}"`;
}

/** Parses an Authorization header of the scheme (the emulator checks merchants' requests with it). */
export function parseAuthorization(h: string): Record<string, string> | null {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(h);
  if (!m) return null;
  const out: Record<string, string> = {};
  for (const part of m[1].split(',')) {
    const kv = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
    if (!kv) return null;
    out[kv[1]] = kv[2];
  }
  return out;
}

/** The platform's signature over an answer or a notification; throws NotifyRefused(401) with the reason. */
export function verifyPlatform(c: Pick<WechatConfig, 'platformSerial' | 'platformKey' | 'now'>, headers: NotifyRequest['headers'], body: string) {
  const ts = header(headers, 'Wechatpay-Timestamp');
  const nonce = header(headers, 'Wechatpay-Nonce');
  const sig = header(headers, 'Wechatpay-Signature');
  const serial = header(headers, 'Wechatpay-Serial');
  if (!/^\d{1,12}$/.test(ts) || !nonce || !sig || !serial) throw new NotifyRefused(401, 'SIGN_ERROR', '微信支付签名头缺失');
  if (sig.startsWith('WECHATPAY/SIGNTEST/')) throw new NotifyRefused(401, 'SIGN_ERROR', '微信支付签名探测请求，已拒绝');
  const now = Math.floor((c.now?.() ?? Date.now()) / 1000);
  if (Math.abs(now - Number(ts)) > MAX_SKEW_SECONDS) throw new NotifyRefused(401, 'SIGN_ERROR', '微信支付通知时间戳超出 5 分钟');
  if (serial !== c.platformSerial) throw new NotifyRefused(401, 'SIGN_ERROR', '微信支付平台证书序列号不符');
  const ok = createVerify('RSA-SHA256').update(verifyMessage(ts, nonce, body)).verify(c.platformKey, sig, 'base64');
  if (!ok) throw new NotifyRefused(401, 'SIGN_ERROR', '微信支付签名校验失败');
}

export interface Resource {
  algorithm: string;
  ciphertext: string;
  nonce: string;
  associated_data?: string;
}

/** AEAD_AES_256_GCM with the APIv3 key; the tag (last 16 bytes of the ciphertext) is checked. */
export function decryptResource(apiV3Key: string, r: Resource): string {
  if (r.algorithm !== 'AEAD_AES_256_GCM') throw new NotifyRefused(400, 'PARAM_ERROR', '微信支付通知加密算法不支持');
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length <= 16) throw new NotifyRefused(400, 'PARAM_ERROR', '微信支付通知密文无效');
  const d = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce, 'utf8'), { authTagLength: 16 });
  d.setAuthTag(data.subarray(data.length - 16));
  d.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  try {
    return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
  } catch {
    throw new NotifyRefused(400, 'PARAM_ERROR', '微信支付通知解密失败（密文或标签被篡改）');
  }
}

interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number };
}

const paidOf = (c: WechatConfig, t: Transaction): PaidTransaction => ({
  outTradeNo: String(t.out_trade_no ?? ''),
  tradeNo: String(t.transaction_id ?? ''),
  amountFen: Number(t.amount?.total ?? NaN),
  merchantOk: t.mchid === c.mchid && t.appid === c.appid,
});

export class WechatError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function wechatPay(c: WechatConfig): PayGateway {
  /** a signed request; the answer's signature is verified before its body is believed */
  async function call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const res = await fetch(c.baseUrl + path, {
      method,
      headers: { authorization: authorization(c, method, path, body), accept: 'application/json', ...(body && { 'content-type': 'application/json' }), 'user-agent': 'meter-platform' },
      body: body || undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    try {
      verifyPlatform(c, headers, text);
    } catch (e) {
      throw new WechatError(502, 'SIGN_ERROR', `微信支付应答验签失败：${(e as Error).message}`);
    }
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (res.status >= 300 && res.status !== 404) throw new WechatError(res.status, String(json.code ?? 'FAIL'), `微信支付：${String(json.message ?? res.status)}`);
    return { status: res.status, body: json };
  }
  const byNo = (no: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(no)}`;
  return {
    channel: 'wechat',
    async create(o) {
      const r = await call('POST', '/v3/pay/transactions/native', {
        appid: c.appid, mchid: c.mchid, description: o.subject, out_trade_no: o.outTradeNo,
        time_expire: rfc3339(o.expiresAt), notify_url: c.notifyUrl, amount: { total: o.amountFen, currency: 'CNY' },
      });
      if (r.status === 404 || typeof r.body.code_url !== 'string') throw new WechatError(502, 'FAIL', '微信支付下单失败：未返回二维码链接');
      return r.body.code_url;
    },
    async query(no): Promise<QueryResult> {
      const r = await call('GET', `${byNo(no)}?mchid=${encodeURIComponent(c.mchid)}`);
      if (r.status === 404) return { state: 'missing' };
      const t = r.body as Transaction;
      if (t.out_trade_no !== no) throw new WechatError(502, 'FAIL', '微信支付查询应答的订单号不符');
      if (t.trade_state === 'SUCCESS') return { state: 'paid', paid: paidOf(c, t) };
      if (t.trade_state === 'CLOSED' || t.trade_state === 'REVOKED' || t.trade_state === 'PAYERROR') return { state: 'closed' };
      return { state: 'open' };
    },
    async close(no) {
      await call('POST', `${byNo(no)}/close`, { mchid: c.mchid });
    },
    async statement(day) {
      let r;
      try {
        r = await call('GET', `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`);
      } catch (e) {
        // a day without trades has no statement
        if (e instanceof WechatError && e.code === 'NO_STATEMENT_EXIST') return [];
        throw e;
      }
      const { download_url: url, hash_type: hashType, hash_value: hash } = r.body as { download_url?: string; hash_type?: string; hash_value?: string };
      if (typeof url !== 'string' || hashType !== 'SHA1' || typeof hash !== 'string') throw new WechatError(502, 'FAIL', '微信支付申请账单应答不完整');
      const u = new URL(url);
      const res = await fetch(u, {
        headers: { authorization: authorization(c, 'GET', u.pathname + u.search, ''), 'user-agent': 'meter-platform' },
        signal: AbortSignal.timeout(30_000),
      });
      const file = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new WechatError(502, 'FAIL', `微信支付下载账单失败（HTTP ${res.status}）`);
      if (createHash('sha1').update(file).digest('hex') !== hash.toLowerCase()) throw new WechatError(502, 'FAIL', '微信支付账单文件 SHA1 校验失败');
      try {
        return parseWechatTradeBill(file.toString('utf8'));
      } catch (e) {
        throw new WechatError(502, 'FAIL', e instanceof StatementError ? e.message : '微信支付账单文件格式无法识别');
      }
    },
    async refund(o) {
      let r;
      try {
        r = await call('POST', '/v3/refund/domestic/refunds', {
          out_trade_no: o.outTradeNo, out_refund_no: o.outRefundNo, reason: o.reason, notify_url: c.notifyUrl.replace(/\/notify(\?|$)/, '/refundNotify$1'),
          amount: { refund: o.refundFen, total: o.totalFen, currency: 'CNY' },
        });
      } catch (e) {
        // a business answer (4xx: amount, balance, order state) refunded nothing; 5xx / no answer: unknown, asked again later
        if (e instanceof WechatError && e.status >= 400 && e.status < 500 && e.status !== 429) throw new RefundRefused(e.message);
        throw e;
      }
      if (r.status === 404) throw new RefundRefused('微信支付：订单不存在或未支付');
      return refundAnswer(r.body);
    },
    async refundQuery(o) {
      const r = await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(o.outRefundNo)}`);
      if (r.status === 404) return null;
      if (r.body.out_refund_no !== o.outRefundNo) throw new WechatError(502, 'FAIL', '微信支付退款查询应答的退款单号不符');
      return refundAnswer(r.body);
    },
    verifyRefundNotify(n) {
      const { msg, body } = openNotify(c, n);
      if (!/^REFUND\./.test(String(msg.event_type))) return null;
      const t = body as RefundResource;
      const a = refundAnswer({ refund_id: t.refund_id, status: t.refund_status });
      return {
        ...a, outTradeNo: String(t.out_trade_no ?? ''), outRefundNo: String(t.out_refund_no ?? ''), amountFen: Number(t.amount?.refund ?? NaN),
        merchantOk: t.mchid === c.mchid,
      };
    },
    verifyNotify(n) {
      const { msg, body } = openNotify(c, n);
      const t = body as Transaction;
      if (msg.event_type !== 'TRANSACTION.SUCCESS' || t.trade_state !== 'SUCCESS') return null;
      return paidOf(c, t);
    },
    ack: () => ({ status: 204, type: 'application/json', body: '' }),
    nack: (e) => ({ status: e.status, type: 'application/json', body: JSON.stringify({ code: e.code === 'SIGN_ERROR' ? 'SIGN_ERROR' : 'FAIL', message: e.message }) }),
  };
}

interface RefundResource {
  mchid?: string;
  out_trade_no?: string;
  out_refund_no?: string;
  refund_id?: string;
  refund_status?: string;
  amount?: { refund?: number; total?: number };
}

/** A refund's status (answer, query or notify): SUCCESS, PROCESSING, or failed (ABNORMAL 退款异常, CLOSED 退款关闭). */
function refundAnswer(b: Record<string, unknown>): RefundAnswer {
  const s = String(b.status ?? '');
  const refundId = String(b.refund_id ?? '');
  if (s === 'SUCCESS' || s === 'PROCESSING') return { refundId, status: s };
  if (s === 'ABNORMAL' || s === 'CLOSED') return { refundId, status: 'FAILED', message: s === 'ABNORMAL' ? '微信支付：退款异常（用户银行卡作废或冻结）' : '微信支付：退款已关闭' };
  throw new WechatError(502, 'FAIL', `微信支付退款应答状态无法识别（${s || '空'}）`);
}

/** A v3 notification's envelope: signature checked, its resource decrypted. */
function openNotify(c: WechatConfig, n: NotifyRequest): { msg: { event_type?: string }; body: Record<string, unknown> } {
  verifyPlatform(c, n.headers, n.raw);
  let msg: { event_type?: string; resource?: Resource };
  try {
    msg = JSON.parse(n.raw);
  } catch {
    throw new NotifyRefused(400, 'PARAM_ERROR', '微信支付通知格式错误');
  }
  if (!msg.resource || typeof msg.resource.ciphertext !== 'string' || typeof msg.resource.nonce !== 'string') {
    throw new NotifyRefused(400, 'PARAM_ERROR', '微信支付通知缺少 resource');
  }
  return { msg, body: JSON.parse(decryptResource(c.apiV3Key, msg.resource)) as Record<string, unknown> };
}

/** 2026-11-25T22:00:00+08:00 (the protocol's time format, Beijing time) */
export function rfc3339(d: Date): string {
  return isoBeijing(d);
}
