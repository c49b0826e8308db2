import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrlFrom, migrateDatabase, openDb, type Db } from '../../db/client.ts';
import { verifyPassword } from '../auth/index.ts';
import { freshDatabase, ownerQuery } from '../../../test/fresh-db.ts';
import { ensurePlatformAdmin } from './index.ts';

// A production start without demo data (SEED_DEMO=0) leaves a database nobody can sign in to unless the
// first platform administrator is made: once, even when two processes start together, and never again
// once one exists. Checked on a database of its own, migrated but not seeded.

let db: Db;
let ownerUrl: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ url: ownerUrl, drop } = await freshDatabase('bootstrap'));
  // the same app password as the shared test database: the meter_app role is cluster-wide
  await migrateDatabase(ownerUrl, 'meter_app_test');
  db = openDb(appUrlFrom(ownerUrl, 'meter_app_test'), 4);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await drop();
});

const admins = () => ownerQuery<{ username: string; password_hash: string }>(ownerUrl, 'SELECT username, password_hash FROM admin_users WHERE access = 0');

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
