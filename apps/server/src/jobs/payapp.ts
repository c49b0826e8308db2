import type { Db } from '../db/client.ts';
import { simulatedProvider, type PayAppProvider } from '../modules/payapp/provider.ts';
import { runPayAppJobs } from '../modules/payapp/service.ts';

// The pay-application job of the worker role: applications are opened as the provider answers,
// paid online payments are collected into the companies' accounts, withdrawals are submitted and
// finished (a failed one credits its amount and fee back once). Safe in several workers at once:
// every effect is checked under a row lock and keyed in the journal.

interface Log {
  info(o: unknown, msg?: string): void;
  error(o: unknown, msg?: string): void;
}

export function startPayAppJobs(d: { db: Db; log: Log; provider?: PayAppProvider; everyMs?: number }): () => Promise<void> {
  const provider = d.provider ?? simulatedProvider({ delayMs: Number(process.env.PAYAPP_SIM_DELAY_MS ?? 3000) });
  let stopped = false;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (stopped || running) return;
    running = runPayAppJobs(d.db, provider)
      .then((r) => {
        if (r.opened || r.collected || r.succeeded || r.failed) d.log.info({ job: 'payapp', ...r }, '汇付账户任务已完成');
      })
      .catch((err) => d.log.error({ err, job: 'payapp' }, '汇付账户任务执行失败'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, d.everyMs ?? 2000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
