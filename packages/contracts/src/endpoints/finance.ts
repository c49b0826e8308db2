import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, CompanyQuery, PageQuery } from '../query.ts';

// 财务日 (/yewu/api, issue 14 items 13–15): 日结/交班 (/dailyClose), 作废/冲正 of a receipt
// (/billprint), and 取消订单 of an unpaid counter QR order (/energy, /compre).

const id = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');
const day = z
  .string({ error: '请选择日期' })
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, '日期格式应为 YYYY-MM-DD');
const optDay = () => day.optional().or(z.literal('').transform(() => undefined));
const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');

export const DayListQuery = PageQuery.extend(AreaFilter.shape).extend({
  startTime: optDay(),
  endTime: optDay(),
  /** closed 已日结 | open 未日结 */
  state: z.enum(['closed', 'open'], { error: '状态须为 closed（已日结）或 open（未日结）' }).optional(),
});
export type DayListInput = z.infer<typeof DayListQuery>;
/** A business day in the list (元 strings; a closed day shows the figures kept at its close). */
export const DayRow = z.object({
  day: z.string(),
  state: z.enum(['open', 'closed']),
  stateText: z.string(),
  cash: z.string(),
  wechat: z.string(),
  alipay: z.string(),
  bank: z.string(),
  net: z.string(),
  count: z.number(),
  handovers: z.number(),
  closedByName: z.string(),
  closedAt: z.string(),
  memo: z.string(),
});
export const DayQuery = AreaFilter.extend({ day });
export const CloseDayBody = z.object({ day, memo });
export const HandoverBody = z.object({ day, operatorId: id.optional(), memo });

export const VoidBody = z.object({
  receiptId: id,
  reason: z.string({ error: '请填写作废原因' }).trim().min(2, '请填写作废原因（至少 2 个字）').max(200, '作废原因最多 200 个字'),
});
export const VoidsQuery = AreaFilter.extend({
  /** receipt ids, comma separated */
  ids: z
    .string({ error: '请提供票据编号' })
    .trim()
    .regex(/^\d{1,18}(,\d{1,18}){0,199}$/, '票据编号须为逗号分隔的正整数（最多 200 个）')
    .transform((v) => [...new Set(v.split(',').map(Number))]),
});

export const TradeNoBody = z.object({
  outTradeNo: z.string({ error: '请提供订单号' }).trim().regex(/^[A-Z]{2,3}\d{22}$/, '订单号格式不正确'),
});

const Y = '/yewu/api';
const dayRead = { routes: ['dailyClose'] };
const dayOp = { routes: ['dailyClose'], op: 'finance.dailyClose' };
/** every page that opens a receipt (ReceiptModal) */
const printRead = { routes: ['billprint', 'notesPay', 'compreProperty'] };
const payOp = { routes: ['energy', 'compre'], op: 'finance.prepay' };
const dayTags = ['日结交班'];
const printTags = ['票据打印'];
const payTags = ['在线支付'];

export const financeEndpoints = {
  days: endpoint({ method: 'GET', path: `${Y}/DailyClosing/List`, summary: '营业日列表（状态、实收合计）', perm: dayRead, query: DayListQuery, response: DayRow, paged: true, tags: dayTags }),
  day: endpoint({ method: 'GET', path: `${Y}/DailyClosing/Detail`, summary: '营业日详情（按支付方式、按操作员；结账单）', perm: dayRead, query: DayQuery, tags: dayTags }),
  closeDay: endpoint({ method: 'POST', path: `${Y}/DailyClosing/Close`, summary: '日结（锁定营业日）', perm: dayOp, query: CompanyQuery, body: CloseDayBody, tags: dayTags }),
  handover: endpoint({ method: 'POST', path: `${Y}/DailyClosing/Handover`, summary: '交班（锁定操作员当日班次）', perm: dayOp, query: CompanyQuery, body: HandoverBody, tags: dayTags }),
  voidReceipt: endpoint({
    method: 'POST', path: `${Y}/BillPrinting/Void`, summary: '作废票据（记冲正流水，余额退回）', perm: { routes: ['billprint'], op: 'finance.reverse' }, query: CompanyQuery, body: VoidBody, tags: printTags,
  }),
  voids: endpoint({ method: 'GET', path: `${Y}/BillPrinting/Voids`, summary: '票据作废信息（ids 逗号分隔）', perm: printRead, query: VoidsQuery, tags: printTags }),
  closeWechat: endpoint({
    method: 'POST', path: '/wxpay/api/wxpay/close', summary: '取消未支付的微信支付订单（先在支付平台关单）', perm: payOp, query: CompanyQuery, body: TradeNoBody, tags: payTags,
  }),
  closeAlipay: endpoint({
    method: 'POST', path: '/alipay/api/alipay/close', summary: '取消未支付的支付宝订单（先在支付平台关单）', perm: payOp, query: CompanyQuery, body: TradeNoBody, tags: payTags,
  }),
};
