import type { Db } from '../db/client.ts';
import type { EventBus } from '../modules/realtime/index.ts';
import { creditSubsidies, postMinimumCharges, postMonthlyFees, retryCloses, sweep } from '../modules/billing/index.ts';
import { logProvider, sendQueued, type NotifyProvider } from '../modules/notify/index.ts';
import { simulatedProvider, runPayAppJobs, type PayAppProvider } from '../modules/payapp/index.ts';
import { recoverPayments, type Payments } from '../modules/payment/index.ts';

// The billing jobs of the worker role: settlement runs continuously (a sweep every few seconds, and
// soon after readings arrive), the calendar postings (monthly fees, minimum charges, room timed
// subsidies) every ten minutes, deferred automatic closes every minute, queued notifications are sent,
// and the pay-application accounts are tended every 2 s (applications opened as the provider answers,
// paid online payments collected, withdrawals submitted and finished). Every job is safe to run in
// several workers at once: settlement shares the meters by SKIP LOCKED, the postings are idempotent
// by key, notifications are claimed by SKIP LOCKED, pay-application effects are checked under a row
// lock and keyed in their journal. Unpaid online orders are queried at their provider every 30 s
// (lost notifications credited, expired orders closed; credited once by journal key).

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
  /** the pay-application provider (default: the simulated one) */
  payAppProvider?: PayAppProvider;
  /** the online payment providers whose open orders are queried (lost notifications, expiry) */
  payments?: Payments;
  paymentsEveryMs?: number;
  /** settlement transactions at the same time */
  concurrency?: number;
}

export function startBillingJobs(d: BillingJobDeps): () => Promise<void> {
  const provider = d.provider ?? logProvider((line) => d.log.info({ job: 'notify' }, line));
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  /** runs fn unless it is already running; `again` makes it run once more right after */
  const single = (name: string, fn: () => Promise<unknown>) => {
    let busy = false;
    let again = false;
    const run = async (): Promise<void> => {
      if (stopped) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      const p = fn().catch((err) => d.log.error({ err, job: name }, '计费任务执行失败'));
      running.add(p);
      try {
        await p;
      } finally {
        running.delete(p);
        busy = false;
      }
      if (again && !stopped) {
        again = false;
        await run();
      }
    };
    return run;
  };

  const settle = single('settlement', async () => {
    for (;;) {
      const r = await sweep(d.db, { concurrency: d.concurrency ?? 2, log: (msg, err) => d.log.error({ err, job: 'settlement' }, msg) });
      if (r.valves) d.bus?.signal('commands');
      if (r.readings === 0 || stopped) return;
    }
  });
  const periodic = single('periodic', async () => {
    const now = new Date();
    const fees = await postMonthlyFees(d.db, now);
    const mins = await postMinimumCharges(d.db, now);
    const subs = await creditSubsidies(d.db, now);
    if (fees || mins || subs) d.log.info({ job: 'billing', fees, minimumCharges: mins, subsidies: subs }, '计费周期任务已完成');
  });
  const closes = single('deferred-closes', async () => {
    const n = await retryCloses(d.db);
    if (n) {
      d.bus?.signal('commands');
      d.log.info({ job: 'billing', closes: n }, '已补发欠费关阀指令');
    }
  });
  const send = single('notify', () => sendQueued(d.db, provider, 200));
  const payApp = d.payAppProvider ?? simulatedProvider();
  const payApps = single('payapp', async () => {
    const r = await runPayAppJobs(d.db, payApp);
    if (r.opened || r.collected || r.succeeded || r.failed) d.log.info({ job: 'payapp', ...r }, '汇付账户任务已完成');
  });

  const payments = single('payments', async () => {
    if (!d.payments || !Object.keys(d.payments.gateways).length) return;
    const r = await recoverPayments(d.db, d.payments, { log: (msg, err) => d.log.error({ err, job: 'payments' }, msg) });
    if (r.credited || r.closed || r.failed) d.log.info({ job: 'payments', ...r }, '在线支付查单任务已完成');
  });

  const every = (ms: number, fn: () => Promise<void>, first: number) => {
    const t0 = setTimeout(() => void fn(), first);
    const t = setInterval(() => void fn(), ms);
    t0.unref();
    t.unref();
    timers.push(t0, t);
  };
  every(d.settleEveryMs ?? 5_000, settle, 1_000);
  every(d.periodicEveryMs ?? 10 * 60_000, periodic, 3_000);
  every(60_000, closes, 5_000);
  every(d.notifyEveryMs ?? 3_000, send, 2_000);
  every(2_000, payApps, 2_000);
  every(d.paymentsEveryMs ?? 30_000, payments, Math.min(7_000, d.paymentsEveryMs ?? 7_000));

  // new readings: settle soon (debounced), whichever process stored them
  let soon: NodeJS.Timeout | undefined;
  const off = d.bus?.on((e) => {
    if (e.kind !== 'reading' || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      void settle();
    }, 300);
    soon.unref();
  });

  return async () => {
    stopped = true;
    off?.();
    if (soon) clearTimeout(soon);
    for (const t of timers) clearTimeout(t);
    await Promise.allSettled([...running]);
  };
}
