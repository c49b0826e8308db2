// Billing and finance calls (/yewu/api, /wxpay/api, /sms, /device/api/v1) used by the fee, notes,
// control (timed subsidy, closing accounts), report and home pages. Money on the wire is a 元 string
// with 2 decimals ("1234.50"); requests send 元 strings exactly as typed (never a JS float).
import type { API, CallInput, CommandListItem, Notification, OnlineOrder, OnlineRefund, ResultOf, Withdrawal } from '@meter/contracts';
import { request, type Paged, type Query } from '../../api/request.ts';
import { call, fetchFile } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { chargeCodeApi } from '../../api/scheme.ts';

export type PageQuery = Query & { index: number; size: number };
export type Wallet = 'electric' | 'water';
export type PayMethod = 'cash' | 'wechat' | 'alipay' | 'bank';

export const WALLET_TEXT: Record<string, string> = { electric: '电费', water: '水费', subsidy: '补贴', other: '其他费用' };
export const PAY_METHOD_TEXT: Record<string, string> = { cash: '现金', wechat: '微信', alipay: '支付宝', bank: '银行', system: '系统' };
export const COUNTER_PAY_METHODS: PayMethod[] = ['cash', 'wechat', 'alipay', 'bank'];
export const KIND_TEXT: Record<string, string> = {
  prepay: '充值', refund: '退费', subsidy: '补贴', deduction: '扣费', fee: '费用', reversal: '冲正', withdrawal: '提现', opening: '期初余额',
};
/** Statistics/list transactionType (0 全部 is the default) */
export const TRANSACTION_TYPES: Record<number, string> = { 0: '全部', 1: '充值', 2: '退费', 3: '补贴', 4: '扣费', 5: '费用', 6: '冲正', 7: '提现', 8: '期初余额' };
export const RECEIPT_KIND_TEXT: Record<string, string> = {
  prepay: '充值', refund: '退费', subsidy: '补贴', billPay: '账单缴费', business: '综合缴费', close: '销户退费',
};

// ---- rows --------------------------------------------------------------------------------------------

// the billing answers are declared with their endpoints (packages/contracts endpoints/billing-rows.ts)
export type {
  AuditSum, CancelResult, ClosedRow, CounterResult, DeductionSum, EnergyRoomRow, EnergyRoomSum, HomeSummary, JournalRow, MeterBillRow,
  OwnerBillRow, ReceiptDetail, ReceiptRow, RoomDetail, SettlementData, SettlementRow, SharedMeterRow, SubsidyPlanRow,
} from '@meter/contracts';

/** what the counter reads of a company charge code (declared resource chargeCode) */
export interface ChargeCode {
  id: number;
  code: string;
  name: string;
  schemeType: number;
  amount: string;
  memo: string;
}

/** a row of 短信记录 (declared with its endpoint) */
export type NotificationRow = Notification;

/** a command of 阀控记录 (declared with its endpoint) */
export type CommandRow = CommandListItem;

/** a withdrawal of 商户提现记录 (declared with its endpoint) */
export type WithdrawalRow = Withdrawal;

/** an online order of 在线支付记录 (declared with its endpoint) */
export type OnlineOrderRow = OnlineOrder;

/** a report's answer (period, rows, totals, count; the bank report adds the bank's name), as declared */
export type ReportAnswer<K extends ReportKind> = ResultOf<(typeof API.report)[K]>;
/** what every report answer has (the frame around the table shows it) */
export type ReportResult = Pick<ReportAnswer<ReportKind>, 'period' | 'count'> & { bankName?: string };

// ---- calls -------------------------------------------------------------------------------------------

const B = E.billing;
/** what a billing write sends (its declared body) */
export type BillingBody<K extends keyof typeof API.billing> = CallInput<(typeof API.billing)[K]>['body'];
/** a write lands in the company a platform admin picked (searchCompanyID travels in the query) */
const withCompany = (company?: string) => ({ searchCompanyID: company });

export const billingApi = {
  // rooms and balances
  energyRooms: (q: PageQuery) => call(B.energyRooms, { query: q }),
  energyRoomSum: (q: Query) => call(B.energyRoomSum, { query: q }),
  synthesizeRooms: (q: PageQuery) => call(B.synthesizeRooms, { query: q }),
  roomDetail: (roomId: number, company?: string) => call(B.roomDetail, { query: { roomId, searchCompanyID: company } }),

  // counter operations (amount: 元 string)
  prepay: (b: BillingBody<'prepay'>, company?: string) => call(B.prepay, { body: b, query: withCompany(company) }),
  refund: (b: BillingBody<'refund'>, company?: string) => call(B.refund, { body: b, query: withCompany(company) }),
  subsidy: (b: BillingBody<'subsidy'>, company?: string) => call(B.subsidy, { body: b, query: withCompany(company) }),
  billPay: (b: BillingBody<'billPay'>, company?: string) => call(B.billPay, { body: b, query: withCompany(company) }),
  businessPay: (b: BillingBody<'businessPay'>, company?: string) => call(B.businessPay, { body: b, query: withCompany(company) }),

  // timed subsidies
  addRoomSubsidy: (b: BillingBody<'addRoomSubsidy'>, company?: string) => call(B.addRoomSubsidy, { body: b, query: withCompany(company) }),
  subsidyPlans: (q: PageQuery) => call(B.subsidyPlans, { query: q }),
  setSubsidyStatus: (id: number, enabled: boolean, company?: string) => call(B.setSubsidyStatus, { body: { id, enabled }, query: withCompany(company) }),

  // statistics and settlements
  statistics: (q: PageQuery) => call(B.statistics, { query: { transactionType: 0, ...q } }),
  settlementData: (q: Query) => call(B.settlementData, { query: q }),
  settlements: (q: PageQuery) => call(B.settlements, { query: q }),
  exportSettlements: (q: Query) => fetchFile(B.exportSettlements, { query: q }),
  settleNow: (b: BillingBody<'settleNow'>, company?: string) => call(B.settleNow, { body: b, query: withCompany(company) }),

  // bills
  ownerBills: (q: PageQuery) => call(B.ownerBills, { query: q }),
  meterBills: (q: PageQuery) => call(B.meterBills, { query: { SchemeType: '', ...q } }),

  // payment logs and reconciliation
  payments: (q: PageQuery) => call(B.payments, { query: q }),
  counterReceipts: (q: PageQuery) => call(B.counterReceipts, { query: q }),
  auditList: (q: PageQuery) => call(B.auditList, { query: q }),
  auditSum: (q: Query) => call(B.auditSum, { query: q }),
  dataAudit: (ids: number[], memo: string, company?: string) => call(B.dataAudit, { body: { ids, memo }, query: withCompany(company) }),
  deductions: (q: PageQuery) => call(B.deductions, { query: q }),
  deductionSum: (q: Query) => call(B.deductionSum, { query: q }),

  // receipts
  receipts: (q: PageQuery) => call(B.receipts, { query: q }),
  receipt: (id: number, company?: string) => call(B.receipt, { query: { id, searchCompanyID: company } }),
  printReceipt: (id: number, company?: string) => call(B.printReceipt, { params: { id }, query: withCompany(company) }),

  // closing accounts
  cancelAccount: (b: BillingBody<'cancelAccount'>, company?: string) => call(B.cancelAccount, { body: b, query: withCompany(company) }),
  closedAccounts: (q: PageQuery) => call(B.closedAccounts, { query: q }),
  reopenAccount: (b: BillingBody<'reopenAccount'>, company?: string) => call(B.reopenAccount, { body: b, query: withCompany(company) }),

  // charge codes and 公摊 meters (combined payment)
  chargeCodes: (company?: string, schemeType?: number): Promise<Paged<ChargeCode>> => chargeCodeApi.list({ index: 1, size: 1000, schemeType, searchCompanyID: company }),
  sharedMeters: (q: PageQuery) => call(B.sharedMeters, { query: q }),

  // online payments (wxpay/list pages with page and size)
  onlineOrders: ({ index, size, ...q }: PageQuery) => call(E.payment.list, { query: { ...q, page: index, size } }),
  /** 退款 of a paid online order (requestId: one per dialog, so a repeated click refunds once) */
  refundOnline: (channel: string, body: { outTradeNo: string; amount: string; reason: string; requestId: string }, company?: string) =>
    call(channel === 'alipay' ? E.payment.refundAlipay : E.payment.refundWechat, { body, query: { searchCompanyID: company } }) as Promise<OnlineRefund>,
  /** an order's refunds, newest first */
  onlineRefunds: (outTradeNo: string, company?: string) => call(E.payment.refunds, { query: { outTradeNo, searchCompanyID: company } }) as Promise<OnlineRefund[]>,
  /** 重新查询/重发 of a refund still 处理中 */
  retryRefund: (outRefundNo: string, company?: string) => call(E.payment.refundRetry, { body: { outRefundNo }, query: { searchCompanyID: company } }) as Promise<OnlineRefund>,

  // home
  homeSummary: (q: Query) => call(B.homeSummary, { query: q }),

  // notes
  notifications: (q: PageQuery) => call(E.notify.list, { query: q }),
  commands: (q: PageQuery) => call(E.control.commands, { query: q }),
  withdrawals: (q: PageQuery) => call(E.payapp.withdrawals, { query: q }),

  // reports
  report: <K extends ReportKind>(which: K, q: Query) => request<ReportAnswer<K>>(E.report[which].method, E.report[which].path, { params: q }),
  exportReport: (which: ReportKind, q: Query) => fetchFile(E.report[`${which}Export`], { query: q }),
};

export type ReportKind = 'check' | 'fees' | 'deduct' | 'bank';

export type { Paged };
