// The server's Beijing time: the shared time module (packages/contracts/src/time.ts: dayjs with
// utc + timezone, Asia/Shanghai) for every business day, month, wall-clock text and HH:mm window,
// and "now" from clock.ts (CLOCK_AT shifts it in tests and drills). No other file adds or subtracts
// an offset.
import type { Dayjs } from 'dayjs';
import { addDays, fromBeijing, inBeijing } from '@meter/contracts';
import { now } from './clock.ts';

export {
  ZONE, addDays, atBeijingTime, beijingDayStart, beijingFields, beijingMinuteOfDay, businessDate,
  businessMonth, formatBeijing, fromBeijing, fromBeijingFields, inBeijing, isoBeijing, monthRange,
  parseBeijing, startOfBeijingDay, startOfBeijingMonth, startOfBeijingYear
} from '@meter/contracts';

/** Now (clock.ts) in Beijing time. */
export function beijingNow(): Dayjs {
  return inBeijing(now());
}

/**
 * A search range from 'YYYY-MM-DD[ HH:mm:ss]' Beijing bounds: the start inclusive; the end exclusive, and
 * a date-only end means the whole of that day.
 */
export function rangeOf(startTime?: string, endTime?: string): { from?: Date; to?: Date } {
  const from = startTime ? fromBeijing(startTime) : undefined;
  let to = endTime ? fromBeijing(endTime) : undefined;
  if (to && endTime && !endTime.trim().includes(' ')) to = addDays(to, 1);
  return { from, to };
}
