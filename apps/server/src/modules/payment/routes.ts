import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API } from '@meter/contracts';
import { jsonBody, routes } from '../../http/routes.ts';
import type { Channel } from './providers/gateway.ts';
import * as merchant from './merchant.ts';
import * as refund from './refund.ts';
import * as S from './schema.ts';
import * as payment from './service.ts';

// Online payments (SPEC §7), registered from their declarations (packages/contracts endpoints/payment.ts):
// POST /wxpay/api/wxpay/pay, POST /alipay/api/alipay/pay, GET /wxpay/api/wxpay/list (page, size) and
// …/query, the simulated provider's "the payer paid", and the providers' notify endpoints (no session: the
// signature is the proof) — WeChat Pay v3 / Alipay with their raw bodies when those providers are
// configured, else the simulated provider's JSON.

export default function paymentRoutes(app: FastifyInstance, pay: payment.Payments = payment.SIMULATED) {
  const r = routes(app);
  const P = API.payment;
  r.endpoint(P.payWechat, ({ body }, ctx) => payment.createPayment(ctx, pay, 'wechat', body, ctx.user.id));
  r.endpoint(P.payAlipay, ({ body }, ctx) => payment.createPayment(ctx, pay, 'alipay', body, ctx.user.id));
  r.endpoint(P.list, ({ query }, ctx) => payment.listPayments(ctx, { ...query, page: query.index ?? query.page }));
  r.endpoint(P.query, ({ query }, ctx) => payment.queryPayment(ctx, query.outTradeNo));
  // The providers' notify callbacks (declared `raw`, no session: the signature is the proof). With WeChat
  // Pay v3 / Alipay configured the signature covers the body's bytes; the simulated provider's is JSON.
  const N = { wechat: P.notifyWechat, alipay: P.notifyAlipay };
  for (const channel of ['wechat', 'alipay'] as const) {
    if (pay.gateways[channel] || pay.merchants) r.endpoint(N[channel], (_i, _ctx, req, reply) => providerNotify(req, reply, channel, pay));
    else r.endpoint(N[channel], (_i, _ctx, req) => payment.handleNotify(req.publicCtx!.db, channel, jsonBody(S.NotifyBody, req)));
  }
  // WeChat Pay's refund results (refund.ts), raw like the pay notify (without a WeChat Pay merchant: 404, none sent it)
  r.endpoint(P.refundNotifyWechat, (_i, _ctx, req, reply) => providerNotify(req, reply, 'wechat', pay, true));
  // 取消订单 (declared in packages/contracts endpoints/finance.ts)
  r.endpoint(API.finance.closeWechat, ({ body }, ctx) => payment.cancelPayment(ctx, pay, 'wechat', body.outTradeNo));
  r.endpoint(API.finance.closeAlipay, ({ body }, ctx) => payment.cancelPayment(ctx, pay, 'alipay', body.outTradeNo));
  // 退款 (refund.ts)
  r.endpoint(P.refundWechat, ({ body }, ctx) => refund.refundPayment(ctx, pay, 'wechat', body));
  r.endpoint(P.refundAlipay, ({ body }, ctx) => refund.refundPayment(ctx, pay, 'alipay', body));
  r.endpoint(P.refundRetry, ({ body }, ctx) => refund.retryRefund(ctx, pay, body.outRefundNo));
  r.endpoint(P.refunds, ({ query }, ctx) => refund.refundsOf(ctx, query.outTradeNo));
  r.endpoint(P.simulateWechat, ({ body }, ctx) => payment.simulatePaid(ctx, pay, 'wechat', body.outTradeNo));
  r.endpoint(P.simulateAlipay, ({ body }, ctx) => payment.simulatePaid(ctx, pay, 'alipay', body.outTradeNo));
  // 支付商户 per company, 充值档位
  const M = API.merchant;
  r.endpoint(M.get, ({ query }, ctx) => merchant.getMerchant(ctx, pay.merchants, query.companyId));
  r.endpoint(M.save, ({ body }, ctx) => merchant.saveMerchant(ctx, pay.merchants, body));
}

/**
 * A provider's notification: the body exactly as received (the signature covers those bytes), answered as
 * the provider expects. `?merchant=<companyId>`: a company's own merchant sent it, verified with its keys.
 */
async function providerNotify(req: FastifyRequest, reply: FastifyReply, channel: Channel, pay: payment.Payments, refunds = false) {
  const db = req.publicCtx!.db;
  const m = /^\d{1,12}$/.exec(String((req.query as Record<string, unknown>)?.merchant ?? ''))?.[0];
  const gateway = m ? await pay.merchants?.load(db, Number(m), channel).catch(() => undefined) : pay.gateways[channel];
  if (!gateway) return reply.status(404).type('application/json').send(JSON.stringify({ code: 'FAIL', message: '商户不存在或已停用' }));
  const n = { headers: req.headers, raw: String(req.body ?? '') };
  const a = refunds ? await refund.handleRefundNotify(db, gateway, n, m ? Number(m) : null) : await payment.handleProviderNotify(db, gateway, n, m ? Number(m) : null);
  return reply.status(a.status).type(a.type).send(a.body);
}
