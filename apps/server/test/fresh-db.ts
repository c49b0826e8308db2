import pg from 'pg';
import { adminQuery as admin, queryOn, testOwnerUrl, TEST_DB_NAME } from './global-setup.ts';

/**
 * An empty database of its own beside the shared test database (`<TEST_DB_NAME>_<suffix>`), for tests of
 * what a process does on a database nobody has migrated or seeded. `url` is its owner URL; `drop` removes it.
 */
export async function freshDatabase(suffix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = pg.escapeIdentifier(`${TEST_DB_NAME}_${suffix}`);
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  return { url: testOwnerUrl(`${TEST_DB_NAME}_${suffix}`), drop: async () => void (await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/** a query as the fresh database's owner (no row-level security scope needed for reads of its own tables) */
export const ownerQuery = <T extends pg.QueryResultRow>(url: string, q: string) => queryOn<T>(url, q);
