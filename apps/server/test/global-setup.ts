import pg from 'pg';
import { migrateDatabase, appUrlFrom, openDb } from '../src/db/client.ts';
import { seedDemoIfEmpty } from '../src/demo/seed.ts';

// Integration tests run against a real PostgreSQL: a fresh database per run, migrated and seeded.
export const TEST_DB_NAME = process.env.TEST_DB_NAME ?? 'meter_test';
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function testOwnerUrl() {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${TEST_DB_NAME}`;
  return u.toString();
}

export default async function setup() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [TEST_DB_NAME]);
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(TEST_DB_NAME)}`);
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(TEST_DB_NAME)}`);
  await admin.end();
  const owner = testOwnerUrl();
  await migrateDatabase(owner, 'meter_app_test');
  const db = openDb(appUrlFrom(owner, 'meter_app_test'), 2);
  await seedDemoIfEmpty(db);
  await db.close();
  process.env.TEST_OWNER_URL = owner;
}
