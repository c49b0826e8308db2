import {
  BANK_LOG_ACTIONS, BANK_NAMES, BANK_WITHDRAW_STATUS, fenToYuan, SUB_MER_STATUS, subMerTransition,
  type BankLogInput, type BankWithdrawal, type BankWithdrawalInput, type BankWithdrawInput, type BocInfoInput, type SubMerEvent,
} from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { conflict, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { rangeOf } from '../../time.ts';
import type { BankClient, BankResult } from './client.ts';
import type { BankPaths } from './protocol.ts';
import * as repo from './repo.ts';

// Bank sub-merchants (SPEC §7 /pay/api/AgricultureBank): each call moves an application through the
// state machine of packages/contracts (resources/bank.ts, subMerTransition) — refused there with a
// Chinese reason and nothing changed when the state does not allow it; otherwise asked of the bank under
// the application's row lock, and the bank's answer recorded with the new state and a log row in one
// transaction (a refusal by the bank is answered after that commit, so its log row stays).
//
// Money: the sub-account's balance is the bank's (SubAccQuery). A withdrawal (idempotent by the
// client's requestId, sent to the bank as order BW<company>-<id>, which the bank treats as its own
// idempotency key) is refused when it exceeds the bank's available balance less the withdrawals the bank
// has not confirmed yet, checked under the row lock that orders the sub-merchant's withdrawals. No owner
// balance changes, so it writes no row of the owners' journal: bank_withdrawals is its record.

const bankNameOf = (bankType: number) => BANK_NAMES[bankType] ?? BANK_NAMES[0];
const who = (ctx: Ctx) => ctx.user.realName || ctx.user.username;
const mask = (phone: string) => phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2');
export const withdrawOrderNo = (companyId: number, id: number) => `BW${companyId}-${id}`;

async function locked(tx: Tx, by: { id: number } | { subMerId: string }) {
  const p = await repo.lockProperty(tx, by);
  if (!p) throw notFound('二级商户');
  return p;
}

interface Outcome {
  /** the state after the answer (unchanged when the bank refused or did not answer) */
  status: string;
  subMerId?: string;
  reason?: string;
  message: string;
}

/**
 * One exchange with the bank for an application: the state machine first, then the call, then the
 * outcome (new state + log row) committed; a refusal by the bank is thrown after the commit.
 */
async function exchange<K extends keyof BankPaths>(
  ctx: Ctx, bank: BankClient, by: { id: number } | { subMerId: string }, event: SubMerEvent, path: K,
  action: keyof typeof BANK_LOG_ACTIONS, build: (p: repo.PropertyRow) => BankPaths[K]['req'],
  decide: (p: repo.PropertyRow, a: BankResult<BankPaths[K]['res']>) => Outcome,
) {
  const r = await ctx.tx(async (tx) => {
    const p = await locked(tx, by);
    ctx.audit.target = `二级商户 ${p.name}${p.subMerId ? `（${p.subMerId}）` : ''}`;
    const t = subMerTransition(p.status, event);
    if (!t.ok) throw refuse('STATUS_INVALID', t.message);
    const req = build(p);
    const a = await bank.call(path, req);
    const o = decide(p, a);
    if (o.status !== p.status || o.subMerId !== undefined || o.reason !== undefined) await repo.setState(tx, p.id, o);
    await repo.insertLog(tx, {
      companyId: p.companyId, propertyId: p.id, subMerId: o.subMerId ?? p.subMerId, bankName: bankNameOf(p.bankType), action, ok: a.ok,
      errCode: a.ok ? '' : a.errCode, message: o.message, statusFrom: p.status, statusTo: o.status, request: req, response: a, operatorName: who(ctx),
    });
    return { p, a, o };
  });
  if (!r.a.ok) throw refuse(r.a.errCode, r.a.errMsg);
  return {
    id: r.p.id, subMerId: r.o.subMerId ?? r.p.subMerId, status: r.o.status, statusText: SUB_MER_STATUS[r.o.status] ?? r.o.status,
    bankName: bankNameOf(r.p.bankType), message: r.o.message, attemptsLeft: null as number | null, phone: null as string | null,
    demoInboxUrl: bank.demoInboxUrl ?? null,
  };
}

/** The state `event` leads to from `from` (the caller checked it is legal). */
const next = (from: string, event: SubMerEvent) => {
  const t = subMerTransition(from, event);
  return t.ok ? t.to : from;
};

export function register(ctx: Ctx, bank: BankClient, propertyId: number) {
  return exchange(ctx, bank, { id: propertyId }, 'register', 'register', 'RegSubMerInfo', (p) => ({
    outMerNo: `P${p.companyId}-${p.id}`, name: p.name, shortName: p.shortName, licenseNo: p.licenseNo, legalPerson: p.legalPerson,
    legalIdNo: p.legalIdNo, contactName: p.contactName, phone: p.phone, address: p.address, accountName: p.accountName,
    accountNo: p.accountNo.replace(/\s+/g, ''), accountBank: p.accountBank,
  }), (p, a) => (a.ok
    ? { status: next(p.status, 'register'), subMerId: a.data.subMerId, reason: '', message: `已提交${bankNameOf(p.bankType)}，子商户号 ${a.data.subMerId}` }
    : { status: p.status, reason: a.lost ? undefined : a.errMsg, message: a.errMsg }));
}

export async function sendCode(ctx: Ctx, bank: BankClient, subMerId: string) {
  const r = await exchange(ctx, bank, { subMerId }, 'sendCode', 'sendCode', 'SendMobileMessageForSubMer', (p) => ({ subMerId: p.subMerId }),
    (p, a) => (a.ok
      ? { status: next(p.status, 'sendCode'), message: `验证码已发送至 ${mask(p.phone)}，银行已向结算账户打入一笔随机金额` }
      : { status: p.status, message: a.errMsg }));
  return { ...r, phone: r.message.match(/\d{3}\*{4}\d{4}/)?.[0] ?? null };
}

export function verify(ctx: Ctx, bank: BankClient, b: { subMerId: string; code: string; amount: number }) {
  return exchange(ctx, bank, { subMerId: b.subMerId }, 'verify', 'verify', 'VerifyMessageCodeAndRandomAmount',
    (p) => ({ subMerId: p.subMerId, code: b.code, amountFen: b.amount }),
    (p, a) => {
      if (a.ok) return { status: next(p.status, 'verify'), reason: '', message: '验证通过，可申请开通' };
      if (a.errCode === 'VERIFY_REJECTED') return { status: next(p.status, 'reject'), reason: a.errMsg, message: a.errMsg };
      return { status: next(p.status, 'verifyFailed'), message: a.errMsg };
    });
}

export function setStatus(ctx: Ctx, bank: BankClient, b: { subMerId: string; status: 'active' | 'disabled' }) {
  return ctx.tx((tx) => locked(tx, { subMerId: b.subMerId })).then((p) => {
    const event: SubMerEvent = b.status === 'disabled' ? 'disable' : p.status === 'disabled' ? 'enable' : 'activate';
    return exchange(ctx, bank, { subMerId: b.subMerId }, event, 'status', 'UpdateSubMerchantStatusRequest', (x) => ({ subMerId: x.subMerId, status: b.status }),
      (x, a) => (a.ok ? { status: next(x.status, event), message: b.status === 'active' ? '子商户已开通' : '子商户已停用' } : { status: x.status, message: a.errMsg }));
  });
}

async function askBalance(tx: Tx, bank: BankClient, p: repo.PropertyRow, operator: string) {
  const req = { subMerId: p.subMerId };
  const a = await bank.call('query', req);
  await repo.insertLog(tx, {
    companyId: p.companyId, propertyId: p.id, subMerId: p.subMerId, bankName: bankNameOf(p.bankType), action: 'SubAccQuery', ok: a.ok,
    errCode: a.ok ? '' : a.errCode, message: a.ok ? `可用余额 ¥${fenToYuan(a.data.availableFen)}` : a.errMsg, statusFrom: p.status, statusTo: p.status,
    request: req, response: a, operatorName: operator,
  });
  return a;
}

export async function balance(ctx: Ctx, bank: BankClient, subMerId: string) {
  const r = await ctx.tx(async (tx) => {
    const p = await locked(tx, { subMerId });
    const a = await askBalance(tx, bank, p, who(ctx));
    return { p, a, unconfirmed: await repo.unconfirmedFen(tx, p.id) };
  });
  if (!r.a.ok) throw refuse(r.a.errCode, r.a.errMsg);
  const available = Math.max(0, r.a.data.availableFen - r.unconfirmed);
  return {
    subMerId, bankName: bankNameOf(r.p.bankType), balance: fenToYuan(r.a.data.balanceFen), available: fenToYuan(available), availableFen: available,
    processing: fenToYuan(r.unconfirmed), accountName: r.p.accountName, accountNo: r.p.accountNo,
  };
}

// ---- withdrawals ------------------------------------------------------------------------------------

const STATUS_OF = { processing: 0, succeeded: 1, failed: 2 } as const;

export async function withdraw(ctx: Ctx, bank: BankClient, b: BankWithdrawInput) {
  const first = await ctx.tx(async (tx) => {
    // the application's row lock orders every withdrawal of the sub-merchant
    const p = await locked(tx, { subMerId: b.subMerId });
    ctx.audit.target = `二级商户 ${p.name} 提现 ¥${fenToYuan(b.amount)}`;
    const before = await repo.withdrawalByRequest(tx, p.companyId, b.requestId);
    if (before) {
      if (before.propertyId !== p.id || before.amountFen !== b.amount) throw conflict('该请求编号已用于另一笔提现，请重新打开提现窗口');
      return { p, w: before, duplicate: true };
    }
    if (p.status !== 'active') throw refuse('SUBMER_NOT_ACTIVE', `该商户当前为「${SUB_MER_STATUS[p.status] ?? p.status}」，开通后才能提现`);
    const a = await askBalance(tx, bank, p, who(ctx));
    if (!a.ok) return { p, refused: a };
    const available = a.data.availableFen - (await repo.unconfirmedFen(tx, p.id));
    if (b.amount > available) {
      return { p, refused: { errCode: 'INSUFFICIENT_BALANCE', errMsg: `提现金额 ¥${fenToYuan(b.amount)} 超过子账户可用余额 ¥${fenToYuan(Math.max(0, available))}` } };
    }
    const w = await repo.insertWithdrawal(tx, {
      companyId: p.companyId, propertyId: p.id, subMerId: p.subMerId, requestId: b.requestId, amountFen: b.amount, accountName: p.accountName,
      accountNo: p.accountNo, memo: b.memo, operatorId: ctx.user.id, operatorName: who(ctx),
    });
    return { p, w, duplicate: false };
  });
  if ('refused' in first && first.refused) throw refuse(first.refused.errCode, first.refused.errMsg);
  const { p, w, duplicate } = first as { p: repo.PropertyRow; w: repo.WithdrawalRow; duplicate: boolean };
  // asked of the bank while it has no answer (a retry of the same request asks again: the order number is the bank's key)
  if (w.status === 0) await submit(ctx, bank, p, w);
  const [row] = (await ctx.tx((tx) => repo.listWithdrawals(tx, { companyId: p.companyId, id: w.id }, 1, 0))).rows;
  return { ...presentWithdrawal(row), duplicate };
}

async function submit(ctx: Ctx, bank: BankClient, p: repo.PropertyRow, w: repo.WithdrawalRow) {
  const req = { subMerId: p.subMerId, orderNo: withdrawOrderNo(p.companyId, w.id), amountFen: w.amountFen };
  const a = await bank.call('withdraw', req);
  await ctx.tx(async (tx) => {
    const now = await repo.lockWithdrawal(tx, w.id);
    if (!now || now.status !== 0) return;
    // no answer: left 处理中 for a retry; a refusal: failed, nothing left the sub-account
    if (a.ok) await repo.finishWithdrawal(tx, w.id, { status: STATUS_OF[a.data.status], bankSerial: a.data.serialNo, reason: a.data.reason });
    else if (!a.lost) await repo.finishWithdrawal(tx, w.id, { status: 2, bankSerial: '', reason: a.errMsg });
    await repo.insertLog(tx, {
      companyId: p.companyId, propertyId: p.id, subMerId: p.subMerId, bankName: bankNameOf(p.bankType), action: 'Withdrawal', ok: a.ok,
      errCode: a.ok ? '' : a.errCode, message: a.ok ? `提现 ¥${fenToYuan(w.amountFen)}：${BANK_WITHDRAW_STATUS[STATUS_OF[a.data.status]]}${a.data.reason ? `（${a.data.reason}）` : ''}` : a.errMsg,
      statusFrom: p.status, statusTo: p.status, request: req, response: a, operatorName: who(ctx),
    });
  });
}

function presentWithdrawal(x: Record<string, unknown>): BankWithdrawal {
  const text = (k: string) => String(x[k] ?? '');
  return {
    id: Number(x.id), companyId: Number(x.companyId), propertyId: Number(x.propertyId), propertyName: text('propertyName'), subMerId: text('subMerId'),
    requestId: text('requestId'), orderNo: withdrawOrderNo(Number(x.companyId), Number(x.id)), amount: fenToYuan(Number(x.amountFen)),
    status: Number(x.status), statusText: BANK_WITHDRAW_STATUS[Number(x.status)] ?? text('status'), bankSerial: text('bankSerial'),
    bankName: text('bankName'), accountName: text('accountName'), accountNo: text('accountNo'), reason: text('reason'), memo: text('memo'),
    operatorName: text('operatorName'), createdAt: text('createdAt'), finishedAt: x.finishedAt == null ? null : text('finishedAt'),
  };
}

export function withdrawals(ctx: Ctx, q: BankWithdrawalInput) {
  return ctx.tx(async (tx) => {
    const r = await repo.listWithdrawals(tx, { companyId: ctx.scope.companyId, subMerId: q.subMerId }, q.size, offsetOf(q));
    return new Page(r.rows.map(presentWithdrawal), r.count);
  });
}

export function logs(ctx: Ctx, q: BankLogInput) {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return ctx.tx(async (tx) => {
    const r = await repo.listLogs(tx, { companyId: ctx.scope.companyId, subMerId: q.subMerId, action: q.action, ok: q.ok == null ? undefined : q.ok === '1', from, to }, q.size, offsetOf(q));
    return new Page(r.rows.map((x) => ({ ...x, actionText: BANK_LOG_ACTIONS[String(x.action)] ?? String(x.action) })), r.count);
  });
}

// ---- companyBocInfo -----------------------------------------------------------------------------------

export async function bocInfo(ctx: Ctx) {
  const companyId = companyOf(ctx);
  const r = await ctx.tx((tx) => repo.bocInfo(tx, companyId));
  if (!r) throw notFound('单位');
  return { ...r, companyId: Number(r.companyId), bankType: Number(r.bankType), bankName: bankNameOf(Number(r.bankType)) };
}

export function saveBocInfo(ctx: Ctx, b: BocInfoInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `单位银行信息 ${b.merId}`;
  return ctx.tx(async (tx) => {
    await repo.saveBocInfo(tx, companyId, b);
    return null;
  });
}
