import { afterEach, describe, expect, it } from 'vitest';
import { now, setClockAt } from './clock.ts';

describe('clock', () => {
  afterEach(() => setClockAt(undefined));

  it('is the system clock by default', () => {
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(50);
  });

  it('starts at CLOCK_AT and runs on', async () => {
    setClockAt('2026-11-26T03:00:00+08:00');
    const a = now().getTime();
    expect(Math.abs(a - Date.parse('2026-11-25T19:00:00Z'))).toBeLessThan(50);
    await new Promise((r) => setTimeout(r, 20));
    expect(now().getTime()).toBeGreaterThan(a);
  });

  it('refuses a time it cannot read', () => {
    expect(() => setClockAt('03:00')).toThrow(/CLOCK_AT/);
  });
});
