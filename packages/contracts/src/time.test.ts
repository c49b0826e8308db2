import { describe, expect, it } from 'vitest';
import {
  addDays,
  atBeijingTime,
  beijingDayStart,
  beijingFields,
  beijingMinuteOfDay,
  businessDate,
  businessMonth,
  formatBeijing,
  fromBeijing,
  fromBeijingFields,
  inBeijing,
  isoBeijing,
  parseBeijing,
  monthRange,
  startOfBeijingDay,
  startOfBeijingMonth,
  startOfBeijingYear,
} from './time.ts';

const at = (iso: string) => new Date(iso);

describe('time: Beijing day boundaries', () => {
  it('23:59 Beijing is still the same business day, 00:00 is the next', () => {
    // 2026-11-25 23:59:59 Beijing = 15:59:59 UTC; 2026-11-26 00:00 Beijing = 16:00 UTC
    expect(businessDate(at('2026-11-25T15:59:59.999Z'))).toBe('2026-11-25');
    expect(businessDate(at('2026-11-25T16:00:00.000Z'))).toBe('2026-11-26');
    expect(formatBeijing(at('2026-11-25T15:59:00Z'), 'HH:mm')).toBe('23:59');
    expect(formatBeijing(at('2026-11-25T16:00:00Z'), 'HH:mm')).toBe('00:00');
  });

  it('start of the Beijing day is 16:00 UTC the day before', () => {
    expect(startOfBeijingDay(at('2026-11-25T15:59:59Z')).toISOString()).toBe('2026-11-24T16:00:00.000Z');
    expect(startOfBeijingDay(at('2026-11-25T16:00:00Z')).toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(startOfBeijingDay(at('2026-11-26T03:00:00Z')).toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(beijingDayStart('2026-11-26').toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(beijingDayStart('2026-11-26', true).toISOString()).toBe('2026-11-26T16:00:00.000Z');
  });

  it('minute of the day and HH:mm on the Beijing day', () => {
    expect(beijingMinuteOfDay(at('2026-11-25T15:59:00Z'))).toBe(23 * 60 + 59);
    expect(beijingMinuteOfDay(at('2026-11-25T16:00:00Z'))).toBe(0);
    expect(atBeijingTime('08:30', at('2026-11-25T20:00:00Z'))!.toISOString()).toBe('2026-11-26T00:30:00.000Z');
    expect(atBeijingTime('23:59', at('2026-11-25T15:00:00Z'))!.toISOString()).toBe('2026-11-25T15:59:00.000Z');
    expect(atBeijingTime('24:00', new Date())).toBeNull();
    expect(atBeijingTime('8:30', new Date())).toBeNull();
  });

  it('the weekday is Beijing\'s: Friday 16:00 UTC is already Saturday', () => {
    // 2026-11-27 is a Friday
    expect(beijingFields(at('2026-11-27T15:59:00Z')).weekday).toBe(5);
    expect(beijingFields(at('2026-11-27T16:00:00Z')).weekday).toBe(6);
    expect(inBeijing(at('2026-11-27T16:00:00Z')).day()).toBe(6);
  });
});

describe('time: months', () => {
  it('month ends: the last second of a month and the first of the next', () => {
    expect(businessMonth(at('2026-01-31T15:59:59Z'))).toBe('2026-01');
    expect(businessMonth(at('2026-01-31T16:00:00Z'))).toBe('2026-02');
    expect(businessMonth(at('2026-12-31T16:00:00Z'))).toBe('2027-01');
    expect(businessDate(at('2028-02-28T16:00:00Z'))).toBe('2028-02-29'); // leap day
  });

  it('start of the month, of a later month and of the year', () => {
    expect(startOfBeijingMonth(at('2026-02-28T16:30:00Z')).toISOString()).toBe('2026-02-28T16:00:00.000Z'); // 1 March Beijing
    expect(startOfBeijingMonth(at('2026-12-15T00:00:00Z'), 1).toISOString()).toBe('2026-12-31T16:00:00.000Z');
    expect(startOfBeijingYear(at('2026-12-31T16:00:00Z')).toISOString()).toBe('2026-12-31T16:00:00.000Z'); // already 2027
    expect(startOfBeijingYear(at('2026-06-01T00:00:00Z'), 1).toISOString()).toBe('2026-12-31T16:00:00.000Z');
  });

  it('monthRange covers the month in Beijing time, December into January', () => {
    expect(monthRange('2026-02')).toEqual({ start: at('2026-01-31T16:00:00Z'), end: at('2026-02-28T16:00:00Z') });
    expect(monthRange('2026-12')).toEqual({ start: at('2026-11-30T16:00:00Z'), end: at('2026-12-31T16:00:00Z') });
  });
});

describe('time: text', () => {
  it('parses Beijing wall-clock text in its three lengths, and keeps an explicit offset', () => {
    expect(fromBeijing('2026-11-26').toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(fromBeijing('2026-11-26 08:30').toISOString()).toBe('2026-11-26T00:30:00.000Z');
    expect(fromBeijing('2026-11-26 08:30:15').toISOString()).toBe('2026-11-26T00:30:15.000Z');
    expect(fromBeijing('2026-11-26T08:30:15').toISOString()).toBe('2026-11-26T00:30:15.000Z');
    expect(fromBeijing('2026-11-26T08:30:15Z').toISOString()).toBe('2026-11-26T08:30:15.000Z');
    expect(fromBeijing('2026-11-26T08:30:15+09:00').toISOString()).toBe('2026-11-25T23:30:15.000Z');
  });

  it('parseBeijing: Beijing unless an offset is named, NaN when malformed', () => {
    expect(parseBeijing('2026-11-26 08:30:15')).toBe(Date.parse('2026-11-26T00:30:15Z'));
    expect(parseBeijing('2026-11-26T08:30')).toBe(Date.parse('2026-11-26T00:30:00Z'));
    expect(parseBeijing('2026-11-26T08:30:15Z')).toBe(Date.parse('2026-11-26T08:30:15Z'));
    expect(parseBeijing('明天')).toBeNaN();
  });

  it('formats in Beijing time, and as ISO with +08:00', () => {
    expect(formatBeijing(at('2026-11-25T16:00:00Z'))).toBe('2026-11-26 00:00:00');
    expect(formatBeijing(at('2026-11-25T16:00:00Z'), 'YYYYMMDDHHmmss')).toBe('20261126000000');
    expect(isoBeijing(at('2026-11-25T14:00:00Z'))).toBe('2026-11-25T22:00:00+08:00');
  });

  it('fields round-trip, with carry-over like Date.UTC', () => {
    const t = at('2026-11-25T15:59:59Z');
    const f = beijingFields(t);
    expect(f).toEqual({ year: 2026, month: 11, day: 25, hour: 23, minute: 59, second: 59, weekday: 3 });
    expect(fromBeijingFields(f.year, f.month, f.day, f.hour, f.minute, f.second)).toEqual(t);
    expect(fromBeijingFields(2026, 13, 1).toISOString()).toBe('2026-12-31T16:00:00.000Z');
    expect(addDays(t, 1).toISOString()).toBe('2026-11-26T15:59:59.000Z');
  });
});
