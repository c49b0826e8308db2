import type { FastifyInstance } from 'fastify';
import { API, ReportQuery } from '@meter/contracts';
import { routes, type Perm } from '../../http/routes.ts';
import * as report from './service.ts';

// Finance reports (SPEC §2 /reportCheck, /reportFees, /reportDeduct, /reportBank); paths chosen
// here and listed in docs/API.md. Exports need the finance log-export operation.

const Y = '/yewu/api/Report';
const exporting = (route: string): Perm => ({ routes: [route], op: 'finance.logExport' });

export default function reportRoutes(app: FastifyInstance) {
  const r = routes(app);
  const R = API.report;
  r.endpoint(R.check, ({ query }, ctx) => report.check(ctx, query));
  r.endpoint(R.fees, ({ query }, ctx) => report.fees(ctx, query));
  r.endpoint(R.deduct, ({ query }, ctx) => report.deduct(ctx, query));
  r.endpoint(R.bank, ({ query }, ctx) => report.bank(ctx, query));

  // streamed .xlsx files: registered by hand until declarations cover file answers
  const tags = ['报表统计'];
  r.get(`${Y}/CheckExport`, { summary: '导出对账报表（.xlsx）', perm: exporting('reportCheck'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'check', query, reply));
  r.get(`${Y}/FeesExport`, { summary: '导出费用报表（.xlsx）', perm: exporting('reportFees'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'fees', query, reply));
  r.get(`${Y}/DeductExport`, { summary: '导出扣费报表（.xlsx）', perm: exporting('reportDeduct'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'deduct', query, reply));
  r.get(`${Y}/BankExport`, { summary: '导出银行报表（.xlsx）', perm: exporting('reportBank'), query: ReportQuery, tags }, ({ query }, ctx, _q, reply) =>
    report.exportReport(ctx, 'bank', query, reply));
}
