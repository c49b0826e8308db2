import type { FastifyInstance } from 'fastify';
import { routes, type Perm } from '../../http/routes.ts';
import * as closing from './closing.ts';
import * as reversal from './reversal.ts';
import * as S from './schema.ts';

// The finance day under /yewu/api (calls the spec leaves unnamed; listed in docs/API.md):
// 日结/交班 on the page /dailyClose, and 作废/冲正 of a receipt on /billprint.

const Y = '/yewu/api';
const dayRead: Perm = { routes: ['dailyClose'] };
const dayOp: Perm = { routes: ['dailyClose'], op: 'finance.dailyClose' };
/** every page that opens a receipt (ReceiptModal) */
const printRead: Perm = { routes: ['billprint', 'notesPay', 'compreProperty'] };

export default function financeRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['日结交班'];
  r.get(`${Y}/DailyClosing/List`, { summary: '营业日列表（状态、实收合计）', perm: dayRead, query: S.DayListQuery, tags }, ({ query }, ctx) =>
    closing.listDays(ctx, query));
  r.get(`${Y}/DailyClosing/Detail`, { summary: '营业日详情（按支付方式、按操作员；结账单）', perm: dayRead, query: S.DayQuery, tags }, ({ query }, ctx) =>
    closing.dayDetail(ctx, query.day));
  r.post(`${Y}/DailyClosing/Close`, { summary: '日结（锁定营业日）', perm: dayOp, body: S.CloseDayBody, tags }, ({ body }, ctx) =>
    closing.closeDay(ctx, body));
  r.post(`${Y}/DailyClosing/Handover`, { summary: '交班（锁定操作员当日班次）', perm: dayOp, body: S.HandoverBody, tags }, ({ body }, ctx) =>
    closing.handover(ctx, body));

  const printTags = ['票据打印'];
  r.post(`${Y}/BillPrinting/Void`, { summary: '作废票据（记冲正流水，余额退回）', perm: { routes: ['billprint'], op: 'finance.reverse' }, body: S.VoidBody, tags: printTags }, ({ body }, ctx) =>
    reversal.voidReceipt(ctx, body));
  r.get(`${Y}/BillPrinting/Voids`, { summary: '票据作废信息（ids 逗号分隔）', perm: printRead, query: S.VoidsQuery, tags: printTags }, ({ query }, ctx) =>
    reversal.voidsOf(ctx, query.ids));
}
