import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Tx } from '../../db/client.ts';
import { offsetOf } from '../../http/paging.ts';
import * as repo from './repo.ts';
import type { RoomInput, RoomListInput } from '@meter/contracts';

// Rooms (房间/出租屋/物业): list by area subtree, detail, create, edit (a move to another area
// carries the room's meters along), delete (refused while someone lives there or meters hang on it).

function filterOf(ctx: Ctx, q: Partial<RoomListInput>): repo.RoomFilter {
  return {
    companyId: ctx.scope.companyId,
    visibleAreas: ctx.scope.areaIds,
    searchArea: q.searchArea,
    name: q.name,
    ownerName: q.ownerName,
    ownerPhone: q.ownerPhone,
    chargingTypeId: q.chargingTypeId,
    status: q.status,
  };
}

/** Two standalone reads (the per-area totals, then the page they locate), one round trip each. */
async function page(ctx: Ctx, f: repo.RoomFilter, q: { index: number; size: number }) {
  return ctx.read(async (r) => {
    const totals = await repo.roomTotals(r, f);
    return new Page(await repo.pageRooms(r, f, totals, q.size, offsetOf(q)), totals.total);
  });
}

export const listRooms = (ctx: Ctx, q: RoomListInput) => page(ctx, filterOf(ctx, q), q);

/** getNoUserRoom: rooms nobody lives in (to move an owner in). */
export const listVacantRooms = (ctx: Ctx, q: { index: number; size: number; searchArea?: number; name?: string }) =>
  page(ctx, { ...filterOf(ctx, { searchArea: q.searchArea, name: q.name }), vacant: true }, q);

/** The charging types in use (status 1), for selects. */
export const usingChargingTypes = (ctx: Ctx) => ctx.tx(repo.usingChargingTypes);

export async function getRoom(ctx: Ctx, id: number) {
  const row = await ctx.tx((tx) => repo.getRoom(tx, id));
  if (!row) throw notFound('房间');
  return row;
}

/** The area and charging type must exist in the company and be visible; names are unique per area. */
async function check(tx: Tx, companyId: number, v: RoomInput, exceptId?: number) {
  const area = await repo.findArea(tx, v.areaId);
  if (!area || area.companyId !== companyId) throw badRequest('参数「areaId」所属区域不存在或无权使用');
  if (v.chargingTypeId != null) {
    const ct = await repo.findChargingType(tx, v.chargingTypeId);
    if (!ct) throw badRequest('参数「chargingTypeId」收费类型不存在');
  }
  if (await repo.roomNameTaken(tx, v.areaId, v.name, exceptId)) throw conflict(`区域「${area.name}」下已有房间「${v.name}」`);
}

const values = (v: RoomInput): repo.RoomValues => ({
  name: v.name,
  areaId: v.areaId,
  decoration: v.decoration,
  orientation: v.orientation,
  chargingTypeId: v.chargingTypeId ?? null,
  sizeM2: v.sizeM2 ?? '',
  status: v.status,
  memo: v.memo,
});

export async function createRoom(ctx: Ctx, v: RoomInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `房间 ${v.name}`;
  return ctx.tx(async (tx) => {
    await check(tx, companyId, v);
    return { Id: await repo.insertRoom(tx, { ...values(v), companyId }) };
  });
}

export async function updateRoom(ctx: Ctx, id: number, v: RoomInput) {
  ctx.audit.target = `房间 ${v.name}`;
  await ctx.tx(async (tx) => {
    const cur = await repo.getRoom(tx, id);
    if (!cur) throw notFound('房间');
    await check(tx, cur.companyId, v, id);
    await repo.updateRoom(tx, id, values(v));
  });
  return null;
}

export async function deleteRoom(ctx: Ctx, id: number) {
  await ctx.tx(async (tx) => {
    const cur = await repo.getRoom(tx, id);
    if (!cur) throw notFound('房间');
    ctx.audit.target = `房间 ${cur.areaName ? `${cur.areaName}/` : ''}${cur.name}`;
    const use = await repo.roomUsage(tx, id);
    if (use.ownerName) throw conflict(`房间「${cur.name}」有在住业主「${use.ownerName}」，请先办理迁出`);
    if (use.meters > 0) throw conflict(`房间「${cur.name}」下还有 ${use.meters} 块表具，请先删除或移走表具`);
    await repo.deleteRoom(tx, id);
  });
  return null;
}
