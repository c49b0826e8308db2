// Billing and finance calls (/yewu/api, /wxpay/api, /sms, /device/api/v1) used by the fee, notes,
// control (timed subsidy, closing accounts), report and home pages. Money on the wire is a 元 string
// with 2 decimals ("1234.50"); requests send 元 strings exactly as typed (never a JS float).
import type { API, CommandListItem, Notification, OnlineOrder, ResultOf, Withdrawal } from '@meter/contracts';
import { download, http, request, type Paged, type Query } from '../../api/request.ts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';

const Y = '/yewu/api';

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

export interface EnergyRoomRow {
  roomId: number;
  roomName: string;
  areaId: number;
  areaName: string | null;
  sizeM2: string | null;
  ownerId: number | null;
  ownerName: string | null;
  ownerPhone: string | null;
  electricBalance: string;
  waterBalance: string;
  electricAlarm: number;
  waterAlarm: number;
  /** level 3: 欠费 with the supply's real state (欠费·已断电 / 欠费·待断电（预计 …） / 欠费·断电中 …) */
  electricAlarmText: string;
  waterAlarmText: string;
  /** off, closing, pending, protected, on, none; null when not in arrears */
  electricSupply?: string | null;
  waterSupply?: string | null;
  electricCloseAt?: string | null;
  waterCloseAt?: string | null;
  electricMeters: number;
  waterMeters: number;
  closedMeters: number;
  /** GetSynthesizeRoom only */
  otherBalance?: string;
  monthPaid?: string;
  lastPaidAt?: string | null;
}

export interface EnergyRoomSum {
  rooms: number;
  occupied: number;
  electricBalance: string;
  waterBalance: string;
  arrearsRooms: number;
  arrears: string;
  alarmRooms: number;
}

export interface JournalRow {
  id: number;
  createdAt: string;
  roomId: number | null;
  roomName: string | null;
  ownerId: number;
  ownerName: string | null;
  wallet: string;
  walletText: string;
  kind: string;
  kindText: string;
  payMethod: string;
  payMethodText: string;
  amount: string;
  balanceAfter: string;
  refType: string;
  operatorName: string;
  memo: string;
  audited: boolean;
  auditedBy: string | null;
  auditedAt: string | null;
  auditMemo: string;
  receiptNo: string | null;
  /** deductions only */
  meterName?: string | null;
  address?: string | null;
  prevTotal?: string | null;
  total?: string | null;
  quantity?: string | null;
  readAt?: string | null;
}

export interface RoomDetail {
  room: { id: number; name: string; areaId: number; path: string };
  owner: { id: number; name: string; phone: string } | null;
  accounts: { id: number; wallet: string; walletText: string; balance: string; alarmLevel: number; alarmText: string; status: number; closeDeferred: boolean; updatedAt: string }[];
  meters: {
    id: number; name: string; address: string; kind: number; status: number; valveState: number | null; online: boolean;
    /** 1: switching it off asks the valve-control password (SPEC §4) */
    phaseId: number | null;
    chargingSchemeName: string | null; alarmSchemeName: string | null; lastTotal: string | null; lastReadAt: string | null;
    settledTotal: string | null; settledAt: string | null; protected: boolean; unit: string;
  }[];
  journal: JournalRow[];
  subsidyPlans: SubsidyPlanRow[];
}

export interface CounterResult {
  journalId: number;
  receiptId: number;
  receiptNo: string;
  amount: string;
  balance?: string;
  duplicate: boolean;
}

export interface SettlementRow {
  id: number;
  meterId: number;
  meterName: string;
  address: string;
  meterKind: number;
  roomId: number | null;
  roomName: string | null;
  ownerId: number | null;
  ownerName: string | null;
  prevReadAt: string | null;
  readAt: string;
  prevTotal: string;
  total: string;
  multiplier: string;
  quantity: string;
  amount: string;
  periodKey: string;
  note: string;
  noteText: string;
  unit: string;
  settledAt: string;
}

export interface SettlementData {
  electric: { count: number; quantity: string; amount: string; vacant: number };
  water: { count: number; quantity: string; amount: string; vacant: number };
  count: number;
  amount: string;
  pendingMeters: number;
  noSchemeMeters: number;
  lastSettledAt: string | null;
}

export interface AuditSum {
  count: number;
  /** money received (cash, WeChat, Alipay, bank): never subsidies, system credits or opening balances */
  income: string;
  expense: string;
  /** 冲正 of money received (voided counter receipts, signed), inside net */
  reversal?: string;
  net: string;
  subsidy: string;
  systemCredit: string;
  opening: string;
  auditedCount: number;
  audited: string;
  unauditedCount: number;
  unaudited: string;
  byKind: { key: string; text: string; count: number; amount: string }[];
  byPayMethod: { key: string; text: string; count: number; amount: string }[];
  byWallet: { key: string; text: string; count: number; amount: string }[];
}

export interface DeductionSum {
  count: number;
  amount: string;
  electric: { count: number; amount: string; quantity: string };
  water: { count: number; amount: string; quantity: string };
  fees: { count: number; amount: string };
}

export interface ReceiptRow {
  id: number;
  no: string;
  kind: string;
  kindText: string;
  payMethod: string;
  payMethodText: string;
  amount: string;
  items: { item: string; amount: string }[];
  printCount: number;
  lastPrintedAt: string | null;
  createdAt: string;
  operatorName: string;
  memo: string;
  journalId: number;
  roomId: number | null;
  roomName: string | null;
  ownerId: number;
  ownerName: string | null;
  ownerPhone: string | null;
}

export interface ReceiptDetail extends ReceiptRow {
  areaName?: string | null;
  company: { id: number; name: string; address: string | null; phone: string | null; bankName: string };
  room: { id: number | null; name: string | null; areaName: string | null };
  owner: { id: number; name: string | null; phone: string | null };
  amountChinese: string;
  /** a data URL (PNG) of the receipt's QR code */
  qrCode?: string;
}

export interface SubsidyPlanRow {
  id: number;
  roomId: number;
  roomName: string;
  ownerName: string | null;
  wallet: string;
  walletText: string;
  amount: string;
  dayOfMonth: number;
  startMonth: string;
  endMonth: string;
  enabled: boolean;
  memo: string;
  createdAt: string;
  creditedTimes: number;
}

export interface ClosedRow {
  ownerId: number;
  ownerName: string;
  ownerPhone: string;
  roomId: number | null;
  roomName: string | null;
  closedAt: string | null;
  operatorName: string | null;
  memo: string | null;
  refund: string;
}

export interface CancelResult {
  ownerId: number;
  settledReadings: number;
  refunds: { wallet: string; amount: string; receiptNo: string }[];
  valves: { meterId: number; name: string; commandId: number | null; skipped: string }[];
}

export interface OwnerBillRow {
  month: string;
  ownerId: number;
  ownerName: string;
  ownerPhone: string;
  roomId: number;
  roomName: string;
  electricQuantity: string;
  electricAmount: string;
  waterQuantity: string;
  waterAmount: string;
  fees: string;
  total: string;
  prepay: string;
  refund: string;
  subsidy: string;
  electricBalance: string;
  waterBalance: string;
  arrears: string;
  status: number;
  statusText: string;
}

export interface ChargeCode {
  id: number;
  code: string;
  name: string;
  schemeType: number;
  amount: string;
  memo: string;
}

export interface SharedMeterRow {
  meterId: number;
  meterName: string;
  address: string;
  meterKind: number;
  areaId: number;
  areaName: string | null;
  method: number;
  methodText: string;
  memo: string;
  createdAt: string;
  rooms: number;
}

export interface HomeSummary {
  /** prepay: money received; systemCredit and opening (期初余额) apart */
  today: { prepay: string; refund: string; subsidy: string; deduction: string; fee: string; systemCredit: string; opening: string; payments: number };
  month: { prepay: string; refund: string; subsidy: string; deduction: string; fee: string; systemCredit: string; opening: string };
  accounts: {
    arrearsCount: number; arrears: string; lowBalanceCount: number; electricBalance: string; waterBalance: string;
    /** in arrears and every meter reads back 断 */
    closedByArrearsCount: number;
    /** in arrears, the close waiting for the no-disconnect hours to end (待断电) */
    pendingCloseCount: number;
  };
  trend: { day: string; prepay: string; deduction: string }[];
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

type Body = Record<string, unknown>;

/** A POST in the company a platform admin picked (searchCompanyID travels in the query). */
const post = <T>(url: string, data: unknown, company?: string) => request<T>('POST', url, { data, params: { searchCompanyID: company } });

export const billingApi = {
  // rooms and balances
  energyRooms: (q: PageQuery) => http.page<EnergyRoomRow>(`${Y}/RoomInfo/GetEnergyRoom`, q),
  energyRoomSum: (q: Query) => http.get<EnergyRoomSum>(`${Y}/RoomInfo/GetEnergyRoomSum`, q),
  synthesizeRooms: (q: PageQuery) => http.page<EnergyRoomRow>(`${Y}/RoomInfo/GetSynthesizeRoom`, q),
  roomDetail: (roomId: number, company?: string) => http.get<RoomDetail>(`${Y}/RoomInfo/GetEnergyRoomDetail`, { roomId, searchCompanyID: company }),

  // counter operations (amount: 元 string)
  prepay: (b: Body, company?: string) => post<CounterResult>(`${Y}/Energy/Prepay`, b, company),
  refund: (b: Body, company?: string) => post<CounterResult>(`${Y}/Energy/Refund`, b, company),
  subsidy: (b: Body, company?: string) => post<CounterResult>(`${Y}/Energy/Subsidy`, b, company),
  billPay: (b: Body, company?: string) => post<CounterResult>(`${Y}/usersettlementbill/settleAccountsPay`, b, company),
  businessPay: (b: Body, company?: string) => post<CounterResult>(`${Y}/userpaymentlog/businessPay`, b, company),

  // timed subsidies
  addRoomSubsidy: (b: Body, company?: string) => post<{ id: number }>(`${Y}/RoomInfo/AddRoomSubsidy`, b, company),
  subsidyPlans: (q: PageQuery) => http.page<SubsidyPlanRow>(`${Y}/RoomInfo/RoomSubsidyList`, q),
  setSubsidyStatus: (id: number, enabled: boolean, company?: string) =>
    request<null>('PUT', `${Y}/RoomInfo/RoomSubsidyStatus`, { data: { id, enabled }, params: { searchCompanyID: company } }),

  // statistics and settlements
  statistics: (q: PageQuery) => http.page<JournalRow>(`${Y}/Statistics/list`, { transactionType: 0, ...q }),
  settlementData: (q: Query) => http.get<SettlementData>(`${Y}/CopySettlement/CopySettlementData`, q),
  settlements: (q: PageQuery) => http.page<SettlementRow>(`${Y}/CopySettlement/List`, q),
  exportSettlements: (q: Query) => download(`${Y}/CopySettlement/Export`, q, '抄表结算'),
  settleNow: (b: Body, company?: string) =>
    post<{ meters: number; readings: number; deductions: number; amount: string }>(`${Y}/CopySettlement/Settle`, b, company),

  // bills
  ownerBills: (q: PageQuery) => http.page<OwnerBillRow>(`${Y}/usersettlementbill/list`, q),
  meterBills: (q: PageQuery) => http.page<Record<string, unknown>>(`${Y}/usersettlementbill/energyBill`, { SchemeType: '', ...q }),

  // payment logs and reconciliation
  payments: (q: PageQuery) => http.page<JournalRow>(`${Y}/userpaymentlog/Paymentlist`, q),
  counterReceipts: (q: PageQuery) => http.page<ReceiptRow>(`${Y}/userpaymentlog/Paymentlist2`, q),
  auditList: (q: PageQuery) => http.page<JournalRow>(`${Y}/userpaymentlog/dataAuditlist`, q),
  auditSum: (q: Query) => http.get<AuditSum>(`${Y}/userpaymentlog/DataSum`, q),
  dataAudit: (ids: number[], memo: string, company?: string) =>
    post<{ audited: number; already: number }>(`${Y}/userpaymentlog/dataAudit`, { ids, memo }, company),
  deductions: (q: PageQuery) => http.page<JournalRow>(`${Y}/userpaymentlog/deductionDetail`, q),
  deductionSum: (q: Query) => http.get<DeductionSum>(`${Y}/userpaymentlog/deductionDetailDataSum`, q),

  // receipts
  receipts: (q: PageQuery) => http.page<ReceiptRow>(`${Y}/BillPrinting/List`, q),
  receipt: (id: number, company?: string) => http.get<ReceiptDetail>(`${Y}/BillPrinting/Detail`, { id, searchCompanyID: company }),
  printReceipt: (id: number, company?: string) => post<{ id: number; printCount: number }>(`${Y}/BillPrinting/Print/${id}`, undefined, company),

  // closing accounts
  cancelAccount: (b: Body, company?: string) => post<CancelResult>(`${Y}/AccountCancel/Cancel`, b, company),
  closedAccounts: (q: PageQuery) => http.page<ClosedRow>(`${Y}/AccountOff/List`, q),
  reopenAccount: (b: Body, company?: string) => post<{ ownerId: number; roomId: number }>(`${Y}/AccountOff/Reopen`, b, company),

  // charge codes and 公摊 meters (combined payment)
  chargeCodes: (company?: string, schemeType?: number) =>
    http.page<ChargeCode>(`${Y}/sys_companychargecode/List`, { index: 1, size: 1000, schemeType, searchCompanyID: company }),
  sharedMeters: (q: PageQuery) => http.page<SharedMeterRow>(`${Y}/SharedMeter/List`, q),

  // online payments (wxpay/list pages with page and size)
  onlineOrders: ({ index, size, ...q }: PageQuery) => call(E.payment.list, { query: { ...q, page: index, size } }),

  // home
  homeSummary: (q: Query) => http.get<HomeSummary>(`${Y}/Home/BillingSummary`, q),

  // notes
  notifications: (q: PageQuery) => call(E.notify.list, { query: q }),
  commands: (q: PageQuery) => call(E.control.commands, { query: q }),
  withdrawals: (q: PageQuery) => call(E.payapp.withdrawals, { query: q }),

  // reports
  report: <K extends ReportKind>(which: K, q: Query) => request<ReportAnswer<K>>(E.report[which].method, E.report[which].path, { params: q }),
  exportReport: (which: ReportKind, q: Query) => download(`${Y}/Report/${REPORT_PATH[which]}Export`, q, REPORT_NAME[which]),
};

export type ReportKind = 'check' | 'fees' | 'deduct' | 'bank';
const REPORT_PATH: Record<ReportKind, string> = { check: 'Check', fees: 'Fees', deduct: 'Deduct', bank: 'Bank' };
export const REPORT_NAME: Record<ReportKind, string> = { check: '对账报表', fees: '费用报表', deduct: '扣费报表', bank: '银行报表' };

export type { Paged };
