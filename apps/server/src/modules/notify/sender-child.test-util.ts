import fs from 'node:fs';
import { openDb } from '../../db/client.ts';
import { sendQueued } from './service.ts';

// A notification sender in a process of its own, for outbox.int.test.ts: sends what is queued with a
// provider that writes each delivery to a file (one line: id, idempotency key), and — when KILL_AT is
// set — kills itself with SIGKILL as the KILL_AT-th message of COMPANY is handed to the provider,
// before it is delivered (a crash between claim and send).

const db = openDb(process.env.APP_URL!, 2);
const company = Number(process.env.COMPANY);
const killAt = Number(process.env.KILL_AT ?? 0);
const out = process.env.OUT!;
let mine = 0;
await sendQueued(
  db,
  {
    name: 'test',
    async send(m) {
      if (m.companyId === company && ++mine === killAt) process.kill(process.pid, 'SIGKILL');
      fs.appendFileSync(out, `${m.id} ${(m as { idempotencyKey?: string }).idempotencyKey ?? ''}\n`);
    },
  },
  // room for whatever else the shared test database has queued (the demo seed queues ~100 alarms)
  Number(process.env.LIMIT ?? 10_000),
  Number(process.env.LEASE_MS ?? 300_000),
);
await db.close();
