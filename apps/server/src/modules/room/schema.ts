import { z } from 'zod';
import { formSchema, listQuerySchema, roomResource, typed, num } from '@meter/contracts';
import { AreaFilter, PageQuery, optText } from '../../http/paging.ts';

// Input shapes of the room endpoints, derived from the declared resource (contracts/resources/room.ts).

const id = num(z.number().int().positive());

const roomForm = formSchema(roomResource);
export const RoomBody = typed<RoomInput>(roomForm);
export const RoomUpdateBody = typed<RoomInput & { Id: number }>(roomForm.extend({ Id: id }));
export const RoomIdQuery = z.object({ Id: id });
export const RoomIdParams = z.object({ id });

export const RoomListQuery = typed<RoomListInput>(listQuerySchema(roomResource));
export const VacantRoomQuery = PageQuery.extend(AreaFilter.shape).extend({ name: optText() });

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
