import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as closing from './closing.ts';
import * as counter from './counter.ts';
import { exportSettlements } from './export.ts';
import * as service from './service.ts';
import * as views from './views.ts';

// Billing and finance (declared in packages/contracts/src/endpoints/billing.ts): rooms and balances,
// counter operations, settlements, bills, payment logs, the finance audit, receipts, room timed
// subsidies, closing accounts, 公摊 meters, the /home figures.

export default function billingRoutes(app: FastifyInstance) {
  const r = routes(app);
  const B = API.billing;

  // rooms and balances (/energy, /compre)
  r.endpoint(B.energyRooms, ({ query }, ctx) => views.energyRooms(ctx, query));
  r.endpoint(B.energyRoomSum, ({ query }, ctx) => views.energyRoomSum(ctx, query));
  r.endpoint(B.synthesizeRooms, ({ query }, ctx) => views.energyRooms(ctx, query, true));
  r.endpoint(B.roomDetail, ({ query }, ctx) => views.energyRoomDetail(ctx, query.roomId));
  r.endpoint(B.prepay, ({ body }, ctx) => counter.prepay(ctx, body));
  r.endpoint(B.refund, ({ body }, ctx) => counter.refund(ctx, body));
  r.endpoint(B.subsidy, ({ body }, ctx) => counter.subsidy(ctx, body));

  // room timed subsidy (/timeSubsidy)
  r.endpoint(B.addRoomSubsidy, ({ body }, ctx) => service.addRoomSubsidy(ctx, body));
  r.endpoint(B.subsidyPlans, ({ query }, ctx) => views.subsidyPlans(ctx, query));
  r.endpoint(B.setSubsidyStatus, ({ body }, ctx) => service.setSubsidyStatus(ctx, body));

  // statistics and settlements (/copyread)
  r.endpoint(B.statistics, ({ query }, ctx) => views.statistics(ctx, query));
  r.endpoint(B.settlementData, ({ query }, ctx) => views.settlementData(ctx, query));
  r.endpoint(B.settlements, ({ query }, ctx) => views.settlements(ctx, query));
  r.endpoint(B.exportSettlements, ({ query }, ctx, _req, reply) => exportSettlements(ctx, query, reply));
  r.endpoint(B.settleNow, ({ body }, ctx) => service.settleNow(ctx, body));

  // bills
  r.endpoint(B.ownerBills, ({ query }, ctx) => views.ownerBills(ctx, query));
  r.endpoint(B.meterBills, ({ query }, ctx) => views.meterBills(ctx, query));
  r.endpoint(B.billPay, ({ body }, ctx) => counter.billPay(ctx, body));

  // payment logs and reconciliation (/notesPay, /financerecode)
  r.endpoint(B.payments, ({ query }, ctx) => views.payments(ctx, query));
  r.endpoint(B.counterReceipts, ({ query }, ctx) => service.receipts(ctx, query));
  r.endpoint(B.auditList, ({ query }, ctx) => views.auditList(ctx, query));
  r.endpoint(B.auditSum, ({ query }, ctx) => views.auditSum(ctx, query));
  r.endpoint(B.deductions, ({ query }, ctx) => views.deductions(ctx, query));
  r.endpoint(B.deductionSum, ({ query }, ctx) => views.deductionSum(ctx, query));
  r.endpoint(B.dataAudit, ({ body }, ctx) => service.dataAudit(ctx, body));
  r.endpoint(B.businessPay, ({ body }, ctx) => counter.businessPay(ctx, body));

  // receipts (/billprint)
  r.endpoint(B.receipts, ({ query }, ctx) => service.receipts(ctx, query));
  r.endpoint(B.receipt, ({ query }, ctx) => service.receiptDetail(ctx, query.id));
  r.endpoint(B.printReceipt, ({ params }, ctx) => service.printReceipt(ctx, params.id));

  // closing accounts (/accountCancel, /accountOff)
  r.endpoint(B.cancelAccount, ({ body }, ctx) => closing.cancelAccount(ctx, body));
  r.endpoint(B.closedAccounts, ({ query }, ctx) => closing.listClosed(ctx, query));
  r.endpoint(B.reopenAccount, ({ body }, ctx) => closing.reopenAccount(ctx, body));

  // 公摊 meters
  r.endpoint(B.sharedMeters, ({ query }, ctx) => service.sharedMeters(ctx, query));
  r.endpoint(B.saveSharedMeter, ({ body }, ctx) => service.saveSharedMeter(ctx, body));
  r.endpoint(B.deleteSharedMeters, ({ body }, ctx) => service.deleteSharedMeters(ctx, body.ids));

  // /home
  r.endpoint(B.homeSummary, ({ query }, ctx) => service.homeSummary(ctx, query));
}
