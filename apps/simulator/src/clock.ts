/**
 * Simulated time. Meters integrate consumption against a {@link SimClock}; the clock can run
 * faster than real time (`speed`) for demos and tests, or be driven by hand ({@link ManualClock}).
 *
 * Times are epoch milliseconds. Meters display China Standard Time (UTC+8) wall-clock fields,
 * independent of the host time zone; this file is the simulator's only place that knows the offset
 * (CHINA_OFFSET_MS and the china* helpers below).
 */

export interface SimClock {
  /** Current simulated time, epoch ms. Never decreases. */
  now(): number;
  /** Simulated milliseconds per real millisecond (1 = real time). */
  readonly speed: number;
}

/** Simulated time = `start + (real elapsed) × speed`. */
export class ScaledClock implements SimClock {
  readonly speed: number;
  private readonly start: number;
  private readonly realStart: number;
  private readonly realNow: () => number;

  /**
   * @param speed simulated ms per real ms (e.g. 60 = one simulated minute per real second)
   * @param start simulated time at construction (default: the real time now)
   * @param realNow real time source (default `Date.now`), injectable for tests
   */
  constructor(speed = 1, start?: number | Date, realNow: () => number = Date.now) {
    if (!(Number.isFinite(speed) && speed > 0)) throw new RangeError(`speed must be a positive number, got ${speed}`);
    this.speed = speed;
    this.realNow = realNow;
    this.realStart = realNow();
    this.start = start === undefined ? this.realStart : typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.start + (this.realNow() - this.realStart) * this.speed;
  }
}

/** A clock that moves only when told to (unit tests, deterministic scenarios). */
export class ManualClock implements SimClock {
  readonly speed = 1;
  private t: number;

  constructor(start: number | Date = chinaWallClock(2024, 1, 1)) {
    this.t = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.t;
  }

  /** Move forward by `ms` (≥ 0). */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError(`cannot advance by ${ms} ms`);
    this.t += ms;
    return this.t;
  }

  /** Jump to `time`; it must not be earlier than now. */
  set(time: number | Date): number {
    const t = typeof time === 'number' ? time : time.getTime();
    if (t < this.t) throw new RangeError('a ManualClock never goes backwards');
    this.t = t;
    return this.t;
  }
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** UTC+8, the offset every simulated meter keeps its wall clock in. */
export const CHINA_OFFSET_MS = 8 * HOUR_MS;

/** Hour of day (0–23) in China Standard Time. */
export function chinaHourOfDay(epochMs: number): number {
  return Math.floor((epochMs + CHINA_OFFSET_MS) / HOUR_MS) % 24;
}

/** Absolute hour number in China time (hours since 1970-01-01T00:00+08:00). */
export function chinaHourIndex(epochMs: number): number {
  return Math.floor((epochMs + CHINA_OFFSET_MS) / HOUR_MS);
}

/** The instant an absolute China-time hour number (chinaHourIndex) starts. */
export function chinaHourStart(hourIndex: number): number {
  return hourIndex * HOUR_MS - CHINA_OFFSET_MS;
}

/** The instant (epoch ms) of a China wall-clock time (month 1–12). */
export function chinaWallClock(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) - CHINA_OFFSET_MS;
}

/** 'YYYY-MM-DD HH:mm:ss' in China time. */
export function chinaDateTimeText(epochMs: number): string {
  return new Date(epochMs + CHINA_OFFSET_MS).toISOString().replace('T', ' ').slice(0, 19);
}

/** Month key `year*12 + month0` in China time (used for settlement-day snapshots). */
export function chinaMonthKey(epochMs: number): number {
  const d = new Date(epochMs + CHINA_OFFSET_MS);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}
