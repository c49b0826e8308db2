import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import type { Channel } from './providers/gateway.ts';
import * as merchant from './merchant.ts';
import * as refund from './refund.ts';
import * as S from './schema.ts';
import * as payment from './service.ts';
import { NOTIFY_PATHS, REFUND_NOTIFY_PATH } from './setup.ts';

// Online payments (SPEC §7), registered from their declarations (packages/contracts endpoints/payment.ts):
// POST /wxpay/api/wxpay/pay, POST /alipay/api/alipay/pay, GET /wxpay/api/wxpay/list (page, size) and
// …/query, the simulated provider's "the payer paid"; and, by hand, the providers' notify endpoints (no
// session: the signature is the proof) — WeChat Pay v3 / Alipay with their raw bodies when those
// providers are configured, else the simulated provider's JSON.

export default function paymentRoutes(app: FastifyInstance, pay: payment.Payments = payment.SIMULATED) {
  const r = routes(app);
  const P = API.payment;
  r.endpoint(P.payWechat, ({ body }, ctx) => payment.createPayment(ctx, pay, 'wechat', body, ctx.user.id));
  r.endpoint(P.payAlipay, ({ body }, ctx) => payment.createPayment(ctx, pay, 'alipay', body, ctx.user.id));
  r.endpoint(P.list, ({ query }, ctx) => payment.listPayments(ctx, { ...query, page: query.index ?? query.page }));
  r.endpoint(P.query, ({ query }, ctx) => payment.queryPayment(ctx, query.outTradeNo));
  // The providers' notify callbacks stay registered by hand: with WeChat Pay v3 / Alipay configured the
  // path takes the raw body (the signature covers those bytes, a JSON schema would parse them away); the
  // simulated provider's is JSON on the same path. Neither has a session, a page or an audit action.
  for (const channel of ['wechat', 'alipay'] as const) {
    if (pay.gateways[channel] || pay.merchants) rawNotify(app, NOTIFY_PATHS[channel], channel, pay);
    else {
      r.post(NOTIFY_PATHS[channel], { summary: `${payment.CHANNEL_TEXT[channel]}结果通知（模拟支付平台回调，验签）`, perm: false, body: S.NotifyBody, tags: ['在线支付'] }, ({ body }, _ctx, req) =>
        payment.handleNotify(req.publicCtx!.db, channel, body));
    }
  }
  // WeChat Pay's refund results (refund.ts), raw like the pay notify
  if (pay.gateways.wechat || pay.merchants) rawNotify(app, REFUND_NOTIFY_PATH, 'wechat', pay, true);
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
 * A provider's notify endpoint: the body is kept exactly as received (the signature covers those bytes), for
 * this route only. `?merchant=<companyId>`: a company's own merchant sent it, verified with that merchant's keys.
 */
function rawNotify(app: FastifyInstance, url: string, channel: Channel, pay: payment.Payments, refunds = false) {
  void app.register(async (sub) => {
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    routes(sub).post(url, { summary: `${payment.CHANNEL_TEXT[channel]}${refunds ? '退款' : '支付'}结果通知（支付平台回调，原文验签）`, perm: false, tags: ['在线支付'] }, async (_i, _ctx, req, reply) => {
      const db = req.publicCtx!.db;
      const m = /^\d{1,12}$/.exec(String((req.query as Record<string, unknown>)?.merchant ?? ''))?.[0];
      const gateway = m ? await pay.merchants?.load(db, Number(m), channel).catch(() => undefined) : pay.gateways[channel];
      if (!gateway) return reply.status(404).type('application/json').send(JSON.stringify({ code: 'FAIL', message: '商户不存在或已停用' }));
      const n = { headers: req.headers, raw: String(req.body ?? '') };
      const a = refunds ? await refund.handleRefundNotify(db, gateway, n, m ? Number(m) : null) : await payment.handleProviderNotify(db, gateway, n, m ? Number(m) : null);
      return reply.status(a.status).type(a.type).send(a.body);
    });
  });
}
