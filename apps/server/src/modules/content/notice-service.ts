import type { z } from 'zod';
import {
  NOTICE_STATUS, NOTICE_STATUSES, SYSTEM_NOTICE_CATEGORIES,
  type NoticeBody, type NoticeListQuery, type SystemNoticeBody, type SystemNoticeListQuery,
} from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { queueNoticeSms } from '../notify/index.ts';
import { hasContent, sanitizeNotice } from './notice-html.ts';
import * as repo from './notice-repo.ts';

// 系统公告 and 物业公告: 草稿 → 已发布 → 已撤回 (a withdrawn one may be edited and published again; only a
// draft is deleted). The body is sanitized here, whoever sends it. Publishing a company notice that
// asks for SMS queues one message per owner addressed in the same transaction (key notice:<id>:<owner>,
// so a second publish after a withdrawal texts nobody twice).

const who = (ctx: Ctx) => ({ id: ctx.user.id, name: ctx.user.realName || ctx.user.username });
const iso = (v: Date | null) => (v ? v.toISOString() : null);

function body(html: string) {
  const content = sanitizeNotice(html);
  if (!hasContent(content)) throw badRequest('请填写公告内容');
  return content;
}

const presentCommon = <T extends { status: number; publishedAt: Date | null; withdrawnAt: Date | null; createdAt: Date; updatedAt: Date }>(n: T) => ({
  ...n,
  statusText: NOTICE_STATUSES[n.status] ?? String(n.status),
  publishedAt: iso(n.publishedAt),
  withdrawnAt: iso(n.withdrawnAt),
  createdAt: n.createdAt.toISOString(),
  updatedAt: n.updatedAt.toISOString(),
});

function refuseState(n: { status: number }, action: '发布' | '撤回' | '修改' | '删除'): never {
  throw refuse('NOTICE_STATE', `该公告${NOTICE_STATUSES[n.status] ?? ''}，不能${action}`);
}

/** Withdraws a published notice, or deletes a draft; refused in any other state. */
async function withdrawOrRemove(tx: Tx, table: 'notices' | 'system_notices', n: { id: number; status: number }, action: 'withdraw' | 'remove') {
  if (action === 'withdraw') {
    if (n.status !== NOTICE_STATUS.published) refuseState(n, '撤回');
    await repo.setStatus(tx, table, n.id, NOTICE_STATUS.withdrawn);
  } else {
    if (n.status !== NOTICE_STATUS.draft) refuseState(n, '删除');
    await repo.remove(tx, table, n.id);
  }
}

/** The platform's own writes and reads: every company's read rows. */
function platformTx<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) {
  return ctx.db.tx({ ...ctx.scope, companyId: null, allCompanies: true, areaIds: null }, fn);
}

// ---------------------------------------------------------------------------------------------
// 系统公告 (platform)
// ---------------------------------------------------------------------------------------------

const presentSystem = (n: repo.SystemNoticeRecord, totalCompanies: number) => ({
  ...presentCommon(n), categoryText: SYSTEM_NOTICE_CATEGORIES[n.category] ?? '', totalCompanies,
});

export function listSystem(ctx: Ctx, q: z.output<typeof SystemNoticeListQuery>) {
  return platformTx(ctx, async (tx) => {
    const r = await repo.listSystem(tx, q, q.size, offsetOf(q));
    const total = await repo.companyCount(tx);
    return new Page(r.rows.map((n) => presentSystem(n, total)), r.count);
  });
}

async function loadSystem(tx: Tx, id: number, lock = false) {
  const n = await repo.getSystem(tx, id, lock);
  if (!n) throw notFound('系统公告');
  return n;
}

export function systemDetail(ctx: Ctx, id: number) {
  return platformTx(ctx, async (tx) => presentSystem(await loadSystem(tx, id), await repo.companyCount(tx)));
}

const systemValues = (b: z.output<typeof SystemNoticeBody>): repo.SystemValues => ({ category: b.category, title: b.title, content: body(b.content), pinned: b.pinned });

export function createSystem(ctx: Ctx, b: z.output<typeof SystemNoticeBody>) {
  const v = systemValues(b);
  return platformTx(ctx, async (tx) => {
    ctx.audit.target = `系统公告「${v.title}」`;
    return { id: await repo.insertSystem(tx, v, who(ctx)) };
  });
}

export function updateSystem(ctx: Ctx, b: z.output<typeof SystemNoticeBody> & { id: number }) {
  const v = systemValues(b);
  return platformTx(ctx, async (tx) => {
    const n = await loadSystem(tx, b.id, true);
    ctx.audit.target = `系统公告「${v.title}」`;
    if (n.status === NOTICE_STATUS.published) refuseState(n, '修改');
    await repo.updateSystem(tx, n.id, v);
    return null;
  });
}

export function setSystemStatus(ctx: Ctx, id: number, action: 'publish' | 'withdraw' | 'remove') {
  return platformTx(ctx, async (tx) => {
    const n = await loadSystem(tx, id, true);
    ctx.audit.target = `系统公告「${n.title}」`;
    if (action === 'publish') {
      if (n.status === NOTICE_STATUS.published) refuseState(n, '发布');
      await repo.setStatus(tx, 'system_notices', n.id, NOTICE_STATUS.published);
    } else await withdrawOrRemove(tx, 'system_notices', n, action);
    return null;
  });
}

/** A company user's system notices (published) and how many they have not opened. */
export function inbox(ctx: Ctx) {
  return ctx.tx(async (tx) => {
    const r = await repo.inbox(tx, ctx.user.id, 50);
    return { unread: r.unread, rows: r.rows.map((n) => ({ ...n, categoryText: SYSTEM_NOTICE_CATEGORIES[n.category] ?? '', publishedAt: n.publishedAt.toISOString() })) };
  });
}

/** Opens a published system notice; a company user's first opening counts their company as having read it. */
export function readSystem(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const n = await repo.getSystem(tx, id);
    if (!n || n.status !== NOTICE_STATUS.published) throw notFound('系统公告');
    if (ctx.user.companyId != null) await repo.markSystemRead(tx, n.id, ctx.user.id, ctx.user.companyId);
    return { id: n.id, title: n.title, content: n.content, categoryText: SYSTEM_NOTICE_CATEGORIES[n.category] ?? '', publishedAt: iso(n.publishedAt) };
  });
}

// ---------------------------------------------------------------------------------------------
// 物业公告 (company)
// ---------------------------------------------------------------------------------------------

async function present(tx: Tx, rows: repo.NoticeRecord[]) {
  const audience = await repo.audienceCounts(tx, rows);
  return rows.map((n) => ({ ...presentCommon(n), audience: audience.get(n.id) ?? 0 }));
}

export function list(ctx: Ctx, q: z.output<typeof NoticeListQuery>) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const r = await repo.list(tx, companyId, q, q.size, offsetOf(q));
    return new Page(await present(tx, r.rows), r.count);
  });
}

async function load(tx: Tx, ctx: Ctx, id: number, lock = false) {
  const n = await repo.get(tx, id, lock);
  if (!n || n.companyId !== companyOf(ctx)) throw notFound('物业公告');
  return n;
}

export function detail(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => (await present(tx, [await load(tx, ctx, id)]))[0]!);
}

async function values(tx: Tx, ctx: Ctx, companyId: number, b: z.output<typeof NoticeBody>): Promise<repo.NoticeValues> {
  const content = body(b.content);
  let typeName = '';
  if (b.typeId != null) {
    const t = await repo.noticeType(tx, b.typeId, companyId);
    if (!t) throw refuse('NOTICE_TYPE_MISSING', '公告类型不存在，请先在“类型设置”中添加');
    if (t.status !== 1) throw refuse('NOTICE_TYPE_DISABLED', `公告类型「${t.name}」已停用，请选择其他类型`);
    typeName = t.name;
  }
  const wanted = [...new Set(b.areaIds)];
  // row-level security shows a bound user only their own areas: someone else's is "not found"
  const areaIds = await repo.areasOf(tx, companyId, wanted);
  if (areaIds.length !== wanted.length) throw notFound('区域');
  if (ctx.scope.areaIds && !areaIds.length) throw refuse('NOTICE_AREA_REQUIRED', '您只管理部分区域，请选择公告发送的区域');
  return { typeId: b.typeId ?? null, typeName, title: b.title, content, areaIds, pinned: b.pinned, sendSms: b.sendSms };
}

export function create(ctx: Ctx, b: z.output<typeof NoticeBody>) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const v = await values(tx, ctx, companyId, b);
    ctx.audit.target = `物业公告「${v.title}」`;
    return { id: await repo.insert(tx, companyId, v, who(ctx)) };
  });
}

export function update(ctx: Ctx, b: z.output<typeof NoticeBody> & { id: number }) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const n = await load(tx, ctx, b.id, true);
    ctx.audit.target = `物业公告「${n.title}」`;
    if (n.status === NOTICE_STATUS.published) refuseState(n, '修改');
    await repo.update(tx, n.id, await values(tx, ctx, companyId, b));
    return null;
  });
}

/** Publishes (and, when the notice asks for it, texts the owners addressed): answers how many SMS were queued. */
export function publish(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const n = await load(tx, ctx, id, true);
    ctx.audit.target = `物业公告「${n.title}」`;
    if (n.status === NOTICE_STATUS.published) refuseState(n, '发布');
    const smsCount = n.sendSms ? await queueNoticeSms(tx, n.companyId, { id: n.id, title: n.title }, await repo.audience(tx, n.areaIds)) : 0;
    await repo.setStatus(tx, 'notices', n.id, NOTICE_STATUS.published, smsCount);
    return { smsCount };
  });
}

export function setStatus(ctx: Ctx, id: number, action: 'withdraw' | 'remove') {
  return ctx.tx(async (tx) => {
    const n = await load(tx, ctx, id, true);
    ctx.audit.target = `物业公告「${n.title}」`;
    await withdrawOrRemove(tx, 'notices', n, action);
    return null;
  });
}

// 业主端 (the notices an owner sees, read marking): content/owner-side.ts, for the owner app's session
