import type { FastifyInstance } from 'fastify';
import { API, CHARGE_TYPES, DECORATIONS, ORIENTATIONS, chargingTypeResource, enumOptions, type RoomListInput } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { conflict } from '../../http/errors.ts';
import { chargingTypes } from '../../db/schema/index.ts';
import * as room from './service.ts';
import * as repo from './repo.ts';

// Rooms (/recordsRoom) and charging types (/systemFees) at the exact paths of SPEC §7.

export default function roomRoutes(app: FastifyInstance) {
  const r = routes(app);
  const R = API.room;
  // the list query comes from the declared resource's search fields (typed as RoomListInput)
  r.endpoint(R.list, ({ query }, ctx) => room.listRooms(ctx, query as Record<string, unknown> & RoomListInput));
  r.endpoint(R.vacant, ({ query }, ctx) => room.listVacantRooms(ctx, query));
  r.endpoint(R.detail, ({ query }, ctx) => room.getRoom(ctx, query.Id));
  r.endpoint(R.create, ({ body }, ctx) => room.createRoom(ctx, body));
  r.endpoint(R.update, ({ body }, ctx) => room.updateRoom(ctx, body.Id, body));
  r.endpoint(R.remove, ({ params }, ctx) => room.deleteRoom(ctx, params.id));
  r.endpoint(R.decorations, () => enumOptions(DECORATIONS));
  r.endpoint(R.orientations, () => enumOptions(ORIENTATIONS));

  r.endpoint(R.chargeTypes, () => enumOptions(CHARGE_TYPES));
  r.endpoint(R.usingChargingTypes, (_i, ctx) => room.usingChargingTypes(ctx));
  registerCrud(app, {
    def: chargingTypeResource,
    endpoints: API.chargingType,
    table: chargingTypes,
    tenancy: 'company',
    beforeDelete: async (tx, _ctx, ids) => {
      const n = await repo.roomsUsingChargingTypes(tx, ids);
      if (n > 0) throw conflict(`该收费类型已被 ${n} 个房间使用，不能删除`);
    },
    label: (row) => `收费类型 ${String(row.name ?? row.id)}`,
  });
}
