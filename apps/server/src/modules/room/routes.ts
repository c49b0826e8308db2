import type { FastifyInstance } from 'fastify';
import { API, CHARGE_TYPES, DECORATIONS, ORIENTATIONS, chargingTypeResource, enumOptions, roomResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { byService, registerCrud } from '../../http/crud.ts';
import { conflict } from '../../http/errors.ts';
import { chargingTypes, rooms } from '../../db/schema/index.ts';
import * as room from './service.ts';
import * as repo from './repo.ts';

// Rooms (/recordsRoom) and charging types (/systemFees) at the exact paths of SPEC §7.

export default function roomRoutes(app: FastifyInstance) {
  const r = routes(app);
  const R = API.room;
  // the room archive: its list (area totals, owner, meters) and writes (a move carries the meters along,
  // a delete is refused while someone lives there) are the service's; the query and body are the declared
  // resource's search fields and form, as the service types them (RoomListInput, RoomInput)
  registerCrud(app, {
    def: roomResource,
    endpoints: R,
    table: rooms,
    tenancy: 'company',
    handle: byService({ list: room.listRooms, detail: room.getRoom, create: room.createRoom, update: room.updateRoom, remove: room.deleteRoom }, 'Id'),
  });
  r.endpoint(R.vacant, ({ query }, ctx) => room.listVacantRooms(ctx, query));
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
