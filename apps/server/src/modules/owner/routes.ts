import type { FastifyInstance } from 'fastify';
import { API, ownerResource, type HistoryListInput, type OwnerInput, type OwnerListInput } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { owners } from '../../db/schema/index.ts';
import * as owner from './service.ts';

// Owners (userinfo, page /recordsOwner) and move-in history (page /inRoomRecord).

export default function ownerRoutes(app: FastifyInstance) {
  const r = routes(app);
  const O = API.owner;
  // the owner archive: list, detail, create (入住) and delete are the service's (area scope, rooms); an edit
  // writes the declared form after beforeUpdate (area scope, a new phone's sessions end)
  registerCrud(app, {
    def: ownerResource,
    endpoints: O,
    table: owners,
    tenancy: 'company',
    handle: {
      list: (q, ctx) => owner.listOwners(ctx, q as typeof q & OwnerListInput),
      detail: (id, ctx) => owner.getOwner(ctx, id),
      create: (b, ctx) => owner.createOwner(ctx, b as typeof b & OwnerInput),
      remove: (ids, ctx) => owner.deleteOwners(ctx, ids),
    },
    beforeWrite: owner.beforeUpdate,
  });
  r.endpoint(O.resetPwd, ({ body }, ctx) => owner.resetOwnerPassword(ctx, body.id));
  r.endpoint(O.moveIn, ({ body }, ctx) => owner.moveOwnerIn(ctx, body.id, body.roomId, body.memo));
  r.endpoint(O.moveOut, ({ body }, ctx) => owner.moveOwnerOut(ctx, body.id, body.memo));
  r.endpoint(O.history, ({ query }, ctx) => owner.listHistory(ctx, query as Record<string, unknown> & HistoryListInput));
  r.endpoint(O.export, ({ query }, ctx, _req, reply) => owner.exportOwners(ctx, query as Record<string, unknown> & OwnerListInput, reply));
}
