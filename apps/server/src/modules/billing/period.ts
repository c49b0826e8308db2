// Accumulation periods and calendar months in China time (Asia/Shanghai, UTC+8, no daylight saving).
// Pure functions: a period key is 'YYYY-MM' (monthly accumulation: chargingMonthType 1 or null) or
// 'YYYY' (yearly: chargingMonthType 2).

const OFFSET_MS = 8 * 3600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** The China-time calendar fields of an instant. */
function local(at: Date) {
  const x = new Date(at.getTime() + OFFSET_MS);
  return { y: x.getUTCFullYear(), m: x.getUTCMonth(), d: x.getUTCDate() };
}

/** 'YYYY-MM' of an instant in China time. */
export function monthKey(at: Date): string {
  const { y, m } = local(at);
  return `${y}-${pad(m + 1)}`;
}

/** The accumulation period an instant falls in. */
export function periodKey(at: Date, monthType: number | null): string {
  return monthType === 2 ? String(local(at).y) : monthKey(at);
}

/** The first instant after `at` that starts a new accumulation period. */
export function nextBoundary(at: Date, monthType: number | null): Date {
  const { y, m } = local(at);
  const utc = monthType === 2 ? Date.UTC(y + 1, 0, 1) : Date.UTC(y, m + 1, 1);
  return new Date(utc - OFFSET_MS);
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
  const [y, m] = key.split('-').map(Number);
  return { start: new Date(Date.UTC(y, m - 1, 1) - OFFSET_MS), end: new Date(Date.UTC(y, m, 1) - OFFSET_MS) };
}

/** The month before 'YYYY-MM'. */
export function previousMonth(key: string): string {
  const [y, m] = key.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${pad(m - 1)}`;
}

/** Day of the month (1–31) in China time. */
export function dayOfMonth(at: Date): number {
  return local(at).d;
}

/** 'YYYY-MM-DD' in China time. */
export function dayKey(at: Date): string {
  const { y, m, d } = local(at);
  return `${y}-${pad(m + 1)}-${pad(d)}`;
}

/** A China-time wall-clock 'YYYY-MM-DD[ HH:mm[:ss]]' as an instant. */
export function localToInstant(s: string): Date {
  const [date, time = '00:00:00'] = s.trim().split(/[ T]/);
  const t = time.length === 5 ? `${time}:00` : time;
  return new Date(`${date}T${t}+08:00`);
}

/**
 * A search range from 'YYYY-MM-DD[ HH:mm:ss]' bounds: the start inclusive; the end exclusive, and a
 * date-only end means the whole of that day.
 */
export function rangeOf(startTime?: string, endTime?: string): { from?: Date; to?: Date } {
  const from = startTime ? localToInstant(startTime) : undefined;
  let to = endTime ? localToInstant(endTime) : undefined;
  if (to && endTime && !endTime.trim().includes(' ')) to = new Date(to.getTime() + 86400_000);
  return { from, to };
}
