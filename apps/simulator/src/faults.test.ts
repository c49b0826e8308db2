import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DLT645_DI, DLT645_REMOTE_COMMAND } from '@meter/protocol';
import { HOUR_MS, ManualClock } from './clock.ts';
import { checkFaultPlan, runFaultPlan, type FaultTarget } from './faults.ts';
import { createFleet } from './fleet.ts';
import { control, electric, env, readParam, readValue, statusWord } from './meter.test-util.ts';
import type { FaultPlanEntry } from './types.ts';

// The fault plan (types.ts FaultPlanEntry) the demo fleet runs: each mode on a real meter or fleet,
// and the plan's timing (set, cleared after forMs, repeated every everyMs) under fake timers.

const IMEI = '860000000000001';
const E = '100000000001';
const gateway = { host: '127.0.0.1', port: 1 };

function recorder(): FaultTarget & { calls: [number, string, string, unknown][] } {
  const calls: [number, string, string, unknown][] = [];
  return { calls, setFault: (target, name, value) => void calls.push([Date.now(), target, name, value]) };
}

describe('fault plan timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('an offline collector: set after afterMs, cleared forMs later (it returns), again every everyMs', () => {
    const t = recorder();
    const stop = runFaultPlan(t, [{ target: IMEI, fault: 'offline', afterMs: 1000, forMs: 5000, everyMs: 20_000 }]);
    vi.advanceTimersByTime(999);
    expect(t.calls).toEqual([]);
    vi.advanceTimersByTime(45_000);
    expect(t.calls).toEqual([
      [1000, IMEI, 'offline', true], [6000, IMEI, 'offline', false],
      [21_000, IMEI, 'offline', true], [26_000, IMEI, 'offline', false],
      [41_000, IMEI, 'offline', true],
    ]);
    stop();
    vi.advanceTimersByTime(100_000);
    expect(t.calls).toHaveLength(5);
  });

  it('without forMs a fault is set again each period (a reversed register steps back each time)', () => {
    const t = recorder();
    runFaultPlan(t, [{ target: E, fault: 'reversed', value: 2, afterMs: 5, everyMs: 10 }]);
    vi.advanceTimersByTime(30);
    expect(t.calls).toEqual([[5, E, 'reversed', 2], [15, E, 'reversed', 2], [25, E, 'reversed', 2]]);
  });

  it('numeric faults clear to 0; a fault without forMs stays', () => {
    const t = recorder();
    runFaultPlan(t, [
      { target: E, fault: 'reversed', value: 5, forMs: 10, everyMs: 100 },
      { target: E, fault: 'stuckValve' },
      { target: E, fault: 'rateError', value: 80, afterMs: 50 },
    ]);
    vi.advanceTimersByTime(150);
    expect(t.calls).toEqual([
      [0, E, 'reversed', 5], [0, E, 'stuckValve', true], [10, E, 'reversed', 0],
      [50, E, 'rateError', 80], [100, E, 'reversed', 5], [110, E, 'reversed', 0],
    ]);
  });

  it('a failing step is reported and does not stop the plan', () => {
    const errors: string[] = [];
    let n = 0;
    const t: FaultTarget = {
      setFault: () => {
        if (n++ === 0) throw new Error('boom');
      },
    };
    runFaultPlan(t, [{ target: E, fault: 'stuckValve', forMs: 5 }], (e) => errors.push(e.message));
    vi.advanceTimersByTime(10);
    expect(errors).toEqual(['boom']);
    expect(n).toBe(2);
  });
});

describe('fault plan checks', () => {
  const kindOf = (t: string) => (t === IMEI ? 'collector' : t === E ? 'meter' : undefined);
  it('refuses unknown targets, faults of the other device kind and bad times', () => {
    const bad: [FaultPlanEntry, RegExp][] = [
      [{ target: '999', fault: 'offline' }, /no meter or collector/],
      [{ target: IMEI, fault: 'stuckValve' }, /not a collector fault/],
      [{ target: E, fault: 'garbage' }, /not a meter fault/],
      [{ target: E, fault: 'reversed', afterMs: -1 }, /afterMs/],
      [{ target: E, fault: 'reversed', everyMs: 0 }, /everyMs/],
      [{ target: E, fault: 'reversed', forMs: 10, everyMs: 10 }, /everyMs/],
    ];
    for (const [entry, message] of bad) expect(() => checkFaultPlan([entry], kindOf)).toThrow(message);
    expect(() => checkFaultPlan([
      { target: IMEI, fault: 'offline', forMs: 1, everyMs: 2 }, { target: E, fault: 'rateError', value: 50 }, { target: E, fault: 'reversed', value: 2, everyMs: 10 },
    ], kindOf)).not.toThrow();
  });

  it('createFleet checks the plan of its definition; faults stay off until start()', () => {
    const collectors = [{ imei: IMEI, meters: [{ address: E, kind: 'electric' as const }] }];
    expect(() => createFleet({ gateway, collectors, faults: [{ target: E, fault: 'garbage' }] })).toThrow(/not a meter fault/);
    const fleet = createFleet({ gateway, collectors, clock: new ManualClock(), faults: [{ target: E, fault: 'stuckValve' }] });
    expect(fleet.definition.faults).toHaveLength(1);
    expect(fleet.meter(E)!.faults.stuckValve).toBe(false);
  });
});

describe('the fault modes on a meter', () => {
  it('reversed register (读数倒走): the next total reading is lower than the last', () => {
    const e = env();
    const m = electric(e);
    e.clock.advance(HOUR_MS);
    const before = readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL);
    m.setFault('reversed', 5);
    expect(readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toBeLessThan(before);
  });

  it('stuck valve: a 拉闸 is acknowledged, the read-back still shows supply on', () => {
    const m = electric();
    m.setFault('stuckValve', true);
    control(m, DLT645_REMOTE_COMMAND.TRIP);
    expect(statusWord(m)).toMatchObject({ relayState: 'connected' });
  });

  it('rate error (倍率异常): the CT ratio answers the fault ratio whatever was written; cleared, the written one again', () => {
    const CT = 0x04000306;
    const m = electric(env(), { params: { ctRatio: 20 } });
    expect(readParam(m, CT)).toMatchObject({ values: { value: 20 } });
    m.setFault('rateError', 80);
    expect(readParam(m, CT)).toMatchObject({ values: { value: 80 } });
    expect(m.faults.rateError).toBe(80);
    m.setFault('rateError', 0);
    expect(readParam(m, CT)).toMatchObject({ values: { value: 20 } });
    expect(() => m.setFault('rateError', 1.5)).toThrow(RangeError);
    expect(() => m.setFault('rateError', -1)).toThrow(RangeError);
  });
});
