import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes, type Perm } from '../../http/routes.ts';
import type { PayGateway } from './providers/gateway.ts';
import * as S from './schema.ts';
import * as payment from './service.ts';
import { NOTIFY_PATHS } from './setup.ts';

// Online payments (SPEC §7): POST /wxpay/api/wxpay/pay, POST /alipay/api/alipay/pay,
// GET /wxpay/api/wxpay/list (page, size); the providers' notify endpoints (no session: the signature
// is the proof) — WeChat Pay v3 / Alipay with their raw bodies when those providers are configured,
// else the simulated provider's JSON; and the simulated provider's "the payer paid".

const payOp: Perm = { routes: ['energy', 'compre'], op: 'finance.prepay' };
const payRead: Perm = { routes: ['energy', 'compre', 'notesPay', 'financerecode', 'reportBank'] };

export default function paymentRoutes(app: FastifyInstance, pay: payment.Payments = payment.SIMULATED) {
  const r = routes(app);
  const tags = ['在线支付'];
  r.post('/wxpay/api/wxpay/pay', { summary: '微信支付下单（返回支付二维码）', perm: payOp, body: S.PayBody, tags }, ({ body }, ctx) =>
    payment.createPayment(ctx, pay, 'wechat', body));
  r.post('/alipay/api/alipay/pay', { summary: '支付宝下单（返回支付二维码）', perm: payOp, body: S.PayBody, tags }, ({ body }, ctx) =>
    payment.createPayment(ctx, pay, 'alipay', body));
  r.get('/wxpay/api/wxpay/list', { summary: '在线支付订单列表（page、size）', perm: payRead, query: S.PaymentListQuery, tags }, ({ query }, ctx) =>
    payment.listPayments(ctx, query));
  r.get('/wxpay/api/wxpay/query', { summary: '查询在线支付订单状态', perm: payRead, query: S.TradeQuery, tags }, ({ query }, ctx) =>
    payment.queryPayment(ctx, query.outTradeNo));
  for (const channel of ['wechat', 'alipay'] as const) {
    const gateway = pay.gateways[channel];
    if (gateway) rawNotify(app, NOTIFY_PATHS[channel], gateway);
    else {
      r.post(NOTIFY_PATHS[channel], { summary: `${payment.CHANNEL_TEXT[channel]}结果通知（模拟支付平台回调，验签）`, perm: false, body: S.NotifyBody, tags }, ({ body }, _ctx, req) =>
        payment.handleNotify(req.publicCtx!.db, channel, body));
    }
  }
  // 取消订单 (declared in packages/contracts endpoints/finance.ts)
  r.endpoint(API.finance.closeWechat, ({ body }, ctx) => payment.cancelPayment(ctx, pay, 'wechat', body.outTradeNo));
  r.endpoint(API.finance.closeAlipay, ({ body }, ctx) => payment.cancelPayment(ctx, pay, 'alipay', body.outTradeNo));
  r.post('/wxpay/api/wxpay/simulatePaid', { summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, body: S.SimulateBody, tags }, ({ body }, ctx) =>
    payment.simulatePaid(ctx, pay, 'wechat', body.outTradeNo));
  r.post('/alipay/api/alipay/simulatePaid', { summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, body: S.SimulateBody, tags }, ({ body }, ctx) =>
    payment.simulatePaid(ctx, pay, 'alipay', body.outTradeNo));
}

/** A provider's notify endpoint: the body is kept exactly as received (the signature covers those bytes), for this route only. */
function rawNotify(app: FastifyInstance, url: string, gateway: PayGateway) {
  void app.register(async (sub) => {
    sub.removeAllContentTypeParsers();
    sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    routes(sub).post(url, { summary: `${payment.CHANNEL_TEXT[gateway.channel]}支付结果通知（支付平台回调，原文验签）`, perm: false, tags: ['在线支付'] }, (_i, _ctx, req, reply) =>
      payment.handleProviderNotify(req.publicCtx!.db, gateway, { headers: req.headers, raw: String(req.body ?? '') }).then((a) => reply.status(a.status).type(a.type).send(a.body)));
  });
}
