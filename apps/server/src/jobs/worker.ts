import type { Logger } from 'pino';
import { SYSTEM_SCOPE, type Db, type Tx } from '../db/client.ts';
import type { GatewayClient } from '../gateway/gateway.ts';
import type { DeviceEvent, EventBus } from '../modules/realtime/index.ts';
import { controlRepo as repo, clearWarnings, execute, raiseWarnings, SOURCE, afterFailure, COMMAND_KINDS, COMMAND_STATUS, ORIGIN, type ControlSettings, type Outcome, type CommandStatus } from '../modules/control/index.ts';
import { commandAreas, tryJobLock } from './repo.ts';
import { ResultWriter } from './results.ts';
import { LEASE, SessionLease } from '../db/lease.ts';
import { Scheduler } from '../modules/scheduler/index.ts';
import { coalesced } from '../coalesced.ts';

// The worker (ROLES includes `worker`): claims due commands (FOR UPDATE SKIP LOCKED) and carries
// them out through the gateway, and runs the periodic device jobs: scheduled reading rounds,
// expiry of stale commands, offline detection, monthly partitions (readings, journal, settlements) and retention.

export interface WorkerSettings extends ControlSettings {
  /** commands carried out at the same time */
  concurrency: number;
  /** how often to look for due commands when nothing woke the worker */
  pollMs: number;
  /** minutes between scheduled reading rounds (0 = no scheduled reading) */
  readIntervalMinutes: number;
  /** a device offline longer than this gets a warning */
  offlineWarnMinutes: number;
  /** a meter in use without a reading for this many days gets a no_read warning (default 3) */
  noReadDays?: number;
  /**
   * minutes between an NB meter's own reports (default 5) unless the meter has its own interval: it
   * is offline after 3 missed reports, and its scheduled reads wait for its next report window
   */
  nbReportIntervalMinutes?: number;
  heartbeatSeconds: number;
  replyTimeoutMs: number;
  retries: number;
  /** an attempt whose worker's lease stays free this long is recovered (default 10 s) */
  orphanGraceSeconds?: number;
  /** the longest a request may wait in a gateway connection's queue before it is dropped unsent (GATEWAY_QUEUE_WAIT_SECONDS) */
  queueWaitMs?: number;
  /** keep raw frames this many days */
  reportRetentionDays: number;
}

/**
 * How long an attempt in 'sent' may last before housekeeping recovers it as stuck: longer than any live
 * attempt can take — a few round trips with retries, and a request's whole wait in the gateway's queue
 * plus its tries on the wire — so a request still waiting its turn is never re-queued and sent twice.
 */
export function stuckAttemptMs(s: Pick<WorkerSettings, 'replyTimeoutMs' | 'retries' | 'queueWaitMs'>): number {
  const wire = s.replyTimeoutMs * (s.retries + 1);
  return Math.max(60_000, 10 * wire + 30_000, (s.queueWaitMs ?? 0) + wire + 2_000 + 30_000);
}

export interface WorkerDeps {
  db: Db;
  bus: EventBus;
  gateway: GatewayClient;
  log: Logger;
  settings: WorkerSettings;
  /** the process's scheduler (main.ts); a worker without one times its jobs itself */
  scheduler?: Scheduler;
}

/** NB meters report every 5 minutes unless configured (NB_REPORT_INTERVAL_MINUTES) or set per meter */
const NB_REPORT_MINUTES = 5;

const JOB = { schedule: 1, housekeeping: 2, offline: 3, partitions: 4, retention: 5 } as const;

export class Worker {
  private inflight = 0;
  private stopped = false;
  /** the scheduler this worker made for itself when the process gave it none */
  private ownScheduler: Scheduler | undefined;
  private running = new Set<Promise<void>>();
  private offSignal: (() => void) | undefined;
  /**
   * Events and finished commands (the `command-done` signal) waiting to be published: what the attempts
   * written by one batch produce goes out together at the next turn of the event loop, a few MQTT
   * messages for the batch instead of a few a command.
   */
  private readonly outbox: { events: DeviceEvent[]; done: number[]; due: boolean } = { events: [], done: [], due: false };
  /** tasks whose counts the next recount brings up to date, that recount, and the last one started */
  private readonly tasksToCount = new Set<number>();
  private nextRecount: Promise<void> | undefined;
  private lastRecount: Promise<void> = Promise.resolve();
  /**
   * This worker's liveness in PostgreSQL: a session advisory lock on a connection of its own. Its
   * attempts carry the key (commands.claimed_by); once the lock is free (the process died), any
   * worker recovers them within seconds instead of waiting out the stuck-attempt timeout.
   */
  private readonly lease: SessionLease;
  readonly leaseKey = 1 + Math.floor(Math.random() * 0x7ffffffe);
  /** the outcomes of attempts, written in batches */
  private readonly results: ResultWriter;

  constructor(private readonly deps: WorkerDeps) {
    this.results = new ResultWriter({ ...deps, publish: (events) => this.publish(events) }, () => this.stopped);
    this.lease = new SessionLease({ db: deps.db, key: LEASE.worker, sub: this.leaseKey, log: deps.log, name: '指令执行进程', retryMs: 1000, pingMs: 2000, onAcquired: () => this.pump() });
  }

  start() {
    const s = this.deps.settings;
    void this.lease.start();
    this.offSignal = this.deps.bus.onSignal('commands', () => this.pump());
    const scheduler = this.deps.scheduler ?? (this.ownScheduler = new Scheduler({ db: this.deps.db, log: this.deps.log, role: 'worker' }));
    const every = (ms: number, name: string, label: string, fn: () => Promise<unknown>, first = ms) =>
      scheduler.add({ name: `worker.${name}`, label, everyMs: ms, firstMs: first, run: async () => (this.stopped ? undefined : fn()) });
    every(s.pollMs, 'pump', '领取待执行指令', async () => this.pump(), 0);
    every(5_000, 'housekeeping', '指令过期与卡住指令回收', () => this.housekeeping(), 1_000);
    if (s.readIntervalMinutes > 0) every(30_000, 'schedule', '定时抄表', () => this.scheduleReads(), 10_000);
    every(30_000, 'offline', '设备离线检测', () => this.offlineSweep(), 15_000);
    every(24 * 3600_000, 'partitions', '分区维护（读数、流水、结算）', () => this.exclusive(JOB.partitions, (tx) => repo.ensurePartitions(tx, 3)), 2_000);
    every(24 * 3600_000, 'retention', '原始报文清理', () => this.retention(), 60_000);
    scheduler.start();
    this.deps.log.info({ concurrency: s.concurrency, readIntervalMinutes: s.readIntervalMinutes }, '指令执行器已启动');
  }

  /** Stops claiming and waits (up to `graceMs`) for commands in flight. */
  async stop(graceMs = 10_000) {
    this.stopped = true;
    this.offSignal?.();
    await this.ownScheduler?.stop(graceMs);
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    await this.lease.stop();
  }

  /** Claims and starts due commands until the concurrency limit is reached or none is due. */
  pump() {
    if (!this.stopped) void this.claim();
  }

  /** one claiming round at a time; a pump during one makes one more right after it */
  private readonly claim = coalesced(async () => {
    if (this.stopped) return;
    try {
      // without its lease nobody could tell this worker's attempts from a dead one's: claim nothing
      while (!this.stopped && this.lease.held && this.inflight < this.deps.settings.concurrency) {
        const limit = Math.min(100, this.deps.settings.concurrency - this.inflight);
        // the claimed commands' meters read with them (one statement, not one transaction a command)
        const { claimed, meters } = await this.deps.db.tx(SYSTEM_SCOPE, async (tx) => {
          const claimed = await repo.claimCommands(tx, limit, this.leaseKey);
          const meters = await repo.controlMeters(tx, claimed.flatMap((c) => (c.meterId != null ? [c.meterId] : [])));
          return { claimed, meters: new Map(meters.map((m) => [m.id, m])) };
        });
        for (const cmd of claimed) this.launch(cmd, cmd.meterId != null ? (meters.get(cmd.meterId) ?? null) : undefined);
        if (claimed.length < limit) break;
      }
    } catch (e) {
      this.deps.log.error({ err: e }, '领取指令失败');
    }
  });

  private launch(cmd: repo.CommandRow, meter: repo.ControlMeter | null | undefined) {
    this.inflight++;
    const p = this.run(cmd, meter).finally(() => {
      this.inflight--;
      this.running.delete(p);
      this.pump();
    });
    this.running.add(p);
  }

  private async run(cmd: repo.CommandRow, meter: repo.ControlMeter | null | undefined) {
    const started = Date.now();
    let outcome: Outcome;
    try {
      outcome = await execute(this.deps, cmd, meter);
    } catch (e) {
      this.deps.log.error({ err: e, commandId: cmd.id }, '指令执行异常');
      outcome = { ok: false, transient: true, error: '服务内部错误，稍后重试', events: [] };
    }
    const next = outcome.ok
      ? ({ status: 'succeeded' } as const)
      : afterFailure(cmd, outcome.transient, new Date(), this.deps.settings.retryDelayMs);
    const events: DeviceEvent[] = [...outcome.events];
    let taskId: number | null = null;
    // written with the other attempts that end meanwhile, with the relay/valve state read back; retried
    // across a database outage for a while, so the command does not stay 'sent' behind a live worker
    const done = await this.results.write(
      {
        id: cmd.id,
        attempt: cmd.attempts,
        status: next.status,
        reply: outcome.reply ?? null,
        error: outcome.ok ? '' : outcome.error,
        nextAttemptAt: next.status === 'queued' ? next.nextAttemptAt : undefined,
        valve: outcome.valve !== undefined && cmd.meterId != null ? { meterId: cmd.meterId, state: outcome.valve } : undefined,
      },
      started,
    );
    if (done) {
      const { row } = done;
      if (row.status !== 'queued' && row.readTaskId) taskId = row.readTaskId;
      events.push(commandEvent(row, done.areaId));
      if (row.status !== 'queued') this.outbox.done.push(row.id);
    }
    if (taskId !== null) await this.recount(taskId);
    this.publish(events);
    if (!outcome.ok) this.deps.log.info({ commandId: cmd.id, kind: cmd.kind, status: next.status, error: outcome.error }, '指令未成功');
  }

  /**
   * Recounts a task after one of its commands finished. Recounts are coalesced: one runs at a time, and
   * the tasks marked while it runs are recounted together by the next; resolves once a recount that
   * started after the call is done (a failed one is left to housekeeping's).
   */
  private recount(taskId: number): Promise<void> {
    this.tasksToCount.add(taskId);
    if (!this.nextRecount) {
      const next: Promise<void> = this.lastRecount.then(async () => {
        if (this.nextRecount === next) this.nextRecount = undefined;
        const ids = [...this.tasksToCount];
        this.tasksToCount.clear();
        try {
          await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.recountTasks(tx, ids));
        } catch (e) {
          this.deps.log.warn({ err: e, tasks: ids }, '更新任务进度失败，稍后由指令回收任务重算');
        }
      });
      this.nextRecount = next;
      this.lastRecount = next;
    }
    return this.nextRecount;
  }

  private publish(events: DeviceEvent[]) {
    const box = this.outbox;
    box.events.push(...events);
    if (box.due || (!box.events.length && !box.done.length)) return;
    box.due = true;
    setImmediate(() => {
      const { events: out, done } = box;
      box.events = [];
      box.done = [];
      box.due = false;
      this.deps.bus.emitAll(out);
      if (done.length) this.deps.bus.signal('command-done', { ids: done });
    });
  }

  // -------------------------------------------------------------------------------------------
  // Periodic jobs
  // -------------------------------------------------------------------------------------------

  /** Runs fn in one transaction if no other worker runs the same job right now. */
  private exclusive<T>(job: number, fn: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return this.deps.db.tx(SYSTEM_SCOPE, async (tx) => ((await tryJobLock(tx, job)) ? fn(tx) : undefined));
  }

  /** Queued commands past expiry, commands stuck in 'sent' by a dead worker, protections that ended. */
  async housekeeping() {
    const s = this.deps.settings;
    const stuckMs = stuckAttemptMs(s);
    const out = await this.exclusive(JOB.housekeeping, async (tx) => {
      const expired = await repo.expireDue(tx);
      // a worker without its own lease (cut off from the database a moment ago) judges no one
      const orphans = this.lease.held ? await repo.recoverOrphans(tx, LEASE.worker, s.orphanGraceSeconds ?? 10) : [];
      const stale = [...orphans, ...(await repo.recoverStale(tx, new Date(Date.now() - stuckMs)))];
      // every running task's counts from its commands (those just expired or recovered, and any a
      // worker that died could not count)
      await repo.recountTasks(tx, null);
      await repo.endExpiredProtections(tx);
      const all = [...expired, ...stale];
      return { all, areas: await commandAreas(tx, all) };
    });
    for (const c of out?.all ?? []) if (c.status !== 'queued') this.outbox.done.push(c.id);
    this.publish((out?.all ?? []).map((c) => commandEvent(c, out!.areas.get(c.id) ?? null)));
    if (out?.all.some((c) => c.status === 'queued')) this.pump();
  }

  /** A scheduled reading round for every company when the interval has passed. Returns the reads queued. */
  async scheduleReads(force = false): Promise<number> {
    const s = this.deps.settings;
    const queued = await this.exclusive(JOB.schedule, async (tx) => {
      const last = await repo.lastScheduledRound(tx);
      if (!force && last && Date.now() - last.getTime() < s.readIntervalMinutes * 60_000) return 0;
      let n = 0;
      for (const companyId of await repo.companiesWithMeters(tx)) {
        const taskId = await repo.createReadTask(tx, companyId, 1, null);
        n += await repo.queueReads(tx, {
          taskId,
          companyId,
          origin: ORIGIN.scheduled,
          source: SOURCE.automatic,
          // a round's reads are worth doing until the next round starts
          expiresAt: new Date(Date.now() + Math.max(1, s.readIntervalMinutes) * 60_000),
          maxAttempts: s.maxAttempts,
          requestedBy: null,
          requesterName: '系统（定时抄表）',
          clockEveryHours: s.clockEveryHours,
          nbReportMinutes: s.nbReportIntervalMinutes ?? NB_REPORT_MINUTES,
        });
      }
      return n;
    });
    if (queued) {
      this.deps.log.info({ queued }, '定时抄表：已排队');
      this.pump();
    }
    return queued ?? 0;
  }

  /**
   * Devices whose gateway stopped reporting go offline (a meter that reports by itself after 3 missed
   * reports); devices offline too long get a warning.
   */
  async offlineSweep() {
    const s = this.deps.settings;
    const events = await this.exclusive(JOB.offline, async (tx) => {
      const out: DeviceEvent[] = [];
      const now = new Date();
      const stale = await repo.staleOnline(tx, new Date(now.getTime() - (3 * s.heartbeatSeconds + 30) * 1000), {
        now,
        nbReportMinutes: s.nbReportIntervalMinutes ?? NB_REPORT_MINUTES,
      });
      for (const c of stale.collectors) out.push({ companyId: c.companyId, kind: 'online', body: { collectorId: c.id, areaId: c.areaId, online: false } });
      for (const m of stale.meters) out.push({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, areaId: m.areaId, online: false } });
      const long = await repo.offlineTooLong(tx, new Date(Date.now() - s.offlineWarnMinutes * 60_000));
      out.push(...(await raiseWarnings(tx, long)));
      // no reading for N days: warned (and a work order opened); a reading since closes both
      const noReadSince = new Date(Date.now() - (s.noReadDays ?? 3) * 86400_000);
      out.push(...(await raiseWarnings(tx, await repo.noReadTooLong(tx, noReadSince))));
      for (const meterId of await repo.readAgain(tx, noReadSince)) {
        await clearWarnings(tx, { meterId, kinds: ['no_read'], memo: '已重新收到读数（自动）' });
      }
      return out;
    });
    if (events) this.deps.bus.emitAll(events);
  }

  private async retention() {
    const days = this.deps.settings.reportRetentionDays;
    const r = await this.exclusive(JOB.retention, (tx) =>
      repo.pruneOld(tx, new Date(Date.now() - days * 86400_000), new Date(Date.now() - 2 * days * 86400_000)),
    );
    if (r && (r.reports || r.commands)) this.deps.log.info(r, '已清理过期的设备报文与抄表指令');
  }
}

/** A command's event; the area of its device lets area-bound users receive it over /ws. */
export function commandEvent(c: repo.CommandRow, areaId: number | null): DeviceEvent {
  return {
    companyId: c.companyId,
    kind: 'command',
    body: {
      id: c.id,
      meterId: c.meterId,
      collectorId: c.collectorId,
      areaId,
      kind: c.kind,
      kindText: COMMAND_KINDS[c.kind] ?? c.kind,
      status: c.status,
      statusText: COMMAND_STATUS[c.status as CommandStatus] ?? c.status,
      attempts: c.attempts,
      error: c.error,
    },
  };
}
