import { randomBytes } from 'node:crypto';
import { fenToYuan, type RefundInput } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { afterBalanceChange, lockAccounts, moveOf, post, receiptOf, WALLET_LABELS, type Posting, type Wallet } from '../billing/index.ts';
import { AppError } from '../../http/errors.ts';
import { NotifyRefused, RefundRefused, type Channel, type NotifyRequest, type PayGateway, type RefundAnswer } from './providers/gateway.ts';
import * as repo from './repo.ts';
import * as rrepo from './refund-repo.ts';
import { CHANNEL_TEXT, gatewayOf, type Payments } from './service.ts';

// 退款 of a paid online order (issue 14), whole or in part, back the way it was paid. One
// payment_refunds row per out_refund_no (the order number + the caller's request number: the same
// request twice refunds once, here and at the provider). The owner's wallet is debited first
// (journal kind 'refund', pay method = the channel, key refund:<out_refund_no>) in the transaction
// that records the refund, under the order's row lock, never beyond what is left refundable nor
// beyond the balance; then the provider is asked. Its answer settles the row: SUCCESS; PROCESSING
// (the WeChat refund notify or the query job ends it); a definite no (or, later, ABNORMAL / CLOSED)
// reverses the debit (kind 'reversal', key refundfail:<out_refund_no>). No answer at all leaves the
// refund processing for the query job: the money may have left.

export const REFUND_STATUS_TEXT: Record<string, string> = { processing: '退款中', success: '已退款', failed: '退款失败' };

const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;

function present(x: Record<string, unknown>, duplicate?: boolean) {
  const { amountFen, receiptId, receiptNo, ...rest } = x;
  return {
    ...rest,
    receiptId: receiptId == null ? null : Number(receiptId),
    receiptNo: receiptNo == null ? '' : String(receiptNo),
    amount: fenToYuan(Number(amountFen)),
    statusText: REFUND_STATUS_TEXT[String(x.status)] ?? String(x.status),
    ...(duplicate !== undefined && { duplicate }),
  };
}

async function visibleOrder(ctx: Ctx, outTradeNo: string, channel?: Channel) {
  const found = await ctx.tx((tx) => repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, outTradeNo, channel }, 1, 0));
  const row = found.rows[0];
  if (!row) throw notFound('支付订单');
  return { id: Number(row.id), merchantCompanyId: row.merchantCompanyId == null ? null : Number(row.merchantCompanyId) };
}

export async function refundPayment(ctx: Ctx, pay: Payments, channel: Channel, b: RefundInput) {
  const order = await visibleOrder(ctx, b.outTradeNo, channel);
  const outRefundNo = `${b.outTradeNo}R${b.requestId}`;
  ctx.audit.target = `${CHANNEL_TEXT[channel]}订单 ${b.outTradeNo} 退款 ¥${fenToYuan(b.amount)}：${b.reason}`;
  // the merchant that took the order refunds it (refused here, before any debit, when it is off)
  const gateway = await gatewayOf(ctx.db, pay, channel, order.merchantCompanyId);
  if (!gateway && pay.live) throw refuse('PAY_CHANNEL_OFF', `${CHANNEL_TEXT[channel]}未配置商户参数，暂不能退款`);
  const started = await ctx.tx(async (tx) => {
    const p = await repo.lockPayment(tx, b.outTradeNo);
    if (!p || p.channel !== channel) throw notFound('支付订单');
    const existing = await rrepo.lockRefund(tx, outRefundNo);
    if (existing) {
      if (existing.paymentId !== p.id || existing.amountFen !== b.amount) throw refuse('REFUND_REQUEST_REUSED', '该退款请求编号已用于另一笔退款，请关闭对话框后重新发起');
      return { id: existing.id, duplicate: true, totalFen: p.amountFen };
    }
    if (p.status !== 'paid') throw refuse('NOT_PAID', '订单未支付，不能退款');
    const leftFen = p.amountFen - (await rrepo.refundedFen(tx, p.id));
    if (leftFen <= 0) throw refuse('REFUND_EXCEEDS', '该订单已全额退款，不能再退');
    if (b.amount > leftFen) throw refuse('REFUND_EXCEEDS', `退款金额 ¥${fenToYuan(b.amount)} 超过可退金额 ¥${fenToYuan(leftFen)}`);
    const wallet = p.wallet as Wallet;
    const [account] = await lockAccounts(tx, [{ companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet }]);
    if (account.balanceFen < b.amount) {
      throw refuse('INSUFFICIENT_BALANCE', `${WALLET_LABELS[wallet]}账户余额 ¥${fenToYuan(account.balanceFen)} 不足以退款 ¥${fenToYuan(b.amount)}：已消费的金额不能退回`);
    }
    const id = await rrepo.insertRefund(tx, {
      companyId: p.companyId, paymentId: p.id, channel, outTradeNo: p.outTradeNo, outRefundNo, amountFen: b.amount, reason: b.reason,
      createdBy: ctx.user.id, createdByName: operatorName(ctx),
    });
    const posting: Posting = {
      companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet, kind: 'refund', amountFen: b.amount, idempotencyKey: `refund:${outRefundNo}`,
      payMethod: channel, refType: 'payRefund', refId: id, operatorId: ctx.user.id, operatorName: operatorName(ctx),
      memo: `${CHANNEL_TEXT[channel]}退款 ${p.outTradeNo}：${b.reason}`,
    };
    const r = await post(tx, posting);
    await rrepo.setJournal(tx, id, r.journalId);
    await afterBalanceChange(tx, [moveOf(posting, r)], { requestedBy: ctx.user.id, requesterName: operatorName(ctx) });
    return { id, duplicate: false, totalFen: p.amountFen };
  });
  if (!started.duplicate) {
    await sendRefund(ctx.db, gateway, { outTradeNo: b.outTradeNo, outRefundNo, refundFen: b.amount, totalFen: started.totalFen, reason: b.reason });
  }
  return present(await ctx.tx((tx) => rrepo.refundRow(tx, started.id)), started.duplicate);
}

/** Asks the provider (the simulated one refunds at once) and settles the refund with its answer; no answer leaves it processing. */
export async function sendRefund(db: Db, gateway: PayGateway | undefined, o: { outTradeNo: string; outRefundNo: string; refundFen: number; totalFen: number; reason: string }) {
  let answer: RefundAnswer;
  if (!gateway) answer = { refundId: `SIM${Date.now()}${randomBytes(4).toString('hex')}`, status: 'SUCCESS' };
  else {
    try {
      answer = await gateway.refund(o);
    } catch (e) {
      if (!(e instanceof RefundRefused)) {
        await db.tx(SYSTEM_SCOPE, async (tx) => {
          await repo.lockPayment(tx, o.outTradeNo);
          const f = await rrepo.lockRefund(tx, o.outRefundNo);
          if (f?.status === 'processing') await rrepo.finishRefund(tx, f.id, { status: 'processing', providerRefundNo: '', providerMessage: `支付平台未应答，稍后查询：${(e as Error).message}` });
        });
        return;
      }
      answer = { refundId: '', status: 'FAILED', message: e.message };
    }
  }
  await settleRefund(db, o.outRefundNo, answer);
}

/**
 * The provider's word on a refund (answer, notify or query) settles it once: success; failed → the debit
 * reversed (once: key refundfail:<out_refund_no>); processing → noted. A settled refund stays as it is.
 */
export async function settleRefund(db: Db, outRefundNo: string, a: RefundAnswer) {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const f0 = await rrepo.lockRefund(tx, outRefundNo, false);
    if (!f0) throw notFound('退款记录');
    // the order's lock first, then the refund's, as a new refund takes them
    const p = await repo.lockPayment(tx, f0.outTradeNo);
    const f = await rrepo.lockRefund(tx, outRefundNo);
    if (!p || !f) throw notFound('支付订单');
    if (f.status !== 'processing') return { status: f.status, changed: false };
    if (a.status === 'PROCESSING') {
      await rrepo.finishRefund(tx, f.id, { status: 'processing', providerRefundNo: a.refundId, providerMessage: '' });
      return { status: 'processing', changed: false };
    }
    if (a.status === 'SUCCESS') {
      await rrepo.finishRefund(tx, f.id, { status: 'success', providerRefundNo: a.refundId, providerMessage: '' });
      // the 退款凭证 (/billprint, printable from /notesPay): once per refund, on its debit's journal row
      if (f.journalId != null) {
        await receiptOf(tx, {
          companyId: p.companyId, journalId: f.journalId, ownerId: p.ownerId, roomId: p.roomId, kind: 'refund', payMethod: f.channel,
          items: [{ item: `${WALLET_LABELS[p.wallet as Wallet]}退款（${CHANNEL_TEXT[f.channel] ?? f.channel}原路退回）`, amountFen: f.amountFen }],
          memo: `订单号 ${f.outTradeNo}，退款单号 ${f.outRefundNo}：${f.reason}`, operatorName: f.createdByName || (CHANNEL_TEXT[f.channel] ?? f.channel),
        });
      }
      return { status: 'success', changed: true };
    }
    const posting: Posting = {
      companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet: p.wallet as Wallet, kind: 'reversal', amountFen: f.amountFen,
      idempotencyKey: `refundfail:${outRefundNo}`, payMethod: f.channel, refType: 'payRefund', refId: f.id, reversesId: f.journalId,
      operatorName: CHANNEL_TEXT[f.channel] ?? f.channel, memo: `${CHANNEL_TEXT[f.channel] ?? ''}退款失败，退回余额 ${f.outTradeNo}`,
    };
    const r = await post(tx, posting);
    if (!r.duplicate) await afterBalanceChange(tx, [moveOf(posting, r)]);
    await rrepo.finishRefund(tx, f.id, { status: 'failed', providerRefundNo: a.refundId, providerMessage: a.message ?? '支付平台退款失败', reversalJournalId: r.journalId });
    return { status: 'failed', changed: true };
  });
}

/**
 * 重新查询/重发 of a refund still 处理中 (its answer or notify lost): the provider is asked first. Its answer
 * settles the refund (success, failed → the debit back, or still processing); a provider with no record of
 * it never got it, so it is sent again with the same out_refund_no — both providers refund once per
 * out_refund_no / out_request_no, so a repeat (or two clicks at once) refunds once. A settled refund
 * answers as it is, with nothing asked.
 */
export async function retryRefund(ctx: Ctx, pay: Payments, outRefundNo: string) {
  const f = await ctx.tx((tx) => rrepo.lockRefund(tx, outRefundNo, false));
  if (!f) throw notFound('退款记录');
  const order = await visibleOrder(ctx, f.outTradeNo, f.channel as Channel);
  ctx.audit.target = `${CHANNEL_TEXT[f.channel] ?? f.channel}退款 ${outRefundNo} 重新查询`;
  if (f.status === 'processing') {
    const gateway = await gatewayOf(ctx.db, pay, f.channel as Channel, order.merchantCompanyId);
    const totalFen = await ctx.tx(async (tx) => (await repo.lockPayment(tx, f.outTradeNo))?.amountFen ?? 0);
    const resend = () => sendRefund(ctx.db, gateway, { outTradeNo: f.outTradeNo, outRefundNo, refundFen: f.amountFen, totalFen, reason: f.reason });
    if (!gateway) await resend();
    else {
      let known: RefundAnswer | null;
      try {
        known = await gateway.refundQuery({ outTradeNo: f.outTradeNo, outRefundNo });
      } catch (e) {
        throw refuse('PAY_PROVIDER_ERROR', `查询${CHANNEL_TEXT[f.channel] ?? ''}退款失败，请稍后重试（${(e as Error).message}）`);
      }
      if (known) await settleRefund(ctx.db, outRefundNo, known);
      else await resend();
    }
  }
  return present(await ctx.tx((tx) => rrepo.refundRow(tx, f.id)));
}

/** The refunds of an order (the refund dialog). */
export async function refundsOf(ctx: Ctx, outTradeNo: string) {
  const order = await visibleOrder(ctx, outTradeNo);
  const rows = await ctx.tx((tx) => rrepo.refundsOf(tx, order.id));
  return rows.map((x) => present(x));
}

/**
 * WeChat Pay's refund result notification (REFUND.SUCCESS / ABNORMAL / CLOSED), verified and decrypted as a
 * pay notify is, checked against the refund (merchant, order, amount), then settled once; the provider's
 * success answer only once that committed. A refused notification changes nothing.
 */
export async function handleRefundNotify(db: Db, gateway: PayGateway, n: NotifyRequest, merchantCompanyId: number | null) {
  try {
    const notice = gateway.verifyRefundNotify?.(n);
    if (notice) {
      const f = await db.tx(SYSTEM_SCOPE, async (tx) => ({ f: await rrepo.lockRefund(tx, notice.outRefundNo, false), m: await repo.merchantOfOrder(tx, notice.outTradeNo) }));
      if (!f.f || f.f.outTradeNo !== notice.outTradeNo || f.f.channel !== gateway.channel) throw new NotifyRefused(404, 'FAIL', '退款记录不存在');
      if (!notice.merchantOk || f.m !== merchantCompanyId) throw new NotifyRefused(400, 'FAIL', '退款通知的商户号与本商户不符');
      if (notice.amountFen !== f.f.amountFen) throw new NotifyRefused(400, 'FAIL', `退款通知金额与退款记录 ¥${fenToYuan(f.f.amountFen)} 不符`);
      await settleRefund(db, notice.outRefundNo, notice);
    }
    return gateway.ack();
  } catch (e) {
    if (e instanceof NotifyRefused) return gateway.nack(e);
    if (e instanceof AppError) return gateway.nack(new NotifyRefused(e.status === 200 ? 400 : e.status, e.code, e.message));
    return gateway.nack(new NotifyRefused(500, 'FAIL', '处理失败，请稍后重试'));
  }
}

/**
 * Refunds with no final answer (no answer at all, or PROCESSING and the notify lost), once a little old: asked
 * at their provider (WeChat refund query, Alipay alipay.trade.fastpay.refund.query) and settled. A refund the
 * provider has no record of never left: failed, the debit reversed. Run with the payment query job.
 */
export async function recoverRefunds(db: Db, pay: Payments, o: { minAgeMs?: number; limit?: number; log?: (msg: string, err: unknown) => void } = {}) {
  const open = await db.tx(SYSTEM_SCOPE, (tx) => rrepo.openRefunds(tx, o.minAgeMs ?? 60_000, o.limit ?? 100));
  const r = { checked: open.length, settled: 0, failed: 0 };
  for (const f of open) {
    try {
      const merchantCompanyId = (await db.tx(SYSTEM_SCOPE, (tx) => repo.merchantOfOrder(tx, f.outTradeNo))) ?? null;
      const gateway = await gatewayOf(db, pay, f.channel as Channel, merchantCompanyId);
      if (!gateway) continue;
      const a = await gateway.refundQuery({ outTradeNo: f.outTradeNo, outRefundNo: f.outRefundNo });
      const s = await settleRefund(db, f.outRefundNo, a ?? { refundId: '', status: 'FAILED', message: `${CHANNEL_TEXT[f.channel] ?? ''}无此退款记录（未发出）` });
      if (s.changed) r.settled++;
    } catch (e) {
      r.failed++;
      o.log?.(`退款 ${f.outRefundNo} 查询失败`, e);
    }
  }
  return r;
}
