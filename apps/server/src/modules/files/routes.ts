import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { publicCtx, routes } from '../../http/routes.ts';
import * as files from './service.ts';
import type { FileSetup } from './setup.ts';

// Uploads (上传): tokens, the multipart upload, public and private files — declared in
// packages/contracts/src/endpoints/files.ts.

export default function fileRoutes(app: FastifyInstance, setup: FileSetup) {
  const r = routes(app);
  const F = API.files;
  r.endpoint(F.token, ({ query }, ctx) => files.token(ctx, setup, query.kind));
  r.endpoint(F.upload, (_i, _ctx, req) => files.upload(req, publicCtx(req), setup));
  r.endpoint(F.publicFile, ({ params }, _ctx, req, reply) => files.serve(publicCtx(req).db, setup, 'Public', params.key, null, req, reply));
  r.endpoint(F.privateFile, ({ params }, ctx, req, reply) => files.serve(ctx.db, setup, 'Private', params.key, files.viewerOf(ctx), req, reply));
}
