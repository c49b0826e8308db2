import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as report from './service.ts';
import * as exportConfig from './export-config.ts';

// Finance reports (SPEC §2 /reportCheck, /reportFees, /reportDeduct, /reportBank); paths chosen
// here and listed in docs/API.md. Exports (streamed .xlsx) need the finance log-export operation.

export default function reportRoutes(app: FastifyInstance) {
  const r = routes(app);
  const R = API.report;
  r.endpoint(R.check, ({ query }, ctx) => report.check(ctx, query));
  r.endpoint(R.fees, ({ query }, ctx) => report.fees(ctx, query));
  r.endpoint(R.deduct, ({ query }, ctx) => report.deduct(ctx, query));
  r.endpoint(R.bank, ({ query }, ctx) => report.bank(ctx, query));
  r.endpoint(R.checkExport, ({ query }, ctx, _req, reply) => report.exportReport(ctx, 'check', query, reply));
  r.endpoint(R.feesExport, ({ query }, ctx, _req, reply) => report.exportReport(ctx, 'fees', query, reply));
  r.endpoint(R.deductExport, ({ query }, ctx, _req, reply) => report.exportReport(ctx, 'deduct', query, reply));
  r.endpoint(R.bankExport, ({ query }, ctx, _req, reply) => report.exportReport(ctx, 'bank', query, reply));
  r.endpoint(API.settings.exportConfig, (_i, ctx) => exportConfig.exportConfigs(ctx));
  r.endpoint(API.settings.saveExportConfig, ({ body }, ctx) => exportConfig.saveExportConfig(ctx, body));
}
