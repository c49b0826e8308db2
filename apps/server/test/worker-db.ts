// Setup file of the integration project: this worker's own copy of the migrated, seeded template
// (global-setup.ts), made on the worker's first test file. OWNER_URL() (helpers.ts) points at it.
import pg from 'pg';
import { adminQuery, TEST_DB_NAME } from './global-setup.ts';
import { WORKER_DB_NAME } from './helpers.ts';

if (!(await adminQuery(`SELECT 1 FROM pg_database WHERE datname = $1`, [WORKER_DB_NAME])).length) {
  // workers starting together copy the one template at once; PostgreSQL refuses a copy while another
  // session is in the template (55006), so wait and try again
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(WORKER_DB_NAME)} TEMPLATE ${pg.escapeIdentifier(TEST_DB_NAME)}`);
      break;
    } catch (e) {
      if (attempt >= 20 || (e as { code?: string }).code !== '55006') throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
