import { randomInt } from 'node:crypto';
import { fenToYuan } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { afterBalanceChange, lockAccounts, occupiedRoom, WALLET_LABELS, moveOf, post, qrDataUrl, type Posting, type Wallet } from '../billing/index.ts';
import * as provider from './provider.ts';
import * as repo from './repo.ts';
import type { PayInput } from './schema.ts';

// Online payments (WeChat Pay, Alipay): an order is a `payments` row; the provider's signed
// notification credits the wallet once per out_trade_no (journal key pay:<out_trade_no>, and the
// order row locked while it is checked), whatever the number of notifications, retries or
// processes. In this offline build the provider is simulated (provider.ts).

const TTL_MS = 2 * 3600_000;
export const CHANNEL_TEXT: Record<string, string> = { wechat: '微信支付', alipay: '支付宝' };
export const STATUS_TEXT: Record<string, string> = { created: '待支付', paid: '已支付', closed: '已关闭' };

function tradeNo(channel: provider.Channel) {
  const d = new Date(Date.now() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `${channel === 'wechat' ? 'WX' : 'ALI'}${d}${String(randomInt(0, 1e8)).padStart(8, '0')}`;
}

export async function createPayment(ctx: Ctx, channel: provider.Channel, b: PayInput) {
  const outTradeNo = tradeNo(channel);
  const codeUrl = provider.codeUrl(channel, outTradeNo);
  const created = await ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, b.roomId);
    const subject = b.subject || `${ro.roomName} ${WALLET_LABELS[b.wallet]}充值`;
    ctx.audit.target = `${ro.path} ${ro.ownerName} ${CHANNEL_TEXT[channel]} ¥${fenToYuan(b.amount)} ${outTradeNo}`;
    const [account] = await lockAccounts(tx, [{ companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, wallet: b.wallet }]);
    if (account.status !== 1) throw refuse('ACCOUNT_CLOSED', '该账户已销户，不能充值');
    const p = await repo.insertPayment(tx, {
      companyId: ro.companyId, ownerId: ro.ownerId, accountId: account.id, roomId: ro.roomId, channel, outTradeNo, amountFen: b.amount,
      subject, codeUrl, expiresAt: new Date(Date.now() + TTL_MS), createdBy: ctx.user.id,
    });
    return { id: p.id, expiresAt: p.expiresAt, subject };
  });
  return {
    id: created.id,
    outTradeNo,
    channel,
    channelText: CHANNEL_TEXT[channel],
    amount: fenToYuan(b.amount),
    subject: created.subject,
    codeUrl,
    qrCode: await qrDataUrl(codeUrl),
    expiresAt: created.expiresAt,
    status: 'created',
    /** the offline build's provider is simulated: confirm with POST …/simulatePaid */
    simulated: true,
  };
}

/**
 * A provider's notification: verified, then the order is credited once. A repeated notification
 * answers as the first did; an amount that differs from the order is refused and credits nothing.
 */
export async function handleNotify(db: Db, channel: provider.Channel, n: provider.Notification) {
  if (!provider.verify(n)) throw refuse('SIGN_INVALID', '支付通知签名校验失败');
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const p = await repo.lockPayment(tx, n.out_trade_no);
    if (!p || p.channel !== channel) throw notFound('支付订单');
    if (p.status === 'paid') return { outTradeNo: p.outTradeNo, status: 'paid', duplicate: true };
    if (n.total_fee !== p.amountFen) throw refuse('AMOUNT_MISMATCH', `支付金额 ¥${fenToYuan(n.total_fee)} 与订单金额 ¥${fenToYuan(p.amountFen)} 不符`);
    // a payment that arrives after the order expired is money received: it is credited all the same
    const posting: Posting = {
      companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet: p.wallet as Wallet, kind: 'prepay', amountFen: p.amountFen,
      idempotencyKey: `pay:${p.outTradeNo}`, payMethod: channel, refType: 'payment', refId: p.id, operatorName: CHANNEL_TEXT[channel],
      memo: `${CHANNEL_TEXT[channel]}充值 ${p.outTradeNo}`,
    };
    const r = await post(tx, posting);
    if (!r.duplicate) await afterBalanceChange(tx, [moveOf(posting, r)]);
    await repo.markPaid(tx, p.id, n.trade_no, r.journalId);
    return { outTradeNo: p.outTradeNo, status: 'paid', duplicate: r.duplicate, balance: fenToYuan(r.balanceAfterFen) };
  });
}

/** Plays the payer and the provider: the order is paid, and the provider's signed notification delivered. */
export async function simulatePaid(ctx: Ctx, channel: provider.Channel, outTradeNo: string) {
  const p = await ctx.tx((tx) => repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, outTradeNo, channel }, 1, 0));
  const row = p.rows[0];
  if (!row) throw notFound('支付订单');
  ctx.audit.target = `${CHANNEL_TEXT[channel]}订单 ${outTradeNo}`;
  const n = { out_trade_no: outTradeNo, trade_no: provider.providerTradeNo(channel), total_fee: Number(row.amountFen) };
  return handleNotify(ctx.db, channel, { ...n, sign: provider.sign(n) });
}

function present(x: Record<string, unknown>) {
  const { amountFen, ...rest } = x;
  return {
    ...rest,
    amount: fenToYuan(Number(amountFen)),
    channelText: CHANNEL_TEXT[String(x.channel)] ?? String(x.channel),
    statusText: STATUS_TEXT[String(x.status)] ?? String(x.status),
    walletText: WALLET_LABELS[x.wallet as Wallet] ?? String(x.wallet),
  };
}

export function listPayments(ctx: Ctx, q: { page: number; size: number; channel?: string; status?: string; searchArea?: number }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, searchArea: q.searchArea, channel: q.channel, status: q.status }, q.size, (q.page - 1) * q.size);
    return new Page(r.rows.map(present), r.count);
  });
}

export async function queryPayment(ctx: Ctx, outTradeNo: string) {
  const r = await ctx.tx((tx) => repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, outTradeNo }, 1, 0));
  if (!r.rows[0]) throw notFound('支付订单');
  return present(r.rows[0]);
}
