import { fenToYuan, PAY_APP_KINDS, PAY_APP_STATUS, WITHDRAW_FEE_RULE, WITHDRAW_STATUS_TEXT, maxWithdrawalFen, withdrawalFeeFen } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { conflict, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { rangeOf } from '../../time.ts';
import { orderNo, parseOrderNo, verifyNotice, type PayAppProvider, type WithdrawalInfo, type WithdrawalNotice } from './provider.ts';
import * as repo from './repo.ts';
import type { AddInput, BankInput, JournalInput, ListInput, LogInput, WithdrawInput } from './schema.ts';

// Pay-application (汇付 AdaPay) merchant accounts: a company's accounts at the payment provider, the
// money its online payments bring into them, and withdrawals to their settlement bank cards.
//
// Money (DESIGN §5): integer 分. Every change of an account's balance is a row of its append-only
// journal (pay_app_journal) written in the same transaction as the balance, under the account's row
// lock, with an idempotency key that has a unique index:
//   pay:<out_trade_no>  collect   + an online payment collected through the account
//   wd:<withdrawal>     withdrawal − the amount, when asked
//   wdfee:<withdrawal>  fee        − the withdrawal fee (WITHDRAW_FEE_RULE), when asked
//   wdback:<withdrawal> reversal   + amount and fee, when the provider reports the withdrawal failed
// So balance == Σ journal always, a withdrawal never takes more than the balance (checked under the
// lock, and a CHECK keeps it ≥ 0), and the same withdrawal request (company, requestId) is one
// withdrawal. The provider (provider.ts) is asked outside any transaction by the job (runPayAppJobs).

const PROCESSING = 0;
const SUCCEEDED = 1;
const FAILED = 2;

const money = (fen: number) => fenToYuan(fen);

/** Posts entries to a locked account: balance_after per row, duplicates (by key) skipped, balance updated once. */
async function postEntries(tx: Tx, app: repo.AppRow, entries: Omit<repo.JournalEntry, 'balanceAfterFen' | 'companyId' | 'appId'>[]) {
  let balance = app.balanceFen;
  const posted: number[] = [];
  for (const e of entries) {
    const after = balance + e.amountFen;
    if (after < 0) throw refuse('INSUFFICIENT_BALANCE', `账户可用余额不足（当前余额 ¥${money(balance)}）`);
    const id = await repo.insertJournal(tx, { ...e, companyId: app.companyId, appId: app.id, balanceAfterFen: after });
    if (id == null) continue;
    balance = after;
    posted.push(id);
  }
  if (balance !== app.balanceFen) await repo.setBalance(tx, app.id, balance);
  app.balanceFen = balance;
  return posted;
}

function presentApp(x: Record<string, unknown>) {
  const { balanceFen, processingFen, ...rest } = x;
  const balance = Number(balanceFen);
  return {
    ...rest,
    kindText: PAY_APP_KINDS[Number(x.kind)] ?? String(x.kind),
    statusText: PAY_APP_STATUS[String(x.status)] ?? String(x.status),
    balance: money(balance),
    balanceFen: balance,
    processing: money(Number(processingFen)),
    maxWithdrawal: money(maxWithdrawalFen(balance)),
  };
}

function presentWithdrawal(x: Record<string, unknown>) {
  const { amountFen, feeFen, ...rest } = x;
  return {
    ...rest,
    amount: money(Number(amountFen)),
    fee: money(Number(feeFen)),
    total: money(Number(amountFen) + Number(feeFen)),
    statusText: WITHDRAW_STATUS_TEXT[Number(x.status)] ?? String(x.status),
  };
}

// ---- accounts ------------------------------------------------------------------------------------

export function listApps(ctx: Ctx, q: ListInput) {
  return ctx.tx(async (tx) => {
    const r = await repo.listApps(tx, { companyId: ctx.scope.companyId, name: q.name, status: q.status }, q.size, offsetOf(q));
    return new Page(r.rows.map(presentApp), r.count);
  });
}

export async function addApp(ctx: Ctx, b: AddInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `汇付账户 ${b.name}`;
  const id = await ctx.tx((tx) => repo.insertApp(tx, { ...b, kind: Number(b.kind), companyId, createdBy: ctx.user.id }));
  if (id == null) throw conflict(`账户名称「${b.name}」已存在`);
  return { id, status: 'pending', statusText: PAY_APP_STATUS.pending };
}

async function locked(tx: Tx, id: number) {
  const app = await repo.lockApp(tx, id);
  if (!app) throw notFound('汇付账户');
  return app;
}

export function changeBank(ctx: Ctx, b: BankInput) {
  return ctx.tx(async (tx) => {
    const app = await locked(tx, b.id);
    ctx.audit.target = `汇付账户 ${app.name} 结算卡 ${b.bankName} 尾号${b.bankAccountNo.slice(-4)}`;
    await repo.updateBank(tx, app.id, b);
    return null;
  });
}

export function setEnabled(ctx: Ctx, id: number, enabled: boolean) {
  return ctx.tx(async (tx) => {
    const app = await locked(tx, id);
    ctx.audit.target = `汇付账户 ${app.name} ${enabled ? '启用' : '停用'}`;
    if (enabled && app.status !== 'disabled') throw refuse('STATUS_INVALID', `该账户当前为「${PAY_APP_STATUS[app.status]}」，无需启用`);
    if (!enabled && app.status !== 'opened') throw refuse('STATUS_INVALID', `该账户当前为「${PAY_APP_STATUS[app.status]}」，只有已开通的账户可以停用`);
    await repo.setStatus(tx, app.id, enabled ? 'opened' : 'disabled');
    return null;
  });
}

export function deleteApp(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const app = await locked(tx, id);
    ctx.audit.target = `汇付账户 ${app.name}`;
    if (app.balanceFen > 0) throw refuse('HAS_BALANCE', `该账户尚有余额 ¥${money(app.balanceFen)}，请先提现后再删除`);
    const p = await repo.processing(tx, app.id);
    if (p.count > 0) throw refuse('WITHDRAWAL_IN_PROGRESS', `该账户有 ${p.count} 笔提现正在处理中（¥${money(p.amountFen)}），请等待处理完成后再删除`);
    await repo.softDelete(tx, app.id);
    return null;
  });
}

export async function getBalance(ctx: Ctx, id: number) {
  const r = await ctx.tx((tx) => repo.listApps(tx, { companyId: ctx.scope.companyId, id }, 1, 0));
  const row = r.rows[0];
  if (!row) throw notFound('汇付账户');
  const app = presentApp(row);
  return {
    id: Number(row.id), name: String(row.name), status: String(row.status), statusText: app.statusText, balance: app.balance, balanceFen: app.balanceFen,
    processing: app.processing, processingCount: row.processingCount, maxWithdrawal: app.maxWithdrawal,
    fee: { rateBp: WITHDRAW_FEE_RULE.rateBp, min: money(WITHDRAW_FEE_RULE.minFen), max: money(WITHDRAW_FEE_RULE.maxFen), text: WITHDRAW_FEE_RULE.text },
  };
}

// ---- withdrawals ---------------------------------------------------------------------------------

export async function withdraw(ctx: Ctx, b: WithdrawInput) {
  const r = await ctx.tx(async (tx) => {
    // the account's row lock orders every withdrawal (and collection) of the account
    const app = await locked(tx, b.id);
    ctx.audit.target = `汇付账户 ${app.name} 提现 ¥${money(b.amount)}`;
    const before = await repo.withdrawalByRequest(tx, app.companyId, b.requestId);
    if (before) {
      if (before.appId !== app.id || before.amountFen !== b.amount) throw conflict('该请求编号已用于另一笔提现，请重新打开提现窗口');
      return { w: before, duplicate: true, balanceFen: app.balanceFen };
    }
    if (app.status !== 'opened') {
      throw refuse('APP_NOT_OPENED', app.status === 'disabled' ? '该账户已停用，不能提现' : `该账户${PAY_APP_STATUS[app.status]}，开通后才能提现`);
    }
    const fee = withdrawalFeeFen(b.amount);
    if (b.amount + fee > app.balanceFen) {
      throw refuse('INSUFFICIENT_BALANCE',
        `可提现余额不足：提现 ¥${money(b.amount)} 加手续费 ¥${money(fee)} 超过账户余额 ¥${money(app.balanceFen)}（最多可提现 ¥${money(maxWithdrawalFen(app.balanceFen))}）`);
    }
    const who = ctx.user.realName || ctx.user.username;
    const w = await repo.insertWithdrawal(tx, {
      companyId: app.companyId, appId: app.id, requestId: b.requestId, amountFen: b.amount, feeFen: fee, bankName: app.bankName,
      bankAccountName: app.bankAccountName, bankAccountNo: app.bankAccountNo, memo: b.memo, operatorId: ctx.user.id, operatorName: who,
    });
    const entries: Parameters<typeof postEntries>[2] = [
      { kind: 'withdrawal', amountFen: -b.amount, key: `wd:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: who, memo: `提现至 ${app.bankName} 尾号${app.bankAccountNo.slice(-4)}` },
    ];
    if (fee > 0) entries.push({ kind: 'fee', amountFen: -fee, key: `wdfee:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: who, memo: '提现手续费' });
    await postEntries(tx, app, entries);
    return { w, duplicate: false, balanceFen: app.balanceFen };
  });
  return {
    id: r.w.id, requestId: r.w.requestId, amount: money(r.w.amountFen), fee: money(r.w.feeFen), status: r.w.status,
    statusText: WITHDRAW_STATUS_TEXT[r.w.status], balance: money(r.balanceFen), duplicate: r.duplicate,
  };
}

export function withdrawalLog(ctx: Ctx, q: LogInput) {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return ctx.tx(async (tx) => {
    const r = await repo.listWithdrawals(tx, { companyId: ctx.scope.companyId, status: q.status, appId: q.applicationId, from, to }, q.size, offsetOf(q));
    return new Page(r.rows.map(presentWithdrawal), r.count);
  });
}

export const JOURNAL_KIND_TEXT: Record<string, string> = { collect: '收款', withdrawal: '提现', fee: '提现手续费', reversal: '提现失败退回' };

/** An account's statement: its journal, newest first (balanceAfter of each row = Σ up to it). */
export function journal(ctx: Ctx, q: JournalInput) {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return ctx.tx(async (tx) => {
    const r = await repo.listJournal(tx, { companyId: ctx.scope.companyId, appId: q.id, kind: q.kind, from, to }, q.size, offsetOf(q));
    return new Page(r.rows.map(({ amountFen, balanceAfterFen, ...x }) => ({
      ...x,
      kindText: JOURNAL_KIND_TEXT[String(x.kind)] ?? String(x.kind),
      amount: money(Number(amountFen)),
      balanceAfter: money(Number(balanceAfterFen)),
    })), r.count);
  });
}

// ---- what the worker does --------------------------------------------------------------------------

/**
 * Credits the companies' paid online payments to their collecting account (the oldest opened one),
 * once each (key pay:<out_trade_no>). A company with nothing new costs one small read, no lock.
 */
export async function collectPayments(db: Db, batch = 500): Promise<number> {
  let credited = 0;
  const apps = await db.tx(SYSTEM_SCOPE, (tx) => repo.collectingApps(tx));
  for (const a of apps) {
    for (let more = true; more;) {
      const r = await db.tx(SYSTEM_SCOPE, async (tx) => {
        if ((await repo.uncollectedPayments(tx, a.id, a.companyId, 1)).length === 0) return { posted: 0, full: false };
        const app = await repo.lockApp(tx, a.id);
        if (!app || app.status !== 'opened') return { posted: 0, full: false };
        const pays = await repo.uncollectedPayments(tx, app.id, app.companyId, batch);
        const posted = await postEntries(tx, app, pays.map((p) => ({
          kind: 'collect' as const, amountFen: p.amountFen, key: `pay:${p.outTradeNo}`, refType: 'payment', refId: p.id,
          operatorName: p.channel === 'alipay' ? '支付宝' : '微信支付', memo: `在线支付收款 ${p.outTradeNo}`,
        })));
        // the window moves on only once everything before it is collected (a full batch: more to come)
        const full = pays.length === batch;
        if (!full) await repo.markCollected(tx, app.id);
        return { posted: posted.length, full };
      });
      credited += r.posted;
      more = r.full;
    }
  }
  return credited;
}

/** Applications waiting for the provider: opened or rejected as it answers. */
export async function pollApplications(db: Db, provider: PayAppProvider): Promise<number> {
  const apps = await db.tx(SYSTEM_SCOPE, (tx) => repo.pendingApps(tx, 100));
  let moved = 0;
  for (const a of apps) {
    const s = await provider.application({ id: a.id, companyId: a.companyId, name: a.name, kind: a.kind, idNo: a.idNo, bankAccountNo: a.bankAccountNo });
    if (s.status === 'pending') continue;
    await db.tx(SYSTEM_SCOPE, async (tx) => {
      const now = await repo.lockApp(tx, a.id);
      if (!now || now.status !== 'pending') return;
      if (s.status === 'opened') await repo.setStatus(tx, a.id, 'opened', { providerAppId: s.providerAppId, reason: '' });
      else await repo.setStatus(tx, a.id, 'rejected', { reason: s.reason });
      moved++;
    });
  }
  return moved;
}

/**
 * One withdrawal's outcome: succeeded (the money left), or failed — amount and fee back to the
 * balance, once (key wdback:<id>, and the withdrawal row locked and still processing).
 */
export async function finishWithdrawal(
  db: Db, id: number, outcome: { status: 'succeeded' } | { status: 'failed'; reason: string }, from?: { companyId: number; providerNo: string },
) {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const w = await repo.lockWithdrawal(tx, id);
    if (from && (!w || w.companyId !== from.companyId)) throw notFound('提现记录');
    if (from && w!.providerNo && w!.providerNo !== from.providerNo) throw refuse('PROVIDER_NO_MISMATCH', '通知中的支付平台流水号与提现记录不符');
    if (!w || w.status !== PROCESSING) return false;
    if (from && !w.providerNo) await repo.setProviderNo(tx, w.id, from.providerNo);
    if (outcome.status === 'succeeded') {
      await repo.finishWithdrawal(tx, id, SUCCEEDED, '');
      return true;
    }
    // the account cannot have been deleted: deletion is refused while a withdrawal is processing
    const app = await repo.lockApp(tx, w.appId, true);
    if (!app) throw new Error(`pay app ${w.appId} of withdrawal ${id} not found`);
    await postEntries(tx, app, [{
      kind: 'reversal', amountFen: w.amountFen + w.feeFen, key: `wdback:${w.id}`, refType: 'withdrawal', refId: w.id, operatorName: '系统',
      memo: `提现失败退回（含手续费 ¥${money(w.feeFen)}）：${outcome.reason}`,
    }]);
    await repo.finishWithdrawal(tx, id, FAILED, outcome.reason);
    return true;
  });
}

/**
 * The provider's signed notification of a withdrawal's outcome (its callback): verified, then
 * recorded once — a repeated or late notification answers `duplicate: true` and changes nothing.
 */
export async function handleNotice(db: Db, n: WithdrawalNotice) {
  if (!verifyNotice(n)) throw refuse('SIGN_INVALID', '提现通知签名校验失败');
  const o = parseOrderNo(n.order_no);
  if (!o) throw notFound('提现记录');
  const reason = n.status === 'failed' ? (n.reason?.trim() || '支付平台未说明原因') : '';
  const changed = await finishWithdrawal(db, o.id, n.status === 'failed' ? { status: 'failed', reason } : { status: 'succeeded' }, { companyId: o.companyId, providerNo: n.provider_no });
  const [w] = (await db.tx(SYSTEM_SCOPE, (tx) => repo.listWithdrawals(tx, { companyId: o.companyId, id: o.id }, 1, 0))).rows;
  return { orderNo: n.order_no, status: Number(w.status), statusText: WITHDRAW_STATUS_TEXT[Number(w.status)], duplicate: !changed };
}

/** Withdrawals still processing: submitted to the provider if not yet, then asked where they stand. */
export async function pollWithdrawals(db: Db, provider: PayAppProvider): Promise<{ submitted: number; succeeded: number; failed: number }> {
  const out = { submitted: 0, succeeded: 0, failed: 0 };
  const rows = await db.tx(SYSTEM_SCOPE, (tx) => repo.processingWithdrawals(tx, 200));
  for (const w of rows) {
    const info: WithdrawalInfo = {
      id: w.id, companyId: w.companyId, providerAppId: w.providerAppId, amountFen: w.amountFen, bankAccountNo: w.bankAccountNo,
      createdAt: w.createdAt, providerNo: w.providerNo,
    };
    if (!info.providerNo) {
      const { providerNo } = await provider.submitWithdrawal(info, orderNo(w.companyId, w.id));
      await db.tx(SYSTEM_SCOPE, (tx) => repo.setProviderNo(tx, w.id, providerNo));
      info.providerNo = providerNo;
      out.submitted++;
    }
    const s = await provider.withdrawal(info);
    if (s.status === 'processing') continue;
    if (await finishWithdrawal(db, w.id, s)) out[s.status]++;
  }
  return out;
}

/** Everything the worker does for the pay-application accounts, once. */
export async function runPayAppJobs(db: Db, provider: PayAppProvider) {
  const opened = await pollApplications(db, provider);
  const collected = await collectPayments(db);
  const w = await pollWithdrawals(db, provider);
  return { opened, collected, ...w };
}
