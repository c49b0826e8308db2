import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrlFrom, migrateDatabase, openDb, type Db } from '../../db/client.ts';
import { verifyPassword } from '../auth/index.ts';
import { testOwnerUrl, TEST_DB_NAME } from '../../../test/global-setup.ts';
import { ensurePlatformAdmin } from './index.ts';

// A production start without demo data (SEED_DEMO=0) leaves a database nobody can sign in to unless the
// first platform administrator is made: once, even when two processes start together, and never again
// once one exists. Checked on a database of its own, migrated but not seeded.

const NAME = `${TEST_DB_NAME}_bootstrap`;
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let ownerUrl: string;
let db: Db;

async function admin(q: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(NAME)} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(NAME)}`);
  const u = new URL(testOwnerUrl());
  u.pathname = `/${NAME}`;
  ownerUrl = u.toString();
  // the same app password as the shared test database: the meter_app role is cluster-wide
  await migrateDatabase(ownerUrl, 'meter_app_test');
  db = openDb(appUrlFrom(ownerUrl, 'meter_app_test'), 4);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(NAME)} WITH (FORCE)`);
});

const admins = async () => {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    return (await c.query<{ username: string; password_hash: string }>('SELECT username, password_hash FROM admin_users WHERE access = 0')).rows;
  } finally {
    await c.end();
  }
};

describe('the first platform administrator', () => {
  it('two processes starting together on an empty database make exactly one, with a random password shown once', async () => {
    const made = await Promise.all([ensurePlatformAdmin(db, { username: 'root1' }), ensurePlatformAdmin(db, { username: 'root1' })]);
    const shown = made.filter((m) => m !== undefined);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.username).toBe('root1');
    expect(shown[0]!.password).toMatch(/^[A-Za-z0-9]{10}$/);
    const rows = await admins();
    expect(rows.map((r) => r.username)).toEqual(['root1']);
    expect(await verifyPassword(rows[0].password_hash, shown[0]!.password!)).toBe(true);
  });

  it('once one exists, a later start makes none and shows nothing', async () => {
    expect(await ensurePlatformAdmin(db, { username: 'other', password: 'Another-pass-1' })).toBeUndefined();
    expect((await admins()).map((r) => r.username)).toEqual(['root1']);
  });
});
