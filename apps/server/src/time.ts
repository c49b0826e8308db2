// The server's Beijing time: the shared time module (packages/contracts/src/time.ts: dayjs with
// utc + timezone, Asia/Shanghai) for every business day, month, wall-clock text and HH:mm window,
// and "now" from clock.ts (CLOCK_AT shifts it in tests and drills). No other file adds or subtracts
// an offset.
import type { Dayjs } from 'dayjs';
import { inBeijing } from '@meter/contracts';
import { now } from './clock.ts';

export {
  ZONE,
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
  monthRange,
  parseBeijing,
  startOfBeijingDay,
  startOfBeijingMonth,
  startOfBeijingYear,
} from '@meter/contracts';

/** Now (clock.ts) in Beijing time. */
export function beijingNow(): Dayjs {
  return inBeijing(now());
}
