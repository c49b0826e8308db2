import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { SIMULATED, type Payments } from '../payment/index.ts';
import * as reconcile from './service.ts';

// 支付平台对账 on /financerecode, declared in packages/contracts (endpoints/reconcile.ts; docs/API.md).

const R = API.reconcile;

export default function reconcileRoutes(app: FastifyInstance, pay: Payments = SIMULATED) {
  const r = routes(app);
  r.endpoint(R.run, ({ body }, ctx) => reconcile.run(ctx, pay, body));
  r.endpoint(R.summary, ({ query }, ctx) => reconcile.summary(ctx, query));
  r.endpoint(R.rows, ({ query }, ctx) => reconcile.rows(ctx, query));
  r.endpoint(R.recover, ({ body }, ctx) => reconcile.recover(ctx, pay, body.id));
  r.endpoint(R.export, ({ query }, ctx, _req, reply) => reconcile.exportRows(ctx, query, reply));
}
