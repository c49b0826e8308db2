import { afterEach, describe, expect, it } from 'vitest';
import { setClockAt } from './clock.ts';
import { beijingNow, businessDate, startOfBeijingDay } from './time.ts';

// The Beijing-time functions themselves are tested beside them (packages/contracts/src/time.test.ts).

describe('time: now comes from clock.ts', () => {
  afterEach(() => setClockAt(undefined));

  it('follows CLOCK_AT', () => {
    setClockAt('2026-11-26T23:59:30+08:00');
    expect(beijingNow().format('YYYY-MM-DD HH:mm')).toBe('2026-11-26 23:59');
    setClockAt('2026-11-27T00:00:00+08:00');
    expect(beijingNow().format('YYYY-MM-DD HH:mm')).toBe('2026-11-27 00:00');
  });

  it('the server sees the shared business-day functions', () => {
    expect(businessDate(new Date('2026-11-25T16:00:00Z'))).toBe('2026-11-26');
    expect(startOfBeijingDay(new Date('2026-11-25T16:00:00Z')).toISOString()).toBe('2026-11-25T16:00:00.000Z');
  });
});
