import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { CompanyQuery } from '../query.ts';
import * as S from './billing-input.ts';
import * as A from './billing-rows.ts';

// Billing and finance under /yewu/api (SPEC §7 names; the calls the spec leaves unnamed are listed
// in docs/API.md): rooms and balances, counter operations, settlements, bills, payment logs, the
// finance audit, receipts, room timed subsidies, closing accounts, 公摊 meters, the /home figures.
// Writes take the company a platform administrator picked in the query (CompanyQuery).

export * from './billing-input.ts';
export * from './billing-rows.ts';

const Y = '/yewu/api';
const P = `${Y}/userpaymentlog`;

const energyRead = { routes: ['energy', 'compre', 'accountCancel', 'timeSubsidy', 'billprint'] };
const energyOp = (op: string) => ({ routes: ['energy', 'compre'], op });
const copyRead = { routes: ['copyread'] };
const billRead = { routes: ['copyread', 'energy', 'compre'] };
const payRead = { routes: ['notesPay', 'energy', 'compre', 'financerecode'] };
/** the ledger behind /notesPay, /financerecode, the 提现 tab of /noteswithdraw and /reportCheck's detail */
const statisticsRead = { routes: [...payRead.routes, 'noteswithdraw', 'reportCheck'] };
const auditRead = { routes: ['financerecode'] };
const deductRead = { routes: ['financerecode', 'copyread', 'reportDeduct'] };
/** every page that opens a receipt (ReceiptModal): /billprint, /notesPay, /compreProperty */
const printRead = { routes: ['billprint', 'notesPay', 'compreProperty'] };
const subsidyRead = { routes: ['timeSubsidy'] };
const subsidyOp = { routes: ['timeSubsidy'], op: 'finance.roomTimedSubsidy' };
const shareRead = { routes: ['recordsTable', 'comprePublic'] };
const shareWrite = { routes: ['recordsTable'], op: 'device.edit' };
const homeRead = { routes: ['energy', 'compre', 'copyread', 'financerecode', 'billprint', 'reportCheck', 'reportFees', 'reportDeduct', 'reportBank'] };

const tags = ['水电缴费'];
const subTags = ['房间定时补贴'];
const setTags = ['抄表结算'];
const billTags = ['用户账单'];
const logTags = ['缴费记录与财务对账'];
const printTags = ['票据打印'];
const closeTags = ['销户'];
const shareTags = ['公摊表'];

const company = CompanyQuery;

export const billingEndpoints = {
  // ---- rooms and balances (/energy, /compre) ----
  energyRooms: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/GetEnergyRoom`, summary: '水电缴费：房间及余额列表', perm: energyRead, query: S.EnergyRoomQuery, response: A.EnergyRoomAnswer, paged: true, tags,
  }),
  energyRoomSum: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/GetEnergyRoomSum`, summary: '水电缴费：余额合计', perm: energyRead, query: S.EnergyRoomFilter, response: A.EnergyRoomSumAnswer, tags,
  }),
  synthesizeRooms: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/GetSynthesizeRoom`, summary: '综合缴费：房间列表', perm: { routes: ['compre'] }, query: S.EnergyRoomQuery, response: A.EnergyRoomAnswer, paged: true, tags,
  }),
  roomDetail: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/GetEnergyRoomDetail`, summary: '房间账户详情（余额、表具、流水、补贴）', perm: energyRead, query: S.RoomIdQuery.extend(company.shape), response: A.RoomDetailAnswer, tags,
  }),
  prepay: endpoint({
    method: 'POST', path: `${Y}/Energy/Prepay`, summary: '柜台充值', perm: energyOp('finance.prepay'), query: company, body: S.CounterBody, response: A.CounterAnswer, tags,
  }),
  refund: endpoint({
    method: 'POST', path: `${Y}/Energy/Refund`, summary: '柜台退费（不超过余额）', perm: energyOp('finance.refund'), query: company, body: S.CounterBody, response: A.CounterAnswer, tags,
  }),
  subsidy: endpoint({
    method: 'POST', path: `${Y}/Energy/Subsidy`, summary: '补贴', perm: energyOp('finance.subsidy'), query: company, body: S.SubsidyBody, response: A.CounterAnswer, tags,
  }),

  // ---- room timed subsidy (/timeSubsidy) ----
  addRoomSubsidy: endpoint({
    method: 'POST', path: `${Y}/RoomInfo/AddRoomSubsidy`, summary: '新增房间定时补贴', perm: subsidyOp, query: company, body: S.AddRoomSubsidyBody,
    response: z.object({ id: z.number() }), tags: subTags,
  }),
  subsidyPlans: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/RoomSubsidyList`, summary: '房间定时补贴列表', perm: subsidyRead, query: S.SubsidyListQuery, response: A.SubsidyPlanAnswer, paged: true, tags: subTags,
  }),
  setSubsidyStatus: endpoint({
    method: 'PUT', path: `${Y}/RoomInfo/RoomSubsidyStatus`, summary: '启用或停用房间定时补贴', perm: subsidyOp, query: company, body: S.SubsidyStatusBody, response: z.null(), tags: subTags,
  }),

  // ---- statistics and settlements (/copyread) ----
  statistics: endpoint({
    method: 'GET', path: `${Y}/Statistics/list`, summary: '交易统计（transactionType：0 全部 1 充值 2 退费 3 补贴 4 扣费 5 费用 6 冲正 7 提现 8 期初余额）',
    perm: statisticsRead, query: S.StatisticsQuery, response: A.JournalAnswer, paged: true, tags: setTags,
  }),
  settlementData: endpoint({
    method: 'GET', path: `${Y}/CopySettlement/CopySettlementData`, summary: '抄表结算汇总', perm: copyRead, query: S.SettlementFilter, response: A.SettlementDataAnswer, tags: setTags,
  }),
  settlements: endpoint({
    method: 'GET', path: `${Y}/CopySettlement/List`, summary: '抄表结算明细', perm: copyRead, query: S.SettlementListQuery, response: A.SettlementAnswer, paged: true, tags: setTags,
  }),
  /** the list's filters as a streamed .xlsx */
  exportSettlements: endpoint({
    method: 'GET', path: `${Y}/CopySettlement/Export`, summary: '导出抄表结算（.xlsx）', perm: { routes: ['copyread'], op: 'finance.logExport' }, query: S.SettlementFilter,
    file: '抄表结算', tags: setTags,
  }),
  settleNow: endpoint({
    method: 'POST', path: `${Y}/CopySettlement/Settle`, summary: '立即结算（所选表具或房间）', perm: { routes: ['copyread'], op: 'finance.settle' }, query: company,
    body: S.SettleNowBody, response: A.SettleNowAnswer, tags: setTags,
  }),

  // ---- bills ----
  ownerBills: endpoint({
    method: 'GET', path: `${Y}/usersettlementbill/list`, summary: '用户月度账单', perm: billRead, query: S.BillQuery, response: A.OwnerBillAnswer, paged: true, tags: billTags,
  }),
  meterBills: endpoint({
    method: 'GET', path: `${Y}/usersettlementbill/energyBill`, summary: '表具能耗账单（SchemeType：1 电 2 水）', perm: billRead, query: S.EnergyBillQuery,
    response: A.MeterBillAnswer, paged: true, tags: billTags,
  }),
  billPay: endpoint({
    method: 'POST', path: `${Y}/usersettlementbill/settleAccountsPay`, summary: '账单缴费（缴清欠费）', perm: energyOp('finance.billPay'), query: company, body: S.BillPayBody,
    response: A.CounterAnswer, tags: billTags,
  }),

  // ---- payment logs and reconciliation (/notesPay, /financerecode) ----
  payments: endpoint({
    method: 'GET', path: `${P}/Paymentlist`, summary: '缴费记录（充值、退费、补贴）', perm: payRead, query: S.PaymentQuery, response: A.JournalAnswer, paged: true, tags: logTags,
  }),
  counterReceipts: endpoint({
    method: 'GET', path: `${P}/Paymentlist2`, summary: '柜台业务记录（含综合缴费明细）', perm: payRead, query: S.ReceiptListQuery, response: A.ReceiptAnswer, paged: true, tags: logTags,
  }),
  auditList: endpoint({
    method: 'GET', path: `${P}/dataAuditlist`, summary: '财务对账：待审核与已审核流水', perm: auditRead, query: S.AuditQuery, response: A.JournalAnswer, paged: true, tags: logTags,
  }),
  auditSum: endpoint({ method: 'GET', path: `${P}/DataSum`, summary: '财务对账合计', perm: auditRead, query: S.AuditSumQuery, response: A.AuditSumAnswer, tags: logTags }),
  deductions: endpoint({
    method: 'GET', path: `${P}/deductionDetail`, summary: '扣费明细', perm: deductRead, query: S.DeductionQuery, response: A.JournalAnswer, paged: true, tags: logTags,
  }),
  deductionSum: endpoint({
    method: 'GET', path: `${P}/deductionDetailDataSum`, summary: '扣费明细合计', perm: deductRead, query: S.DeductionSumQuery, response: A.DeductionSumAnswer, tags: logTags,
  }),
  dataAudit: endpoint({
    method: 'POST', path: `${P}/dataAudit`, summary: '审核流水', perm: { routes: ['financerecode'], op: 'finance.audit' }, query: company, body: S.DataAuditBody,
    response: A.DataAuditAnswer, tags: logTags,
  }),
  businessPay: endpoint({
    method: 'POST', path: `${P}/businessPay`, summary: '综合缴费', perm: { routes: ['compre'], op: 'finance.billPay' }, query: company, body: S.BusinessPayBody,
    response: A.CounterAnswer, tags: logTags,
  }),

  // ---- receipts (/billprint) ----
  receipts: endpoint({
    method: 'GET', path: `${Y}/BillPrinting/List`, summary: '票据列表', perm: { routes: ['billprint'] }, query: S.ReceiptListQuery, response: A.ReceiptAnswer, paged: true, tags: printTags,
  }),
  receipt: endpoint({
    method: 'GET', path: `${Y}/BillPrinting/Detail`, summary: '票据详情（大写金额、二维码）', perm: printRead, query: S.ReceiptIdQuery.extend(company.shape), response: A.ReceiptDetailAnswer, tags: printTags,
  }),
  printReceipt: endpoint({
    method: 'POST', path: `${Y}/BillPrinting/Print/:id`, summary: '打印票据（记录打印次数）', perm: { routes: printRead.routes, op: 'finance.receiptPrint' }, query: company,
    params: S.ReceiptIdParams, response: A.PrintAnswer, tags: printTags,
  }),

  // ---- closing accounts (/accountCancel, /accountOff) ----
  cancelAccount: endpoint({
    method: 'POST', path: `${Y}/AccountCancel/Cancel`, summary: '销户（结算、退还余额、关阀、迁出）', perm: { routes: ['accountCancel'], op: 'room.closeAccount' }, query: company,
    body: S.CancelBody, response: A.CancelAnswer, tags: closeTags,
  }),
  closedAccounts: endpoint({
    method: 'GET', path: `${Y}/AccountOff/List`, summary: '已销户列表', perm: { routes: ['accountOff'] }, query: S.ClosedListQuery, response: A.ClosedAnswer, paged: true, tags: closeTags,
  }),
  reopenAccount: endpoint({
    method: 'POST', path: `${Y}/AccountOff/Reopen`, summary: '恢复已销户账户', perm: { routes: ['accountOff'], op: 'room.closeAccount' }, query: company, body: S.ReopenBody,
    response: A.ReopenAnswer, tags: closeTags,
  }),

  // ---- 公摊 meters ----
  sharedMeters: endpoint({
    method: 'GET', path: `${Y}/SharedMeter/List`, summary: '公摊表列表', perm: shareRead, query: S.SharedMeterQuery, response: A.SharedMeterAnswer, paged: true, tags: shareTags,
  }),
  saveSharedMeter: endpoint({
    method: 'POST', path: `${Y}/SharedMeter/Detail`, summary: '设为公摊表（按面积或平均分摊）', perm: shareWrite, query: company, body: S.SharedMeterBody, response: z.null(), tags: shareTags,
  }),
  deleteSharedMeters: endpoint({
    method: 'DELETE', path: `${Y}/SharedMeter/Detail`, summary: '取消公摊表', perm: shareWrite, query: company, body: S.SharedMeterIdsBody, response: z.null(), tags: shareTags,
  }),

  // ---- /home ----
  homeSummary: endpoint({ method: 'GET', path: `${Y}/Home/BillingSummary`, summary: '首页财务概况', perm: homeRead, query: S.HomeQuery, response: A.HomeSummaryAnswer, tags: ['首页'] }),
};
