import { APPEAL_ACTIONS, APPEAL_KIND, APPEAL_STATUS } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { now } from '../../clock.ts';
import { offsetOf } from '../../http/paging.ts';
import * as repo from './repo.ts';
import * as notices from './notice-repo.ts';
import { present } from './service.ts';

// 业主端 (issue 15 item 8): what an owner signed in to the owner app does with appeals and notices,
// in the owner's transaction (the company's scope) and limited to the rooms the owner app resolved
// for them — the same rows and flow the back-office's /addedAppeal and /addedNotice work on.

export interface OwnerOfRooms {
  companyId: number;
  /** the owner rows signed in and their rooms */
  rooms: { roomId: number; ownerId: number; ownerName: string; ownerPhone: string }[];
}

const roomIds = (o: OwnerOfRooms) => o.rooms.map((r) => r.roomId);

export const ownerAppealTypes = (tx: Tx) => repo.activeAppealTypes(tx);

export async function ownerAppeals(tx: Tx, o: OwnerOfRooms, q: { index: number; size: number }) {
  const at = now();
  const r = await repo.list(tx, { kind: APPEAL_KIND.owner, roomIds: roomIds(o), areaIds: null, now: at }, q.size, offsetOf(q));
  return { rows: r.rows.map((a) => present(a, at)), count: r.count };
}

export async function ownerAppeal(tx: Tx, o: OwnerOfRooms, id: number) {
  const a = await repo.get(tx, id);
  if (!a || a.kind !== APPEAL_KIND.owner || a.roomId === null || !roomIds(o).includes(a.roomId)) throw notFound('诉求');
  const events = (await repo.events(tx, id)).map((e) => ({ ...e, actionText: APPEAL_ACTIONS[e.action] ?? e.action, createdAt: e.createdAt.toISOString() }));
  return { ...present(a, now()), events };
}

/** 提交诉求: registered as staff register one (待受理, deadline by its type), by the owner, with their photos. */
export async function createOwnAppeal(tx: Tx, o: OwnerOfRooms, b: { roomId: number; typeId: number; title: string; content: string; contactPhone: string; photos: string[] }) {
  const mine = o.rooms.find((r) => r.roomId === b.roomId);
  const room = mine && (await repo.room(tx, b.roomId));
  if (!mine || !room || room.companyId !== o.companyId) throw notFound('房间');
  const t = await repo.type(tx, 'appeal_types', b.typeId, o.companyId);
  if (!t || t.status !== 1) throw refuse('APPEAL_TYPE_DISABLED', '该诉求类型不可用，请重新选择');
  const by = `业主 ${mine.ownerName}`.slice(0, 64);
  const id = await repo.insert(tx, {
    companyId: o.companyId, kind: APPEAL_KIND.owner, typeId: t.id, typeName: t.name, title: b.title, content: b.content, areaId: room.areaId,
    roomId: room.id, ownerId: mine.ownerId, contactName: mine.ownerName, contactPhone: b.contactPhone || mine.ownerPhone,
    deadlineAt: new Date(now().getTime() + t.limitHours * 3600_000), createdById: null, createdByName: by, photos: b.photos,
  });
  // by_access 2: the owner (0 platform, 1 company)
  await repo.addEvent(tx, { companyId: o.companyId, appealId: id, action: 'create', fromStatus: null, toStatus: APPEAL_STATUS.pending, content: b.content, byId: null, byName: by, byAccess: 2 });
  return { id };
}

/** The notices addressed to any of the owner's rooms; read = read by the owner row of one of them. */
export async function ownerNotices(tx: Tx, o: OwnerOfRooms, q: { index: number; size: number }) {
  const seen = new Map<number, { id: number; title: string; typeName: string; pinned: boolean; publishedAt: Date; read: boolean }>();
  for (const r of o.rooms) {
    const who = await notices.ownerRoom(tx, r.ownerId);
    if (!who) continue;
    const page = await notices.ownerList(tx, who, 1000, 0);
    for (const n of page.rows) {
      const had = seen.get(n.id);
      seen.set(n.id, had ? { ...had, read: had.read || n.read } : n);
    }
  }
  const all = [...seen.values()].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.publishedAt.getTime() - a.publishedAt.getTime() || b.id - a.id);
  const rows = all.slice(offsetOf(q), offsetOf(q) + q.size).map((n) => ({ ...n, publishedAt: n.publishedAt.toISOString() }));
  return { rows, count: all.length };
}

/** Opens a notice addressed to one of the owner's rooms and marks it read for that room's owner row. */
export async function readOwnerNotice(tx: Tx, o: OwnerOfRooms, id: number) {
  for (const r of o.rooms) {
    const who = await notices.ownerRoom(tx, r.ownerId);
    const n = who && (await notices.ownerNotice(tx, who, id));
    if (!who || !n) continue;
    await notices.markRead(tx, n.id, who.ownerId, who.companyId);
    return { ...n, publishedAt: n.publishedAt.toISOString() };
  }
  throw notFound('公告');
}
