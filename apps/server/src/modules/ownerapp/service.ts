import type { FastifyReply, FastifyRequest } from 'fastify';
import { fenToYuan } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import type { OwnerCtx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { now } from '../../clock.ts';
import { addDays, startOfBeijingDay, startOfBeijingMonth } from '../../time.ts';
import { ownerAccounts, ownerJournal } from '../billing/index.ts';
import { createOwnAppeal, ownerAppeal, ownerAppeals, ownerAppealTypes, ownerNotices, readOwnerNotice, type OwnerOfRooms } from '../content/index.ts';
import { assertRoomPhotos, ownerToken, serveFile, type FileSetup } from '../files/index.ts';
import { createPayment, orderOf, payAsSimulated, type Payments } from '../payment/index.ts';
import * as repo from './repo.ts';

// 业主端: what a signed-in owner sees and does — only ever for the rooms of their session (repo.roomsOf,
// resolved again on every request, in the company's scope). Money goes through the payment module
// (an order without an operator: credited by the provider's notification, reopening the supply as any
// top-up does); appeals and notices through the content module; photos through the files module.

type Mine = Awaited<ReturnType<typeof repo.roomsOf>>;

const yuan = (fen: number) => fenToYuan(fen);

async function mine(ctx: OwnerCtx, tx: Tx): Promise<OwnerOfRooms & { list: Mine }> {
  const list = await repo.roomsOf(tx, ctx.owner);
  return { companyId: ctx.owner.companyId, rooms: list, list };
}

async function myRoom(ctx: OwnerCtx, tx: Tx, roomId: number) {
  const r = (await repo.roomsOf(tx, ctx.owner)).find((x) => x.roomId === roomId);
  if (!r) throw notFound('房间');
  return r;
}

export function me(ctx: OwnerCtx) {
  return ctx.tx(async (tx) => {
    const rooms = await repo.roomsOf(tx, ctx.owner);
    const meters = await repo.roomMeters(tx, rooms.map((r) => r.roomId));
    const out = [];
    for (const r of rooms) {
      out.push({
        roomId: r.roomId, roomName: r.roomName, path: r.path, ownerId: r.ownerId, ownerName: r.ownerName,
        accounts: (await ownerAccounts(tx, r.ownerId)).filter((a) => a.wallet === 'electric' || a.wallet === 'water'),
        meters: meters.filter((m) => m.roomId === r.roomId).map(({ roomId: _r, ...m }) => m),
      });
    }
    const first = rooms.find((r) => r.ownerId === ctx.owner.ownerId) ?? rooms[0];
    return {
      owner: { id: ctx.owner.ownerId, name: ctx.owner.name, phone: first?.ownerPhone ?? ctx.owner.phone },
      companyName: await repo.companyName(tx, ctx.owner.companyId),
      rooms: out,
    };
  });
}

/** By day: the last 31 China days; by month: the last 12 months. */
export function usage(ctx: OwnerCtx, q: { roomId: number; by: 'day' | 'month' }) {
  return ctx.tx(async (tx) => {
    const r = await myRoom(ctx, tx, q.roomId);
    const at = now();
    const from = q.by === 'day' ? addDays(startOfBeijingDay(at), -30) : startOfBeijingMonth(at, -11);
    return (await repo.usage(tx, r, q.by, from)).map((x) => ({
      period: x.period, electric: x.electric, water: x.water, electricAmount: yuan(x.electricFen), waterAmount: yuan(x.waterFen),
    }));
  });
}

/** 月度账单: each month's settled usage and amounts, with the month's fixed fees. */
export function bills(ctx: OwnerCtx, q: { roomId: number }) {
  return ctx.tx(async (tx) => {
    const r = await myRoom(ctx, tx, q.roomId);
    const months = await repo.usage(tx, r, 'month', startOfBeijingMonth(now(), -11));
    const fees = await repo.monthlyFees(tx, r.ownerId);
    const keys = [...new Set([...months.map((m) => m.period), ...fees.keys()])].sort().reverse();
    return keys.map((month) => {
      const m = months.find((x) => x.period === month);
      const fee = fees.get(month) ?? 0;
      return {
        month, electric: m?.electric ?? '0.00', water: m?.water ?? '0.00', electricAmount: yuan(m?.electricFen ?? 0), waterAmount: yuan(m?.waterFen ?? 0),
        total: yuan((m?.electricFen ?? 0) + (m?.waterFen ?? 0) + fee),
      };
    });
  });
}

export function journal(ctx: OwnerCtx, q: { roomId: number; index: number; size: number }) {
  return ctx.tx(async (tx) => {
    const r = await myRoom(ctx, tx, q.roomId);
    const j = await ownerJournal(tx, r.ownerId, q.size, (q.index - 1) * q.size);
    return new Page(j.rows.map((row) => {
      const x: Record<string, unknown> & typeof row = row;
      return {
      id: Number(x.id), createdAt: String(x.createdAt), wallet: String(x.wallet), walletText: x.walletText, kind: String(x.kind), kindText: x.kindText,
      payMethodText: x.payMethodText, amount: x.amount, balanceAfter: x.balanceAfter, memo: String(x.memo ?? ''),
      };
    }), j.count);
  });
}

// ---- top-up ---------------------------------------------------------------------------------------

export async function pay(ctx: OwnerCtx, setup: Payments, b: { roomId: number; wallet: 'electric' | 'water'; amount: number; channel: 'wechat' | 'alipay' }) {
  await ctx.tx((tx) => myRoom(ctx, tx, b.roomId));
  return createPayment(ctx, setup, b.channel, { roomId: b.roomId, wallet: b.wallet, amount: b.amount }, null);
}

async function myOrder(ctx: OwnerCtx, outTradeNo: string) {
  return ctx.tx(async (tx) => {
    const o = await orderOf(tx, outTradeNo);
    const rooms = await repo.roomsOf(tx, ctx.owner);
    if (!o || o.roomId === null || !rooms.some((r) => r.roomId === o.roomId)) throw notFound('支付订单');
    return o;
  });
}

const orderView = (o: NonNullable<Awaited<ReturnType<typeof orderOf>>>) => ({
  outTradeNo: o.outTradeNo, channelText: o.view.channelText, amount: o.view.amount, status: o.status, statusText: o.view.statusText, paidAt: o.view.paidAt,
});

export async function order(ctx: OwnerCtx, outTradeNo: string) {
  return orderView(await myOrder(ctx, outTradeNo));
}

/** The simulated provider only (no WeChat Pay / Alipay configured): the owner confirms the payment here. */
export async function simulatePaid(ctx: OwnerCtx, setup: Payments, outTradeNo: string) {
  const o = await myOrder(ctx, outTradeNo);
  if (setup.gateways[o.channel] || setup.live) throw refuse('NOT_SIMULATED', '请在打开的支付页面完成付款');
  if (o.status === 'closed') throw refuse('ORDER_CLOSED', '订单已取消或已超时关闭，请重新下单');
  ctx.audit.target = `业主充值订单 ${outTradeNo}`;
  if (o.status !== 'paid') await payAsSimulated(ctx.db, o.channel, outTradeNo, o.amountFen);
  return order(ctx, outTradeNo);
}

// ---- notices and appeals ----------------------------------------------------------------------------

export const notices = (ctx: OwnerCtx, q: { index: number; size: number }) =>
  ctx.tx(async (tx) => {
    const r = await ownerNotices(tx, await mine(ctx, tx), q);
    return new Page(r.rows, r.count);
  });

export const readNotice = (ctx: OwnerCtx, id: number) => ctx.tx(async (tx) => readOwnerNotice(tx, await mine(ctx, tx), id));

export const appealTypes = (ctx: OwnerCtx) => ctx.tx((tx) => ownerAppealTypes(tx));

export const appeals = (ctx: OwnerCtx, q: { index: number; size: number }) =>
  ctx.tx(async (tx) => {
    const r = await ownerAppeals(tx, await mine(ctx, tx), q);
    return new Page(r.rows, r.count);
  });

export const appeal = (ctx: OwnerCtx, id: number) => ctx.tx(async (tx) => ownerAppeal(tx, await mine(ctx, tx), id));

export function createAppeal(ctx: OwnerCtx, b: { roomId: number; typeId: number; title: string; content: string; contactPhone: string; photos: string[] }) {
  ctx.audit.target = `业主诉求「${b.title}」`;
  return ctx.tx(async (tx) => {
    await assertRoomPhotos(tx, [...new Set(b.photos)], b.roomId);
    return createOwnAppeal(tx, await mine(ctx, tx), { ...b, photos: [...new Set(b.photos)] });
  });
}

// ---- photos ------------------------------------------------------------------------------------------

export async function uploadToken(ctx: OwnerCtx, setup: FileSetup, roomId: number) {
  const r = await ctx.tx((tx) => myRoom(ctx, tx, roomId));
  return ownerToken(setup, { companyId: ctx.owner.companyId, ownerId: r.ownerId, roomId });
}

/** A private file of one of the owner's rooms (files/access.ts decides, given the owner's rooms). */
export async function file(ctx: OwnerCtx, setup: FileSetup, key: string, req: FastifyRequest, reply: FastifyReply) {
  const rooms = await ctx.tx((tx) => repo.roomsOf(tx, ctx.owner));
  return serveFile(ctx.db, setup, 'Private', key, { platform: false, companyId: ctx.owner.companyId, roomIds: rooms.map((r) => r.roomId) }, req, reply);
}

/** The meters and rooms an owner's websocket may hear about (modules/realtime asks through app.ts). */
export async function liveScope(ctx: Pick<OwnerCtx, 'tx' | 'owner'>) {
  return ctx.tx(async (tx) => {
    const rooms = await repo.roomsOf(tx, ctx.owner);
    const meters = await repo.roomMeters(tx, rooms.map((r) => r.roomId));
    return { roomIds: rooms.map((r) => r.roomId), meterIds: meters.map((m) => m.id) };
  });
}
