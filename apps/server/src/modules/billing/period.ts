// Accumulation periods and calendar months in China time (Asia/Shanghai; time.ts does the zone).
// Pure functions: a period key is 'YYYY-MM' (monthly accumulation: chargingMonthType 1 or null) or
// 'YYYY' (yearly: chargingMonthType 2).
import { beijingFields, businessDate, businessMonth, fromBeijing, monthRange as beijingMonthRange, startOfBeijingMonth, startOfBeijingYear } from '../../time.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM' of an instant in China time. */
export function monthKey(at: Date): string {
  return businessMonth(at);
}

// Settlement asks for the period and the next boundary of every reading, and the zone conversion
// (time.ts) is most of its pricing's CPU. China time is a whole number of hours from UTC (no DST since
// 1991), so a month or year begins on a whole UTC hour and every instant of one UTC hour has the same
// answers: they are kept per UTC hour (since 1970; a bounded map, cleared when full).
const HOUR = 3_600_000;
const memoKeys = new Map<number, string>();
const memoNext = new Map<number, number>();
const memoized = <T>(memo: Map<number, T>, at: Date, monthType: number | null, f: () => T): T => {
  const ms = at.getTime();
  if (!(ms >= 0)) return f();
  const slot = Math.floor(ms / HOUR) * 2 + (monthType === 2 ? 1 : 0);
  let v = memo.get(slot);
  if (v === undefined) {
    if (memo.size >= 100_000) memo.clear();
    v = f();
    memo.set(slot, v);
  }
  return v;
};

/** The accumulation period an instant falls in. */
export function periodKey(at: Date, monthType: number | null): string {
  return memoized(memoKeys, at, monthType, () => (monthType === 2 ? String(beijingFields(at).year) : monthKey(at)));
}

/** The first instant after `at` that starts a new accumulation period. */
export function nextBoundary(at: Date, monthType: number | null): Date {
  return new Date(memoized(memoNext, at, monthType, () => (monthType === 2 ? startOfBeijingYear(at, 1) : startOfBeijingMonth(at, 1)).getTime()));
}

/** Every period key an interval [from, to] touches, in order. */
export function periodKeysBetween(from: Date, to: Date, monthType: number | null): string[] {
  const keys = [periodKey(from, monthType)];
  for (let b = nextBoundary(from, monthType); b.getTime() <= to.getTime(); b = nextBoundary(b, monthType)) {
    keys.push(periodKey(b, monthType));
  }
  return keys;
}

/** [start, end) of a month 'YYYY-MM' as instants. */
export function monthRange(key: string): { start: Date; end: Date } {
  return beijingMonthRange(key);
}

/** The month before 'YYYY-MM'. */
export function previousMonth(key: string): string {
  const [y, m] = key.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${pad(m - 1)}`;
}

/** Day of the month (1–31) in China time. */
export function dayOfMonth(at: Date): number {
  return beijingFields(at).day;
}

/** 'YYYY-MM-DD' in China time. */
export function dayKey(at: Date): string {
  return businessDate(at);
}

/** A China-time wall-clock 'YYYY-MM-DD[ HH:mm[:ss]]' as an instant. */
export function localToInstant(s: string): Date {
  return fromBeijing(s);
}

export { rangeOf } from '../../time.ts';
