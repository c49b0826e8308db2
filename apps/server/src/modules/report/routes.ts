import type { FastifyInstance } from 'fastify';
import { routes, type Perm } from '../../http/routes.ts';
import { FeesQuery, ReportQuery } from './schema.ts';
import * as report from './service.ts';

// Finance reports (SPEC §2 /reportCheck, /reportFees, /reportDeduct, /reportBank); paths chosen
// here and listed in docs/API.md. Exports need the finance log-export operation.

const Y = '/yewu/api/Report';
const read = (route: string): Perm => ({ routes: [route] });
const exporting = (route: string): Perm => ({ routes: [route], op: 'finance.logExport' });

export default function reportRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['报表统计'];
  r.get(`${Y}/Check`, { summary: '对账报表（按日、按支付方式）', perm: read('reportCheck'), query: ReportQuery, tags }, ({ query }, ctx) => report.check(ctx, query));
  r.get(`${Y}/CheckExport`, { summary: '导出对账报表（.xlsx）', perm: exporting('reportCheck'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'check', query, reply));
  r.get(`${Y}/Fees`, { summary: '费用报表（按房间）', perm: read('reportFees'), query: FeesQuery, tags }, ({ query }, ctx) => report.fees(ctx, query));
  r.get(`${Y}/FeesExport`, { summary: '导出费用报表（.xlsx）', perm: exporting('reportFees'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'fees', query, reply));
  r.get(`${Y}/Deduct`, { summary: '扣费报表（按日、按表具类型）', perm: read('reportDeduct'), query: ReportQuery, tags }, ({ query }, ctx) => report.deduct(ctx, query));
  r.get(`${Y}/DeductExport`, { summary: '导出扣费报表（.xlsx）', perm: exporting('reportDeduct'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'deduct', query, reply));
  r.get(`${Y}/Bank`, { summary: '银行报表（银行与在线支付收款）', perm: read('reportBank'), query: ReportQuery, tags }, ({ query }, ctx) => report.bank(ctx, query));
  r.get(`${Y}/BankExport`, { summary: '导出银行报表（.xlsx）', perm: exporting('reportBank'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'bank', query, reply));
}
