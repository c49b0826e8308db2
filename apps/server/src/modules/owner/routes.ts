import type { FastifyInstance } from 'fastify';
import { API, type HistoryListInput, type OwnerListInput } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as owner from './service.ts';

// Owners (userinfo, page /recordsOwner) and move-in history (page /inRoomRecord).

export default function ownerRoutes(app: FastifyInstance) {
  const r = routes(app);
  const O = API.owner;
  // the list queries come from the declared resources' search fields (typed as OwnerListInput / HistoryListInput)
  r.endpoint(O.list, ({ query }, ctx) => owner.listOwners(ctx, query as Record<string, unknown> & OwnerListInput));
  r.endpoint(O.detail, ({ params }, ctx) => owner.getOwner(ctx, params.id));
  r.endpoint(O.create, ({ body }, ctx) => owner.createOwner(ctx, body));
  r.endpoint(O.update, ({ body }, ctx) => owner.updateOwner(ctx, body.id, body));
  r.endpoint(O.remove, ({ body }, ctx) => owner.deleteOwners(ctx, body.ids));
  r.endpoint(O.resetPwd, ({ body }, ctx) => owner.resetOwnerPassword(ctx, body.id));
  r.endpoint(O.moveIn, ({ body }, ctx) => owner.moveOwnerIn(ctx, body.id, body.roomId, body.memo));
  r.endpoint(O.moveOut, ({ body }, ctx) => owner.moveOwnerOut(ctx, body.id, body.memo));
  r.endpoint(O.history, ({ query }, ctx) => owner.listHistory(ctx, query as Record<string, unknown> & HistoryListInput));
  r.endpoint(O.export, ({ query }, ctx, _req, reply) => owner.exportOwners(ctx, query as Record<string, unknown> & OwnerListInput, reply));
}
