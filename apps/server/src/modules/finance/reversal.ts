import { fenToYuan } from '@meter/contracts';
import { afterBalanceChange, lockAccounts, moveOf, post, WALLET_LABELS, type Posting, type Wallet } from '../billing/index.ts';
import type { Ctx } from '../../http/context.ts';
import { notFound, refuse } from '../../http/errors.ts';
import * as repo from './repo.ts';

// 作废/冲正 (issue 14 item 14): a counter receipt is voided by a new journal row of kind 'reversal'
// with the opposite amount (reverses_id = the original row, key void:<row>, so twice is impossible),
// in the same pay method (a voided cash receipt takes the cash out of the day's cash total), and a
// receipt_voids row; the original receipt and its journal row never change. The balance goes back
// and the alarm rules run on it (a voided top-up may close the meters again).
// Refused: a receipt already voided; one whose business day is closed (日结, or the original
// operator's 交班) — after the close a correction is a 退费 on the next open day; a top-up the
// balance no longer covers (the money was spent: voiding it would create arrears from nothing);
// a closed account; receipts that are not a single counter posting (综合缴费 spans several postings,
// 销户退费 closed the account) and online payments (their money goes back through the provider).

const VOIDABLE = new Set(['prepay', 'refund', 'subsidy', 'billPay']);
const RECEIPT_TEXT: Record<string, string> = { prepay: '充值', refund: '退费', subsidy: '补贴', billPay: '账单缴费', business: '综合缴费', close: '销户退费' };
const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;

export async function voidReceipt(ctx: Ctx, b: { receiptId: number; reason: string }) {
  return ctx.tx(async (tx) => {
    const target = await repo.lockVoidTarget(tx, b.receiptId, ctx.scope.areaIds != null);
    if (!target) throw notFound('票据');
    ctx.audit.target = `作废票据 ${target.no}：${b.reason}`;
    if (target.voided) throw refuse('ALREADY_VOIDED', `票据 ${target.no} 已作废，不能重复冲正`);
    if (!VOIDABLE.has(target.receiptKind)) {
      throw refuse('NOT_VOIDABLE', `${RECEIPT_TEXT[target.receiptKind] ?? target.receiptKind}票据不能作废${target.receiptKind === 'business' ? '，请按项目办理退费' : ''}`);
    }
    if (target.refType === 'payment') throw refuse('NOT_VOIDABLE', '线上支付的票据不能作废，请通过原支付渠道退款');
    if (target.refType === 'payRefund') throw refuse('NOT_VOIDABLE', '线上退款的凭证不能作废：款项已由支付平台原路退回');
    // no closing may commit between this check and the reversal row (the closing waits for this transaction)
    await repo.holdDays(tx, target.companyId);
    const closed = await repo.dayClosed(tx, target.companyId, target.businessDay, target.operatorId);
    if (closed) {
      throw refuse('DAY_CLOSED', `票据所属营业日 ${target.businessDay} 已${closed.company ? '日结' : '交班'}，不能作废；如需更正请办理退费（记入当前营业日）`);
    }
    const [account] = await lockAccounts(tx, [{ companyId: target.companyId, ownerId: target.ownerId, roomId: target.roomId, wallet: target.wallet }]);
    if (account.status !== 1) throw refuse('ACCOUNT_CLOSED', '该账户已销户，不能作废票据');
    const amountFen = -target.amountFen;
    if (account.balanceFen + amountFen < 0) {
      throw refuse('INSUFFICIENT_BALANCE',
        `${WALLET_LABELS[target.wallet as Wallet]}账户余额 ¥${fenToYuan(account.balanceFen)} 不足以冲正 ¥${fenToYuan(-amountFen)}：已消费的金额不能作废，请核实后办理`);
    }
    const p: Posting = {
      companyId: target.companyId, ownerId: target.ownerId, roomId: target.roomId, wallet: target.wallet as Wallet, kind: 'reversal', amountFen,
      idempotencyKey: `void:${target.journalId}`, payMethod: target.payMethod, refType: 'void', refId: target.receiptId, reversesId: target.journalId,
      operatorId: ctx.user.id, operatorName: operatorName(ctx), memo: `作废票据 ${target.no}：${b.reason}`,
    };
    const r = await post(tx, p);
    if (r.duplicate) throw refuse('ALREADY_VOIDED', `票据 ${target.no} 已作废，不能重复冲正`);
    await afterBalanceChange(tx, [moveOf(p, r)], { requestedBy: ctx.user.id, requesterName: operatorName(ctx) });
    await repo.insertVoid(tx, {
      receiptId: target.receiptId, companyId: target.companyId, journalId: target.journalId, reversalJournalId: r.journalId, reason: b.reason,
      voidedBy: ctx.user.id, voidedByName: operatorName(ctx),
    });
    return { receiptId: target.receiptId, no: target.no, reversalJournalId: r.journalId, amount: fenToYuan(amountFen), balance: fenToYuan(r.balanceAfterFen) };
  });
}

/** The voids of receipts (for /billprint and the receipt's 作废 mark). */
export async function voidsOf(ctx: Ctx, receiptIds: number[]) {
  const rows = await ctx.tx((tx) => repo.voidsOf(tx, receiptIds));
  return rows.map(({ amountFen, ...x }) => ({ ...x, amount: fenToYuan(amountFen) }));
}
