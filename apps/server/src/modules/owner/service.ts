import type { FastifyReply } from 'fastify';
import { GENDERS, OWNER_STATUS, keyedColumns } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { conflict, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { resetPasswordPair } from '../auth/index.ts';
import { lockRoom } from '../room/index.ts';
import { shownColumns, streamXlsx } from '../report/index.ts';
import * as repo from './repo.ts';
import type { HistoryListInput, OwnerInput, OwnerListInput } from '@meter/contracts';
import { formatBeijing } from '../../time.ts';

// Owners (业主, userinfo): profile, moving into and out of rooms with history (/inRoomRecord), the
// owner-portal password, and the export. A room holds at most one current owner.

const restricted = (ctx: Ctx) => ctx.scope.areaIds != null;

function filterOf(ctx: Ctx, q: Partial<OwnerListInput>): repo.OwnerFilter {
  const { index: _index, size: _size, ...search } = q;
  return { ...search, companyId: ctx.scope.companyId, areaRestricted: restricted(ctx) };
}

export async function listOwners(ctx: Ctx, q: OwnerListInput) {
  const f = filterOf(ctx, q);
  return ctx.tx(async (tx) => {
    const count = await repo.countOwners(tx, f);
    return new Page(count > offsetOf(q) ? await repo.pageOwners(tx, f, q.size, offsetOf(q)) : [], count);
  });
}

async function visibleOwner(tx: Tx, ctx: Ctx, id: number) {
  const o = await repo.getOwner(tx, { areaRestricted: restricted(ctx) }, id);
  if (!o) throw notFound('业主');
  return o;
}

export const getOwner = (ctx: Ctx, id: number) => ctx.tx((tx) => visibleOwner(tx, ctx, id));

const operator = (ctx: Ctx) => ({ operatorId: ctx.user.id, operatorName: ctx.user.realName || ctx.user.username });

/**
 * Moves the owner into the room (in the caller's transaction). Someone already living there refuses
 * it; an owner living elsewhere moves out of that room first (换房), both written to the history.
 */
async function moveIn(tx: Tx, ctx: Ctx, ownerId: number, roomId: number, memo: string) {
  const owner = await repo.lockOwner(tx, ownerId);
  if (!owner) throw notFound('业主');
  if (owner.status === 2) throw refuse('OWNER_CLOSED', `业主「${owner.name}」已销户，不能办理入住`);
  const room = await lockRoom(tx, roomId);
  // a platform admin sees every company: an owner moves only into a room of the owner's company
  if (!room || room.companyId !== owner.companyId) throw notFound('房间');
  if (owner.status === 1 && owner.roomId === roomId) throw refuse('ALREADY_IN_ROOM', `业主「${owner.name}」已入住房间「${room.path}」`);
  if (room.status !== 1) throw refuse('ROOM_DISABLED', `房间「${room.path}」已停用，不能办理入住`);
  const current = await repo.currentOwnerOf(tx, roomId);
  if (current) throw refuse('ROOM_OCCUPIED', `房间「${room.path}」已有在住业主「${current.name}」，一个房间只能有一位在住业主，请先办理迁出`);
  const base = { companyId: owner.companyId, ownerId, ownerName: owner.name, ownerPhone: owner.phone, ...operator(ctx) };
  if (owner.status === 1 && owner.roomId != null) {
    const old = await lockRoom(tx, owner.roomId);
    if (old) {
      await repo.insertHistory(tx, { ...base, roomId: old.id, areaId: old.areaId, roomName: old.path, action: 2, memo: memo || `换房至「${room.path}」` });
    }
  }
  await repo.setOwnerRoom(tx, ownerId, roomId);
  await repo.insertHistory(tx, { ...base, roomId, areaId: room.areaId, roomName: room.path, action: 1, memo });
  ctx.audit.target = `业主 ${owner.name} 入住 ${room.path}`;
}

/** The declared form's fields (defaults filled in by the declaration); with a room the owner moves in. */
export async function createOwner(ctx: Ctx, { roomId, ...profile }: OwnerInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `业主 ${profile.name}`;
  return ctx.tx(async (tx) => {
    const id = await repo.insertOwner(tx, { ...profile, companyId });
    if (roomId != null) await moveIn(tx, ctx, id, roomId, '新增业主时入住');
    return { id };
  });
}

/** registerCrud's beforeWrite of an edit (the declared form's fields are then written as they are). */
export async function beforeUpdate(tx: Tx, ctx: Ctx, v: Record<string, unknown>, id?: number) {
  if (id == null) return;
  const before = await visibleOwner(tx, ctx, id);
  // a new phone: whoever signed in as this owner with the old phone's code signs in again (other
  // owners' phone sessions stop seeing this room by themselves: they match the phone)
  if (before.phone !== v.phone) await repo.endOwnerSessions(tx, id, 'sms');
}

/** Owners still living in a room are not deleted; their history stays (with the names as written). */
export async function deleteOwners(ctx: Ctx, ids: number[]) {
  await ctx.tx(async (tx) => {
    const unique = [...new Set(ids)];
    const found = [];
    for (const id of unique) found.push(await visibleOwner(tx, ctx, id));
    ctx.audit.target = found.map((o) => `业主 ${o.name}`).join('、').slice(0, 400);
    const living = found.find((o) => o.status === 1 && o.roomId != null);
    if (living) throw conflict(`业主「${living.name}」仍在住房间「${living.roomName}」，请先办理迁出`);
    await repo.deleteOwners(tx, unique);
  });
  return null;
}

export async function moveOwnerIn(ctx: Ctx, ownerId: number, roomId: number, memo: string) {
  await ctx.tx(async (tx) => {
    await visibleOwner(tx, ctx, ownerId);
    await moveIn(tx, ctx, ownerId, roomId, memo);
  });
  return null;
}

export async function moveOwnerOut(ctx: Ctx, ownerId: number, memo: string) {
  await ctx.tx(async (tx) => {
    await visibleOwner(tx, ctx, ownerId);
    const owner = await repo.lockOwner(tx, ownerId);
    if (!owner) throw notFound('业主');
    if (owner.status !== 1 || owner.roomId == null) throw refuse('NOT_IN_ROOM', `业主「${owner.name}」当前未入住任何房间`);
    const room = await lockRoom(tx, owner.roomId);
    if (!room) throw notFound('房间');
    await repo.setOwnerRoom(tx, ownerId, null);
    await repo.endOwnerSessions(tx, ownerId);
    await repo.insertHistory(tx, {
      companyId: owner.companyId, ownerId, ownerName: owner.name, ownerPhone: owner.phone,
      roomId: room.id, areaId: room.areaId, roomName: room.path, action: 2, memo, ...operator(ctx),
    });
    ctx.audit.target = `业主 ${owner.name} 迁出 ${room.path}`;
  });
  return null;
}

/** A new owner-portal password, shown once: only its argon2 hash is kept. */
export async function resetOwnerPassword(ctx: Ctx, id: number) {
  const owner = await getOwner(ctx, id);
  const { password, hash } = await resetPasswordPair();
  ctx.audit.target = `业主 ${owner.name}`;
  await ctx.tx(async (tx) => {
    await repo.setOwnerPassword(tx, id, hash);
    // whoever signed in with the old password (or as this owner) signs in again
    await repo.endOwnerSessions(tx, id);
  });
  return { id, password };
}

/** The end time covers the whole unit it names: a date its day, HH:mm its minute, HH:mm:ss its second. */
function until(endTime?: string) {
  if (!endTime) return undefined;
  return { at: endTime, unit: endTime.length === 10 ? '1 day' : endTime.length === 16 ? '1 minute' : '1 second' };
}

export async function listHistory(ctx: Ctx, q: HistoryListInput) {
  const { index: _index, size: _size, startTime, endTime, ...search } = q;
  const f: repo.HistoryFilter = { ...search, companyId: ctx.scope.companyId, from: startTime, until: until(endTime) };
  const r = await ctx.tx((tx) => repo.listHistory(tx, f, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

// ---- export ---------------------------------------------------------------------------------

export const EXPORT_FILENAME = '业主档案.xlsx';
const EXPORT_BATCH = 1000;

const EXPORT_KEYS = ['id', 'name', 'phone', 'idNumber', 'gender', 'roomName', 'areaName', 'status', 'movedInAt', 'email', 'memo', 'createdAt'] as const;
export const EXPORT_COLUMNS = keyedColumns('owner', [...EXPORT_KEYS]);

/** YYYY-MM-DD HH:mm:ss in Asia/Shanghai */
export const formatTime = (d: Date | string | null) => (d ? formatBeijing(new Date(d)) : '');

/** An owner's cells in the columns' order. */
const exportRow = (o: repo.OwnerRow): unknown[] => {
  const cells: Record<(typeof EXPORT_KEYS)[number], unknown> = {
    id: o.id,
    name: o.name,
    phone: o.phone,
    idNumber: o.idNumber,
    gender: GENDERS[o.gender] ?? '',
    roomName: o.roomName ?? '',
    areaName: o.areaName ?? '',
    status: OWNER_STATUS[o.status] ?? '',
    movedInAt: formatTime(o.movedInAt),
    email: o.email,
    memo: o.memo,
    createdAt: formatTime(o.createdAt),
  };
  return EXPORT_KEYS.map((k) => cells[k]);
};

/** The owners matching the list's filters, newest first, read in keyset batches. */
async function* exportBatches(ctx: Ctx, q: Partial<OwnerListInput>) {
  const f = filterOf(ctx, q);
  let before: number | null = null;
  for (;;) {
    const rows: repo.OwnerRow[] = await ctx.tx((tx) => repo.ownersBefore(tx, f, before, EXPORT_BATCH));
    if (rows.length === 0) return;
    yield rows.map(exportRow);
    if (rows.length < EXPORT_BATCH) return;
    before = rows[rows.length - 1].id;
  }
}

export async function exportOwners(ctx: Ctx, q: Partial<OwnerListInput>, reply: FastifyReply) {
  return streamXlsx(reply, { filename: EXPORT_FILENAME, sheet: '业主档案', columns: EXPORT_COLUMNS, keep: await shownColumns(ctx, 'owner'), batches: exportBatches(ctx, q) });
}
