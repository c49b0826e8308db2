import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTableRelationsHelpers, extractTablesRelationalConfig, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
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

/** What a read-only repository function needs: a way to run one SQL statement. Tx has it too. */
export interface Reader {
  execute<T extends Record<string, unknown> = Record<string, unknown>>(query: SQL): Promise<{ rows: T[] }>;
}

export const SYSTEM_SCOPE: Scope = { companyId: null, allCompanies: true, areaIds: null, userId: null };

export interface Db {
  /** the app pool: role meter_app, row-level security enforced */
  pool: pg.Pool;
  orm: Orm;
  /** run fn in one transaction with the scope applied (SET LOCAL semantics) */
  tx<T>(scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Reads whose statements each stand alone: every `execute` is one round trip that applies the scope
   * and runs the statement in one implicit transaction (see ScopedQuery). Under READ COMMITTED each
   * statement of a transaction sees its own snapshot anyway; use `tx` for anything that writes or
   * locks, or that needs several statements to see the same snapshot.
   */
  read<T>(scope: Scope, fn: (r: Reader) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/** PostgreSQL's XX000 "tuple concurrently updated" (two sessions altering one role), direct or as a drizzle cause */
function concurrentCatalogUpdate(e: unknown): boolean {
  for (let x = e as { code?: string; message?: string; cause?: unknown } | undefined; x; x = x.cause as typeof x) {
    if (x.code === 'XX000' && /concurrently updated/.test(x.message ?? '')) return true;
  }
  return false;
}

/** Applies the migrations as the owner, then sets the app role's password. */
export async function migrateDatabase(ownerUrl: string, appPassword: string) {
  const pool = new pg.Pool({ connectionString: ownerUrl, max: 1 });
  try {
    // Serialise concurrent starters (several processes, test workers) on one advisory lock.
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(724001)');
      // Roles are shared by every database of the server, advisory locks are not: migrating two
      // databases of one server at once (test runs side by side) can meet on ALTER ROLE ("tuple
      // concurrently updated"). The migrations run in one transaction, so trying again is safe.
      for (let attempt = 1; ; attempt++) {
        try {
          await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
          await client.query(`ALTER ROLE meter_app WITH LOGIN PASSWORD ${pg.escapeLiteral(appPassword)}`);
          break;
        } catch (e) {
          if (attempt >= 5 || !concurrentCatalogUpdate(e)) throw e;
          await new Promise((r) => setTimeout(r, 100 * attempt + Math.random() * 200));
        }
      }
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
  // JIT off for the app's sessions: its statements are short or read rollups, and compiling one whose
  // estimated cost passes jit_above_cost took longer than running it (/home at 100,000 rooms: 4.5 s with
  // JIT, 0.65 s without, at load 21; a settlement sweep's page ≈ 12 ms of compiling for a cheaper query)
  const pool = new pg.Pool({ connectionString: appUrl, max, options: '-c jit=off' });
  pool.on('error', () => {}); // an idle client dying is reported at its next use
  // a checked-out client whose server goes away (shutdown, failover) fails its pending query;
  // without a listener its 'error' event would also crash the process
  pool.on('connect', (client) => client.on('error', () => {}));
  const orm = drizzle(pool, { schema });
  return {
    pool,
    orm,
    tx: (scope, fn) => runTx(pool, scope, fn),
    read: (scope, fn) => runRead(pool, scope, fn),
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
/** by session: a savepoint transaction (tx.transaction) shares its parent's session and client */
const clientOfSession = new WeakMap<object, pg.PoolClient>();

// What drizzle(pool, { schema }) builds its session from (node-postgres/driver.js), kept here so a
// transaction session is built the same way: the dialect and the relational view of the schema.
type Relations = ExtractTablesWithRelations<typeof schema>;
const txDialect = new PgDialect();
const relations = extractTablesRelationalConfig<Relations>(schema, createTableRelationsHelpers);
const relationalSchema = { fullSchema: schema, schema: relations.tables, tableNamesMap: relations.tableNamesMap };

/** Several statements in one simple-protocol message: node-postgres answers one result per statement. */
export async function queryMany(client: pg.ClientBase, text: string): Promise<pg.QueryResult[]> {
  const res: unknown = await client.query(text);
  if (!Array.isArray(res)) throw new Error('expected one result per statement');
  return res;
}

/** The node-postgres client under a transaction of db.tx (for COPY and multi-statement text). */
export function clientOf(tx: Tx): pg.PoolClient {
  const client = clientOfSession.get(tx._.session);
  if (!client) throw new Error('transaction has no pg client');
  return client;
}

/** statement text → its prepared-statement name (one name per text, the same on every connection) */
const preparedNames = new Map<string, string>();

/**
 * `tx.execute(query)` as a named prepared statement of the transaction's connection: parsed once per
 * connection, and planned once when PostgreSQL settles on a generic plan. For the large statements run
 * again and again with other parameters (a settlement batch's locking read and write), whose planning
 * over a partitioned table cost as much as a third of running them. The text must not embed values
 * (parameters only), or every call is a new statement. Rows as tx.execute returns them.
 */
export async function executePrepared(
  tx: Tx,
  query: SQL,
  /** statements without parameters run just before and just after it, in the same round trip (FramedQuery) */
  around?: { before?: string; after?: string },
): Promise<{ rows: Record<string, unknown>[] }> {
  const q = txDialect.sqlToQuery(query);
  let name = preparedNames.get(q.sql);
  if (!name) {
    name = `meter_p${preparedNames.size + 1}`;
    preparedNames.set(q.sql, name);
  }
  const config: pg.QueryConfig = { name, text: q.sql, values: q.params, types: rawTypes };
  const client = clientOf(tx);
  if (!around) return client.query(config);
  // node-postgres records a named statement as prepared at any ParseComplete while its query is the
  // active one, the frame's too: until the statement is prepared on this connection (its first run
  // here), the frame goes in round trips of its own, so a frame that fails cannot pass for it
  if (client.connection.parsedStatements[name] === undefined) {
    if (around.before != null) await client.query(around.before);
    const r = await client.query(config);
    if (around.after != null) await client.query(around.after);
    return r;
  }
  return new Promise((resolve, reject) => {
    client.query(new FramedQuery(around.before ?? null, around.after ?? null, config, (err, res) => (err ? reject(err) : resolve(res))));
  });
}

async function runTx<T>(pool: pg.Pool, scope: Scope, fn: (tx: Tx) => Promise<T>): Promise<T> {
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
      const session = new NodePgSession(client, txDialect, relationalSchema, {});
      tx = new NodePgTransaction<typeof schema, Relations>(txDialect, session, relationalSchema);
      txOfClient.set(client, tx);
      clientOfSession.set(session, client);
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

// ---- scoped single-statement reads ----------------------------------------------------------------

/** Row values as drizzle's own execute() returns them: date/time types stay the server's text. */
const KEEP_TEXT = new Set([1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231]);
const rawTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    KEEP_TEXT.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text'),
};

type Wire = {
  parse(m: { text: string; name?: string; types?: number[] }): void;
  bind(m: { portal?: string; statement?: string; values?: unknown[] }): void;
  execute(m: { portal?: string; rows?: number }): void;
  sync(): void;
};

declare module 'pg' {
  // node-postgres' Query does these (lib/query.js) but @types/pg does not declare them
  interface QueryConfig {
    queryMode?: 'extended';
    rowMode?: 'array';
  }
  interface Connection {
    /** named statements prepared on this connection (name → text) */
    parsedStatements: Record<string, string>;
  }
  interface ClientBase {
    readonly connection: Connection;
  }
  interface Query {
    prepare(connection: Wire): void;
    handleDataRow(msg: unknown): void;
    handleCommandComplete(msg: unknown, connection: unknown): void;
    _getRows(connection: Wire, rows?: number): void;
    portal?: string;
  }
}
type Done<R extends pg.QueryResultRow> = (err: Error | undefined, res: pg.QueryResult<R>) => void;
/**
 * A statement framed by others in one write, answered in one round trip: Parse/Bind/Execute of
 * `before`, the statement's own Parse (unless prepared already)/Bind/Describe/Execute, Parse/Bind/
 * Execute of `after`, then one Sync. The frame's rows and command tags are swallowed; a failure in
 * any part fails the query (PostgreSQL skips the rest up to the Sync). Inside a transaction the frame
 * runs in it (SET LOCAL around a statement); outside one, everything before the Sync is one implicit
 * transaction (ScopedQuery's scope settings).
 */
class FramedQuery<R extends pg.QueryResultRow> extends pg.Query<R> {
  /** 0: before, 1: the statement, 2: after */
  private phase: number;
  constructor(private readonly before: string | null, private readonly after: string | null, config: pg.QueryConfig, callback: Done<R>) {
    super({ ...config, queryMode: 'extended' }, callback);
    this.phase = before == null ? 1 : 0;
  }
  override prepare(connection: Wire) {
    if (this.before != null) {
      connection.parse({ text: this.before });
      connection.bind({ values: [] });
      connection.execute({ rows: 0 });
    }
    super.prepare(connection);
  }
  override _getRows(connection: Wire, rows?: number) {
    if (this.after == null || rows) return super._getRows(connection, rows);
    connection.execute({ portal: this.portal, rows });
    connection.parse({ text: this.after });
    connection.bind({ values: [] });
    connection.execute({ rows: 0 });
    connection.sync();
  }
  override handleDataRow(msg: unknown) {
    if (this.phase === 1) super.handleDataRow(msg);
  }
  override handleCommandComplete(msg: unknown, connection: unknown) {
    if (this.phase === 1) super.handleCommandComplete(msg, connection);
    this.phase++;
  }
}

/**
 * One statement preceded by the scope's settings, sent in one write and answered in one round trip:
 * Parse/Bind/Execute of `SELECT set_config(…, true)…`, then the statement's own Parse/Bind/Describe/
 * Execute, then Sync. With no BEGIN, everything before a Sync runs in one implicit transaction
 * (PostgreSQL's extended protocol), so the transaction-local settings govern the statement's row-level
 * security and are gone at the Sync: nothing of the scope stays on the connection. The settings'
 * row and command tag are swallowed; a failure in either part fails the query.
 */
class ScopedQuery<R extends pg.QueryResultRow> extends FramedQuery<R> {
  constructor(settings: string, config: pg.QueryConfig, callback: Done<R>) {
    super(settings, null, config, callback);
  }
}

const dialect = new PgDialect();

/** `query` under the scope's settings on `client`, one round trip (ScopedQuery); rows as objects or value arrays. */
function scopedQuery<R extends pg.QueryResultRow>(client: pg.PoolClient, settings: string, query: SQL, rowMode?: 'array') {
  const q = dialect.sqlToQuery(query);
  return new Promise<pg.QueryResult<R>>((resolve, reject) => {
    const config: pg.QueryConfig = { text: q.sql, values: q.params, types: rawTypes, rowMode };
    client.query(new ScopedQuery<R>(settings, config, (err, res) => (err ? reject(err) : resolve(res))));
  });
}

async function runRead<T>(pool: pg.Pool, scope: Scope, fn: (r: Reader) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let destroy: Error | undefined;
  const settings = scopeSql(scope);
  const reader: Reader = {
    async execute<R extends Record<string, unknown>>(query: SQL) {
      try {
        return { rows: (await scopedQuery<R>(client, settings, query)).rows };
      } catch (err) {
        if (!(err instanceof pg.DatabaseError)) destroy = err instanceof Error ? err : new Error(String(err));
        throw err;
      }
    },
  };
  try {
    return await fn(reader);
  } finally {
    client.release(destroy ?? false);
  }
}

/**
 * One statement under `scope` in one round trip (as db.read), its rows as arrays of values in the
 * statement's column order (node-postgres' rowMode 'array'): no object with a property per column,
 * for reads of many rows such as an export's batches. Values as db.read gives them.
 */
export async function readArrays(db: Db, scope: Scope, query: SQL): Promise<unknown[][]> {
  const client = await db.pool.connect();
  let destroy: Error | undefined;
  try {
    return (await scopedQuery<unknown[]>(client, scopeSql(scope), query, 'array')).rows;
  } catch (err) {
    if (!(err instanceof pg.DatabaseError)) destroy = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.release(destroy ?? false);
  }
}
