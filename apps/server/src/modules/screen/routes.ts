import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import type { Db } from '../../db/client.ts';
import { routes } from '../../http/routes.ts';
import type { EventBus } from '../realtime/index.ts';
import { CreditWatch } from './live.ts';
import * as screen from './service.ts';
import { gether } from './gether.ts';

// 大屏可视化 (/screen): the dashboard's figures; top-ups reach the open screens as `payment` events.

export default function screenRoutes(app: FastifyInstance, opts: { db: Db; bus: EventBus }) {
  const watch = new CreditWatch(opts.db, opts.bus, app.log);
  app.addHook('onClose', async () => watch.stop());
  const r = routes(app);
  r.endpoint(API.screen.summary, (_input, ctx) => screen.summary(ctx, watch));
  r.endpoint(API.screen.gether, ({ query }, ctx) => gether(ctx, query.areaId));
}
