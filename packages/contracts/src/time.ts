// Beijing time: the one place that knows the business time zone (Asia/Shanghai). Every business day,
// calendar month, wall-clock text and HH:mm window (server, web, these contracts) goes through here;
// no other file adds or subtracts an offset. The server's "now" is apps/server/src/time.ts's
// beijingNow() (its clock.ts: CLOCK_AT shifts it in tests and drills).
//
// Built on dayjs with its utc and timezone plugins. The zone's offset is read once from the
// time-zone database: Asia/Shanghai has kept UTC+8 without daylight saving since 1991, and the
// calendar fields of hot paths (a period key per settled reading) are then plain arithmetic on it
// (dayjs's own zone conversion costs ~60 µs a call, formatting with a fixed offset ~3 µs).
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The business time zone. */
export const ZONE = 'Asia/Shanghai';

const DAY_MS = 86_400_000;
/** the zone's offset from UTC, in minutes (480) */
const OFFSET_MIN = dayjs().tz(ZONE).utcOffset();
const OFFSET_MS = OFFSET_MIN * 60_000;
/** the zone's offset as ISO text ('+08:00') */
const OFFSET_TEXT = dayjs().tz(ZONE).format('Z');

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** An instant as a dayjs in Beijing time (its year(), month(), date(), day(), hour() … are Beijing's). */
export function inBeijing(at: Date | number): Dayjs {
  return dayjs(at).utcOffset(OFFSET_MIN);
}

/** The Beijing calendar and wall-clock fields of an instant (month 1–12, weekday 0 = Sunday). */
export function beijingFields(at: Date | number) {
  const x = new Date((typeof at === 'number' ? at : at.getTime()) + OFFSET_MS);
  return {
    year: x.getUTCFullYear(),
    month: x.getUTCMonth() + 1,
    day: x.getUTCDate(),
    hour: x.getUTCHours(),
    minute: x.getUTCMinutes(),
    second: x.getUTCSeconds(),
    weekday: x.getUTCDay(),
  };
}

/**
 * The instant of a Beijing wall-clock time given by its fields (month 1–12; fields out of range
 * carry over like Date.UTC: day 0 is the last day of the month before, month 13 January next year).
 */
export function fromBeijingFields(year: number, month: number, day = 1, hour = 0, minute = 0, second = 0): Date {
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - OFFSET_MS);
}

/** An instant as Beijing wall-clock text; `format` as dayjs's (default 'YYYY-MM-DD HH:mm:ss'). */
export function formatBeijing(at: Date | number, format = 'YYYY-MM-DD HH:mm:ss'): string {
  return inBeijing(at).format(format);
}

/** An instant in ISO 8601 with Beijing's offset: '2026-11-25T22:00:00+08:00'. */
export function isoBeijing(at: Date | number): string {
  return inBeijing(at).format('YYYY-MM-DDTHH:mm:ssZ');
}

/**
 * A Beijing wall-clock 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DD HH:mm:ss' (a 'T' may stand
 * for the space) as an instant. Text that already names its offset ('Z', '+08:00') keeps it.
 */
export function fromBeijing(text: string): Date {
  const [date, time = '00:00:00'] = text.trim().split(/[ T]/);
  if (/[zZ]|[+-]\d\d:?\d\d$/.test(time)) return new Date(`${date}T${time}`);
  return new Date(`${date}T${time.length === 5 ? `${time}:00` : time}${OFFSET_TEXT}`);
}

/**
 * An instant given as ISO-like text ('YYYY-MM-DD HH:mm[:ss]' or with a 'T'): Beijing time unless it
 * names its offset. Epoch ms, NaN when malformed (Date.parse's rules).
 */
export function parseBeijing(text: string): number {
  return Date.parse(text.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? '' : OFFSET_TEXT));
}

/** 'YYYY-MM-DD' of an instant: its business date. */
export function businessDate(at: Date | number): string {
  const f = beijingFields(at);
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`;
}

/** 'YYYY-MM' of an instant: its business month. */
export function businessMonth(at: Date | number): string {
  const f = beijingFields(at);
  return `${pad(f.year, 4)}-${pad(f.month)}`;
}

/** 00:00 Beijing time of the day an instant falls on. */
export function startOfBeijingDay(at: Date | number): Date {
  const f = beijingFields(at);
  return fromBeijingFields(f.year, f.month, f.day);
}

/** 00:00 Beijing time of the day 'YYYY-MM-DD' (the day after when `next`: the exclusive end of that day). */
export function beijingDayStart(date: string, next = false): Date {
  const [y, m, d] = date.split('-').map(Number);
  return fromBeijingFields(y, m, d + (next ? 1 : 0));
}

/** 00:00 Beijing time on the 1st of the month an instant falls in, `addMonths` later (0: this month). */
export function startOfBeijingMonth(at: Date | number, addMonths = 0): Date {
  const f = beijingFields(at);
  return fromBeijingFields(f.year, f.month + addMonths, 1);
}

/** 00:00 Beijing time on 1 January of the year an instant falls in, `addYears` later. */
export function startOfBeijingYear(at: Date | number, addYears = 0): Date {
  return fromBeijingFields(beijingFields(at).year + addYears, 1, 1);
}

/** [start, end) of a business month 'YYYY-MM' as instants. */
export function monthRange(key: string): { start: Date; end: Date } {
  const [y, m] = key.split('-').map(Number);
  return { start: fromBeijingFields(y, m, 1), end: fromBeijingFields(y, m + 1, 1) };
}

/** Minutes since Beijing midnight (0–1439) of an instant: where it falls in an HH:mm window. */
export function beijingMinuteOfDay(at: Date | number): number {
  const f = beijingFields(at);
  return f.hour * 60 + f.minute;
}

/** The instant of 'HH:mm' on the Beijing day of `at` (null when not a valid HH:mm). */
export function atBeijingTime(timeOfDay: string, at: Date | number): Date | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(timeOfDay);
  if (!m) return null;
  return new Date(startOfBeijingDay(at).getTime() + (Number(m[1]) * 60 + Number(m[2])) * 60_000);
}

/** `days` whole days after an instant (Beijing has no daylight saving: a day is always 24 h). */
export function addDays(at: Date | number, days: number): Date {
  return new Date((typeof at === 'number' ? at : at.getTime()) + days * DAY_MS);
}
