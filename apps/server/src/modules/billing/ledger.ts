import { fenToYuan } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { refuse } from '../../http/errors.ts';
import * as repo from './repo/index.ts';

// The one way money moves (DESIGN §5): a journal row and the account balance, in the caller's
// transaction, under a row lock on the account. Idempotent per (company, key): a repeated key
// returns the first posting and changes nothing.

export type Wallet = 'electric' | 'water' | 'subsidy' | 'other';
export type Kind = 'prepay' | 'refund' | 'subsidy' | 'deduction' | 'fee' | 'reversal' | 'withdrawal' | 'opening';

export const KIND_LABELS: Record<Kind, string> = {
  prepay: '充值', refund: '退费', subsidy: '补贴', deduction: '扣费', fee: '费用', reversal: '冲正', withdrawal: '提现', opening: '期初余额',
};

/**
 * The kinds of money credited, which every figure keeps apart (issue 11 item 9): 实收 (a prepay paid
 * by cash, WeChat, Alipay or bank — money received), 系统入账 (a prepay with pay method 'system':
 * credited, not received), 补贴 (kind subsidy), 期初余额 (kind opening: a balance carried over when
 * an account is set up, never money received on that day).
 */
export const RECEIPT_METHODS = ['cash', 'wechat', 'alipay', 'bank'] as const;
export const WALLET_LABELS: Record<Wallet, string> = { electric: '电费', water: '水费', subsidy: '补贴', other: '其他费用' };

/** credits are positive, debits negative; refunds and withdrawals may never overdraw */
/** a reversal and an opening balance (which may carry arrears over) pass their signed amount */
const SIGN: Record<Kind, 1 | -1 | 0> = { prepay: 1, subsidy: 1, refund: -1, withdrawal: -1, deduction: -1, fee: -1, reversal: 0, opening: 0 };
/** the amount is wrong for the kind: not an integer, ≤ 0 for a signed kind, 0 for an opening balance */
const badAmount = (p: { kind: Kind; amountFen: number }) =>
  !Number.isSafeInteger(p.amountFen) || (SIGN[p.kind] !== 0 && p.amountFen <= 0) || (p.kind === 'opening' && p.amountFen === 0);

export interface Posting {
  companyId: number;
  ownerId: number;
  roomId: number | null;
  wallet: Wallet;
  kind: Kind;
  /** positive amount in 分; the sign comes from the kind (a reversal passes its signed amount) */
  amountFen: number;
  idempotencyKey: string;
  payMethod?: string;
  refType?: string;
  refId?: number | null;
  reversesId?: number | null;
  operatorId?: number | null;
  operatorName?: string;
  memo?: string;
}

export interface Posted {
  journalId: number;
  accountId: number;
  balanceAfterFen: number;
  amountFen: number;
  duplicate: boolean;
  /** the account's alarm level before this posting (alarms.ts decides the next one) */
  alarmLevel?: number;
}

/** A refund or withdrawal may not take the balance below 0 (INSUFFICIENT_BALANCE). */
function checkBalance(p: Posting, balanceFen: number, after: number) {
  if ((p.kind === 'refund' || p.kind === 'withdrawal') && after < 0) {
    throw refuse('INSUFFICIENT_BALANCE', `${KIND_LABELS[p.kind]}金额不能超过账户余额（当前余额 ¥${fenToYuan(balanceFen)}）`);
  }
}

/** The journal row of posting `p` on account `accountId`: `signed` takes its balance to `after`. */
function journalDraft(p: Posting, accountId: number, signed: number, after: number): JournalDraft {
  return {
    companyId: p.companyId,
    accountId,
    ownerId: p.ownerId,
    roomId: p.roomId,
    wallet: p.wallet,
    kind: p.kind,
    amountFen: signed,
    balanceAfterFen: after,
    idempotencyKey: p.idempotencyKey,
    payMethod: p.payMethod ?? 'system',
    refType: p.refType ?? '',
    refId: p.refId ?? null,
    reversesId: p.reversesId ?? null,
    operatorId: p.operatorId ?? null,
    operatorName: p.operatorName ?? '',
    memo: p.memo ?? '',
  };
}

export async function post(tx: Tx, p: Posting): Promise<Posted> {
  if (!Number.isSafeInteger(p.amountFen)) throw refuse('AMOUNT_INVALID', '金额无效');
  const sign = SIGN[p.kind];
  if (badAmount(p)) throw refuse('AMOUNT_INVALID', p.kind === 'opening' ? '期初余额不能为 0' : '金额必须大于 0');
  const signed = sign === 0 ? p.amountFen : sign * p.amountFen;

  const account = await repo.lockAccount(tx, { companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet: p.wallet });
  // checked under the account lock: a concurrent twin has committed or not yet started
  const existing = await repo.findByKey(tx, p.companyId, p.idempotencyKey);
  if (existing) {
    return { journalId: existing.id, accountId: existing.accountId, balanceAfterFen: existing.balanceAfterFen, amountFen: existing.amountFen, duplicate: true };
  }
  if (account.status !== 1 && p.kind !== 'refund' && p.kind !== 'reversal') {
    throw refuse('ACCOUNT_CLOSED', '该账户已销户，不能办理此业务');
  }
  const after = account.balanceFen + signed;
  checkBalance(p, account.balanceFen, after);
  const row = await repo.insertJournal(tx, journalDraft(p, account.id, signed, after));
  await repo.setBalance(tx, account.id, after);
  return { journalId: row.id, accountId: account.id, balanceAfterFen: after, amountFen: signed, duplicate: false, alarmLevel: account.alarmLevel };
}

// ---- many postings at once ------------------------------------------------------------------------

export interface AccountMove {
  accountId: number;
  companyId: number;
  ownerId: number;
  roomId: number | null;
  wallet: Wallet;
  /** balance before the first and after the last posting of the batch */
  beforeFen: number;
  afterFen: number;
  alarmLevel: number;
  /** the last journal row that changed it */
  journalId: number;
}

export interface BatchOutcome {
  /** per posting, in order: what was posted (or found under its key), or null when refused */
  posted: (Posted | null)[];
  /** why a posting was refused (index → message) */
  refused: Map<number, string>;
  /** every account whose balance changed */
  moves: AccountMove[];
}

/** A journal row computed by preparePostings, not yet written (its id is drawn when it is). */
export type JournalDraft = Omit<Parameters<typeof repo.insertJournalRows>[1][number], 'id'>;

export interface PreparedBatch {
  /** per posting: what it will be (journalId 0 until resolve), found under its key, or null when refused */
  posted: (Posted | null)[];
  refused: Map<number, string>;
  /** the new journal rows, in posting order */
  rows: JournalDraft[];
  /** per posting: the index of its new row in `rows`, or null (duplicate or refused) */
  rowOf: (number | null)[];
  /** the balances to write */
  balances: { accountId: number; balanceFen: number }[];
  /** call with the ids the rows were written under: fills journalId in posted and moves */
  resolve(ids: number[]): BatchOutcome;
}

/**
 * The accounting of a batch of postings under the same rules as post(), without writing it: every
 * account is locked (ids ascending, so concurrent batches never deadlock), a key already in the
 * journal returns its first posting, a refund never overdraws, each new journal row carries the
 * balance after it. With `skipClosed`, a posting to a closed account is refused (reported) instead of
 * aborting the batch; with `freshKeys` the key lookup is skipped (see below). The caller writes the
 * rows and the balances in the same transaction (postBatch, or settlement's one-statement write).
 */
export async function preparePostings(
  tx: Tx,
  ps: Posting[],
  o: { skipClosed?: boolean; freshKeys?: boolean; /** accounts the caller already locked (in id order, in this transaction) */ locked?: repo.LockedAccount[] } = {},
): Promise<PreparedBatch> {
  const refused = new Map<number, string>();
  const posted: (Posted | null)[] = ps.map(() => null);
  const rowOf: (number | null)[] = ps.map(() => null);
  const rows: JournalDraft[] = [];
  if (!ps.length) return { posted, refused, rows, rowOf, balances: [], resolve: () => ({ posted, refused, moves: [] }) };
  for (const p of ps) {
    if (badAmount(p)) throw refuse('AMOUNT_INVALID', p.kind === 'opening' ? '期初余额不能为 0' : '金额必须大于 0');
  }
  const have = new Set((o.locked ?? []).map((a) => `${a.ownerId}:${a.wallet}`));
  const rest = ps.filter((p) => !have.has(`${p.ownerId}:${p.wallet}`));
  const accounts = [
    ...(o.locked ?? []),
    ...(rest.length ? await repo.lockAccounts(tx, rest.map((p) => ({ companyId: p.companyId, ownerId: p.ownerId, roomId: p.roomId, wallet: p.wallet }))) : []),
  ];
  const byOwnerWallet = new Map(accounts.map((a) => [`${a.ownerId}:${a.wallet}`, { ...a }]));
  // freshKeys: the caller knows no key was posted before (settlement: the cursor lock, and the
  // settlement row committed with its journal row); the unique index still refuses a repeat
  const existing = o.freshKeys ? [] : await repo.findByKeys(tx, ps.map((p) => ({ companyId: p.companyId, key: p.idempotencyKey })));
  const seen = new Map<string, { id: number; accountId: number; balanceAfterFen: number; amountFen: number; row: number | null }>(
    existing.map((e) => [`${e.companyId}:${e.idempotencyKey}`, { ...e, row: null }]),
  );
  /** account id → its move, with the index of the last row that changed it */
  const moves = new Map<number, AccountMove & { lastRow: number }>();
  ps.forEach((p, i) => {
    const dup = seen.get(`${p.companyId}:${p.idempotencyKey}`);
    if (dup) {
      // a key repeated inside the batch counts once, like a repeated call (its id is known at resolve)
      posted[i] = { journalId: dup.id, accountId: dup.accountId, balanceAfterFen: dup.balanceAfterFen, amountFen: dup.amountFen, duplicate: true };
      if (dup.row != null) rowOf[i] = -1 - dup.row;
      return;
    }
    const a = byOwnerWallet.get(`${p.ownerId}:${p.wallet}`);
    if (!a) throw new Error(`account of owner ${p.ownerId} (${p.wallet}) was not locked`);
    if (a.status !== 1 && p.kind !== 'refund' && p.kind !== 'reversal') {
      if (o.skipClosed) {
        refused.set(i, '该账户已销户，不能办理此业务');
        return;
      }
      throw refuse('ACCOUNT_CLOSED', '该账户已销户，不能办理此业务');
    }
    const signed = SIGN[p.kind] === 0 ? p.amountFen : SIGN[p.kind] * p.amountFen;
    const after = a.balanceFen + signed;
    checkBalance(p, a.balanceFen, after);
    const row = rows.length;
    rows.push(journalDraft(p, a.id, signed, after));
    rowOf[i] = row;
    const m = moves.get(a.id) ?? {
      accountId: a.id, companyId: a.companyId, ownerId: a.ownerId, roomId: a.roomId, wallet: a.wallet as Wallet,
      beforeFen: a.balanceFen, afterFen: a.balanceFen, alarmLevel: a.alarmLevel, journalId: 0, lastRow: row,
    };
    m.afterFen = after;
    m.lastRow = row;
    moves.set(a.id, m);
    a.balanceFen = after;
    seen.set(`${p.companyId}:${p.idempotencyKey}`, { id: 0, accountId: a.id, balanceAfterFen: after, amountFen: signed, row });
    posted[i] = { journalId: 0, accountId: a.id, balanceAfterFen: after, amountFen: signed, duplicate: false };
  });
  return {
    posted,
    refused,
    rows,
    rowOf,
    balances: [...moves.values()].map((m) => ({ accountId: m.accountId, balanceFen: m.afterFen })),
    resolve(ids) {
      if (ids.length !== rows.length) throw new Error(`ledger: ${rows.length} journal rows, ${ids.length} ids`);
      posted.forEach((p, i) => {
        const r = rowOf[i];
        if (p && r != null) p.journalId = ids[r < 0 ? -1 - r : r];
      });
      const out: AccountMove[] = [...moves.values()].map(({ lastRow, ...m }) => ({ ...m, journalId: ids[lastRow] }));
      return { posted, refused, moves: out };
    },
  };
}

/**
 * Posts many entries in one transaction with the same rules as post() (preparePostings). Set-based:
 * one statement locks, one inserts the journal, one updates the balances.
 */
export async function postBatch(tx: Tx, ps: Posting[], o: { skipClosed?: boolean; freshKeys?: boolean } = {}): Promise<BatchOutcome> {
  const b = await preparePostings(tx, ps, o);
  if (!b.rows.length) return b.resolve([]);
  const ids = await repo.nextJournalIds(tx, b.rows.length);
  await repo.insertJournalRows(tx, b.rows.map((r, k) => ({ ...r, id: ids[k] })));
  await repo.setBalances(tx, b.balances);
  return b.resolve(ids);
}

/** The balance change a single posting made, for the alarm rules. */
export function moveOf(p: Posting, r: Posted): AccountMove {
  return {
    accountId: r.accountId,
    companyId: p.companyId,
    ownerId: p.ownerId,
    roomId: p.roomId,
    wallet: p.wallet,
    beforeFen: r.balanceAfterFen - r.amountFen,
    afterFen: r.balanceAfterFen,
    alarmLevel: r.alarmLevel ?? 0,
    journalId: r.journalId,
  };
}
