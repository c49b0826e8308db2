import pg from 'pg';
import { drizzle, NodePgSession, NodePgTransaction, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
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
    tx: (scope, fn) => runTx(pool, orm, scope, fn),
    close: () => pool.end(),
  };
}

/** The scope as literal settings: every value is an integer list, a flag or empty, never user text. */
export function scopeSql(scope: Scope): string {
  const lit = (v: string) => pg.escapeLiteral(v);
  return `SELECT set_config('app.company_id', ${lit(scope.companyId == null ? '' : String(Math.trunc(scope.companyId)))}, true),
  set_config('app.all_companies', ${lit(scope.allCompanies ? 'on' : 'off')}, true),
  set_config('app.area_ids', ${lit(areaSetting(scope.areaIds?.map((id) => Math.trunc(id)) ?? null))}, true),
  set_config('app.user_id', ${lit(scope.userId == null ? '' : String(Math.trunc(scope.userId)))}, true)`;
}

/**
 * One transaction with the scope applied. BEGIN and the settings go in one round trip (a simple-protocol
 * message holding both statements); the callback gets a drizzle transaction on the same client, built
 * from the app's session (dialect, relational schema, logger), exactly as drizzle's own would be.
 */
const txOfClient = new WeakMap<pg.PoolClient, Tx>();

async function runTx<T>(pool: pg.Pool, orm: Orm, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // drizzle keeps these on the database's session; a transaction session is built from them
  type SessionParts = ConstructorParameters<typeof NodePgSession>;
  const base = (orm as unknown as { session: { dialect: SessionParts[1]; schema: SessionParts[2]; options: SessionParts[3] } }).session;
  const client = await pool.connect();
  // a server error (it has a SQLSTATE) leaves the connection usable; anything else on BEGIN, COMMIT or
  // ROLLBACK (a dead socket) means the client must not go back to the pool
  let destroy: Error | undefined;
  const onControlError = (err: unknown) => {
    if (!(err instanceof pg.DatabaseError)) destroy = err instanceof Error ? err : new Error(String(err));
  };
  try {
    try {
      await client.query(`BEGIN; ${scopeSql(scope)}`);
    } catch (err) {
      onControlError(err);
      if (!destroy) await client.query('ROLLBACK').catch(onControlError);
      throw err;
    }
    // a transaction object only holds its session and client: one per pooled client serves them all
    let tx = txOfClient.get(client);
    if (!tx) {
      const session = new NodePgSession(client, base.dialect, base.schema, base.options);
      tx = new NodePgTransaction(base.dialect, session, base.schema) as unknown as Tx;
      txOfClient.set(client, tx);
    }
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      await client.query('ROLLBACK').catch(onControlError);
      throw err;
    }
    // a failed COMMIT ends the transaction on the server (rolled back)
    await client.query('COMMIT').catch((err) => {
      onControlError(err);
      throw err;
    });
    return result;
  } finally {
    client.release(destroy ?? false);
  }
}
