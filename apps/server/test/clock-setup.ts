// Integration tests run the server's time-of-day rules at CLOCK_AT when it is set (e.g.
// CLOCK_AT=2026-11-26T03:00:00+08:00 npx vitest run --project integration), as `npm start` does: the
// suite must pass at any hour, inside the demo's no-disconnect window or not (docs/OPERATIONS.md).
import { setClockAt } from '../src/clock.ts';

setClockAt(process.env.CLOCK_AT);
