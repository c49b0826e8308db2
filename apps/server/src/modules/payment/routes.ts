import type { FastifyInstance } from 'fastify';
import { routes, type Perm } from '../../http/routes.ts';
import * as S from './schema.ts';
import * as payment from './service.ts';

// Online payments (SPEC §7): POST /wxpay/api/wxpay/pay, POST /alipay/api/alipay/pay,
// GET /wxpay/api/wxpay/list (page, size); the providers' notify endpoints (no session: the signature
// is the proof); and the simulated provider's "the payer paid" of this offline build.

const payOp: Perm = { routes: ['energy', 'compre'], op: 'finance.prepay' };
const payRead: Perm = { routes: ['energy', 'compre', 'notesPay', 'financerecode', 'reportBank'] };

export default function paymentRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['在线支付'];
  r.post('/wxpay/api/wxpay/pay', { summary: '微信支付下单（返回支付二维码）', perm: payOp, body: S.PayBody, tags }, ({ body }, ctx) =>
    payment.createPayment(ctx, 'wechat', body));
  r.post('/alipay/api/alipay/pay', { summary: '支付宝下单（返回支付二维码）', perm: payOp, body: S.PayBody, tags }, ({ body }, ctx) =>
    payment.createPayment(ctx, 'alipay', body));
  r.get('/wxpay/api/wxpay/list', { summary: '在线支付订单列表（page、size）', perm: payRead, query: S.PaymentListQuery, tags }, ({ query }, ctx) =>
    payment.listPayments(ctx, query));
  r.get('/wxpay/api/wxpay/query', { summary: '查询在线支付订单状态', perm: payRead, query: S.TradeQuery, tags }, ({ query }, ctx) =>
    payment.queryPayment(ctx, query.outTradeNo));
  r.post('/wxpay/api/wxpay/notify', { summary: '微信支付结果通知（支付平台回调，验签）', perm: false, body: S.NotifyBody, tags }, ({ body }, _ctx, req) =>
    payment.handleNotify(req.publicCtx!.db, 'wechat', body));
  r.post('/alipay/api/alipay/notify', { summary: '支付宝支付结果通知（支付平台回调，验签）', perm: false, body: S.NotifyBody, tags }, ({ body }, _ctx, req) =>
    payment.handleNotify(req.publicCtx!.db, 'alipay', body));
  r.post('/wxpay/api/wxpay/simulatePaid', { summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, body: S.SimulateBody, tags }, ({ body }, ctx) =>
    payment.simulatePaid(ctx, 'wechat', body.outTradeNo));
  r.post('/alipay/api/alipay/simulatePaid', { summary: '模拟支付成功（离线版模拟支付平台）', perm: payOp, body: S.SimulateBody, tags }, ({ body }, ctx) =>
    payment.simulatePaid(ctx, 'alipay', body.outTradeNo));
}
