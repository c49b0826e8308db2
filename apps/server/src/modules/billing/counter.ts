import { randomUUID } from 'node:crypto';
import { fenToYuan } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { afterBalanceChange } from './alarms.ts';
import { KIND_LABELS, WALLET_LABELS, moveOf, post, type Kind, type Posted, type Posting, type Wallet } from './ledger.ts';
import { dayKey } from './period.ts';
import * as repo from './repo/index.ts';
import type { BillPayInput, BusinessPayInput, CounterInput } from './schema.ts';

// Counter operations (柜台业务, SPEC §3 finance keys): prepay, refund, subsidy, bill payment and
// combined payment. Each is one transaction: the ledger posting (idempotent per requestId), a
// receipt for /billprint, and the alarm rules on the new balance (a top-up back above the close
// threshold reopens the meters). A refused rule changes nothing.

export type ReceiptKind = 'prepay' | 'refund' | 'subsidy' | 'billPay' | 'business' | 'close';

export interface CounterResult {
  journalId: number;
  receiptId: number;
  receiptNo: string;
  /** 元 */
  amount: string;
  /** the wallet's balance afterwards, 元 */
  balance: string;
  /** true: this requestId was done before; nothing happened now */
  duplicate: boolean;
}

/** Receipt number: SJ + China date + the journal row (unique per company, never reused). */
export const receiptNo = (journalId: number, at = new Date()) => `SJ${dayKey(at).replace(/-/g, '')}${String(journalId).padStart(8, '0')}`;

/** The room (visible to the caller) and its current owner, or a refusal. */
export async function occupiedRoom(tx: Tx, roomId: number) {
  const ro = await repo.roomOwner(tx, roomId);
  if (!ro) throw notFound('房间');
  if (ro.ownerId == null) throw refuse('NO_OWNER', `房间「${ro.roomName}」暂无在住业主，不能办理该业务`);
  return ro as repo.RoomOwner & { ownerId: number };
}

const operator = (ctx: Ctx) => ({ operatorId: ctx.user.id, operatorName: ctx.user.realName || ctx.user.username });

export async function writeReceipt(tx: Tx, ctx: Ctx, r: {
  companyId: number; journalId: number; ownerId: number; roomId: number | null; kind: ReceiptKind; payMethod: string;
  items: { item: string; amountFen: number }[]; memo: string;
}) {
  return repo.insertReceipt(tx, {
    ...r,
    amountFen: r.items.reduce((s, i) => s + i.amountFen, 0),
    operatorName: operator(ctx).operatorName,
    no: receiptNo(r.journalId),
  });
}

/**
 * The receipt of a posting made outside a counter call (an online order taken at the counter, paid by
 * the provider's notification): once per journal row, like every receipt.
 */
export async function receiptOf(tx: Tx, r: {
  companyId: number; journalId: number; ownerId: number; roomId: number | null; kind: ReceiptKind; payMethod: string;
  items: { item: string; amountFen: number }[]; memo: string; operatorName: string;
}) {
  return repo.insertReceipt(tx, { ...r, amountFen: r.items.reduce((s, i) => s + i.amountFen, 0), no: receiptNo(r.journalId) });
}

/** Posts one entry and runs the alarm rules on the balance it changed. */
export async function postWithAlarms(tx: Tx, ctx: Ctx, p: Posting): Promise<Posted> {
  const r = await post(tx, p);
  if (!r.duplicate) await afterBalanceChange(tx, [moveOf(p, r)], { requestedBy: ctx.user.id, requesterName: operator(ctx).operatorName, received: p.kind === 'prepay' && p.amountFen > 0 });
  return r;
}

const keyOf = (requestId: string | undefined) => `counter:${requestId ?? randomUUID()}`;

async function single(ctx: Ctx, o: {
  roomId: number; wallet: Wallet; kind: Kind; amountFen: number; payMethod: string; memo: string; requestId?: string;
  receipt: ReceiptKind; item: string; refType: string;
}): Promise<CounterResult> {
  return ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, o.roomId);
    ctx.audit.target = `${ro.path} ${ro.ownerName} ${WALLET_LABELS[o.wallet]}${KIND_LABELS[o.kind]} ¥${fenToYuan(o.amountFen)}`;
    const p: Posting = {
      companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, wallet: o.wallet, kind: o.kind, amountFen: o.amountFen,
      idempotencyKey: keyOf(o.requestId), payMethod: o.payMethod, refType: o.refType, memo: o.memo, ...operator(ctx),
    };
    const r = await postWithAlarms(tx, ctx, p);
    const rc = await writeReceipt(tx, ctx, {
      companyId: ro.companyId, journalId: r.journalId, ownerId: ro.ownerId, roomId: ro.roomId, kind: o.receipt, payMethod: o.payMethod,
      items: [{ item: o.item, amountFen: Math.abs(r.amountFen) }], memo: o.memo,
    });
    return { journalId: r.journalId, receiptId: rc.id, receiptNo: rc.no, amount: fenToYuan(Math.abs(r.amountFen)), balance: fenToYuan(r.balanceAfterFen), duplicate: r.duplicate };
  });
}

export const prepay = (ctx: Ctx, b: CounterInput) =>
  single(ctx, { ...b, kind: 'prepay', amountFen: b.amount, receipt: 'prepay', item: `${WALLET_LABELS[b.wallet]}充值`, refType: 'counter' });

/** Never more than the balance: the ledger refuses it under the account lock, and nothing changes. */
export const refund = (ctx: Ctx, b: CounterInput) =>
  single(ctx, { ...b, kind: 'refund', amountFen: b.amount, receipt: 'refund', item: `${WALLET_LABELS[b.wallet]}退费`, refType: 'counter' });

export const subsidy = (ctx: Ctx, b: Omit<CounterInput, 'payMethod'>) =>
  single(ctx, { ...b, payMethod: 'system', kind: 'subsidy', amountFen: b.amount, receipt: 'subsidy', item: `${WALLET_LABELS[b.wallet]}补贴`, refType: 'counter' });

/** 账单缴费: pays the wallet's arrears (a balance below zero), all of it unless an amount is given. */
export async function billPay(ctx: Ctx, b: BillPayInput): Promise<CounterResult> {
  const key = keyOf(b.requestId);
  return ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, b.roomId);
    const done = await repo.findByKey(tx, ro.companyId, key);
    let amountFen = b.amount;
    if (!done) {
      const { balanceFen } = await repo.walletBalance(tx, ro.ownerId, b.wallet);
      if (balanceFen >= 0) throw refuse('NO_BILL', `该房间${WALLET_LABELS[b.wallet]}账户没有欠费账单，无需缴费`);
      amountFen ??= -balanceFen;
    }
    amountFen ??= done!.amountFen;
    ctx.audit.target = `${ro.path} ${ro.ownerName} ${WALLET_LABELS[b.wallet]}账单缴费 ¥${fenToYuan(amountFen)}`;
    const p: Posting = {
      companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, wallet: b.wallet, kind: 'prepay', amountFen,
      idempotencyKey: key, payMethod: b.payMethod, refType: 'bill', memo: b.memo || '账单缴费', ...operator(ctx),
    };
    const r = await postWithAlarms(tx, ctx, p);
    const rc = await writeReceipt(tx, ctx, {
      companyId: ro.companyId, journalId: r.journalId, ownerId: ro.ownerId, roomId: ro.roomId, kind: 'billPay', payMethod: b.payMethod,
      items: [{ item: `${WALLET_LABELS[b.wallet]}欠费缴纳`, amountFen: r.amountFen }], memo: b.memo,
    });
    return { journalId: r.journalId, receiptId: rc.id, receiptNo: rc.no, amount: fenToYuan(r.amountFen), balance: fenToYuan(r.balanceAfterFen), duplicate: r.duplicate };
  });
}

/**
 * 综合缴费 (businessPay): several charge-code items at once. Electricity and water codes top up those
 * wallets; property, 公摊 and other fees are received into the 'other' wallet and charged at once
 * (a prepay and a fee of the same amount), so the journal shows both the money and the fee.
 */
export async function businessPay(ctx: Ctx, b: BusinessPayInput) {
  const rid = b.requestId ?? randomUUID();
  return ctx.tx(async (tx) => {
    const ro = await occupiedRoom(tx, b.roomId);
    const codes = new Map((await repo.chargeCodes(tx, b.items.map((i) => i.chargeCodeId))).map((c) => [c.id, c]));
    const items = b.items.map((it, i) => {
      const code = codes.get(it.chargeCodeId);
      if (!code) throw notFound('收费码');
      const amountFen = it.amount ?? code.amountFen * it.quantity;
      if (amountFen <= 0) throw badRequest(`参数「items.${i}.amount」收费码「${code.name}」没有标准金额，请填写金额`);
      const wallet: Wallet = code.schemeType === 1 ? 'electric' : code.schemeType === 2 ? 'water' : 'other';
      return { code, amountFen, wallet, quantity: it.quantity };
    });
    const total = items.reduce((s, i) => s + i.amountFen, 0);
    ctx.audit.target = `${ro.path} ${ro.ownerName} 综合缴费 ¥${fenToYuan(total)}`;
    const base = { companyId: ro.companyId, ownerId: ro.ownerId, roomId: ro.roomId, payMethod: b.payMethod, ...operator(ctx) };
    let first: Posted | null = null;
    for (const [i, it] of items.entries()) {
      const label = `${it.code.name}${it.quantity > 1 ? ` ×${it.quantity}` : ''}`;
      const r = await postWithAlarms(tx, ctx, {
        ...base, wallet: it.wallet, kind: 'prepay', amountFen: it.amountFen, idempotencyKey: `biz:${rid}:${i}`, refType: 'business', refId: it.code.id, memo: `综合缴费：${label}`,
      });
      first ??= r;
      if (it.wallet === 'other') {
        await post(tx, {
          ...base, wallet: 'other', kind: 'fee', amountFen: it.amountFen, idempotencyKey: `biz:${rid}:${i}:fee`, refType: 'business', refId: it.code.id, memo: `收取${label}`,
        });
      }
    }
    const rc = await writeReceipt(tx, ctx, {
      companyId: ro.companyId, journalId: first!.journalId, ownerId: ro.ownerId, roomId: ro.roomId, kind: 'business', payMethod: b.payMethod,
      items: items.map((it) => ({ item: `${it.code.name}${it.quantity > 1 ? ` ×${it.quantity}` : ''}`, amountFen: it.amountFen })), memo: b.memo,
    });
    return { journalId: first!.journalId, receiptId: rc.id, receiptNo: rc.no, amount: fenToYuan(total), duplicate: first!.duplicate };
  });
}
