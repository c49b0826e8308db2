import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { beijingFields, businessMonth, startOfBeijingMonth, startOfBeijingYear } from '../../time.ts';
import { nextBoundary, periodKey, periodKeysBetween } from './period.ts';

// periodKey and nextBoundary are kept per UTC hour: the kept answers must be what time.ts says for
// every instant of the hour, around month and year boundaries most of all.
describe('period keys per UTC hour', () => {
  const direct = (at: Date, t: number | null) => ({
    key: t === 2 ? String(beijingFields(at).year) : businessMonth(at),
    next: (t === 2 ? startOfBeijingYear(at, 1) : startOfBeijingMonth(at, 1)).getTime(),
  });

  it('answers as time.ts does for any instant, asked in any order', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(1, 2, null), (ms, t) => {
        const at = new Date(ms);
        const d = direct(at, t);
        expect(periodKey(at, t)).toBe(d.key);
        expect(nextBoundary(at, t).getTime()).toBe(d.next);
      }),
      { numRuns: 2000 },
    );
  });

  it('the last millisecond of a China month and the first of the next differ', () => {
    const start = startOfBeijingMonth(new Date('2026-11-15T00:00:00Z'), 1); // 2026-12-01 00:00 China time
    const before = new Date(start.getTime() - 1);
    expect(periodKey(before, 1)).toBe('2026-11');
    expect(periodKey(start, 1)).toBe('2026-12');
    expect(nextBoundary(before, 1).getTime()).toBe(start.getTime());
    expect(periodKeysBetween(before, start, 1)).toEqual(['2026-11', '2026-12']);
    const year = startOfBeijingYear(start, 1);
    expect(periodKey(new Date(year.getTime() - 1), 2)).toBe('2026');
    expect(periodKey(year, 2)).toBe('2027');
  });
});
