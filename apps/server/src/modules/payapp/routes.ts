import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as payapp from './service.ts';

// Pay-application accounts (SPEC §7 AdaPayApplication, pages /huifu and /noteswithdraw), registered from
// their declarations (packages/contracts endpoints/payapp.ts): the accounts, balances, withdrawals and
// statement; and Notify, the provider's signed withdrawal callback (JSON, no session).

export default function payAppRoutes(app: FastifyInstance) {
  const r = routes(app);
  const A = API.payapp;
  r.endpoint(A.list, ({ query }, ctx) => payapp.listApps(ctx, query));
  r.endpoint(A.balance, ({ query }, ctx) => payapp.getBalance(ctx, query.id));
  r.endpoint(A.withdrawals, ({ query }, ctx) => payapp.withdrawalLog(ctx, query));
  r.endpoint(A.journal, ({ query }, ctx) => payapp.journal(ctx, query));
  r.endpoint(A.add, ({ body }, ctx) => payapp.addApp(ctx, body));
  r.endpoint(A.remove, ({ body }, ctx) => payapp.deleteApp(ctx, body.id));
  r.endpoint(A.changeBank, ({ body }, ctx) => payapp.changeBank(ctx, body));
  r.endpoint(A.setEnabled, ({ body }, ctx) => payapp.setEnabled(ctx, body.id, body.enabled));
  r.endpoint(A.notify, ({ body }, _ctx, req) => payapp.handleNotice(req.publicCtx!.db, body));
  r.endpoint(A.withdraw, ({ body }, ctx) => payapp.withdraw(ctx, body));
}
