import { describe, expect, it } from 'vitest';
import { ManualClock, chinaDateTimeText, chinaHourIndex, chinaHourOfDay, chinaHourStart, chinaMonthKey, chinaWallClock } from './clock.ts';

describe('China time of the simulated meters', () => {
  it('wall clock ↔ instant at the day boundary (23:59 / 00:00)', () => {
    expect(new Date(chinaWallClock(2026, 11, 25, 23, 59)).toISOString()).toBe('2026-11-25T15:59:00.000Z');
    expect(new Date(chinaWallClock(2026, 11, 26)).toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(chinaDateTimeText(Date.parse('2026-11-25T15:59:59Z'))).toBe('2026-11-25 23:59:59');
    expect(chinaDateTimeText(Date.parse('2026-11-25T16:00:00Z'))).toBe('2026-11-26 00:00:00');
  });

  it('hours: index, start and hour of day agree', () => {
    const t = chinaWallClock(2026, 11, 26, 0, 30);
    expect(chinaHourOfDay(t)).toBe(0);
    expect(chinaHourStart(chinaHourIndex(t))).toBe(chinaWallClock(2026, 11, 26));
    expect(chinaHourStart(chinaHourIndex(t) + 1)).toBe(chinaWallClock(2026, 11, 26, 1));
  });

  it('month ends roll into the next month in China time', () => {
    expect(chinaMonthKey(chinaWallClock(2026, 1, 31, 23, 59))).toBe(2026 * 12 + 0);
    expect(chinaMonthKey(chinaWallClock(2026, 2, 1))).toBe(2026 * 12 + 1);
    expect(chinaMonthKey(chinaWallClock(2027, 1, 1))).toBe(2027 * 12 + 0);
  });

  it('a ManualClock starts at 2024-01-01 00:00 China time', () => {
    expect(chinaDateTimeText(new ManualClock().now())).toBe('2024-01-01 00:00:00');
  });
});
