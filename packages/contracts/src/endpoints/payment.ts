import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { EnergyWallet, Money } from './billing-input.ts';
import { CompanyQuery, wireTime, optionalRef, coded } from '../query.ts';

// Online payments (SPEC §7): POST /wxpay/api/wxpay/pay and /alipay/api/alipay/pay (a QR order),
// GET /wxpay/api/wxpay/list (page, size) and …/query, and the simulated provider's "the payer paid"
// (…/simulatePaid), and the providers' notify callbacks (`raw`: with a real provider configured the path
// takes the raw body the signature covers, not JSON). 取消订单 (…/close) is declared with the finance day
// (endpoints/finance.ts).

const id = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');


export const PayBody = z.object({
  roomId: id,
  wallet: EnergyWallet,
  amount: Money,
  subject: z.string().trim().max(64, '订单标题最多 64 个字').optional(),
});
export type PayInput = z.infer<typeof PayBody>;

const tradeNo = z.string({ error: '请提供订单号' }).trim().regex(/^[A-Z]{2,3}\d{22}$/, '订单号格式不正确');

/** A provider's notification (the simulated provider signs these fields). */
export const NotifyBody = z.object({
  out_trade_no: tradeNo,
  trade_no: z.string({ error: '请提供支付流水号' }).trim().min(1, '请提供支付流水号').max(64),
  total_fee: num(z.number({ error: '须为整数（分）' }).int('须为整数（分）').positive('须大于 0'), '须为整数（分）'),
  sign: z.string({ error: '请提供签名' }).trim().max(128),
});
export const SimulateBody = z.object({ outTradeNo: tradeNo });
export const TradeQuery = z.object({ outTradeNo: tradeNo }).extend(CompanyQuery.shape);

const page = num(z.number().int().min(1, '页码须为正整数'));
/** wxpay/list pages with page and size (SPEC §7); index is taken as page (the paging every other list declares). */
export const PaymentListQuery = z.object({
  page: page.default(1),
  index: page.optional(),
  size: num(z.number().int().min(1, '每页条数须为 1–1000').max(1000, '每页条数须为 1–1000')).default(20),
  channel: z.enum(['wechat', 'alipay'], { error: '支付渠道须为 wechat 或 alipay' }).optional(),
  status: z.enum(['created', 'paid', 'closed'], { error: '状态须为 created、paid 或 closed' }).optional(),
  searchArea: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

// ---- answers ------------------------------------------------------------------------------------

/** A new order: its QR code, and how the payer pays it (simulated provider / local emulator). */
export const PaymentOrderRow = z.object({
  id: z.number(),
  outTradeNo: z.string(),
  channel: z.enum(['wechat', 'alipay']),
  channelText: z.string(),
  /** 元 */
  amount: z.string(),
  subject: z.string(),
  codeUrl: z.string(),
  /** the code URL as a PNG data URL */
  qrCode: z.string(),
  /** Beijing time */
  expiresAt: wireTime,
  status: z.string(),
  /** the simulated HMAC provider: confirm with POST …/simulatePaid */
  simulated: z.boolean(),
  /** the code URL opens the local emulator's payer page (demo) */
  emulated: z.boolean(),
});

/** An online order as listed and queried (times as Beijing wall-clock text). */
export const OnlineOrderRow = z.object({
  id: z.number(),
  outTradeNo: z.string(),
  ...coded('channel', z.string()),
  ...coded('wallet', z.string()),
  /** 元 */
  amount: z.string(),
  /** created 待支付 | paid 已支付 | closed 已关闭 */
  ...coded('status', z.string()),
  providerTradeNo: z.string().nullable(),
  subject: z.string(),
  ...optionalRef('room'),
  ...optionalRef('owner'),
  journalId: z.number().nullable(),
  /** the counter receipt of a paid counter order */
  receiptId: z.number().nullable(),
  /** 元 refunded online so far (processing and succeeded refunds) */
  refunded: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  expiresAt: z.string(),
});

/**
 * 退款 of a paid online order, whole or in part. requestId: the caller's id of this request (the page
 * makes one per dialog), so a repeated request refunds once.
 */
export const RefundBody = z.object({
  outTradeNo: tradeNo,
  amount: Money,
  reason: z.string({ error: '请填写退款原因' }).trim().min(1, '请填写退款原因').max(80, '退款原因最多 80 个字'),
  requestId: z.string({ error: '请提供请求编号' }).trim().regex(/^[A-Za-z0-9_-]{8,32}$/, '须为 8–32 位字母、数字、下划线或连字符'),
});
export type RefundInput = z.infer<typeof RefundBody>;

/** 重新查询/重发 of a refund still 处理中: its out_refund_no (the order number + R + the request id). */
export const RefundRetryBody = z.object({
  outRefundNo: z.string({ error: '请选择退款记录' }).trim().regex(/^[A-Z]{2,3}\d{22}R[A-Za-z0-9_-]{8,32}$/, '退款单号格式不正确'),
});

/** An online refund: processing (sent, the provider's answer pending) | success | failed (the debit reversed). */
export const RefundRow = z.object({
  id: z.number(),
  outTradeNo: z.string(),
  outRefundNo: z.string(),
  channel: z.string(),
  /** 元 */
  amount: z.string(),
  reason: z.string(),
  ...coded('status', z.string()),
  providerRefundNo: z.string(),
  providerMessage: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** the 退款凭证 of a succeeded refund (/billprint); null until the provider confirmed it */
  receiptId: z.number().nullable(),
  receiptNo: z.string(),
  /** a repeated request answered with the first refund */
  duplicate: z.boolean().optional(),
});

/** The provider's notification was taken (once; a repeat answers duplicate). */
export const CreditResult = z.object({ outTradeNo: z.string(), status: z.string(), duplicate: z.boolean(), balance: z.string().optional() });

// ---- endpoints ----------------------------------------------------------------------------------

const payOp = { routes: ['energy', 'compre'], op: 'finance.prepay' };
const payRead = { routes: ['energy', 'compre', 'notesPay', 'financerecode', 'reportBank'] };
const tags = ['在线支付'];
const refundOp = { routes: ['notesPay', 'financerecode'], op: 'finance.refund' };
const company = CompanyQuery;

export const paymentEndpoints = {
  payWechat: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/pay', summary: '微信支付下单（返回支付二维码）', perm: payOp, query: company, body: PayBody, response: PaymentOrderRow, tags,
  }),
  payAlipay: endpoint({
    method: 'POST', path: '/alipay/api/alipay/pay', summary: '支付宝下单（返回支付二维码）', perm: payOp, query: company, body: PayBody, response: PaymentOrderRow, tags,
  }),
  list: endpoint({
    method: 'GET', path: '/wxpay/api/wxpay/list', summary: '在线支付订单列表（page、size）', perm: payRead, query: PaymentListQuery, response: OnlineOrderRow, paged: true, tags,
  }),
  query: endpoint({ method: 'GET', path: '/wxpay/api/wxpay/query', summary: '查询在线支付订单状态', perm: payRead, query: TradeQuery, response: OnlineOrderRow, tags }),
  simulateWechat: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/simulatePaid', summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, query: company, body: SimulateBody,
    response: CreditResult, tags,
  }),
  refundWechat: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/refund', summary: '微信支付订单退款（全额或部分，原路退回）', perm: refundOp, query: company, body: RefundBody, response: RefundRow, tags,
  }),
  refundAlipay: endpoint({
    method: 'POST', path: '/alipay/api/alipay/refund', summary: '支付宝订单退款（全额或部分，原路退回）', perm: refundOp, query: company, body: RefundBody, response: RefundRow, tags,
  }),
  refundRetry: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/refundRetry', summary: '重新查询/重发处理中的退款（向支付平台查询并结清；平台无此退款时以同一退款单号重发）', perm: refundOp, query: company,
    body: RefundRetryBody, response: RefundRow, tags,
  }),
  refunds: endpoint({ method: 'GET', path: '/wxpay/api/wxpay/refunds', summary: '在线支付订单的退款记录', perm: payRead, query: TradeQuery, response: z.array(RefundRow), tags }),
  simulateAlipay: endpoint({
    method: 'POST', path: '/alipay/api/alipay/simulatePaid', summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, query: company, body: SimulateBody,
    response: CreditResult, tags,
  }),  // The providers' result callbacks: no session (the signature is the proof), no page. With WeChat Pay v3 /
  // Alipay configured the body is the raw text the signature covers (?merchant=<companyId>: a company's own
  // merchant) and the answer is the provider's own; the simulated provider posts NotifyBody as JSON.
  notifyWechat: endpoint({ method: 'POST', path: '/wxpay/api/wxpay/notify', summary: '微信支付结果通知（支付平台回调，验签）', perm: false, raw: true, tags }),
  notifyAlipay: endpoint({ method: 'POST', path: '/alipay/api/alipay/notify', summary: '支付宝支付结果通知（支付平台回调，验签）', perm: false, raw: true, tags }),
  /** WeChat Pay's refund results (registered with a WeChat Pay gateway or companies' own merchants) */
  refundNotifyWechat: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/refundNotify', summary: '微信支付退款结果通知（支付平台回调，原文验签）', perm: false, raw: true, tags,
  }),
};

export type PaymentOrder = z.output<typeof PaymentOrderRow>;
export type OnlineOrder = z.output<typeof OnlineOrderRow>;
export type OnlineRefund = z.output<typeof RefundRow>;
