// The server's clock. Rules that depend on the time of day (the alarm scheme's no-disconnect hours,
// timed valve control) take the time from `now()`, never from `new Date()`, so that a test or a drill
// can run the server at a chosen Beijing time: CLOCK_AT=2026-11-26T03:00:00+08:00 starts the clock
// there and lets it run at the normal rate. Unset, it is the system clock. PostgreSQL's now() is not
// shifted: stored timestamps stay real.

let shiftMs = 0;

/** Starts the clock at `at` (an ISO time with its offset); undefined or '' goes back to the system clock. */
export function setClockAt(at: string | undefined): void {
  if (!at) {
    shiftMs = 0;
    return;
  }
  const t = Date.parse(at);
  if (Number.isNaN(t)) throw new Error(`CLOCK_AT 不是有效的时间：${at}（例如 2026-11-26T03:00:00+08:00）`);
  shiftMs = t - Date.now();
}

export function now(): Date {
  return new Date(Date.now() + shiftMs);
}
