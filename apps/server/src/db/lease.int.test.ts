import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { OWNER_URL } from '../../test/helpers.ts';
import { appUrlFrom, openDb } from './client.ts';
import { SessionLease } from './lease.ts';

// The lease held as a session advisory lock (db/lease.ts): its holder's session dies (terminated, as when its
// connection or the database drops it); the holder notices at once, and the lease is held again by one side.

const db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 2);
const owner = new pg.Pool({ connectionString: OWNER_URL(), max: 1 });
const log = pino({ level: 'silent' });
afterAll(async () => {
  await db.close();
  await owner.end();
});

const KEY = 724399;
let sub = 1;
const until = async (ok: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

function lease(key: number, s: number, retryMs: number) {
  const events: string[] = [];
  const l = new SessionLease({ db, key, sub: s, log, name: 'test', retryMs, pingMs: 500, onAcquired: () => void events.push('acquired'), onLost: () => void events.push('lost') });
  return { l, events };
}

/** Terminates the session holding (key, sub); true when there was one. */
async function killHolder(key: number, s: number): Promise<boolean> {
  const { rows } = await owner.query<{ ok: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ok FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [key, s],
  );
  return rows.length === 1 && rows[0].ok;
}

describe('a session lease', () => {
  it('its holder, its session terminated, notices at once, and takes it back when nobody else has', async () => {
    const s = sub++;
    const a = lease(KEY, s, 300);
    await a.l.start();
    expect(a.l.held).toBe(true);
    expect(await killHolder(KEY, s)).toBe(true);
    await until(() => a.events.includes('lost'), 3000, 'lost');
    await until(() => a.l.held, 5000, 'held again');
    expect(a.events).toEqual(['acquired', 'lost', 'acquired']);
    await a.l.stop();
  });

  it('two contenders: one holds at a time, before and after the holder’s session dies', async () => {
    const s = sub++;
    const a = lease(KEY, s, 300);
    const b = lease(KEY, s, 300);
    await a.l.start();
    await b.l.start();
    let both = false;
    const watch = setInterval(() => (both ||= a.l.held && b.l.held), 5);
    try {
      expect([a.l.held, b.l.held]).toEqual([true, false]);
      expect(await killHolder(KEY, s)).toBe(true);
      await until(() => a.events.includes('lost'), 3000, 'lost');
      // the old holder (alive) or the other: whoever tries first
      await until(() => a.l.held || b.l.held, 5000, 'held again');
      await new Promise((r) => setTimeout(r, 1000));
      expect(Number(a.l.held) + Number(b.l.held)).toBe(1);
      expect(both).toBe(false);
    } finally {
      clearInterval(watch);
      await a.l.stop();
      await b.l.stop();
    }
  });

  it('stopped, it lets go at once: the other takes it on its next try', async () => {
    const s = sub++;
    const a = lease(KEY, s, 300);
    const b = lease(KEY, s, 300);
    await a.l.start();
    await b.l.start();
    await a.l.stop();
    await until(() => b.l.held, 3000, 'the other holds');
    expect(a.l.held).toBe(false);
    await b.l.stop();
  });
});
