// 支付平台对账 (/financerecode tab; /yewu/api/Reconcile/*, declared in packages/contracts endpoints/reconcile.ts):
// run a provider's statement of a day, its summary by outcome, the rows, 补单 of a 本地缺单 row, the .xlsx.
import type { ReconcileRowOut, ReconcileSummaryOut } from '@meter/contracts';
import { call, fetchFile } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export type ReconcileRow = ReconcileRowOut;
export type ReconcileSummary = ReconcileSummaryOut;
export type PayChannel = 'wechat' | 'alipay';
export type Outcome = ReconcileRow['outcome'];

/** the company a platform admin works in (searchCompanyID); ignored for company staff */
const inCompany = (company?: string) => (company ? { searchCompanyID: Number(company) } : {});

export const reconcileApi = {
  run: (day: string, channel: PayChannel) => call(E.reconcile.run, { body: { day, channel } }),
  summary: (day: string, channel: PayChannel, company?: string) => call(E.reconcile.summary, { query: { day, channel, ...inCompany(company) } }),
  rows: (q: { day: string; channel: PayChannel; outcome?: Outcome; index: number; size: number }, company?: string) =>
    call(E.reconcile.rows, { query: { ...q, ...inCompany(company) } }),
  recover: (id: number) => call(E.reconcile.recover, { body: { id } }),
  exportRows: (q: { day: string; channel: PayChannel; outcome?: Outcome }, company?: string) => fetchFile(E.reconcile.export, { query: { ...q, ...inCompany(company) } }),
};
