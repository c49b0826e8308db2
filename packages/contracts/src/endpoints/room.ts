import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { AreaFilter, CompanyQuery, PageQuery, optText, wireTime, optionalRef } from '../query.ts';

// 房间 (/yewu/api/RoomInfo, /recordsRoom) at the exact paths of SPEC §7, the room enums, and the
// charging-type option lists of /systemFees. The room archive and the charging types are declared
// resources (./crud.ts: `room`, `chargingType`). The room's id travels as `Id` (SPEC §3).

export const roomTags = ['房间'];
const feeTags = ['收费类型'];
export const roomRead = { routes: ['recordsRoom', 'recordsOwner'] };
export const roomWrite = { routes: ['recordsRoom'], op: 'room.basic' };
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
  vacant: endpoint({
    method: 'GET', path: `${Y}/getNoUserRoom`, summary: '无人入住的房间', perm: vacantRead, query: VacantRoomQuery,
    response: RoomInfoRow, paged: true, tags: roomTags,
  }),
  decorations: endpoint({ method: 'GET', path: `${Y}/GetDecorationEnum`, summary: '装修情况选项', perm: roomRead, response: z.array(EnumOptionRow), tags: roomTags }),
  orientations: endpoint({ method: 'GET', path: `${Y}/GetOrientationEnum`, summary: '朝向选项', perm: roomRead, response: z.array(EnumOptionRow), tags: roomTags }),

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
