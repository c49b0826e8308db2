import { BANK_NAMES, BANK_WITHDRAW_STATUS, fenToYuan } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { BankClient } from './client.ts';
import { BANK_SIGN_WINDOW_S } from './protocol.ts';
import * as repo from './repo.ts';
import { withdrawOrderNo } from './service.ts';

// Lost bank withdrawals (job bank.withdrawals on the scheduler): a withdrawal whose answer never
// arrived stays 处理中 (status 0). This job asks the bank for each of them by its order number
// (withdrawQuery): 已到账 or 失败 as the bank says; still 处理中 at the bank → asked again later. A
// withdrawal the bank has no record of is failed only once no request sent for it can still arrive: a
// request is signed with a timestamp the bank refuses after BANK_SIGN_WINDOW_S, so after that window
// (and the client's timeout) "not found" means it never will be — nothing left the sub-account.

const STATUS_OF = { processing: 0, succeeded: 1, failed: 2 } as const;

/** After this long a withdrawal the bank does not know can no longer reach it. */
export const NEVER_ARRIVES_MS = (BANK_SIGN_WINDOW_S + 60) * 1000;

export interface PollOptions {
  /** withdrawals asked of the bank less than this long ago are left to their own answer (default 1 minute) */
  minAgeMs?: number;
  /** default NEVER_ARRIVES_MS */
  neverArrivesMs?: number;
  limit?: number;
}

/** Asks the bank about the withdrawals still 处理中; returns how many were settled and failed. */
export async function pollWithdrawals(db: Db, bank: BankClient, o: PollOptions = {}) {
  const pending = await db.tx(SYSTEM_SCOPE, (tx) => repo.pendingWithdrawals(tx, o.minAgeMs ?? 60_000, o.limit ?? 50));
  const out = { asked: pending.length, succeeded: 0, failed: 0 };
  for (const w of pending) {
    const req = { subMerId: w.subMerId, orderNo: withdrawOrderNo(w.companyId, w.id) };
    const a = await bank.call('withdrawQuery', req);
    let outcome: { status: number; bankSerial: string; reason: string } | null = null;
    if (a.ok && a.data.status !== 'processing') outcome = { status: STATUS_OF[a.data.status], bankSerial: a.data.serialNo, reason: a.data.reason };
    else if (!a.ok && !a.lost && a.errCode === 'ORDER_NOT_FOUND' && w.ageMs > (o.neverArrivesMs ?? NEVER_ARRIVES_MS)) {
      outcome = { status: 2, bankSerial: '', reason: '银行无此提现记录（申请未送达银行），已作废，子账户资金未动' };
    }
    if (!outcome) continue;
    const done = outcome;
    const changed = await db.tx(SYSTEM_SCOPE, async (tx) => {
      const now = await repo.lockWithdrawal(tx, w.id);
      if (!now || now.status !== 0) return false;
      await repo.finishWithdrawal(tx, w.id, done);
      await repo.insertLog(tx, {
        companyId: w.companyId, propertyId: w.propertyId, subMerId: w.subMerId, bankName: BANK_NAMES[w.bankType] ?? BANK_NAMES[0], action: 'WithdrawalQuery',
        ok: a.ok, errCode: a.ok ? '' : a.errCode, message: `提现 ¥${fenToYuan(w.amountFen)} 查单：${BANK_WITHDRAW_STATUS[done.status]}${done.reason ? `（${done.reason}）` : ''}`,
        statusFrom: w.propertyStatus, statusTo: w.propertyStatus, request: req, response: a, operatorName: '系统（提现查单）',
      });
      return true;
    });
    if (changed) out[done.status === 1 ? 'succeeded' : 'failed']++;
  }
  return out;
}
