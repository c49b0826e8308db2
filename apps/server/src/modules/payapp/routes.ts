import type { FastifyInstance } from 'fastify';
import { API, payAppResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { payApps } from '../../db/schema/index.ts';
import * as payapp from './service.ts';
import type { AddInput, ListInput } from './schema.ts';

// Pay-application accounts (SPEC §7 AdaPayApplication, pages /huifu and /noteswithdraw), registered from
// their declarations (packages/contracts endpoints/payapp.ts): the accounts (list, add, Del: the declared
// resource, answered by the service — balances, soft deletes, the refusals while money is held), balances,
// withdrawals and statement; and Notify, the provider's signed withdrawal callback (JSON, no session).

export default function payAppRoutes(app: FastifyInstance) {
  const r = routes(app);
  const A = API.payapp;
  registerCrud(app, {
    def: payAppResource, endpoints: A, table: payApps, tenancy: 'company',
    handle: {
      list: (q, ctx) => payapp.listApps(ctx, q as ListInput), create: (b, ctx) => payapp.addApp(ctx, b as typeof b & AddInput),
      remove: ([id], ctx) => payapp.deleteApp(ctx, id),
    },
  });
  r.endpoint(A.balance, ({ query }, ctx) => payapp.getBalance(ctx, query.id));
  r.endpoint(A.withdrawals, ({ query }, ctx) => payapp.withdrawalLog(ctx, query));
  r.endpoint(A.journal, ({ query }, ctx) => payapp.journal(ctx, query));
  r.endpoint(A.changeBank, ({ body }, ctx) => payapp.changeBank(ctx, body));
  r.endpoint(A.setEnabled, ({ body }, ctx) => payapp.setEnabled(ctx, body.id, body.enabled));
  r.endpoint(A.notify, ({ body }, _ctx, req) => payapp.handleNotice(req.publicCtx!.db, body));
  r.endpoint(A.withdraw, ({ body }, ctx) => payapp.withdraw(ctx, body));
}
