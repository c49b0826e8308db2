/**
 * A fleet's fault plan ({@link FaultPlanEntry}): faults the fleet switches on and off by itself once
 * started — a collector that drops off and comes back, a register that steps back now and then, a
 * stuck valve, a wrong CT ratio. Off unless a definition carries `faults` (the server's demo fleet does).
 */
import type { CollectorFaults, FaultPlanEntry, MeterFaults } from './types.ts';

const COLLECTOR_FAULTS: readonly string[] = ['offline', 'slowReplies', 'garbage'] satisfies (keyof CollectorFaults)[];
const METER_FAULTS: readonly string[] = ['powerLoss', 'offline', 'reversed', 'stuckValve', 'slowReplies', 'clockDrift', 'lowBattery', 'rateError'] satisfies (keyof MeterFaults)[];

/** What a plan acts on (the fleet). */
export interface FaultTarget {
  setFault(target: string, name: FaultPlanEntry['fault'], value: unknown): void;
}

/** The value that switches a fault off again: `false` for boolean faults, 0 for the others. */
export function faultOffValue(entry: FaultPlanEntry): boolean | number {
  return typeof (entry.value ?? true) === 'boolean' ? false : 0;
}

/**
 * Checks a plan against the fleet's devices: every target exists and the fault applies to it, the
 * times are sensible. Throws RangeError naming the entry.
 */
export function checkFaultPlan(plan: readonly FaultPlanEntry[], kindOf: (target: string) => 'meter' | 'collector' | undefined): void {
  plan.forEach((e, i) => {
    const where = `faults[${i}] (${e.fault} on ${e.target})`;
    const kind = kindOf(e.target);
    if (!kind) throw new RangeError(`${where}: no meter or collector ${JSON.stringify(e.target)} in this fleet`);
    if (!(kind === 'collector' ? COLLECTOR_FAULTS : METER_FAULTS).includes(e.fault)) throw new RangeError(`${where}: not a ${kind} fault`);
    for (const k of ['afterMs', 'forMs', 'everyMs'] as const) {
      const v = e[k];
      if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new RangeError(`${where}: ${k} must be ≥ 0 ms`);
    }
    if (e.everyMs !== undefined && (e.everyMs <= 0 || (e.forMs !== undefined && e.everyMs <= e.forMs))) throw new RangeError(`${where}: everyMs must be longer than forMs`);
  });
}

/** Runs a plan against `fleet` from now on; the returned function stops every timer (faults stay as they are). */
export function runFaultPlan(fleet: FaultTarget, plan: readonly FaultPlanEntry[], onError: (e: Error) => void = () => {}): () => void {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (stopped) return;
      try {
        fn();
      } catch (e) {
        onError(e as Error);
      }
    }, ms);
    t.unref?.();
    timers.add(t);
  };
  for (const e of plan) {
    // the clearing and the next episode are scheduled first: a step that fails does not end the plan
    const episode = () => {
      if (e.forMs !== undefined) later(e.forMs, () => fleet.setFault(e.target, e.fault, faultOffValue(e)));
      if (e.everyMs !== undefined) later(e.everyMs, episode);
      fleet.setFault(e.target, e.fault, e.value ?? true);
    };
    later(e.afterMs ?? 0, episode);
  }
  return () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
  };
}
