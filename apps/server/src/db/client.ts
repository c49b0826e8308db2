import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import path from 'node:path';
import * as schema from './schema/index.ts';

// bigint (int8) arrives as a string by default; ids and amounts in 分 stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric stays a string (exact); decimal.js does the arithmetic.

export type Orm = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Orm['transaction']>[0]>[0];

/** Who a transaction runs for: row-level security reads these settings. */
export interface Scope {
  /** the tenant; null with allCompanies = platform-wide */
  companyId: number | null;
  allCompanies: boolean;
  /** visible area ids (bound areas and everything below); null = every area of the company */
  areaIds: number[] | null;
  userId: number | null;
}

export const SYSTEM_SCOPE: Scope = { companyId: null, allCompanies: true, areaIds: null, userId: null };

export interface Db {
  /** the app pool: role meter_app, row-level security enforced */
  pool: pg.Pool;
  orm: Orm;
  /** run fn in one transaction with the scope applied (SET LOCAL semantics) */
  tx<T>(scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/** Applies the migrations as the owner, then sets the app role's password. */
export async function migrateDatabase(ownerUrl: string, appPassword: string) {
  const pool = new pg.Pool({ connectionString: ownerUrl, max: 1 });
  try {
    // Serialise concurrent starters (several processes, test workers) on one advisory lock.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(724001)');
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
      await client.query(`ALTER ROLE meter_app WITH LOGIN PASSWORD ${pg.escapeLiteral(appPassword)}`);
      await client.query('SELECT pg_advisory_unlock(724001)');
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/** The app's connection string: the owner's URL with the meter_app role. */
export function appUrlFrom(ownerUrl: string, appPassword: string): string {
  const u = new URL(ownerUrl);
  u.username = 'meter_app';
  u.password = appPassword;
  return u.toString();
}

/** '' = unrestricted; an empty list must hide everything, so it becomes an id that never exists. */
function areaSetting(ids: number[] | null): string {
  if (ids == null) return '';
  return ids.length ? ids.join(',') : '0';
}

export function openDb(appUrl: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: appUrl, max });
  pool.on('error', () => {}); // an idle client dying is reported at its next use
  // a checked-out client whose server goes away (shutdown, failover) fails its pending query;
  // without a listener its 'error' event would also crash the process
  pool.on('connect', (client) => client.on('error', () => {}));
  const orm = drizzle(pool, { schema });
  return {
    pool,
    orm,
    tx: (scope, fn) =>
      orm.transaction(async (tx) => {
        await tx.execute(sql`SELECT
          set_config('app.company_id', ${scope.companyId == null ? '' : String(scope.companyId)}, true),
          set_config('app.all_companies', ${scope.allCompanies ? 'on' : 'off'}, true),
          set_config('app.area_ids', ${areaSetting(scope.areaIds)}, true),
          set_config('app.user_id', ${scope.userId == null ? '' : String(scope.userId)}, true)`);
        return fn(tx);
      }),
    close: () => pool.end(),
  };
}
