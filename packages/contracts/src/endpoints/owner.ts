import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, optTimeText, wireTime, optionalRef, blankRef } from '../query.ts';
import { listQuerySchema } from '../resource.ts';
import { ownerResource, ownerRoomHistoryResource } from '../resources/owner.ts';

// 业主 (/yewu/api/userinfo, /recordsOwner) and the move-in history (/inRoomRecord). SPEC §7 names the
// userinfo list/detail/resetPwd paths; moveIn, moveOut, roomHistory and the .xlsx export are ours (docs/API.md).
// The owner archive's list, detail, create, edit and delete are the declared resource's (./crud.ts: `owner`);
// the actions below travel in the same group.

export const ownerTags = ['业主'];
export const ownerRead = { routes: ['recordsOwner'] };
export const ownerWrite = { routes: ['recordsOwner'], op: 'owner.basic' };
const history = { routes: ['inRoomRecord', 'recordsOwner'] };
const exporting = { routes: ['recordsOwner'], op: 'owner.export' };

const id = num(z.number().int().positive());
const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');

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

export const ResetPwdBody = z.object({ id });
export const MoveInBody = z.object({ id, roomId: id, memo });
export const MoveOutBody = z.object({ id, memo });

/** userinfo/list and userinfo/export: name, phone, room (name or id), status, area subtree (OwnerListInput). */
export const OwnerListQuery = listQuerySchema(ownerResource).extend({ roomId: id.optional() });

/** userinfo/roomHistory (HistoryListInput) */
export const HistoryListQuery = listQuerySchema(ownerRoomHistoryResource).extend({
  ownerId: id.optional(),
  roomId: id.optional(),
  startTime: optTimeText,
  endTime: optTimeText,
});

/** userinfo/list and userinfo/detail/{id} */
export const OwnerInfoRow = z.object({
  id: z.number(),
  userId: z.number(),
  companyId: z.number(),
  name: z.string(),
  phone: z.string(),
  idNumber: z.string(),
  gender: z.number(),
  email: z.string(),
  ...optionalRef('room'),
  areaId: z.number().nullable(),
  /** the area's path from the root */
  areaName: z.string().nullable(),
  /** 1 入住, 0 未入住 */
  status: z.number(),
  movedInAt: wireTime.nullable(),
  memo: z.string(),
  createdAt: wireTime,
  /** whether the owner portal password is set */
  hasPassword: z.boolean(),
});

/** A move in or out (owner_room_history), names as they were then. */
export const OwnerMoveRow = z.object({
  id: z.number(),
  ...blankRef('owner'),
  ownerPhone: z.string(),
  ...blankRef('room'),
  areaId: z.number().nullable(),
  action: z.number(),
  at: wireTime,
  ...blankRef('operator'),
  memo: z.string(),
});

const U = '/yewu/api/userinfo';

/** the owner archive's five paths (crudEndpoints): the detail's id in the path, a delete's ids in the body */
export const ownerPaths = { list: `${U}/list`, detail: `${U}/detail/:id`, create: `${U}/detail`, update: `${U}/detail`, remove: `${U}/detail` };

export const ownerEndpoints = {
  resetPwd: endpoint({
    method: 'POST', path: `${U}/resetPwd`, summary: '重置业主密码', perm: ownerWrite, query: CompanyQuery, body: ResetPwdBody,
    response: z.object({ id: z.number(), password: z.string() }), tags: ownerTags,
  }),
  moveIn: endpoint({ method: 'POST', path: `${U}/moveIn`, summary: '业主入住', perm: ownerWrite, query: CompanyQuery, body: MoveInBody, response: z.null(), tags: ownerTags }),
  moveOut: endpoint({ method: 'POST', path: `${U}/moveOut`, summary: '业主迁出', perm: ownerWrite, query: CompanyQuery, body: MoveOutBody, response: z.null(), tags: ownerTags }),
  history: endpoint({
    method: 'GET', path: `${U}/roomHistory`, summary: '入住记录', perm: history, query: HistoryListQuery, response: OwnerMoveRow, paged: true, tags: ownerTags,
  }),
  /** the list's filters as a streamed .xlsx */
  export: endpoint({ method: 'GET', path: `${U}/export`, summary: '导出业主档案（.xlsx）', perm: exporting, query: OwnerListQuery, file: '业主档案', tags: ownerTags }),
};

export type OwnerRow = z.output<typeof OwnerInfoRow>;
export type OwnerMove = z.output<typeof OwnerMoveRow>;
