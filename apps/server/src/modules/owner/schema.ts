import { z } from 'zod';
import { formSchema, listQuerySchema, ownerResource, ownerRoomHistoryResource, typed, num } from '@meter/contracts';

// Input shapes of the owner (userinfo) endpoints, derived from the declared resources.

const id = num(z.number().int().positive());
const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');

const ownerForm = formSchema(ownerResource);
export const OwnerCreateBody = typed<OwnerInput>(ownerForm);
export const OwnerUpdateBody = typed<OwnerInput & { id: number }>(ownerForm.omit({ roomId: true }).extend({ id }));
export const OwnerIdParams = z.object({ id });
export const OwnerIdsBody = z.object({ ids: z.array(id).min(1, '请选择要删除的业主').max(1000) });
export const ResetPwdBody = z.object({ id });
export const MoveInBody = z.object({ id, roomId: id, memo });
export const MoveOutBody = z.object({ id, memo });

/** userinfo/list and userinfo/export: name, phone, room (name or id), status, area subtree. */
export const OwnerListQuery = typed<OwnerListInput>(listQuerySchema(ownerResource).extend({ roomId: id.optional() }));

const when = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss')
  .optional()
  .or(z.literal('').transform(() => undefined));
export const HistoryListQuery = typed<HistoryListInput>(listQuerySchema(ownerRoomHistoryResource).extend({
  ownerId: id.optional(),
  roomId: id.optional(),
  startTime: when,
  endTime: when,
}));

export interface OwnerInput {
  name: string;
  phone: string;
  idNumber: string;
  gender: number;
  email: string;
  memo: string;
  roomId?: number | null;
}

export interface OwnerListInput {
  index: number;
  size: number;
  searchArea?: number;
  name?: string;
  phone?: string;
  roomName?: string;
  roomId?: number;
  status?: number;
}

export interface HistoryListInput {
  index: number;
  size: number;
  searchArea?: number;
  ownerName?: string;
  ownerPhone?: string;
  roomName?: string;
  action?: number;
  ownerId?: number;
  roomId?: number;
  startTime?: string;
  endTime?: string;
}
