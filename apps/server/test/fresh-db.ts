import pg from 'pg';
import { testOwnerUrl, TEST_DB_NAME } from './global-setup.ts';

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(q: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

/**
 * An empty database of its own beside the shared test database (`<TEST_DB_NAME>_<suffix>`), for tests of
 * what a process does on a database nobody has migrated or seeded. `url` is its owner URL; `drop` removes it.
 */
export async function freshDatabase(suffix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = pg.escapeIdentifier(`${TEST_DB_NAME}_${suffix}`);
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(testOwnerUrl());
  u.pathname = `/${TEST_DB_NAME}_${suffix}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** a query as the fresh database's owner (no row-level security scope needed for reads of its own tables) */
export async function ownerQuery<T extends pg.QueryResultRow>(url: string, q: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(q)).rows;
  } finally {
    await c.end();
  }
}
