import { useEffect, useState } from 'react';
import dayjs from 'dayjs';

/** SPEC §1/§9: date, weekday and time, refreshed every 500 ms. */
export const CLOCK_REFRESH_MS = 500;

export function formatClock(d: dayjs.Dayjs): string {
  return d.format('YYYY-MM-DD dddd HH:mm:ss');
}

export function Clock({ className }: { className?: string }) {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const t = setInterval(() => setNow(dayjs()), CLOCK_REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  return <span className={className} data-testid="clock">{formatClock(now)}</span>;
}
