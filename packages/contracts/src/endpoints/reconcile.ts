import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, PageQuery, blankRef, coded } from '../query.ts';

// 支付平台对账 (/financerecode, issue 14 item 5): the provider's daily statement (WeChat Pay tradebill,
// Alipay bill.downloadurl) against our online orders, per company, day and provider — 已匹配, 本地缺单
// (the provider was paid, nothing credited here; 补单 queries the provider and credits once), 平台缺单
// (credited here, no success at the provider), 金额不符 — with an .xlsx export. Ours (docs/API.md).

const tags = ['支付平台对账'];
const read = { routes: ['financerecode'] };
const op = { routes: ['financerecode'], op: 'finance.reconcile' };

const day = z
  .string({ error: '请选择对账日期' })
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '对账日期格式应为 YYYY-MM-DD');
const channel = z.enum(['wechat', 'alipay'], { error: '支付平台须为 wechat（微信支付）或 alipay（支付宝）' });
export const RECONCILE_OUTCOMES = ['matched', 'missing_here', 'missing_there', 'amount_differs'] as const;
const outcome = z.enum(RECONCILE_OUTCOMES, { error: '对账结果须为 matched、missing_here、missing_there 或 amount_differs' });

export const ReconcileDayQuery = CompanyQuery.extend({ day, channel });
export const ReconcileRunBody = z.object({ day, channel });
export const ReconcileRowsQuery = PageQuery.extend(ReconcileDayQuery.shape).extend({
  outcome: outcome.optional().or(z.literal('').transform(() => undefined)),
});
export const ReconcileExportQuery = ReconcileDayQuery.extend({ outcome: outcome.optional().or(z.literal('').transform(() => undefined)) });
export const ReconcileRecoverBody = z.object({ id: num(z.number({ error: '请选择对账记录' }).int('须为正整数').positive('须为正整数'), '须为正整数') });

/** One outcome's count and amount (元; the statement's amount, ours for 平台缺单). */
export const ReconcileOutcomeSum = z.object({ outcome, text: z.string(), count: z.number(), amount: z.string() });
export const ReconcileSummary = z.object({
  day: z.string(),
  channel,
  channelText: z.string(),
  /** the last run of this statement (YYYY-MM-DD HH:mm:ss); null: never reconciled */
  ranAt: z.string().nullable(),
  ranBy: z.string(),
  outcomes: z.array(ReconcileOutcomeSum),
});
export const ReconcileRow = z.object({
  id: z.number(),
  ...blankRef('company'),
  channel,
  day: z.string(),
  outTradeNo: z.string(),
  /** payment (a trade) | refund (a refund row: outRefundNo) */
  kind: z.enum(['payment', 'refund']),
  outRefundNo: z.string(),
  tradeNo: z.string(),
  tradeTime: z.string(),
  /** the statement's amount (元); null when the statement lacks the trade */
  providerAmount: z.string().nullable(),
  /** our order's amount (元); null when we have no such order */
  ourAmount: z.string().nullable(),
  ...coded('ourStatus', z.string()),
  roomName: z.string(),
  ownerName: z.string(),
  outcome,
  outcomeText: z.string(),
  recoveredAt: z.string().nullable(),
  recoveredBy: z.string(),
});

const R = '/yewu/api/Reconcile';

export const reconcileEndpoints = {
  run: endpoint({
    method: 'POST', path: `${R}/Run`, summary: '支付平台对账（下载对账单并核对）', action: '支付平台对账', perm: op, body: ReconcileRunBody, response: ReconcileSummary, tags,
  }),
  summary: endpoint({ method: 'GET', path: `${R}/Summary`, summary: '对账结果汇总（按结果的笔数和金额）', perm: read, query: ReconcileDayQuery, response: ReconcileSummary, tags }),
  rows: endpoint({ method: 'GET', path: `${R}/Rows`, summary: '对账明细', perm: read, query: ReconcileRowsQuery, response: ReconcileRow, paged: true, tags }),
  recover: endpoint({
    method: 'POST', path: `${R}/Recover`, summary: '补单（向支付平台查单并入账，只入账一次）', action: '对账补单', perm: op, body: ReconcileRecoverBody, response: ReconcileRow, tags,
  }),
  export: endpoint({ method: 'GET', path: `${R}/Export`, summary: '导出对账明细（.xlsx）', perm: op, query: ReconcileExportQuery, file: '支付平台对账', tags }),
};

export type ReconcileRowOut = z.output<typeof ReconcileRow>;
export type ReconcileSummaryOut = z.output<typeof ReconcileSummary>;
