import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as closing from './closing.ts';
import * as reversal from './reversal.ts';

// The finance day, declared in packages/contracts (endpoints/finance.ts; listed in docs/API.md):
// 日结/交班 on the page /dailyClose, and 作废/冲正 of a receipt on /billprint. (The counter QR
// order's 取消订单 is declared there too and registered by the payment module.)

const F = API.finance;

export default function financeRoutes(app: FastifyInstance) {
  const r = routes(app);
  r.endpoint(F.days, ({ query }, ctx) => closing.listDays(ctx, query));
  r.endpoint(F.day, ({ query }, ctx) => closing.dayDetail(ctx, query.day));
  r.endpoint(F.closeDay, ({ body }, ctx) => closing.closeDay(ctx, body));
  r.endpoint(F.handover, ({ body }, ctx) => closing.handover(ctx, body));
  r.endpoint(F.voidReceipt, ({ body }, ctx) => reversal.voidReceipt(ctx, body));
  r.endpoint(F.voids, ({ query }, ctx) => reversal.voidsOf(ctx, query.ids));
}
