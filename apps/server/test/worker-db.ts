// Setup file of the integration project: a copy of the migrated, seeded template (global-setup.ts) that
// this test file has to itself, named in TEST_WORKER_DB (OWNER_URL() in helpers.ts points at it).
//
// Copies are slots `<TEST_DB_NAME>_w<n>`, kept from file to file: a file starts on the rows the files
// before it in the slot left (every file makes the companies, rooms and meters it asserts on, and the
// files ran one after another in one database before there were slots). A process claims a slot with a
// session advisory lock on the maintenance database, held until the process exits, so two files running
// at once never share a copy. VITEST_POOL_ID alone does not ensure that: vitest 4 frees the id of a
// group's last file after the next group (the integration project runs after unit and web) has handed it
// out again, and the process of a finished file may still be ending while the next one starts.
//
// The integration files of a worker share its process (vitest.config.ts: `isolate: false`) and vitest
// runs this file again before each of them: the slot claimed by the worker's first file is kept on
// globalThis and named again for the next ones (a second lock in the same process would claim a second
// slot, and a copy of the template for every file).
import net from 'node:net';
import pg from 'pg';
import { ADMIN_URL, adminQuery, TEST_DB_NAME } from './global-setup.ts';

/** A 31-bit lock key from the template's name: runs on other template names never meet. */
function keyOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h & 0x7fffffff;
}

/** The slot this process holds (name and the connection holding its lock), once its first file claimed it. */
const KEPT = Symbol.for('meter.test.workerDb');
const kept = globalThis as { [KEPT]?: { name: string; lock: pg.Client } };

process.env.TEST_WORKER_DB = (kept[KEPT] ??= await claimSlot()).name;

async function claimSlot(): Promise<{ name: string; lock: pg.Client }> {
  const lock = new pg.Client({ connectionString: ADMIN_URL });
  await lock.connect();
  // the lock's connection must not keep the worker alive: it goes (and the slot is free) when the process does
  lock.on('error', () => {});
  if (lock.connection.stream instanceof net.Socket) lock.connection.stream.unref();

  const preferred = Number(process.env.VITEST_POOL_ID ?? 1);
  let slot = 0;
  for (const n of [preferred, ...Array.from({ length: 64 }, (_, i) => i + 1).filter((i) => i !== preferred)]) {
    const { rows } = await lock.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [keyOf(TEST_DB_NAME), n]);
    if (rows[0].ok) {
      slot = n;
      break;
    }
  }
  if (!slot) throw new Error(`no free test database slot for ${TEST_DB_NAME}`);
  const name = `${TEST_DB_NAME}_w${slot}`;

  if (!(await adminQuery(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).length) {
    // files starting together copy the one template at once; PostgreSQL refuses a copy while another
    // session is in the template (55006), so wait and try again
    for (let attempt = 1; ; attempt++) {
      try {
        await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(TEST_DB_NAME)}`);
        break;
      } catch (e) {
        if (attempt >= 20 || (e as { code?: string }).code !== '55006') throw e;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }
  return { name, lock };
}
