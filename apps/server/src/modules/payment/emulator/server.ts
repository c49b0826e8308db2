import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { createCipheriv, createHash, createVerify, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { alipayTime, fenOf, rsa2Sign, rsa2Verify, signContent, yuan } from '../providers/alipay.ts';
import { parseAuthorization, rfc3339, signMessage } from '../providers/wechat.ts';
import { publicOf, type EmulatorKeys } from './keys.ts';
import { payerPage, resultPage } from './page.ts';
import { formatBeijing, parseBeijing } from '../../../time.ts';
import { alipayBillZip, wechatTradeBill, type BillRefund, type BillTrade } from './bills.ts';

// LOCAL EMULATOR of WeChat Pay API v3 and the Alipay open API — not a provider. An HTTP server on
// 127.0.0.1 that checks the merchant's signatures, signs its answers and its notifications exactly as
// the providers do (its own keys, keys.ts), and serves a payer page (扫码支付) per order: opening the
// order's code URL and pressing 确认支付 pays the order and sends the signed notification to the
// order's notify_url. Orders live in memory. Used by `npm start` (PAY_MODE=emulator) and the tests, so
// the server's real verification code is what runs in the demo. The daily trade statements
// (WeChat /v3/bill/tradebill, Alipay bill.downloadurl.query) are written from the same orders
// (bills.ts); addTrade, setAmount and revoke (also POST /control/trade, /control/amount,
// /control/revoke with JSON) make the provider's records differ from the merchant's.

export interface Delivered {
  channel: 'wechat' | 'alipay';
  url: string;
  headers: Record<string, string>;
  raw: string;
  status: number;
  answer: string;
}

export interface EmulatorOptions {
  keys: EmulatorKeys;
  host?: string;
  port?: number;
  /** how browsers reach the payer page (default: the listening address) */
  publicUrl?: string;
  /** merchants other than the emulator's own (the companies' own merchants): by WeChat mchid / Alipay app_id */
  merchants?: MerchantLookup;
  /** delivers a notification (default: HTTP POST to its URL); answers the merchant's status and body */
  deliver?: (url: string, headers: Record<string, string>, raw: string) => Promise<{ status: number; body: string }>;
}

/** A WeChat Pay merchant the emulator serves: the public half of its API key, its APIv3 key. */
export interface WxMerchant { mchid: string; appid: string; serialNo: string; merchantPublicKey: KeyObject; apiV3Key: string }
/** An Alipay app the emulator serves: the public half of its app key. */
export interface AliMerchant { appId: string; sellerId: string; appPublicKey: KeyObject }
export type MerchantLookup = (channel: 'wechat' | 'alipay', id: string) => Promise<{ wechat?: WxMerchant; alipay?: AliMerchant } | undefined>;

interface Order {
  channel: 'wechat' | 'alipay';
  wx?: WxMerchant;
  ali?: AliMerchant;
  outTradeNo: string;
  subject: string;
  amountFen: number;
  notifyUrl: string;
  token: string;
  state: 'open' | 'paid' | 'closed';
  tradeNo: string;
  paidAt?: Date;
  expiresAt: Date;
  createdAt: Date;
  refundedFen: number;
  refunds: EmRefund[];
}

/** A refund at the emulated provider: WeChat answers PROCESSING and notifies the end; Alipay answers at once. */
interface EmRefund {
  outRefundNo: string;
  refundId: string;
  amountFen: number;
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL';
  createdAt: Date;
  successAt?: Date;
  notifyUrl: string;
}

/** How the provider ends the next refunds: SUCCESS; ABNORMAL (WeChat: accepted, then 退款异常); NOT_ENOUGH (the merchant's balance is short: refused at once) */
export type RefundOutcome = 'SUCCESS' | 'ABNORMAL' | 'NOT_ENOUGH';

export interface Emulator {
  url: string;
  app: FastifyInstance;
  /** every notification sent, with the merchant's answer */
  delivered: Delivered[];
  /** the Alipay methods called, in order */
  alipayCalls: string[];
  /** pays an order as the payer page does (notification sent unless notify is false) */
  pay(outTradeNo: string, o?: { notify?: boolean }): Promise<Delivered | null>;
  /** a trade paid at the provider that the merchant never heard of (no notification): it shows in the statement only */
  addTrade(channel: 'wechat' | 'alipay', t: { outTradeNo: string; amountFen: number; subject?: string; paidAt?: Date }): string;
  /** the provider's record of an order says another amount (statement and query) */
  setAmount(outTradeNo: string, amountFen: number): void;
  /** the provider's record says the trade did not succeed (revoked): it leaves the statement */
  revoke(outTradeNo: string): void;
  /** how the next refunds end (default SUCCESS) */
  setRefundOutcome(outcome: RefundOutcome): void;
  /** resolves once every refund notification under way has been delivered */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const httpDeliver: NonNullable<EmulatorOptions['deliver']> = async (url, headers, raw) => {
  const res = await fetch(url, { method: 'POST', headers, body: raw, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
};

/** A WeChat Pay v3 notification as the platform sends it (headers signed, resource encrypted). */
export function wechatNotification(keys: EmulatorKeys['wechat'], transaction: Record<string, unknown>, o: { timestamp?: number; serial?: string; event?: string } = {}) {
  const nonce = randomBytes(16).toString('base64url').slice(0, 12);
  // a refund notification (REFUND.SUCCESS / ABNORMAL / CLOSED) carries a refund resource
  const type = o.event?.startsWith('REFUND.') ? 'refund' : 'transaction';
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keys.apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(type, 'utf8'));
  const ct = Buffer.concat([cipher.update(JSON.stringify(transaction), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const raw = JSON.stringify({
    id: randomUUID(), create_time: rfc3339(new Date()), resource_type: 'encrypt-resource', event_type: o.event ?? 'TRANSACTION.SUCCESS',
    summary: type === 'refund' ? (o.event === 'REFUND.SUCCESS' ? '退款成功' : '退款异常') : '支付成功',
    resource: { original_type: type, algorithm: 'AEAD_AES_256_GCM', ciphertext: ct.toString('base64'), associated_data: type, nonce },
  });
  return { headers: wechatHeaders(keys, raw, o), raw };
}

export function wechatHeaders(keys: EmulatorKeys['wechat'], body: string, o: { timestamp?: number; serial?: string } = {}): Record<string, string> {
  const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  return {
    'content-type': 'application/json',
    'wechatpay-timestamp': ts,
    'wechatpay-nonce': nonce,
    'wechatpay-serial': o.serial ?? keys.platformSerial,
    'wechatpay-signature': signMessage(keys.platformKey, `${ts}\n${nonce}\n${body}\n`),
  };
}

/** An Alipay asynchronous notification as Alipay posts it (form, RSA2-signed). */
export function alipayNotification(keys: EmulatorKeys['alipay'], p: Record<string, string>) {
  const params: Record<string, string> = { notify_type: 'trade_status_sync', notify_id: randomUUID().replace(/-/g, ''), notify_time: alipayTime(new Date()), charset: 'utf-8', version: '1.0', sign_type: 'RSA2', ...p };
  params.sign = rsa2Sign(keys.alipayKey, signContent(params, true));
  return { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, raw: new URLSearchParams(params).toString() };
}

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  const { keys } = opts;
  const deliver = opts.deliver ?? httpDeliver;
  const orders = new Map<string, Order>();
  const byToken = new Map<string, Order>();
  const delivered: Delivered[] = [];
  const alipayCalls: string[] = [];
  const ownWx: WxMerchant = { ...keys.wechat, merchantPublicKey: publicOf(keys.wechat.merchantKey) };
  const ownAli: AliMerchant = { ...keys.alipay, appPublicKey: publicOf(keys.alipay.appKey) };
  const wxMerchant = async (mchid: string) => (mchid === ownWx.mchid ? ownWx : (await opts.merchants?.('wechat', mchid))?.wechat);
  const aliMerchant = async (appId: string) => (appId === ownAli.appId ? ownAli : (await opts.merchants?.('alipay', appId))?.alipay);
  /** the merchant whose signature a /v3/ request carries */
  const caller = new WeakMap<object, WxMerchant>();
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  let base = '';

  const stateOf = (o: Order) => (o.state === 'open' && o.expiresAt.getTime() < Date.now() ? 'closed' : o.state);

  // ---- WeChat Pay v3 ----
  const wxReply = (reply: FastifyReply, status: number, body?: unknown) => {
    const raw = body === undefined ? '' : JSON.stringify(body);
    reply.status(status).headers(wechatHeaders(keys.wechat, raw));
    return reply.send(raw);
  };
  /** the merchant's Authorization: scheme, mchid, serial, time window, RSA-SHA256 with its public key */
  const wxAuthorized = async (method: string, url: string, auth: string | undefined, body: string) => {
    const a = parseAuthorization(auth ?? '');
    const m = a && (await wxMerchant(a.mchid ?? ''));
    if (!a || !m || a.serial_no !== m.serialNo) return undefined;
    if (Math.abs(Date.now() / 1000 - Number(a.timestamp)) > 300) return undefined;
    return createVerify('RSA-SHA256').update(`${method}\n${url}\n${a.timestamp}\n${a.nonce_str}\n${body}\n`).verify(m.merchantPublicKey, a.signature ?? '', 'base64') ? m : undefined;
  };
  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/v3/')) return;
    const body = typeof req.body === 'string' ? req.body : '';
    const m = await wxAuthorized(req.method, req.url, req.headers.authorization, body);
    if (!m) return wxReply(reply, 401, { code: 'SIGN_ERROR', message: '签名错误' });
    caller.set(req, m);
  });
  /** the caller's order (another merchant's order does not exist for it) */
  const wxOrder = (req: object, no: string) => {
    const o = orders.get(`wechat:${no}`);
    return o && o.wx?.mchid === caller.get(req)?.mchid ? o : undefined;
  };
  const wxTransaction = (o: Order) => ({
    appid: (o.wx ?? ownWx).appid, mchid: (o.wx ?? ownWx).mchid, out_trade_no: o.outTradeNo, transaction_id: o.tradeNo || undefined,
    trade_type: 'NATIVE', trade_state: { open: 'NOTPAY', paid: 'SUCCESS', closed: 'CLOSED' }[stateOf(o)], trade_state_desc: { open: '订单未支付', paid: '支付成功', closed: '订单已关闭' }[stateOf(o)],
    success_time: o.paidAt ? rfc3339(o.paidAt) : undefined, amount: { total: o.amountFen, payer_total: o.state === 'paid' ? o.amountFen : undefined, currency: 'CNY' },
  });
  const newOrder = (channel: Order['channel'], outTradeNo: string, subject: string, amountFen: number, notifyUrl: string, expiresAt: Date) => {
    const token = randomBytes(12).toString('hex');
    const o: Order = { channel, outTradeNo, subject, amountFen, notifyUrl, token, state: 'open', tradeNo: '', expiresAt, createdAt: new Date(), refundedFen: 0, refunds: [] };
    orders.set(`${channel}:${outTradeNo}`, o);
    byToken.set(token, o);
    return o;
  };
  app.post('/v3/pay/transactions/native', async (req, reply) => {
    const b = JSON.parse(String(req.body || '{}')) as { appid?: string; mchid?: string; description?: string; out_trade_no?: string; notify_url?: string; time_expire?: string; amount?: { total?: number } };
    const m = caller.get(req)!;
    if (b.appid !== m.appid || b.mchid !== m.mchid) return wxReply(reply, 400, { code: 'INVALID_REQUEST', message: 'appid和mch_id不匹配' });
    if (!b.out_trade_no || !Number.isInteger(b.amount?.total) || !b.notify_url) return wxReply(reply, 400, { code: 'PARAM_ERROR', message: '参数错误' });
    if (orders.has(`wechat:${b.out_trade_no}`)) return wxReply(reply, 400, { code: 'INVALID_REQUEST', message: '订单号重复' });
    const o = newOrder('wechat', b.out_trade_no, b.description ?? '', b.amount!.total!, b.notify_url, b.time_expire ? new Date(b.time_expire) : new Date(Date.now() + 7200_000));
    o.wx = m;
    return wxReply(reply, 200, { code_url: `${base}/scan/wechat/${o.token}` });
  });
  app.get<{ Params: { no: string } }>('/v3/pay/transactions/out-trade-no/:no', async (req, reply) => {
    const o = wxOrder(req, req.params.no);
    return o ? wxReply(reply, 200, wxTransaction(o)) : wxReply(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
  });
  app.post<{ Params: { no: string } }>('/v3/pay/transactions/out-trade-no/:no/close', async (req, reply) => {
    const o = wxOrder(req, req.params.no);
    if (!o) return wxReply(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    if (o.state === 'paid') return wxReply(reply, 400, { code: 'ORDERPAID', message: '订单已支付' });
    o.state = 'closed';
    return wxReply(reply, 204);
  });
  // ---- refunds: WeChat accepts (PROCESSING, idempotent per out_refund_no), then notifies REFUND.SUCCESS / REFUND.ABNORMAL ----
  let refundOutcome: RefundOutcome = 'SUCCESS';
  const pending = new Set<Promise<unknown>>();
  const wxRefund = (o: Order, r: EmRefund) => ({
    mchid: (o.wx ?? ownWx).mchid, refund_id: r.refundId, out_refund_no: r.outRefundNo, transaction_id: o.tradeNo, out_trade_no: o.outTradeNo, channel: 'ORIGINAL',
    user_received_account: '支付用户零钱', create_time: rfc3339(r.createdAt), success_time: r.successAt ? rfc3339(r.successAt) : undefined, status: r.status, refund_status: r.status,
    amount: { total: o.amountFen, refund: r.amountFen, payer_total: o.amountFen, payer_refund: r.amountFen, currency: 'CNY' },
  });
  async function endWxRefund(o: Order, r: EmRefund, outcome: RefundOutcome) {
    r.status = outcome === 'ABNORMAL' ? 'ABNORMAL' : 'SUCCESS';
    if (r.status === 'ABNORMAL') o.refundedFen -= r.amountFen;
    else r.successAt = new Date();
    if (!r.notifyUrl) return;
    const n = wechatNotification({ ...keys.wechat, apiV3Key: (o.wx ?? ownWx).apiV3Key }, wxRefund(o, r), { event: `REFUND.${r.status}` });
    const res = await deliver(r.notifyUrl, n.headers, n.raw).catch((e: Error) => ({ status: 0, body: e.message }));
    delivered.push({ channel: 'wechat', url: r.notifyUrl, headers: n.headers, raw: n.raw, status: res.status, answer: res.body });
  }
  app.post('/v3/refund/domestic/refunds', async (req, reply) => {
    const b = JSON.parse(String(req.body || '{}')) as { out_trade_no?: string; out_refund_no?: string; notify_url?: string; amount?: { refund?: number; total?: number } };
    const o = wxOrder(req, String(b.out_trade_no));
    if (!o || o.state !== 'paid') return wxReply(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在或未支付' });
    if (!b.out_refund_no) return wxReply(reply, 400, { code: 'PARAM_ERROR', message: '缺少 out_refund_no' });
    const same = o.refunds.find((x) => x.outRefundNo === b.out_refund_no);
    if (same) return wxReply(reply, 200, wxRefund(o, same));
    const fen = b.amount?.refund ?? 0;
    if (b.amount?.total !== o.amountFen || fen <= 0 || o.refundedFen + fen > o.amountFen) return wxReply(reply, 400, { code: 'INVALID_REQUEST', message: '退款金额无效' });
    if (refundOutcome === 'NOT_ENOUGH') return wxReply(reply, 403, { code: 'NOT_ENOUGH', message: '基本账户余额不足，请充值后重新发起' });
    o.refundedFen += fen;
    const r: EmRefund = { outRefundNo: b.out_refund_no, refundId: `50${Date.now()}${randomBytes(3).toString('hex')}`, amountFen: fen, status: 'PROCESSING', createdAt: new Date(), notifyUrl: b.notify_url ?? '' };
    o.refunds.push(r);
    const outcome = refundOutcome;
    const done = new Promise((resolve) => setTimeout(resolve, 20)).then(() => endWxRefund(o, r, outcome));
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return wxReply(reply, 200, wxRefund(o, r));
  });
  app.get<{ Params: { no: string } }>('/v3/refund/domestic/refunds/:no', async (req, reply) => {
    const mchid = caller.get(req)?.mchid;
    for (const o of orders.values()) {
      const r = o.channel === 'wechat' && (o.wx ?? ownWx).mchid === mchid ? o.refunds.find((x) => x.outRefundNo === req.params.no) : undefined;
      if (r) return wxReply(reply, 200, wxRefund(o, r));
    }
    return wxReply(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
  });

  // ---- statements (对账单): the paid orders of a Beijing day; a download URL answers for 30 s ----
  const files = new Map<string, { body: Buffer; expires: number }>();
  const today = () => formatBeijing(new Date(), 'YYYY-MM-DD');
  const tradesOf = (channel: Order['channel'], day: string, merchant: string): BillTrade[] =>
    [...orders.values()]
      .filter((o) => o.channel === channel && (channel === 'wechat' ? o.wx?.mchid : o.ali?.appId) === merchant && o.state === 'paid' && o.paidAt && formatBeijing(o.paidAt, 'YYYY-MM-DD') === day)
      .sort((x, y) => x.paidAt!.getTime() - y.paidAt!.getTime())
      .map((o) => ({ tradeNo: o.tradeNo, outTradeNo: o.outTradeNo, subject: o.subject, amountFen: o.amountFen, createdAt: formatBeijing(o.createdAt), paidAt: formatBeijing(o.paidAt!) }));
  /** the refunds that succeeded that day, with their orders' numbers */
  const refundsOf = (channel: Order['channel'], day: string, merchant: string): BillRefund[] =>
    [...orders.values()]
      .filter((o) => o.channel === channel && (channel === 'wechat' ? o.wx?.mchid : o.ali?.appId) === merchant)
      .flatMap((o) => o.refunds.filter((r) => r.status === 'SUCCESS' && r.successAt && formatBeijing(r.successAt, 'YYYY-MM-DD') === day).map((r) => ({
        tradeNo: o.tradeNo, outTradeNo: o.outTradeNo, outRefundNo: r.outRefundNo, refundId: r.refundId, subject: o.subject, orderFen: o.amountFen, amountFen: r.amountFen,
        refundedAt: formatBeijing(r.successAt!),
      })))
      .sort((x, y) => x.refundedAt.localeCompare(y.refundedAt));
  const keep = (body: Buffer) => {
    const token = randomBytes(16).toString('hex');
    files.set(token, { body, expires: Date.now() + 30_000 });
    return token;
  };
  const fetchFile = (token: unknown) => {
    const f = files.get(String(token ?? ''));
    return f && f.expires > Date.now() ? f.body : null;
  };
  app.get<{ Querystring: { bill_date?: string; bill_type?: string } }>('/v3/bill/tradebill', async (req, reply) => {
    const day = req.query.bill_date ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !['ALL', 'SUCCESS', 'REFUND'].includes(req.query.bill_type ?? 'ALL')) return wxReply(reply, 400, { code: 'PARAM_ERROR', message: '参数错误' });
    if (day > today()) return wxReply(reply, 400, { code: 'INVALID_REQUEST', message: '账单日期不能晚于今天' });
    const m = caller.get(req)!;
    const trades = tradesOf('wechat', day, m.mchid);
    const refunds = refundsOf('wechat', day, m.mchid);
    if (!trades.length && !refunds.length) return wxReply(reply, 400, { code: 'NO_STATEMENT_EXIST', message: '要查询的账单不存在' });
    const body = Buffer.from(wechatTradeBill(m, trades, refunds), 'utf8');
    const token = keep(body);
    return wxReply(reply, 200, { hash_type: 'SHA1', hash_value: createHash('sha1').update(body).digest('hex'), download_url: `http://${req.headers.host}/v3/billdownload/file?token=${token}` });
  });
  app.get<{ Querystring: { token?: string } }>('/v3/billdownload/file', async (req, reply) => {
    const body = fetchFile(req.query.token);
    if (!body) return wxReply(reply, 400, { code: 'INVALID_REQUEST', message: '下载地址已过期' });
    return reply.type('application/octet-stream').send(body);
  });
  app.get<{ Querystring: { fileId?: string } }>('/downloadBillFile.resource', async (req, reply) => {
    const body = fetchFile(req.query.fileId);
    if (!body) return reply.status(404).type('text/plain; charset=utf-8').send('下载链接已失效');
    return reply.type('application/oct-stream').header('content-disposition', 'attachment; filename="bill.csv.zip"').send(body);
  });

  // ---- Alipay ----
  app.post('/gateway.do', async (req, reply) => {
    const p = Object.fromEntries(new URLSearchParams(String(req.body ?? '')));
    const member = `${String(p.method ?? 'error').replace(/\./g, '_')}_response`;
    const answer = (r: Record<string, unknown>) => {
      const raw = JSON.stringify(r);
      return reply.type('application/json; charset=utf-8').send(`{"${member}":${raw},"sign":"${rsa2Sign(keys.alipay.alipayKey, raw)}"}`);
    };
    const m = await aliMerchant(p.app_id ?? '');
    if (!m || p.sign_type !== 'RSA2' || !rsa2Verify(m.appPublicKey, signContent(p), p.sign ?? '')) {
      return answer({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
    }
    const biz = JSON.parse(p.biz_content ?? '{}') as Record<string, string>;
    alipayCalls.push(String(p.method));
    const found = orders.get(`alipay:${biz.out_trade_no}`);
    // another app's order does not exist for this one
    const o = found && found.ali?.appId === m.appId ? found : undefined;
    const notExist = () => answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' });
    switch (p.method) {
      case 'alipay.trade.precreate': {
        const fen = fenOf(biz.total_amount);
        if (!biz.out_trade_no || !(fen > 0) || !p.notify_url) return answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.INVALID_PARAMETER', sub_msg: '参数无效' });
        if (found) return answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.CONTEXT_INCONSISTENT', sub_msg: '交易信息被篡改' });
        const n = newOrder('alipay', biz.out_trade_no, biz.subject ?? '', fen, p.notify_url, biz.time_expire ? new Date(parseBeijing(biz.time_expire)) : new Date(Date.now() + 7200_000));
        n.ali = m;
        return answer({ code: '10000', msg: 'Success', out_trade_no: n.outTradeNo, qr_code: `${base}/scan/alipay/${n.token}` });
      }
      case 'alipay.trade.query':
        // like Alipay, an order nobody scanned is unknown to the query
        if (!o || (o.state === 'open' && stateOf(o) === 'open' && !o.tradeNo)) return notExist();
        return answer({
          code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo, total_amount: yuan(o.amountFen),
          trade_status: { open: 'WAIT_BUYER_PAY', paid: 'TRADE_SUCCESS', closed: 'TRADE_CLOSED' }[stateOf(o)], buyer_logon_id: 'dem***@example.com',
        });
      case 'alipay.trade.close':
        if (!o) return notExist();
        if (o.state === 'paid') return answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_STATUS_ERROR', sub_msg: '交易状态不合法' });
        o.state = 'closed';
        return answer({ code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo });
      case 'alipay.trade.cancel': {
        // 撤销: an unpaid (or never scanned) trade is closed; a paid one is refunded in full
        if (!o) return answer({ code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, retry_flag: 'N', action: 'close' });
        const paid = o.state === 'paid';
        if (paid) o.refundedFen = o.amountFen;
        o.state = 'closed';
        return answer({ code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo, retry_flag: 'N', action: paid ? 'refund' : 'close' });
      }
      case 'alipay.trade.refund': {
        // synchronous; the same out_request_no again refunds nothing more (fund_change N)
        const fen = fenOf(biz.refund_amount);
        const no = biz.out_request_no || biz.out_trade_no;
        if (!o || o.state !== 'paid') return notExist();
        const same = o.refunds.some((x) => x.outRefundNo === no);
        if (!same && (!(fen > 0) || o.refundedFen + fen > o.amountFen)) return answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', sub_msg: '退款金额超限' });
        if (!same && refundOutcome === 'NOT_ENOUGH') return answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', sub_msg: '卖家余额不足' });
        if (!same) {
          o.refundedFen += fen;
          o.refunds.push({ outRefundNo: no, refundId: o.tradeNo, amountFen: fen, status: 'SUCCESS', createdAt: new Date(), successAt: new Date(), notifyUrl: '' });
        }
        return answer({ code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo, refund_fee: yuan(o.refundedFen), fund_change: same ? 'N' : 'Y' });
      }
      case 'alipay.trade.fastpay.refund.query': {
        if (!o) return notExist();
        const r = o.refunds.find((x) => x.outRefundNo === (biz.out_request_no || biz.out_trade_no));
        // no refund_status: Alipay has no successful refund of this request number
        if (!r) return answer({ code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo });
        return answer({
          code: '10000', msg: 'Success', out_trade_no: o.outTradeNo, trade_no: o.tradeNo, out_request_no: r.outRefundNo, total_amount: yuan(o.amountFen),
          refund_amount: yuan(r.amountFen), refund_status: 'REFUND_SUCCESS', gmt_refund_pay: alipayTime(r.successAt ?? r.createdAt),
        });
      }
      case 'alipay.data.dataservice.bill.downloadurl.query': {
        const day = biz.bill_date ?? '';
        if (biz.bill_type !== 'trade' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return answer({ code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-parameter', sub_msg: '参数无效' });
        if (day > today()) return answer({ code: '40004', msg: 'Business Failed', sub_code: 'isp.bill_not_exist', sub_msg: '账单不存在' });
        const zip = await alipayBillZip({ pid: m.sellerId, day, exportedAt: formatBeijing(new Date()) }, tradesOf('alipay', day, m.appId), refundsOf('alipay', day, m.appId));
        const d = day.replace(/-/g, '');
        return answer({
          code: '10000', msg: 'Success',
          bill_download_url: `http://${req.headers.host}/downloadBillFile.resource?bizType=trade&userId=${m.sellerId}&fileType=csv.zip&bizDates=${d}&downloadFileName=${m.sellerId}0156_${d}.csv.zip&fileId=${keep(zip)}`,
        });
      }
      default:
        return answer({ code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method', sub_msg: '不存在的方法名' });
    }
  });

  // ---- the payer ----
  const notificationOf = (o: Order) =>
    o.channel === 'wechat'
      ? wechatNotification({ ...keys.wechat, apiV3Key: (o.wx ?? ownWx).apiV3Key }, { ...wxTransaction(o), payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' }, bank_type: 'OTHERS' })
      : alipayNotification(keys.alipay, {
          app_id: (o.ali ?? ownAli).appId, seller_id: (o.ali ?? ownAli).sellerId, out_trade_no: o.outTradeNo, trade_no: o.tradeNo, trade_status: 'TRADE_SUCCESS',
          total_amount: yuan(o.amountFen), receipt_amount: yuan(o.amountFen), subject: o.subject, gmt_payment: alipayTime(o.paidAt!), buyer_id: '2088102177846880',
        });
  async function pay(o: Order, notify = true): Promise<Delivered | null> {
    if (stateOf(o) === 'closed') throw new Error('订单已关闭');
    if (o.state === 'open') {
      o.state = 'paid';
      o.paidAt = new Date();
      o.tradeNo = `${o.channel === 'wechat' ? '4200' : '2026'}${Date.now()}${randomBytes(3).toString('hex')}`;
    }
    if (!notify) return null;
    const n = notificationOf(o);
    const r = await deliver(o.notifyUrl, n.headers, n.raw).catch((e: Error) => ({ status: 0, body: e.message }));
    const d: Delivered = { channel: o.channel, url: o.notifyUrl, headers: n.headers, raw: n.raw, status: r.status, answer: r.body };
    delivered.push(d);
    return d;
  }
  app.get<{ Params: { channel: string; token: string } }>('/scan/:channel/:token', async (req, reply) => {
    const o = byToken.get(req.params.token);
    if (!o || o.channel !== req.params.channel) return reply.status(404).type('text/html; charset=utf-8').send(resultPage('订单不存在', '该支付二维码无效或已失效。'));
    return reply.type('text/html; charset=utf-8').send(payerPage({ channel: o.channel, subject: o.subject, amount: yuan(o.amountFen), outTradeNo: o.outTradeNo, state: stateOf(o), action: `/scan/${o.channel}/${o.token}/pay` }));
  });
  app.post<{ Params: { channel: string; token: string } }>('/scan/:channel/:token/pay', async (req, reply) => {
    const o = byToken.get(req.params.token);
    const html = (title: string, text: string, status = 200) => reply.status(status).type('text/html; charset=utf-8').send(resultPage(title, text));
    if (!o || o.channel !== req.params.channel) return html('订单不存在', '该支付二维码无效或已失效。', 404);
    if (stateOf(o) === 'closed') return html('订单已关闭', '该订单已关闭或已过期，请重新下单。', 409);
    const d = await pay(o);
    const ok = d && (o.channel === 'wechat' ? d.status === 200 || d.status === 204 : d.answer === 'success');
    return html('支付成功', ok ? `已支付 ¥${yuan(o.amountFen)}，商户已确认到账。` : `已支付 ¥${yuan(o.amountFen)}，商户暂未确认（将由商户查单补记）。`);
  });

  // ---- test controls (the demo and the tests make the provider's records differ from the merchant's) ----
  const control = (req: { body: unknown }) => JSON.parse(String(req.body || '{}')) as { channel?: string; outTradeNo?: string; amountFen?: number };
  const controlled = (reply: FastifyReply, fn: () => unknown) => {
    try {
      return reply.send({ ok: true, result: fn() ?? null });
    } catch (e) {
      return reply.status(400).send({ ok: false, message: (e as Error).message });
    }
  };
  app.post('/control/trade', async (req, reply) => {
    const b = control(req);
    return controlled(reply, () => {
      if ((b.channel !== 'wechat' && b.channel !== 'alipay') || !b.outTradeNo || !Number.isInteger(b.amountFen)) throw new Error('需要 channel、outTradeNo、amountFen');
      return api.addTrade(b.channel, { outTradeNo: b.outTradeNo, amountFen: b.amountFen! });
    });
  });
  app.post('/control/amount', async (req, reply) => {
    const b = control(req);
    return controlled(reply, () => api.setAmount(String(b.outTradeNo), Number(b.amountFen)));
  });
  app.post('/control/revoke', async (req, reply) => controlled(reply, () => api.revoke(String(control(req).outTradeNo))));
  app.post('/control/refundOutcome', async (req, reply) => controlled(reply, () => api.setRefundOutcome(String((control(req) as { outcome?: string }).outcome) as RefundOutcome)));
  const find = (outTradeNo: string) => {
    const order = orders.get(`wechat:${outTradeNo}`) ?? orders.get(`alipay:${outTradeNo}`);
    if (!order) throw new Error(`no order ${outTradeNo}`);
    return order;
  };
  const api: Emulator = {
    url: '',
    app,
    delivered,
    alipayCalls,
    async pay(outTradeNo, o = {}) {
      const order = orders.get(`wechat:${outTradeNo}`) ?? orders.get(`alipay:${outTradeNo}`);
      if (!order) throw new Error(`no order ${outTradeNo}`);
      return pay(order, o.notify ?? true);
    },
    addTrade(channel, t) {
      if (orders.has(`${channel}:${t.outTradeNo}`)) throw new Error(`订单号 ${t.outTradeNo} 已存在`);
      const o = newOrder(channel, t.outTradeNo, t.subject ?? '充值', t.amountFen, '', new Date(Date.now() + 7200_000));
      if (channel === 'wechat') o.wx = ownWx;
      else o.ali = ownAli;
      o.state = 'paid';
      o.paidAt = t.paidAt ?? new Date();
      o.tradeNo = `${channel === 'wechat' ? '4200' : '2026'}${Date.now()}${randomBytes(3).toString('hex')}`;
      return o.tradeNo;
    },
    setAmount(outTradeNo, amountFen) {
      if (!Number.isInteger(amountFen) || amountFen <= 0) throw new Error('金额须为正整数（分）');
      find(outTradeNo).amountFen = amountFen;
    },
    revoke(outTradeNo) {
      find(outTradeNo).state = 'closed';
    },
    setRefundOutcome(outcome) {
      if (!['SUCCESS', 'ABNORMAL', 'NOT_ENOUGH'].includes(outcome)) throw new Error('outcome 须为 SUCCESS、ABNORMAL 或 NOT_ENOUGH');
      refundOutcome = outcome;
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    close: () => app.close(),
  };
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const addr = app.server.address();
  const listenUrl = typeof addr === 'object' && addr ? `http://127.0.0.1:${addr.port}` : '';
  base = opts.publicUrl ?? listenUrl;
  api.url = listenUrl;
  return api;
}
