import { randomInt } from 'node:crypto';
import { fenToYuan } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { AppError, notFound, refuse } from '../../http/errors.ts';
import { afterBalanceChange, lockAccounts, occupiedRoom, WALLET_LABELS, moveOf, post, qrDataUrl, receiptOf, type Posting, type Wallet } from '../billing/index.ts';
import * as provider from './provider.ts';
import { NotifyRefused, type NotifyRequest, type PaidTransaction, type PayGateway, type PayGateways } from './providers/gateway.ts';
import type { Merchants } from './merchant.ts';
import * as repo from './repo.ts';
import type { PayInput } from './schema.ts';
import { formatBeijing } from '../../time.ts';

// Online payments (WeChat Pay, Alipay): an order is a `payments` row; the provider's signed
// notification credits the wallet once per out_trade_no (journal key pay:<out_trade_no>, and the
// order row locked while it is checked), whatever the number of notifications, retries or
// processes. The providers are WeChat Pay API v3 and Alipay (providers/, against the real services
// or the local emulators); without them, the simulated HMAC provider of provider.ts.

/** The configured providers and how long an order stays payable. */
export interface Payments {
  gateways: PayGateways;
  ttlMs: number;
  /** live: a channel without a configured provider is off (never simulated) */
  live?: boolean;
  /** the companies' own merchants (merchant.ts); absent with the simulated provider */
  merchants?: Merchants;
}

/** The gateway of an order's merchant: the company's own (merchantCompanyId) or the platform's. */
export async function gatewayOf(db: Db, pay: Payments, channel: provider.Channel, merchantCompanyId: number | null): Promise<PayGateway | undefined> {
  if (merchantCompanyId == null) return pay.gateways[channel];
  const own = await pay.merchants?.load(db, merchantCompanyId, channel);
  if (!own) throw refuse('PAY_MERCHANT_OFF', `该订单所属单位的${CHANNEL_TEXT[channel]}商户已停用或未配置`);
  return own;
}
export const SIMULATED: Payments = { gateways: {}, ttlMs: 2 * 3600_000 };
export const CHANNEL_TEXT: Record<string, string> = { wechat: '微信支付', alipay: '支付宝' };
export const STATUS_TEXT: Record<string, string> = { created: '待支付', paid: '已支付', closed: '已关闭' };

function tradeNo(channel: provider.Channel) {
  const d = formatBeijing(Date.now(), 'YYYYMMDDHHmmss');
  return `${channel === 'wechat' ? 'WX' : 'ALI'}${d}${String(randomInt(0, 1e8)).padStart(8, '0')}`;
}

/**
 * An order for a room's wallet. `createdBy`: the operator taking it at the counter (its receipt and shift),
 * or null for the owner's own top-up in the owner app (业主端) — credited and reopening the supply all the same.
 */
export async function createPayment(ctx: Pick<Ctx, 'tx' | 'audit'>, pay: Payments, channel: provider.Channel, b: PayInput, createdBy: number | null) {
  const outTradeNo = tradeNo(channel);
  const expiresAt = new Date(Date.now() + pay.ttlMs);
  let gateway: PayGateway | undefined;
  let codeUrl = '';
  const created = await ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, b.roomId);
    // the company's own merchant when it has one, else the platform's
    const own = await pay.merchants?.forCompany(tx, ro.companyId, channel);
    gateway = own ?? pay.gateways[channel];
    if (!gateway && pay.live) throw refuse('PAY_CHANNEL_OFF', `${CHANNEL_TEXT[channel]}未配置商户参数，暂不能使用`);
    if (!gateway) codeUrl = provider.codeUrl(channel, outTradeNo);
    const subject = b.subject || `${ro.roomName} ${WALLET_LABELS[b.wallet]}充值`;
    ctx.audit.target = `${ro.path} ${ro.ownerName} ${CHANNEL_TEXT[channel]} ¥${fenToYuan(b.amount)} ${outTradeNo}`;
    const [account] = await lockAccounts(tx, [{ companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, wallet: b.wallet }]);
    if (account.status !== 1) throw refuse('ACCOUNT_CLOSED', '该账户已销户，不能充值');
    const p = await repo.insertPayment(tx, {
      companyId: ro.companyId, ownerId: ro.ownerId, accountId: account.id, roomId: ro.roomId, channel, outTradeNo, amountFen: b.amount,
      subject, codeUrl, expiresAt, createdBy, merchantCompanyId: own ? ro.companyId : null,
    });
    return { id: p.id, expiresAt: p.expiresAt, subject };
  });
  if (gateway) {
    // the order exists before the provider hears of it, so its notification always finds it
    try {
      codeUrl = await gateway.create({ outTradeNo, subject: created.subject, amountFen: b.amount, expiresAt });
    } catch (e) {
      await ctx.tx((tx) => repo.closePayment(tx, created.id));
      throw refuse('PAY_PROVIDER_ERROR', `${CHANNEL_TEXT[channel]}下单失败，请稍后重试（${(e as Error).message}）`);
    }
    await ctx.tx((tx) => repo.setCodeUrl(tx, created.id, codeUrl));
  }
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
    /** the simulated HMAC provider: confirm with POST …/simulatePaid */
    simulated: !gateway,
    /** the code URL opens the local emulator's payer page (demo) */
    emulated: !!gateway && /^https?:\/\//.test(codeUrl),
  };
}

/**
 * A provider's notification: verified, then the order is credited once. A repeated notification
 * answers as the first did; an amount that differs from the order is refused and credits nothing.
 */
export async function handleNotify(db: Db, channel: provider.Channel, n: provider.Notification) {
  if (!provider.verify(n)) throw refuse('SIGN_INVALID', '支付通知签名校验失败');
  return credit(db, channel, { outTradeNo: n.out_trade_no, tradeNo: n.trade_no, amountFen: n.total_fee, merchantOk: true });
}

/**
 * A provider's notification (raw body and headers): verified by the provider's rules, checked against
 * the order, credited; the provider's success answer only once the credit committed, otherwise its
 * failure answer (it retries). A refused notification changes nothing.
 */
export async function handleProviderNotify(db: Db, gateway: PayGateway, n: NotifyRequest, merchantCompanyId: number | null = null) {
  try {
    const paid = gateway.verifyNotify(n);
    if (paid) await credit(db, gateway.channel, paid, merchantCompanyId);
    return gateway.ack();
  } catch (e) {
    if (e instanceof NotifyRefused) return gateway.nack(e);
    if (e instanceof AppError) return gateway.nack(new NotifyRefused(e.status === 200 ? 400 : e.status, e.code, e.message));
    return gateway.nack(new NotifyRefused(500, 'FAIL', '处理失败，请稍后重试'));
  }
}

/**
 * A verified paid transaction credits its order once (notify, query job, simulated payer). `merchantCompanyId`:
 * whose merchant verified it (null = the platform's) — it must be the merchant that took the order.
 */
export async function credit(db: Db, channel: provider.Channel, n: PaidTransaction, merchantCompanyId: number | null = null) {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const p = await repo.lockPayment(tx, n.outTradeNo);
    if (!p || p.channel !== channel) throw notFound('支付订单');
    if (!n.merchantOk || p.merchantCompanyId !== merchantCompanyId) throw refuse('MERCHANT_MISMATCH', '支付通知的商户号或应用号与本商户不符');
    if (p.status === 'paid') return { outTradeNo: p.outTradeNo, status: 'paid', duplicate: true };
    if (n.amountFen !== p.amountFen) {
      const paid = Number.isFinite(n.amountFen) ? `¥${fenToYuan(n.amountFen)}` : '无效';
      throw refuse('AMOUNT_MISMATCH', `支付金额 ${paid} 与订单金额 ¥${fenToYuan(p.amountFen)} 不符`);
    }
    // a payment that arrives after the order expired is money received: it is credited all the same.
    // An order taken at the counter counts in its operator's shift (交班) and gets a receipt (/billprint).
    const counter = p.createdBy != null;
    const posting: Posting = {
      companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet: p.wallet as Wallet, kind: 'prepay', amountFen: p.amountFen,
      idempotencyKey: `pay:${p.outTradeNo}`, payMethod: channel, refType: 'payment', refId: p.id,
      operatorId: p.createdBy, operatorName: counter ? p.creatorName || CHANNEL_TEXT[channel] : CHANNEL_TEXT[channel],
      memo: `${CHANNEL_TEXT[channel]}充值 ${p.outTradeNo}`,
    };
    const r = await post(tx, posting);
    if (!r.duplicate) await afterBalanceChange(tx, [moveOf(posting, r)], { received: true });
    if (counter) {
      await receiptOf(tx, {
        companyId: p.companyId, journalId: r.journalId, ownerId: p.ownerId, roomId: p.roomId, kind: 'prepay', payMethod: channel,
        items: [{ item: `${WALLET_LABELS[p.wallet as Wallet]}充值（${CHANNEL_TEXT[channel]}扫码）`, amountFen: p.amountFen }],
        memo: `订单号 ${p.outTradeNo}`, operatorName: p.creatorName,
      });
    }
    await repo.markPaid(tx, p.id, n.tradeNo, r.journalId);
    return { outTradeNo: p.outTradeNo, status: 'paid', duplicate: r.duplicate, balance: fenToYuan(r.balanceAfterFen) };
  });
}

/** Plays the payer and the provider: the order is paid, and the provider's signed notification delivered. */
export async function simulatePaid(ctx: Ctx, pay: Payments, channel: provider.Channel, outTradeNo: string) {
  if (pay.gateways[channel] || pay.live) throw refuse('NOT_SIMULATED', `当前使用${CHANNEL_TEXT[channel]}支付平台，请扫码付款`);
  const p = await ctx.tx((tx) => repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, outTradeNo, channel }, 1, 0));
  const row = p.rows[0];
  if (!row) throw notFound('支付订单');
  if (row.status === 'closed') throw refuse('ORDER_CLOSED', '订单已取消或已超时关闭，不能支付');
  ctx.audit.target = `${CHANNEL_TEXT[channel]}订单 ${outTradeNo}`;
  return payAsSimulated(ctx.db, channel, outTradeNo, Number(row.amountFen));
}

/** The simulated provider's payer and notification for an open order (the caller checked it is theirs and open). */
export function payAsSimulated(db: Db, channel: provider.Channel, outTradeNo: string, amountFen: number) {
  const n = { out_trade_no: outTradeNo, trade_no: provider.providerTradeNo(channel), total_fee: amountFen };
  return handleNotify(db, channel, { ...n, sign: provider.sign(n) });
}

/** An order as the owner app shows it (the owner's transaction; the caller checks its room is theirs). */
export async function orderOf(tx: Tx, outTradeNo: string) {
  const r = await repo.listPayments(tx, { companyId: null, areaRestricted: false, outTradeNo }, 1, 0);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    outTradeNo: String(x.outTradeNo), channel: String(x.channel) as provider.Channel, roomId: x.roomId == null ? null : Number(x.roomId),
    amountFen: Number(x.amountFen), status: String(x.status),
    view: {
      amount: fenToYuan(Number(x.amountFen)), channelText: CHANNEL_TEXT[String(x.channel)] ?? String(x.channel),
      statusText: STATUS_TEXT[String(x.status)] ?? String(x.status), paidAt: x.paidAt == null ? null : String(x.paidAt),
    },
  };
}

function present(x: Record<string, unknown>) {
  const { amountFen, refundedFen, merchantCompanyId: _m, ...rest } = x;
  return {
    ...rest,
    amount: fenToYuan(Number(amountFen)),
    refunded: fenToYuan(Number(refundedFen ?? 0)),
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

/**
 * 取消订单 (an unpaid counter order, while the owner has not paid): closed at the provider first, so
 * nobody can pay it afterwards, then here. Paid meanwhile → credited (as a notification would) and
 * the cancel refused; a provider that refuses the close (just paid) leaves the order open for its
 * notification or the query job. Cancelling a closed order again answers the same.
 */
export async function cancelPayment(ctx: Ctx, pay: Payments, channel: provider.Channel, outTradeNo: string) {
  const found = await ctx.tx((tx) => repo.listPayments(tx, { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, outTradeNo, channel }, 1, 0));
  const row = found.rows[0];
  if (!row) throw notFound('支付订单');
  ctx.audit.target = `取消${CHANNEL_TEXT[channel]}订单 ${outTradeNo}`;
  if (row.status === 'paid') throw refuse('ALREADY_PAID', '订单已支付并入账，不能取消；如需退款请使用「退款」原路退回');
  const merchantCompanyId = row.merchantCompanyId == null ? null : Number(row.merchantCompanyId);
  const gateway = await gatewayOf(ctx.db, pay, channel, merchantCompanyId);
  if (gateway) {
    let q;
    try {
      q = await gateway.query(outTradeNo);
    } catch (e) {
      throw refuse('PAY_PROVIDER_ERROR', `查询${CHANNEL_TEXT[channel]}订单失败，请稍后重试（${(e as Error).message}）`);
    }
    if (q.state === 'paid' && q.paid) {
      await credit(ctx.db, channel, q.paid, merchantCompanyId);
      throw refuse('ALREADY_PAID', '业主已完成支付，已入账，不能取消');
    }
    // open, or not known yet (an Alipay QR nobody scanned): cancelled (Alipay 撤销) or closed at the provider all the same;
    // a payment that lands between the query and the cancel is refunded by Alipay, so the order closes here too
    if (q.state !== 'closed') {
      try {
        if (gateway.cancel) await gateway.cancel(outTradeNo);
        else await gateway.close(outTradeNo);
      } catch (e) {
        throw refuse('PAY_PROVIDER_ERROR', `${CHANNEL_TEXT[channel]}关闭订单失败，请稍后重试（${(e as Error).message}）`);
      }
    }
  }
  await ctx.tx(async (tx) => {
    const p = await repo.lockPayment(tx, outTradeNo);
    if (!p) throw notFound('支付订单');
    if (p.status === 'paid') throw refuse('ALREADY_PAID', '业主已完成支付，已入账，不能取消');
    await repo.closePayment(tx, p.id);
  });
  return queryPayment(ctx, outTradeNo);
}
