import type { Logger } from 'pino';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import type { EventBus } from '../realtime/index.ts';
import { ORIGIN, controlRepo as control, noCloseReason, recordUnrunCommand, requestSystemCommand } from '../control/index.ts';
import * as repo from './repo.ts';
import { now as clock } from '../../clock.ts';
import { atBeijingTime, formatBeijing } from '../../time.ts';
import type { Scheduler } from '../scheduler/index.ts';

// 定时阀控: the worker-role job that carries out timed valve controls. Every tick it looks for
// controls whose time has come and asks the control module for an open/close command (origin 3 =
// timed). A timed close is an automatic close: it respects protection (保电/保水) and the alarm
// scheme's no-disconnect hours, and is refused rather than forced. A run whose time was missed by
// more than the grace period (the service was down) is NOT carried out late — a valve closing hours
// after it was meant to is worse than not closing — and both refusals and misses are recorded as
// finished commands, so the valve-control log (/notesControl) says why nothing happened.

export interface TimedValveRequest {
  companyId: number;
  meterId: number;
  action: 'open' | 'close';
  timedControlId: number;
  memo: string;
  requestedBy: number | null;
  requesterName: string;
}

export type TimedOutcome = { commandId: number; created: boolean } | { refused: string };

/** How a timed run asks for a valve command (replaceable in tests). */
export type TimedValveRequester = (tx: Tx, r: TimedValveRequest) => Promise<TimedOutcome>;

export const TIMED_COMMAND_TTL_MS = 30 * 60_000;

/**
 * Through the control module's system-side request (requestSystemCommand: a pending command of the
 * same kind is joined, a queued opposite one superseded, a meter out of use skipped). A close of a
 * protected meter or inside the no-disconnect hours is checked here first, to say in the valve-control
 * log what the timed run did not do and why.
 */
export const requestThroughControl: TimedValveRequester = async (tx, r) => {
  if (r.action === 'close') {
    const [m] = await control.controlMeters(tx, [r.meterId]);
    if (m?.status === 1) {
      const what = `定时${m.kind === 2 ? '关阀' : '拉闸'}未执行`;
      if (m.protection) return { refused: `表具处于${m.protection.kind === 2 ? '保水' : '保电'}状态${m.protection.reason ? `（${m.protection.reason}）` : ''}，${what}` };
      const why = noCloseReason(m.noClose, clock());
      if (why) return { refused: `处于报警方案的${why}，${what}` };
    }
  }
  const out = await requestSystemCommand(tx, {
    meterId: r.meterId,
    kind: r.action,
    origin: ORIGIN.timed,
    memo: r.memo,
    payload: { timedControlId: r.timedControlId },
    requestedBy: r.requestedBy,
    requesterName: r.requesterName,
    ttlMs: TIMED_COMMAND_TTL_MS,
    maxAttempts: 3,
    supersededBy: `已被定时${r.action === 'open' ? '合闸/开阀' : '拉闸/关阀'}指令取代`,
  });
  if (out.skipped || out.commandId == null) return { refused: out.skipped ?? '表具指令正忙，稍后再试' };
  return { commandId: out.commandId, created: out.created };
};

// ---------------------------------------------------------------------------------------------
// When a timed control is due (pure)
// ---------------------------------------------------------------------------------------------

/** The instant of HH:mm on the China calendar day of `now`. */
export function chinaTimeToday(timeOfDay: string, now: Date): Date | null {
  return atBeijingTime(timeOfDay, now);
}

export type Due = { occurrence: Date; run: boolean } | null;

/**
 * Whether a control is due now: `run` when its occurrence is within the grace period, `run: false`
 * (missed) when it is older. A daily control is due once per China day, not for a time that was
 * already past when it was created (or last rescheduled: the service marks that day as run).
 */
export function dueNow(t: Pick<repo.TimedRow, 'repeat' | 'runAt' | 'timeOfDay' | 'enabled' | 'lastRunAt' | 'createdAt'>, now: Date, graceMs: number): Due {
  if (!t.enabled) return null;
  let occurrence: Date | null;
  if (t.repeat === 'once') {
    if (t.lastRunAt || !t.runAt) return null;
    occurrence = t.runAt;
  } else {
    occurrence = chinaTimeToday(t.timeOfDay, now);
    if (!occurrence) return null;
    if (t.lastRunAt && t.lastRunAt >= occurrence) return null;
    if (occurrence <= t.createdAt) return null;
  }
  if (occurrence > now) return null;
  return { occurrence, run: now.getTime() - occurrence.getTime() <= graceMs };
}

/** The next time a control will run (for the list), or null. */
export function nextRun(t: Pick<repo.TimedRow, 'repeat' | 'runAt' | 'timeOfDay' | 'enabled' | 'lastRunAt' | 'createdAt'>, now: Date): Date | null {
  if (!t.enabled) return null;
  if (t.repeat === 'once') return !t.lastRunAt && t.runAt && t.runAt > now ? t.runAt : null;
  const today = chinaTimeToday(t.timeOfDay, now);
  if (!today) return null;
  const doneToday = (t.lastRunAt && t.lastRunAt >= today) || today <= now || today <= t.createdAt;
  return doneToday ? new Date(today.getTime() + 86400_000) : today;
}

const fmt = (d: Date) => formatBeijing(d, 'YYYY-MM-DD HH:mm');

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

export interface TimedJobDeps {
  db: Db;
  bus: EventBus;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  requester?: TimedValveRequester;
  /** how often to look (default 20 s) */
  intervalMs?: number;
  /** a run later than this after its time is not carried out (default 10 min) */
  graceMs?: number;
}

export interface TickResult {
  queued: number;
  joined: number;
  refused: number;
  missed: number;
}

/** One pass: carries out every due control. Safe in several processes (one runs at a time). */
export async function runTimedControls(deps: TimedJobDeps, now = clock()): Promise<TickResult> {
  const requester = deps.requester ?? requestThroughControl;
  const grace = deps.graceMs ?? 10 * 60_000;
  const out: TickResult = { queued: 0, joined: 0, refused: 0, missed: 0 };
  await deps.db.tx(SYSTEM_SCOPE, async (tx) => {
    if (!(await repo.tryTimedLock(tx))) return;
    for (const t of await repo.timedCandidates(tx, now)) {
      const due = dueNow(t, now, grace);
      if (!due) continue;
      const meterWord = t.action === 'open' ? '合闸/开阀' : '拉闸/关阀';
      const requesterName = `定时阀控${t.requester ? `（${t.requester}）` : ''}`.slice(0, 64);
      const memo = t.memo || `定时${meterWord}（${t.repeat === 'daily' ? `每天 ${t.timeOfDay}` : fmt(due.occurrence)}）`;
      if (!due.run) {
        await recordUnrunCommand(tx, {
          companyId: t.companyId, meterId: t.meterId, kind: t.action, status: 'expired', timedControlId: t.id,
          error: `错过执行时间（计划 ${fmt(due.occurrence)}），为安全起见未补发`, requestedBy: t.createdBy, requesterName, memo,
        });
        out.missed++;
      } else {
        // each control in its own savepoint: one failing does not undo the others (it is tried again next tick)
        let r: TimedOutcome;
        try {
          r = await tx.transaction((sp) =>
            requester(sp, { companyId: t.companyId, meterId: t.meterId, action: t.action, timedControlId: t.id, memo, requestedBy: t.createdBy, requesterName }),
          );
        } catch (e) {
          deps.log.error({ err: e, timedControlId: t.id }, '定时阀控：下发指令失败');
          continue;
        }
        if ('refused' in r) {
          await recordUnrunCommand(tx, {
            companyId: t.companyId, meterId: t.meterId, kind: t.action, status: 'failed', timedControlId: t.id,
            error: r.refused, requestedBy: t.createdBy, requesterName, memo,
          });
          out.refused++;
        } else if (r.created) out.queued++;
        else out.joined++;
      }
      await repo.markTimedRun(tx, t.id, now, t.repeat === 'once');
    }
  });
  if (out.queued) deps.bus.signal('commands');
  if (out.queued || out.refused || out.missed) deps.log.info(out, '定时阀控：已处理到期任务');
  return out;
}

/** Adds the timed-control job to the process's scheduler (worker role). */
export function addTimedControls(scheduler: Scheduler, deps: TimedJobDeps): void {
  scheduler.add({ name: 'metering.timed-control', label: '定时阀控', everyMs: deps.intervalMs ?? 20_000, firstMs: 5_000, run: () => runTimedControls(deps) });
}
