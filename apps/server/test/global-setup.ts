import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, appUrlFrom, openDb } from '../src/db/client.ts';
import { seedDemoIfEmpty } from '../src/demo/seed.ts';
import { makeTestKeys } from './keys.ts';

// Integration tests run against a real PostgreSQL. Once per run, TEST_DB_NAME is made afresh, migrated
// and seeded: the template. Each vitest worker then works in a copy of its own, `<TEST_DB_NAME>_w<pool id>`
// (CREATE DATABASE … TEMPLATE, made on the worker's first file: worker-db.ts), so test files running side
// by side never share a database; the files one worker runs follow each other, as the whole run once did.
export const TEST_DB_NAME = process.env.TEST_DB_NAME ?? 'meter_test';
export const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The owner URL of a database of the test server (default: the template). */
export function testOwnerUrl(name = TEST_DB_NAME) {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** One statement on the server's maintenance database. */
export const adminQuery = <T extends pg.QueryResultRow>(q: string, args: unknown[] = []) => queryOn<T>(ADMIN_URL, q, args);

/** One statement on its own connection to `url`. */
export async function queryOn<T extends pg.QueryResultRow>(url: string, q: string, args: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(q, args)).rows;
  } finally {
    await c.end();
  }
}

/** The previous run's per-worker copies of the template (`<TEST_DB_NAME>_w1`, …). */
async function dropWorkerCopies() {
  const all = await adminQuery<{ datname: string }>(`SELECT datname FROM pg_database`);
  for (const { datname } of all) {
    if (datname.startsWith(`${TEST_DB_NAME}_w`) && /^\d+$/.test(datname.slice(TEST_DB_NAME.length + 2))) {
      await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  }
}

export default async function setup(project: TestProject) {
  // the run's RSA keys (test/keys.ts) are made on the thread pool while the template is built
  const keys = makeTestKeys();
  await dropWorkerCopies();
  await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(TEST_DB_NAME)} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(TEST_DB_NAME)}`);
  const owner = testOwnerUrl();
  await migrateDatabase(owner, 'meter_app_test');
  const db = openDb(appUrlFrom(owner, 'meter_app_test'), 2);
  await seedDemoIfEmpty(db);
  await db.close();
  project.provide('testKeys', await keys);
}
