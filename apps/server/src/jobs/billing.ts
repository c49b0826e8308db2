import type { Db } from '../db/client.ts';
import type { EventBus } from '../modules/realtime/index.ts';
import { pollWithdrawals, type BankClient } from '../modules/bank/index.ts';
import { compactRollups, creditSubsidies, postMinimumCharges, postMonthlyFees, retryCloses, sweep } from '../modules/billing/index.ts';
import { collectReceipts, logProvider, providersFrom, sendQueued, type NotifyProvider, type ProviderFor, type SmsSetup } from '../modules/notify/index.ts';
import { simulatedProvider, runPayAppJobs, type PayAppProvider } from '../modules/payapp/index.ts';
import { recoverPayments, recoverRefunds, type Payments } from '../modules/payment/index.ts';
import { reconcileYesterday } from '../modules/reconcile/index.ts';
import { Scheduler } from '../modules/scheduler/index.ts';

// The billing jobs of the worker role, timed by the process's scheduler: settlement runs continuously (a sweep every few seconds, and
// soon after readings arrive), the calendar postings (monthly fees, minimum charges, room timed
// subsidies) every ten minutes, deferred automatic closes and the /home rollup's compaction every minute,
// queued notifications are sent, and the pay-application accounts are tended every 2 s (applications opened as the provider answers,
// paid online payments collected, withdrawals submitted and finished). Every job is safe to run in
// several workers at once: settlement shares the meters by SKIP LOCKED, the postings are idempotent
// by key, notifications are claimed by SKIP LOCKED, pay-application effects are checked under a row
// lock and keyed in their journal. Unpaid online orders are queried at their provider every 30 s
// (lost notifications credited, expired orders closed; credited once by journal key). Yesterday's
// statements of the providers are reconciled once a day, after 10:00 (checked every 30 minutes).

interface Log {
  info(o: unknown, msg?: string): void;
  error(o: unknown, msg?: string): void;
}

export interface BillingJobDeps {
  db: Db;
  bus?: EventBus;
  log: Log;
  provider?: NotifyProvider;
  /** between settlement sweeps when no reading woke it */
  settleEveryMs?: number;
  /** calendar postings (monthly fees, minimum charges, timed subsidies) */
  periodicEveryMs?: number;
  notifyEveryMs?: number;
  /** the SMS providers chosen per company in /sms/config (without it, and without `provider`: the log) */
  sms?: SmsSetup;
  receiptsEveryMs?: number;
  /** the pay-application provider (default: the simulated one) */
  payAppProvider?: PayAppProvider;
  /** the online payment providers whose open orders are queried (lost notifications, expiry) */
  payments?: Payments;
  paymentsEveryMs?: number;
  /** how often the daily reconciliation looks for yesterday's statements */
  reconcileEveryMs?: number;
  /** the settlement bank: withdrawals whose answer was lost are asked about (bank.withdrawals) */
  bank?: BankClient;
  bankEveryMs?: number;
  /** settlement transactions at the same time */
  concurrency?: number;
}

/**
 * Adds the billing jobs to the process's scheduler (modules/scheduler) and settles soon after new
 * readings. Returns stop() for what it added outside the scheduler (the reading listener); the
 * scheduler's owner stops the jobs.
 */
export function addBillingJobs(scheduler: Scheduler, d: BillingJobDeps): () => void {
  const log = (line: string) => d.log.info({ job: 'notify' }, line);
  const provider: ProviderFor = d.provider ?? (d.sms ? providersFrom(d.db, d.sms, log) : logProvider(log));
  let stopped = false;
  scheduler.add({
    name: 'billing.settlement', label: '抄表结算', everyMs: d.settleEveryMs ?? 5_000, firstMs: 1_000,
    run: async () => {
      for (;;) {
        const r = await sweep(d.db, { concurrency: d.concurrency ?? 2, log: (msg, err) => d.log.error({ err, job: 'settlement' }, msg) });
        if (r.valves) d.bus?.signal('commands');
        if (r.readings === 0 || stopped) return;
      }
    },
  });
  scheduler.add({
    name: 'billing.periodic', label: '月度费用、最低消费与定时补贴', everyMs: d.periodicEveryMs ?? 10 * 60_000, firstMs: 3_000,
    run: async () => {
      const now = new Date();
      const fees = await postMonthlyFees(d.db, now);
      const mins = await postMinimumCharges(d.db, now);
      const subs = await creditSubsidies(d.db, now);
      if (fees || mins || subs) d.log.info({ job: 'billing', fees, minimumCharges: mins, subsidies: subs }, '计费周期任务已完成');
    },
  });
  scheduler.add({
    name: 'billing.deferred-closes', label: '补发欠费关阀指令', everyMs: 60_000, firstMs: 5_000,
    run: async () => {
      const n = await retryCloses(d.db);
      if (n) {
        d.bus?.signal('commands');
        d.log.info({ job: 'billing', closes: n }, '已补发欠费关阀指令');
      }
    },
  });
  // the rollups' deltas (journal per company and area, settlements per company) into the daily rows /home and the
  // 扣费报表 read (exact either way; this keeps the deltas few)
  scheduler.add({ name: 'billing.rollups', label: '首页金额与扣费报表汇总整理', everyMs: 60_000, firstMs: 20_000, run: () => compactRollups(d.db) });
  scheduler.add({ name: 'notify.outbox', label: '短信/电话提醒发送', everyMs: d.notifyEveryMs ?? 3_000, firstMs: 2_000, run: () => sendQueued(d.db, provider, 200) });
  scheduler.add({ name: 'notify.receipts', label: '短信回执查询', everyMs: d.receiptsEveryMs ?? 60_000, firstMs: 10_000, run: () => collectReceipts(d.db, provider, 200) });
  const payApp = d.payAppProvider ?? simulatedProvider();
  scheduler.add({
    name: 'payapp.accounts', label: '汇付账户开户、收款与提现', everyMs: 2_000, firstMs: 2_000,
    run: async () => {
      const r = await runPayAppJobs(d.db, payApp);
      if (r.opened || r.collected || r.succeeded || r.failed) d.log.info({ job: 'payapp', ...r }, '汇付账户任务已完成');
    },
  });
  scheduler.add({
    name: 'payment.recover', label: '在线支付查单、过期关单与退款查询', everyMs: d.paymentsEveryMs ?? 30_000, firstMs: Math.min(7_000, d.paymentsEveryMs ?? 7_000),
    run: async () => {
      if (!d.payments || !Object.keys(d.payments.gateways).length) return;
      const r = await recoverPayments(d.db, d.payments, { log: (msg, err) => d.log.error({ err, job: 'payments' }, msg) });
      if (r.credited || r.closed || r.failed) d.log.info({ job: 'payments', ...r }, '在线支付查单任务已完成');
      // refunds without a final answer (lost refund notify, no answer) are asked at the provider
      const f = await recoverRefunds(d.db, d.payments, { log: (msg, err) => d.log.error({ err, job: 'refunds' }, msg) });
      if (f.settled || f.failed) d.log.info({ job: 'refunds', ...f }, '在线退款查询任务已完成');
    },
  });
  scheduler.add({
    name: 'payment.reconcile', label: '支付平台对账（前一日对账单）', everyMs: d.reconcileEveryMs ?? 30 * 60_000, firstMs: 60_000,
    run: async () => {
      if (!d.payments || !Object.keys(d.payments.gateways).length) return;
      const done = await reconcileYesterday(d.db, d.payments);
      if (done.length) d.log.info({ job: 'reconcile', done }, '支付平台对账已完成');
    },
  });
  if (d.bank) {
    const bank = d.bank;
    scheduler.add({
      name: 'bank.withdrawals', label: '银行提现查单（应答丢失的提现）', everyMs: d.bankEveryMs ?? 60_000, firstMs: 20_000,
      run: async () => {
        const r = await pollWithdrawals(d.db, bank);
        if (r.succeeded || r.failed) d.log.info({ job: 'bank', ...r }, '银行提现查单已完成');
      },
    });
  }

  // new readings: settle soon (debounced), whichever process stored them
  let soon: NodeJS.Timeout | undefined;
  const off = d.bus?.on((e) => {
    if (e.kind !== 'reading' || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      void scheduler.trigger('billing.settlement');
    }, 300);
    soon.unref();
  });
  return () => {
    stopped = true;
    off?.();
    if (soon) clearTimeout(soon);
  };
}

/** The billing jobs on a scheduler of their own (tests, and a process that runs nothing else). */
export function startBillingJobs(d: BillingJobDeps): () => Promise<void> {
  const scheduler = new Scheduler({ db: d.db, log: d.log, role: 'worker' });
  const off = addBillingJobs(scheduler, d);
  scheduler.start();
  return async () => {
    off();
    await scheduler.stop();
  };
}
