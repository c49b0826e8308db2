import { fenToYuan } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { afterBalanceChange, retryDeferredCloses } from './alarms.ts';
import { postBatch, type Posting, type Wallet } from './ledger.ts';
import { dayOfMonth, monthKey, monthRange, previousMonth } from './period.ts';
import { minimumChargeTopUp } from './pricing.ts';
import * as repo from './repo/index.ts';
import { walletOf } from './settlement.ts';

// Postings the calendar owes (issue 5), each exactly once by its key whatever the number of workers
// or runs: the month's fixed fee per meter (fee:<meterId>:<YYYY-MM>), the minimum-charge top-up of a
// closed month (min:<meterId>:<YYYY-MM>), the room timed subsidies (subsidy:<planId>:<YYYY-MM>).
// Set-based in batches; every balance change goes through the alarm rules.

const BATCH = 500;

async function postAll(tx: Tx, postings: Posting[]) {
  if (!postings.length) return 0;
  const r = await postBatch(tx, postings, { skipClosed: true });
  await afterBalanceChange(tx, r.moves);
  return r.posted.filter((p) => p && !p.duplicate).length;
}

export async function postMonthlyFees(db: Db, now = new Date()): Promise<number> {
  const month = monthKey(now);
  const { start } = monthRange(month);
  let after = 0;
  let posted = 0;
  for (;;) {
    const due = await db.tx(SYSTEM_SCOPE, (tx) => repo.monthlyFeesDue(tx, month, start, after, BATCH));
    if (!due.length) return posted;
    posted += await db.tx(SYSTEM_SCOPE, (tx) => postAll(tx, due.map((d) => ({
      companyId: d.companyId, ownerId: d.ownerId, roomId: d.roomId, wallet: walletOf(d.kind) as Wallet, kind: 'fee', amountFen: d.feeFen,
      idempotencyKey: `fee:${d.meterId}:${month}`, refType: 'monthly_fee', refId: d.meterId, memo: `${month} 月固定费用（${d.meterName}）`,
    }))));
    after = due[due.length - 1].meterId;
  }
}

export async function postMinimumCharges(db: Db, now = new Date()): Promise<number> {
  const month = previousMonth(monthKey(now));
  const { start, end } = monthRange(month);
  let after = 0;
  let posted = 0;
  for (;;) {
    const due = await db.tx(SYSTEM_SCOPE, (tx) => repo.minimumChargesDue(tx, month, start, end, after, BATCH));
    if (!due.length) return posted;
    const postings: Posting[] = [];
    for (const d of due) {
      const topUp = minimumChargeTopUp({ minimumChargeFen: d.feeFen }, d.chargedFen);
      if (topUp <= 0) continue;
      postings.push({
        companyId: d.companyId, ownerId: d.ownerId, roomId: d.roomId, wallet: walletOf(d.kind), kind: 'fee', amountFen: topUp,
        idempotencyKey: `min:${d.meterId}:${month}`, refType: 'minimum', refId: d.meterId,
        memo: `${month} 月最低消费补足（最低 ¥${fenToYuan(d.feeFen)}，已计 ¥${fenToYuan(d.chargedFen)}）`,
      });
    }
    posted += await db.tx(SYSTEM_SCOPE, (tx) => postAll(tx, postings));
    after = due[due.length - 1].meterId;
  }
}

export async function creditSubsidies(db: Db, now = new Date()): Promise<number> {
  const month = monthKey(now);
  const day = dayOfMonth(now);
  let posted = 0;
  for (;;) {
    const due = await db.tx(SYSTEM_SCOPE, (tx) => repo.subsidiesDue(tx, month, day, BATCH));
    if (!due.length) return posted;
    const n = await db.tx(SYSTEM_SCOPE, (tx) => postAll(tx, due.map((d) => ({
      companyId: d.companyId, ownerId: d.ownerId, roomId: d.roomId, wallet: d.wallet as Wallet, kind: 'subsidy', amountFen: d.amountFen,
      idempotencyKey: `subsidy:${d.planId}:${month}`, refType: 'subsidy_plan', refId: d.planId, payMethod: 'system', memo: `${month} 房间定时补贴`,
    }))));
    posted += n;
    // an account closed meanwhile refuses its posting: stop rather than ask again forever
    if (n === 0) return posted;
  }
}

export async function retryCloses(db: Db): Promise<number> {
  return db.tx(SYSTEM_SCOPE, (tx) => retryDeferredCloses(tx));
}

/**
 * Moves the rollups' deltas into their daily rows (billing.rollups): the journal's per company and per area
 * (/home), the settlements' per company (扣费报表); answers how many moved.
 */
export async function compactRollups(db: Db): Promise<number> {
  return db.tx(SYSTEM_SCOPE, (tx) => repo.compactRollups(tx));
}
