import { describe, expect, it } from 'vitest';
import { chinaTimeToday, dueNow, nextRun } from './timed.ts';

// When a timed valve control runs: China calendar days, the grace period, no make-up of missed runs.

const at = (s: string) => new Date(s);
const base = { enabled: true, lastRunAt: null, createdAt: at('2025-01-01T00:00:00Z'), runAt: null, timeOfDay: '' };
const GRACE = 10 * 60_000;

describe('chinaTimeToday', () => {
  it('is HH:mm on the China calendar day, also when UTC is still on the day before', () => {
    expect(chinaTimeToday('08:00', at('2025-06-01T02:00:00Z'))?.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    // 2025-06-01 07:30 in China is 2025-05-31 23:30 UTC
    expect(chinaTimeToday('07:00', at('2025-05-31T23:30:00Z'))?.toISOString()).toBe('2025-05-31T23:00:00.000Z');
    expect(chinaTimeToday('24:00', at('2025-06-01T02:00:00Z'))).toBeNull();
  });
});

describe('dueNow', () => {
  it('a single run is due at its time, within the grace period; later it is a missed run, not carried out', () => {
    const t = { ...base, repeat: 'once' as const, runAt: at('2025-06-01T00:00:00Z') };
    expect(dueNow(t, at('2025-05-31T23:59:00Z'), GRACE)).toBeNull();
    expect(dueNow(t, at('2025-06-01T00:05:00Z'), GRACE)).toEqual({ occurrence: t.runAt, run: true });
    expect(dueNow(t, at('2025-06-01T03:00:00Z'), GRACE)).toEqual({ occurrence: t.runAt, run: false });
    expect(dueNow({ ...t, lastRunAt: at('2025-06-01T00:00:10Z') }, at('2025-06-01T00:05:00Z'), GRACE)).toBeNull();
    expect(dueNow({ ...t, enabled: false }, at('2025-06-01T00:05:00Z'), GRACE)).toBeNull();
  });

  it('a daily run is due once per China day, not before its time, not for a time already past at creation', () => {
    const t = { ...base, repeat: 'daily' as const, timeOfDay: '08:00' };
    const eight = at('2025-06-01T00:00:00Z'); // 08:00 China
    expect(dueNow(t, at('2025-05-31T23:59:00Z'), GRACE)).toBeNull();
    expect(dueNow(t, at('2025-06-01T00:01:00Z'), GRACE)).toEqual({ occurrence: eight, run: true });
    expect(dueNow({ ...t, lastRunAt: at('2025-06-01T00:01:00Z') }, at('2025-06-01T00:02:00Z'), GRACE)).toBeNull();
    // ran yesterday: due again today
    expect(dueNow({ ...t, lastRunAt: at('2025-05-31T00:01:00Z') }, at('2025-06-01T00:01:00Z'), GRACE)?.run).toBe(true);
    // created after today's time
    expect(dueNow({ ...t, createdAt: at('2025-06-01T00:00:30Z') }, at('2025-06-01T00:01:00Z'), GRACE)).toBeNull();
    // the service was down from 07:00 to 12:00: missed
    expect(dueNow(t, at('2025-06-01T04:00:00Z'), GRACE)).toEqual({ occurrence: eight, run: false });
  });
});

describe('nextRun', () => {
  it('shows the coming run: today, tomorrow, or none', () => {
    const d = { ...base, repeat: 'daily' as const, timeOfDay: '08:00' };
    expect(nextRun(d, at('2025-05-31T20:00:00Z'))?.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(nextRun(d, at('2025-06-01T01:00:00Z'))?.toISOString()).toBe('2025-06-02T00:00:00.000Z');
    expect(nextRun({ ...d, enabled: false }, at('2025-06-01T01:00:00Z'))).toBeNull();
    const o = { ...base, repeat: 'once' as const, runAt: at('2025-06-01T00:00:00Z') };
    expect(nextRun(o, at('2025-05-31T00:00:00Z'))).toEqual(o.runAt);
    expect(nextRun(o, at('2025-06-02T00:00:00Z'))).toBeNull();
  });
});
