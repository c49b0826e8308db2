import type { FastifyInstance } from 'fastify';
import { routes, type Perm } from '../../http/routes.ts';
import * as closing from './closing.ts';
import * as counter from './counter.ts';
import { exportSettlements } from './export.ts';
import * as S from './schema.ts';
import * as service from './service.ts';
import * as views from './views.ts';

// Billing and finance under /yewu/api (SPEC §7 names; the calls the spec leaves unnamed are listed
// in docs/API.md): rooms and balances, counter operations, settlements, bills, payment logs, the
// finance audit, receipts, room timed subsidies, closing accounts, 公摊 meters, the /home figures.

const Y = '/yewu/api';
const energyRead: Perm = { routes: ['energy', 'compre', 'accountCancel', 'timeSubsidy', 'billprint'] };
const energyOp = (op: string): Perm => ({ routes: ['energy', 'compre'], op });
const copyRead: Perm = { routes: ['copyread'] };
const billRead: Perm = { routes: ['copyread', 'energy', 'compre'] };
const payRead: Perm = { routes: ['notesPay', 'energy', 'compre', 'financerecode'] };
/** the ledger behind /notesPay, /financerecode, the 提现 tab of /noteswithdraw and /reportCheck's detail */
const statisticsRead: Perm = { routes: [...payRead.routes!, 'noteswithdraw', 'reportCheck'] };
const auditRead: Perm = { routes: ['financerecode'] };
const deductRead: Perm = { routes: ['financerecode', 'copyread', 'reportDeduct'] };
/** every page that opens a receipt (ReceiptModal): /billprint, /notesPay, /compreProperty */
const printRead: Perm = { routes: ['billprint', 'notesPay', 'compreProperty'] };
const subsidyRead: Perm = { routes: ['timeSubsidy'] };
const subsidyOp: Perm = { routes: ['timeSubsidy'], op: 'finance.roomTimedSubsidy' };
const homeRead: Perm = { routes: ['energy', 'compre', 'copyread', 'financerecode', 'billprint', 'reportCheck', 'reportFees', 'reportDeduct', 'reportBank'] };

type Q<T> = T & { index: number; size: number };

export default function billingRoutes(app: FastifyInstance) {
  const r = routes(app);

  // ---- rooms and balances (/energy, /compre) ----
  const tags = ['水电缴费'];
  r.get(`${Y}/RoomInfo/GetEnergyRoom`, { summary: '水电缴费：房间及余额列表', perm: energyRead, query: S.EnergyRoomQuery, tags }, ({ query }, ctx) =>
    views.energyRooms(ctx, query));
  r.get(`${Y}/RoomInfo/GetEnergyRoomSum`, { summary: '水电缴费：余额合计', perm: energyRead, query: S.EnergyRoomFilter, tags }, ({ query }, ctx) =>
    views.energyRoomSum(ctx, query));
  r.get(`${Y}/RoomInfo/GetSynthesizeRoom`, { summary: '综合缴费：房间列表', perm: { routes: ['compre'] }, query: S.EnergyRoomQuery, tags }, ({ query }, ctx) =>
    views.energyRooms(ctx, query, true));
  r.get(`${Y}/RoomInfo/GetEnergyRoomDetail`, { summary: '房间账户详情（余额、表具、流水、补贴）', perm: energyRead, query: S.RoomIdQuery, tags }, ({ query }, ctx) =>
    views.energyRoomDetail(ctx, query.roomId));
  r.post(`${Y}/Energy/Prepay`, { summary: '柜台充值', perm: energyOp('finance.prepay'), body: S.CounterBody, tags }, ({ body }, ctx) =>
    counter.prepay(ctx, body));
  r.post(`${Y}/Energy/Refund`, { summary: '柜台退费（不超过余额）', perm: energyOp('finance.refund'), body: S.CounterBody, tags }, ({ body }, ctx) =>
    counter.refund(ctx, body));
  r.post(`${Y}/Energy/Subsidy`, { summary: '补贴', perm: energyOp('finance.subsidy'), body: S.SubsidyBody, tags }, ({ body }, ctx) =>
    counter.subsidy(ctx, body));

  // ---- room timed subsidy (/timeSubsidy) ----
  const subTags = ['房间定时补贴'];
  r.post(`${Y}/RoomInfo/AddRoomSubsidy`, { summary: '新增房间定时补贴', perm: subsidyOp, body: S.AddRoomSubsidyBody, tags: subTags }, ({ body }, ctx) =>
    service.addRoomSubsidy(ctx, body));
  r.get(`${Y}/RoomInfo/RoomSubsidyList`, { summary: '房间定时补贴列表', perm: subsidyRead, query: S.SubsidyListQuery, tags: subTags }, ({ query }, ctx) =>
    views.subsidyPlans(ctx, query));
  r.put(`${Y}/RoomInfo/RoomSubsidyStatus`, { summary: '启用或停用房间定时补贴', perm: subsidyOp, body: S.SubsidyStatusBody, tags: subTags }, ({ body }, ctx) =>
    service.setSubsidyStatus(ctx, body));

  // ---- statistics and settlements (/copyread) ----
  const setTags = ['抄表结算'];
  r.get(`${Y}/Statistics/list`, { summary: '交易统计（transactionType：0 全部 1 充值 2 退费 3 补贴 4 扣费 5 费用 6 冲正 7 提现 8 期初余额）', perm: statisticsRead, query: S.StatisticsQuery, tags: setTags }, ({ query }, ctx) =>
    views.statistics(ctx, query));
  r.get(`${Y}/CopySettlement/CopySettlementData`, { summary: '抄表结算汇总', perm: copyRead, query: S.SettlementFilter, tags: setTags }, ({ query }, ctx) =>
    views.settlementData(ctx, query));
  r.get(`${Y}/CopySettlement/List`, { summary: '抄表结算明细', perm: copyRead, query: S.SettlementListQuery, tags: setTags }, ({ query }, ctx) =>
    views.settlements(ctx, query));
  r.get(`${Y}/CopySettlement/Export`, { summary: '导出抄表结算（.xlsx）', perm: { routes: ['copyread'], op: 'finance.logExport' }, query: S.SettlementFilter, tags: setTags }, ({ query }, ctx, _req, reply) =>
    exportSettlements(ctx, query, reply));
  r.post(`${Y}/CopySettlement/Settle`, { summary: '立即结算（所选表具或房间）', perm: { routes: ['copyread'], op: 'finance.settle' }, body: S.SettleNowBody, tags: setTags }, ({ body }, ctx) =>
    service.settleNow(ctx, body));

  // ---- bills ----
  const billTags = ['用户账单'];
  r.get(`${Y}/usersettlementbill/list`, { summary: '用户月度账单', perm: billRead, query: S.BillQuery, tags: billTags }, ({ query }, ctx) =>
    views.ownerBills(ctx, query));
  r.get(`${Y}/usersettlementbill/energyBill`, { summary: '表具能耗账单（SchemeType：1 电 2 水）', perm: billRead, query: S.EnergyBillQuery, tags: billTags }, ({ query }, ctx) =>
    views.meterBills(ctx, query as Q<typeof query>));
  r.post(`${Y}/usersettlementbill/settleAccountsPay`, { summary: '账单缴费（缴清欠费）', perm: energyOp('finance.billPay'), body: S.BillPayBody, tags: billTags }, ({ body }, ctx) =>
    counter.billPay(ctx, body));

  // ---- payment logs and reconciliation (/notesPay, /financerecode) ----
  const logTags = ['缴费记录与财务对账'];
  const P = `${Y}/userpaymentlog`;
  r.get(`${P}/Paymentlist`, { summary: '缴费记录（充值、退费、补贴）', perm: payRead, query: S.PaymentQuery, tags: logTags }, ({ query }, ctx) =>
    views.payments(ctx, query));
  r.get(`${P}/Paymentlist2`, { summary: '柜台业务记录（含综合缴费明细）', perm: payRead, query: S.ReceiptListQuery, tags: logTags }, ({ query }, ctx) =>
    service.receipts(ctx, query));
  r.get(`${P}/dataAuditlist`, { summary: '财务对账：待审核与已审核流水', perm: auditRead, query: S.AuditQuery, tags: logTags }, ({ query }, ctx) =>
    views.auditList(ctx, query));
  r.get(`${P}/DataSum`, { summary: '财务对账合计', perm: auditRead, query: S.AuditSumQuery, tags: logTags }, ({ query }, ctx) =>
    views.auditSum(ctx, query));
  r.get(`${P}/deductionDetail`, { summary: '扣费明细', perm: deductRead, query: S.DeductionQuery, tags: logTags }, ({ query }, ctx) =>
    views.deductions(ctx, query));
  r.get(`${P}/deductionDetailDataSum`, { summary: '扣费明细合计', perm: deductRead, query: S.DeductionSumQuery, tags: logTags }, ({ query }, ctx) =>
    views.deductionSum(ctx, query));
  r.post(`${P}/dataAudit`, { summary: '审核流水', perm: { routes: ['financerecode'], op: 'finance.audit' }, body: S.DataAuditBody, tags: logTags }, ({ body }, ctx) =>
    service.dataAudit(ctx, body));
  r.post(`${P}/businessPay`, { summary: '综合缴费', perm: { routes: ['compre'], op: 'finance.billPay' }, body: S.BusinessPayBody, tags: logTags }, ({ body }, ctx) =>
    counter.businessPay(ctx, body));

  // ---- receipts (/billprint) ----
  const printTags = ['票据打印'];
  r.get(`${Y}/BillPrinting/List`, { summary: '票据列表', perm: { routes: ['billprint'] }, query: S.ReceiptListQuery, tags: printTags }, ({ query }, ctx) =>
    service.receipts(ctx, query));
  r.get(`${Y}/BillPrinting/Detail`, { summary: '票据详情（大写金额、二维码）', perm: printRead, query: S.IdQuery, tags: printTags }, ({ query }, ctx) =>
    service.receiptDetail(ctx, query.id));
  r.post(`${Y}/BillPrinting/Print/:id`, { summary: '打印票据（记录打印次数）', perm: { routes: printRead.routes, op: 'finance.receiptPrint' }, params: S.IdParams, tags: printTags }, ({ params }, ctx) =>
    service.printReceipt(ctx, params.id));

  // ---- closing accounts (/accountCancel, /accountOff) ----
  const closeTags = ['销户'];
  r.post(`${Y}/AccountCancel/Cancel`, { summary: '销户（结算、退还余额、关阀、迁出）', perm: { routes: ['accountCancel'], op: 'room.closeAccount' }, body: S.CancelBody, tags: closeTags }, ({ body }, ctx) =>
    closing.cancelAccount(ctx, body));
  r.get(`${Y}/AccountOff/List`, { summary: '已销户列表', perm: { routes: ['accountOff'] }, query: S.ClosedListQuery, tags: closeTags }, ({ query }, ctx) =>
    closing.listClosed(ctx, query));
  r.post(`${Y}/AccountOff/Reopen`, { summary: '恢复已销户账户', perm: { routes: ['accountOff'], op: 'room.closeAccount' }, body: S.ReopenBody, tags: closeTags }, ({ body }, ctx) =>
    closing.reopenAccount(ctx, body));

  // ---- 公摊 meters ----
  const shareTags = ['公摊表'];
  const shareRead: Perm = { routes: ['recordsTable', 'comprePublic'] };
  const shareWrite: Perm = { routes: ['recordsTable'], op: 'device.edit' };
  r.get(`${Y}/SharedMeter/List`, { summary: '公摊表列表', perm: shareRead, query: S.SharedMeterQuery, tags: shareTags }, ({ query }, ctx) =>
    service.sharedMeters(ctx, query));
  r.post(`${Y}/SharedMeter/Detail`, { summary: '设为公摊表（按面积或平均分摊）', perm: shareWrite, body: S.SharedMeterBody, tags: shareTags }, ({ body }, ctx) =>
    service.saveSharedMeter(ctx, body));
  r.delete(`${Y}/SharedMeter/Detail`, { summary: '取消公摊表', perm: shareWrite, body: S.IdsBody, tags: shareTags }, ({ body }, ctx) =>
    service.deleteSharedMeters(ctx, body.ids));

  // ---- /home ----
  r.get(`${Y}/Home/BillingSummary`, { summary: '首页财务概况', perm: homeRead, query: S.HomeQuery, tags: ['首页'] }, ({ query }, ctx) =>
    service.homeSummary(ctx, query));
}
