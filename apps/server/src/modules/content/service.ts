import { APPEAL_ACTIONS, APPEAL_FROM, APPEAL_KIND, APPEAL_KINDS, APPEAL_STATUS, APPEAL_STATUSES, DEVICE_ORDER_EXCEPTIONS, type Appeal } from '@meter/contracts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/client.ts';
import * as repo from './repo.ts';

// The appeal flow: 待受理 → 处理中 → 已完成 | 已驳回. Every change is checked here (no skipped state,
// nothing after the end), written with a history row, and audited by the route.

type Kind = (typeof APPEAL_KIND)[keyof typeof APPEAL_KIND];
type Action = keyof typeof APPEAL_FROM;

const who = (ctx: Ctx) => ctx.user.realName || ctx.user.username;
const isOverdue = (a: { status: number; deadlineAt: Date }, at: Date) =>
  (a.status === APPEAL_STATUS.pending || a.status === APPEAL_STATUS.processing) && a.deadlineAt.getTime() < at.getTime();

export const present = (a: repo.AppealRecord, at: Date): Appeal => ({
  ...a,
  statusText: APPEAL_STATUSES[a.status] ?? String(a.status),
  exceptionText: a.exceptionKind ? (DEVICE_ORDER_EXCEPTIONS[a.exceptionKind]?.label ?? a.exceptionKind) : '',
  overdue: isOverdue(a, at),
  deadlineAt: a.deadlineAt.toISOString(),
  finishedAt: a.finishedAt ? a.finishedAt.toISOString() : null,
  createdAt: a.createdAt.toISOString(),
});

export interface ListQuery {
  index: number;
  size: number;
  status?: number;
  typeId?: number;
  q?: string;
  overdue?: boolean;
  startTime?: Date;
  endTime?: Date;
  searchArea?: number;
}

export async function list(ctx: Ctx, kind: Kind, q: ListQuery) {
  const at = now();
  const areaIds = kind !== APPEAL_KIND.system ? ctx.scope.areaIds : null;
  return ctx.tx(async (tx) => {
    const res = await repo.list(tx, { ...q, keyword: q.q, kind, areaIds, now: at, searchArea: kind !== APPEAL_KIND.system ? q.searchArea : undefined }, q.size, (q.index - 1) * q.size);
    return new Page(res.rows.map((r) => present(r, at)), res.count);
  });
}

async function load(tx: Tx, ctx: Ctx, kind: Kind, id: number, lock = false) {
  const a = await repo.get(tx, id, lock);
  if (!a || a.kind !== kind) throw notFound(APPEAL_KINDS[kind]!);
  if (kind !== APPEAL_KIND.system && ctx.scope.areaIds && (a.areaId === null || !ctx.scope.areaIds.includes(a.areaId))) throw notFound(APPEAL_KINDS[kind]!);
  return a;
}

export async function detail(ctx: Ctx, kind: Kind, id: number) {
  const at = now();
  return ctx.tx(async (tx) => {
    const a = await load(tx, ctx, kind, id);
    const events = (await repo.events(tx, id)).map((e) => ({ ...e, actionText: APPEAL_ACTIONS[e.action] ?? e.action, createdAt: e.createdAt.toISOString() }));
    return { ...present(a, at), events };
  });
}

async function activeType(tx: Tx, typeId: number, companyId: number) {
  const t = await repo.type(tx, 'appeal_types', typeId, companyId);
  if (!t) throw refuse('APPEAL_TYPE_MISSING', '诉求类型不存在，请先在“类型设置”中添加');
  if (t.status !== 1) throw refuse('APPEAL_TYPE_DISABLED', `诉求类型「${t.name}」已停用，请选择其他类型`);
  return t;
}

const deadline = (hours: number) => new Date(now().getTime() + hours * 3600_000);

export async function createOwnerAppeal(ctx: Ctx, b: {
  roomId: number; ownerId?: number; typeId: number; title: string; content: string; contactName: string; contactPhone: string;
}) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const room = await repo.room(tx, b.roomId);
    if (!room || room.companyId !== companyId) throw notFound('房间');
    if (ctx.scope.areaIds && !ctx.scope.areaIds.includes(room.areaId)) throw notFound('房间');
    const t = await activeType(tx, b.typeId, companyId);
    const ownerId = b.ownerId ?? room.ownerId;
    const owner = ownerId ? await repo.owner(tx, ownerId) : undefined;
    if (b.ownerId && (!owner || owner.roomId !== room.id)) throw refuse('APPEAL_OWNER_MISMATCH', '所选业主不住在该房间，请重新选择');
    ctx.audit.target = `业主诉求「${b.title}」（${room.name}）`;
    const id = await repo.insert(tx, {
      companyId, kind: APPEAL_KIND.owner, typeId: t.id, typeName: t.name, title: b.title, content: b.content, areaId: room.areaId,
      roomId: room.id, ownerId: owner?.id ?? null, contactName: b.contactName || owner?.name || '', contactPhone: b.contactPhone || owner?.phone || '',
      deadlineAt: deadline(t.limitHours), createdById: ctx.user.id, createdByName: who(ctx),
    });
    await repo.addEvent(tx, { companyId, appealId: id, action: 'create', fromStatus: null, toStatus: APPEAL_STATUS.pending, content: b.content,
      byId: ctx.user.id, byName: who(ctx), byAccess: ctx.user.access });
    return { id };
  });
}

export async function createSystemAppeal(ctx: Ctx, b: { typeId: number; title: string; content: string; contactName: string; contactPhone: string }) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const t = await activeType(tx, b.typeId, companyId);
    ctx.audit.target = `平台诉求「${b.title}」`;
    const id = await repo.insert(tx, {
      companyId, kind: APPEAL_KIND.system, typeId: t.id, typeName: t.name, title: b.title, content: b.content, areaId: null, roomId: null,
      ownerId: null, contactName: b.contactName || who(ctx), contactPhone: b.contactPhone, deadlineAt: deadline(t.limitHours),
      createdById: ctx.user.id, createdByName: who(ctx),
    });
    await repo.addEvent(tx, { companyId, appealId: id, action: 'create', fromStatus: null, toStatus: APPEAL_STATUS.pending, content: b.content,
      byId: ctx.user.id, byName: who(ctx), byAccess: ctx.user.access });
    return { id };
  });
}

const TO: Partial<Record<Action, number>> = { accept: APPEAL_STATUS.processing, complete: APPEAL_STATUS.done, reject: APPEAL_STATUS.rejected };

function refuseTransition(action: Action, status: number): never {
  const now = APPEAL_STATUSES[status] ?? String(status);
  if (status === APPEAL_STATUS.done || status === APPEAL_STATUS.rejected) {
    throw refuse('APPEAL_CLOSED', `该诉求${now}，不能再${APPEAL_ACTIONS[action]}`);
  }
  if (action === 'complete') throw refuse('APPEAL_NOT_ACCEPTED', `该诉求${now}，须先受理后才能办结`);
  throw refuse('APPEAL_STATE', `该诉求当前为${now}，不能${APPEAL_ACTIONS[action]}`);
}

/** One step of the flow: checks the state it starts from, writes the change and its history row. */
export async function act(ctx: Ctx, kind: Kind, action: Action, b: { id: number; content?: string; assigneeId?: number }) {
  return ctx.tx(async (tx) => {
    const a = await load(tx, ctx, kind, b.id, true);
    ctx.audit.target = `${APPEAL_KINDS[kind]}「${a.title}」`;
    if (!APPEAL_FROM[action].includes(a.status)) refuseTransition(action, a.status);
    const to = TO[action];
    const patch: Parameters<typeof repo.update>[2] = {};
    if (to !== undefined) patch.status = to;
    if (to === APPEAL_STATUS.done || to === APPEAL_STATUS.rejected) patch.finishedAt = now();
    let content = b.content ?? '';
    let assigneeId = b.assigneeId;
    // whoever accepts becomes the handler unless someone else is named (a platform admin always himself)
    if (action === 'accept' && (assigneeId === undefined || kind === APPEAL_KIND.system)) assigneeId = ctx.user.id;
    if (assigneeId !== undefined) {
      let name = who(ctx);
      if (assigneeId !== ctx.user.id) {
        const person = (await repo.staff(tx, a.companyId)).find((s) => s.id === assigneeId);
        if (!person) throw refuse('APPEAL_ASSIGNEE', '处理人不存在或已停用，请重新选择');
        name = person.name;
      }
      patch.assigneeId = assigneeId;
      patch.assigneeName = name;
      if (action === 'assign') content = `指派给 ${name}`;
      else if (!content) content = `处理人：${name}`;
    }
    await repo.update(tx, a.id, patch);
    await repo.addEvent(tx, { companyId: a.companyId, appealId: a.id, action, fromStatus: a.status, toStatus: to ?? a.status, content,
      byId: ctx.user.id, byName: who(ctx), byAccess: ctx.user.access });
    return null;
  });
}

export async function assignees(ctx: Ctx) {
  const companyId = companyOf(ctx);
  return ctx.tx((tx) => repo.staff(tx, companyId));
}
