import type { FastifyInstance } from 'fastify';
import { API, CHARGE_TYPES, DECORATIONS, ORIENTATIONS, chargingTypeResource, enumOptions } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { conflict } from '../../http/errors.ts';
import { chargingTypes } from '../../db/schema/index.ts';
import * as room from './service.ts';
import * as repo from './repo.ts';
import { RoomBody, RoomIdParams, RoomIdQuery, RoomListQuery, RoomUpdateBody, VacantRoomQuery } from './schema.ts';

// Rooms (/recordsRoom) and charging types (/systemFees) at the exact paths of SPEC §7.

const roomRead = { routes: ['recordsRoom', 'recordsOwner'] };
const roomWrite = { routes: ['recordsRoom'], op: 'room.basic' };
const feesOptions = { routes: ['systemFees', 'recordsRoom'] };

export default function roomRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['房间'];
  const Y = '/yewu/api';

  r.get(`${Y}/RoomInfo/GetAllChildRoom`, { summary: '房间列表（所选区域及其下级）', perm: roomRead, query: RoomListQuery, tags }, ({ query }, ctx) =>
    room.listRooms(ctx, query));
  r.get(`${Y}/getNoUserRoom`, { summary: '无人入住的房间', perm: { routes: ['recordsRoom', 'recordsOwner', 'inRoomRecord'] }, query: VacantRoomQuery, tags }, ({ query }, ctx) =>
    room.listVacantRooms(ctx, query));
  r.get(`${Y}/RoomInfo/Detail`, { summary: '房间详情', perm: roomRead, query: RoomIdQuery, tags }, ({ query }, ctx) => room.getRoom(ctx, query.Id));
  r.post(`${Y}/RoomInfo/Detail`, { summary: '新增房间', perm: roomWrite, body: RoomBody, tags }, ({ body }, ctx) =>
    room.createRoom(ctx, body));
  r.put(`${Y}/RoomInfo/Detail`, { summary: '编辑房间', perm: roomWrite, body: RoomUpdateBody, tags }, ({ body }, ctx) =>
    room.updateRoom(ctx, body.Id, body));
  r.delete(`${Y}/RoomInfo/Detail/:id`, { summary: '删除房间', perm: roomWrite, params: RoomIdParams, tags }, ({ params }, ctx) =>
    room.deleteRoom(ctx, params.id));
  r.get(`${Y}/GetDecorationEnum`, { summary: '装修情况选项', perm: roomRead, tags }, () => enumOptions(DECORATIONS));
  r.get(`${Y}/GetOrientationEnum`, { summary: '朝向选项', perm: roomRead, tags }, () => enumOptions(ORIENTATIONS));

  const feeTags = ['收费类型'];
  r.get(`${Y}/GetChargeTypeEnum`, { summary: '费用类别选项', perm: feesOptions, tags: feeTags }, () => enumOptions(CHARGE_TYPES));
  r.get(`${Y}/ChargingType/GetAllUsingList_All`, { summary: '在用的收费类型（全部）', perm: feesOptions, tags: feeTags }, (_i, ctx) =>
    ctx.tx(repo.usingChargingTypes));
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
