import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as imports from './service.ts';

// Excel import (导入): template, preview, commit, log — declared in packages/contracts/src/endpoints/imports.ts.

export default function importRoutes(app: FastifyInstance) {
  const r = routes(app);
  const I = API.imports;
  r.endpoint(I.template, ({ params }, ctx, _req, reply) => imports.template(ctx, params.kind, reply));
  r.endpoint(I.preview, ({ params, body }, ctx) => imports.preview(ctx, params.kind, body));
  r.endpoint(I.commit, ({ params, body }, ctx) => imports.commit(ctx, params.kind, body));
  r.endpoint(I.log, ({ query }, ctx) => imports.log(ctx, query));
}
