import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, CompanyQuery, PageQuery, optText, wireTime, optionalRef } from '../query.ts';
import { formSchema, listQuerySchema, typed } from '../resource.ts';
import { roomResource } from '../resources/room.ts';

// 房间 (/yewu/api/RoomInfo, /recordsRoom) at the exact paths of SPEC §7, the room enums, and the
// charging-type option lists of /systemFees. The charging-type CRUD itself is registered from its
// declared resource (http/crud.ts). The room's id travels as `Id` (SPEC §3).

const tags = ['房间'];
const feeTags = ['收费类型'];
const roomRead = { routes: ['recordsRoom', 'recordsOwner'] };
const roomWrite = { routes: ['recordsRoom'], op: 'room.basic' };
/** moving an owner in picks a vacant room (the owner archive and the move-in history) */
const vacantRead = { routes: ['recordsRoom', 'recordsOwner', 'inRoomRecord'] };
const feesOptions = { routes: ['systemFees', 'recordsRoom'] };

/** The typed form of a room body after validation. */
export interface RoomInput {
  name: string;
  areaId: number;
  decoration: number;
  orientation: number;
  chargingTypeId: number | null;
  sizeM2: string | null;
  status: number;
  memo: string;
}

export interface RoomListInput {
  index: number;
  size: number;
  searchArea?: number;
  name?: string;
  ownerName?: string;
  ownerPhone?: string;
  chargingTypeId?: number;
  status?: number;
}

const id = num(z.number().int().positive());

const roomForm = formSchema(roomResource);
export const RoomBody = typed<RoomInput>(roomForm);
export const RoomUpdateBody = typed<RoomInput & { Id: number }>(roomForm.extend({ Id: id }));
export const RoomDetailQuery = CompanyQuery.extend({ Id: id });
export const RoomIdParams = z.object({ id });

/** GetAllChildRoom: paging, the area subtree and the resource's search fields (read as RoomListInput) */
export const RoomListQuery = listQuerySchema(roomResource);
export const VacantRoomQuery = PageQuery.extend(AreaFilter.shape).extend({ name: optText() });

/** RoomInfo/GetAllChildRoom, getNoUserRoom and RoomInfo/Detail */
export const RoomInfoRow = z.object({
  Id: z.number(),
  companyId: z.number(),
  name: z.string(),
  areaId: z.number(),
  /** the area path from the top visible ancestor, e.g. 阳光园区/1号楼/1层 */
  areaName: z.string().nullable(),
  decoration: z.number(),
  orientation: z.number(),
  ...optionalRef('chargingType'),
  sizeM2: z.string(),
  status: z.number(),
  memo: z.string(),
  createdAt: wireTime,
  ...optionalRef('owner'),
  ownerPhone: z.string().nullable(),
  meterCount: z.number(),
});

/** An enum as the option lists answer it (GetDecorationEnum, GetOrientationEnum, GetChargeTypeEnum). */
export const EnumOptionRow = z.object({ value: z.number(), label: z.string() });

/** A charging type in use, for selects. */
export const ChargingTypeOptionRow = z.object({ id: z.number(), name: z.string(), chargeType: z.number() });

const Y = '/yewu/api';

export const roomEndpoints = {
  list: endpoint({
    method: 'GET', path: `${Y}/RoomInfo/GetAllChildRoom`, summary: '房间列表（所选区域及其下级）', perm: roomRead, query: RoomListQuery,
    response: RoomInfoRow, paged: true, tags,
  }),
  vacant: endpoint({
    method: 'GET', path: `${Y}/getNoUserRoom`, summary: '无人入住的房间', perm: vacantRead, query: VacantRoomQuery,
    response: RoomInfoRow, paged: true, tags,
  }),
  detail: endpoint({ method: 'GET', path: `${Y}/RoomInfo/Detail`, summary: '房间详情', perm: roomRead, query: RoomDetailQuery, response: RoomInfoRow, tags }),
  create: endpoint({
    method: 'POST', path: `${Y}/RoomInfo/Detail`, summary: '新增房间', perm: roomWrite, query: CompanyQuery, body: RoomBody,
    response: z.object({ Id: z.number() }), tags,
  }),
  update: endpoint({
    method: 'PUT', path: `${Y}/RoomInfo/Detail`, summary: '编辑房间', perm: roomWrite, query: CompanyQuery, body: RoomUpdateBody, response: z.null(), tags,
  }),
  remove: endpoint({
    method: 'DELETE', path: `${Y}/RoomInfo/Detail/:id`, summary: '删除房间', perm: roomWrite, query: CompanyQuery, params: RoomIdParams,
    response: z.null(), tags,
  }),
  decorations: endpoint({ method: 'GET', path: `${Y}/GetDecorationEnum`, summary: '装修情况选项', perm: roomRead, response: z.array(EnumOptionRow), tags }),
  orientations: endpoint({ method: 'GET', path: `${Y}/GetOrientationEnum`, summary: '朝向选项', perm: roomRead, response: z.array(EnumOptionRow), tags }),

  chargeTypes: endpoint({
    method: 'GET', path: `${Y}/GetChargeTypeEnum`, summary: '费用类别选项', perm: feesOptions, response: z.array(EnumOptionRow), tags: feeTags,
  }),
  usingChargingTypes: endpoint({
    method: 'GET', path: `${Y}/ChargingType/GetAllUsingList_All`, summary: '在用的收费类型（全部）', perm: feesOptions, query: CompanyQuery,
    response: z.array(ChargingTypeOptionRow), tags: feeTags,
  }),
};

export type RoomRow = z.output<typeof RoomInfoRow>;
export type EnumOption = z.output<typeof EnumOptionRow>;
export type ChargingTypeOption = z.output<typeof ChargingTypeOptionRow>;
