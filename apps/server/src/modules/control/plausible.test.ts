import { describe, expect, it } from 'vitest';
import { implausible, PLAUSIBILITY, ratedPerHour } from './plausible.ts';

const H = 3600_000;

describe('ratedPerHour', () => {
  it('follows kind, phase and caliber, and is generous when they are unknown', () => {
    expect(ratedPerHour({ kind: 1, phaseId: 1, caliberId: null })).toBe(PLAUSIBILITY.singlePhaseKw);
    expect(ratedPerHour({ kind: 1, phaseId: 2, caliberId: null })).toBe(PLAUSIBILITY.threePhaseKw);
    expect(ratedPerHour({ kind: 1, phaseId: null, caliberId: null })).toBe(PLAUSIBILITY.threePhaseKw);
    expect(ratedPerHour({ kind: 2, phaseId: null, caliberId: 61 })).toBe(3.125);
    expect(ratedPerHour({ kind: 2, phaseId: null, caliberId: null })).toBe(PLAUSIBILITY.waterDefault);
  });
});

describe('implausible', () => {
  const single = ratedPerHour({ kind: 1, phaseId: 1, caliberId: null });

  it('holds a jump beyond what the meter can pass in the time (the 5,000 kWh report)', () => {
    expect(implausible(5000, 10_000, single, null)).toMatchObject({ limit: 5.63 });
    expect(implausible(5000, 24 * H, single, null)?.reason).toContain('额定最大值');
    // a day at full load is possible
    expect(implausible(single * 24, 24 * H, single, null)).toBeNull();
  });

  it('counts at least a quarter of an hour, so register steps of a few seconds pass', () => {
    expect(implausible(0.5, 1_000, single, null)).toBeNull();
    expect(implausible(single * 0.25 * 1.5 + 0.01, 1_000, single, null)).not.toBeNull();
  });

  it('holds a sudden large multiple of the usual use, only from usualMin units on', () => {
    // usually 10 kWh a day; 3 days later 5,000 kWh more: below the rated maximum, far above usual
    const usual = 10 / 24;
    expect(implausible(5000, 72 * H, single * 10, usual)?.reason).toContain('平时用量');
    // 3 days of ordinary use, and twice the usual: fine
    expect(implausible(60, 72 * H, single, usual)).toBeNull();
    // a small meter's jump under usualMin is never judged by usual use
    expect(implausible(PLAUSIBILITY.usualMin - 1, 72 * H, single, 0.01)).toBeNull();
    // no history: only the rated maximum counts
    expect(implausible(1000, 72 * H, single, null)).toBeNull();
  });

  it('never holds nothing or a drop (those are other rules)', () => {
    expect(implausible(0, H, single, 0)).toBeNull();
    expect(implausible(-5, H, single, 0)).toBeNull();
  });
});
