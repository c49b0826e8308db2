import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { AreaFilter, PageQuery, ref, coded } from '../query.ts';

// 报表统计 (/yewu/api/Report; SPEC §2 /reportCheck, /reportFees, /reportDeduct, /reportBank): a period of
// China days (default this month), rows and totals; amounts are 元 strings with 2 decimals. Each has an
// .xlsx export (…Export, the finance log-export operation): a file answer, streamed by the server.

const tags = ['报表统计'];
const read = (route: string) => ({ routes: [route] });
const exporting = (route: string) => ({ routes: [route], op: 'finance.logExport' });

const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '格式应为 YYYY-MM-DD')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const ReportQuery = AreaFilter.extend({ startTime: date, endTime: date });
export type ReportInput = z.infer<typeof ReportQuery>;
export const FeesQuery = PageQuery.extend(ReportQuery.shape);

const yuan = z.string();
const Period = z.object({ startTime: z.string(), endTime: z.string() });

/** 对账: one day (or the totals row, day 合计) by pay method. */
export const ReportCheckRow = z.object({
  day: z.string(),
  cashCount: z.number(), cash: yuan,
  wechatCount: z.number(), wechat: yuan,
  alipayCount: z.number(), alipay: yuan,
  bankCount: z.number(), bank: yuan,
  income: yuan,
  refundCount: z.number(), refund: yuan,
  /** 冲正: voided counter receipts (signed), part of 净收款 */
  reversalCount: z.number(), reversal: yuan,
  net: yuan,
  subsidyCount: z.number(), subsidy: yuan,
  systemCount: z.number(), system: yuan,
  openingCount: z.number(), opening: yuan,
  deduction: yuan,
  fee: yuan,
});

export const ReportBankRow = z.object({
  day: z.string(),
  ...coded('channel', z.string()),
  count: z.number(),
  amount: yuan,
  auditedCount: z.number(),
});
const CountAmount = z.object({ count: z.number(), amount: yuan });

export const ReportDeductRow = z.object({
  day: z.string(),
  /** 1 电表, 2 水表 */
  ...coded('meterKind', z.number()),
  readings: z.number(),
  meters: z.number(),
  quantity: z.string(),
  unit: z.string(),
  amount: yuan,
  charged: yuan,
  vacant: yuan,
});
const KindTotals = z.object({ readings: z.number(), quantity: z.string(), amount: yuan, charged: yuan, vacant: yuan });

export const ReportFeesRow = z.object({
  ...ref('room'),
  ownerName: z.string(),
  electricQuantity: z.string(),
  electricAmount: yuan,
  waterQuantity: z.string(),
  waterAmount: yuan,
  fees: yuan,
  subsidy: yuan,
  total: yuan,
  prepay: yuan,
  refund: yuan,
  system: yuan,
  opening: yuan,
});
const FeesTotals = ReportFeesRow.omit({ roomId: true, roomName: true, ownerName: true, electricQuantity: true, waterQuantity: true });

const result = <R extends z.ZodType, T extends z.ZodType>(row: R, totals: T) => z.object({ period: Period, rows: z.array(row), totals, count: z.number() });

export const ReportCheckResult = result(ReportCheckRow, ReportCheckRow);
/** 子账户提现 of the period (bank sub-merchants' withdrawals to their settlement accounts). */
export const ReportWithdrawalRow = z.object({
  id: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  propertyName: z.string(),
  subMerId: z.string(),
  amount: yuan,
  /** 0 处理中, 1 已到账, 2 失败 */
  ...coded('status', z.number()),
  bankSerial: z.string(),
  reason: z.string(),
  operatorName: z.string(),
});
export const ReportBankResult = result(ReportBankRow, CountAmount.extend({ bank: CountAmount, wechat: CountAmount, alipay: CountAmount })).extend({
  /** the company's settlement bank */
  bankName: z.string(),
  /** the sub-accounts' withdrawals asked in the period (newest first, at most 500) */
  withdrawals: z.array(ReportWithdrawalRow),
  withdrawalTotals: CountAmount.extend({ succeeded: CountAmount, processing: CountAmount, failed: CountAmount }),
});
export const ReportDeductResult = result(ReportDeductRow, z.object({ electric: KindTotals, water: KindTotals, amount: yuan }));
export const ReportFeesResult = result(ReportFeesRow, FeesTotals);

const Y = '/yewu/api/Report';

export const reportEndpoints = {
  check: endpoint({
    method: 'GET', path: `${Y}/Check`, summary: '对账报表（按日、按支付方式）', perm: read('reportCheck'), query: ReportQuery, response: ReportCheckResult, tags,
  }),
  fees: endpoint({
    method: 'GET', path: `${Y}/Fees`, summary: '费用报表（按房间）', perm: read('reportFees'), query: FeesQuery, response: ReportFeesResult, tags,
  }),
  deduct: endpoint({
    method: 'GET', path: `${Y}/Deduct`, summary: '扣费报表（按日、按表具类型）', perm: read('reportDeduct'), query: ReportQuery, response: ReportDeductResult, tags,
  }),
  bank: endpoint({
    method: 'GET', path: `${Y}/Bank`, summary: '银行报表（银行与在线支付收款）', perm: read('reportBank'), query: ReportQuery, response: ReportBankResult, tags,
  }),
  checkExport: endpoint({
    method: 'GET', path: `${Y}/CheckExport`, summary: '导出对账报表（.xlsx）', perm: exporting('reportCheck'), query: ReportQuery, file: '对账报表', tags,
  }),
  feesExport: endpoint({
    method: 'GET', path: `${Y}/FeesExport`, summary: '导出费用报表（.xlsx）', perm: exporting('reportFees'), query: ReportQuery, file: '费用报表', tags,
  }),
  deductExport: endpoint({
    method: 'GET', path: `${Y}/DeductExport`, summary: '导出扣费报表（.xlsx）', perm: exporting('reportDeduct'), query: ReportQuery, file: '扣费报表', tags,
  }),
  bankExport: endpoint({
    method: 'GET', path: `${Y}/BankExport`, summary: '导出银行报表（.xlsx）', perm: exporting('reportBank'), query: ReportQuery, file: '银行报表', tags,
  }),
};

export type CheckReportRow = z.output<typeof ReportCheckRow>;
export type BankReportRow = z.output<typeof ReportBankRow>;
export type BankReportWithdrawal = z.output<typeof ReportWithdrawalRow>;
export type DeductReportRow = z.output<typeof ReportDeductRow>;
export type FeesReportRow = z.output<typeof ReportFeesRow>;
