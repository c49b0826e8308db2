// Shared database set-up of the server benchmarks (export, settlement, list-api, ingest, connections):
// the PostgreSQL admin URL, a database's owner URL and a fresh migrated database.
import pg from 'pg';
import { migrateDatabase } from '../apps/server/src/db/client.ts';

export const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const APP_PASSWORD = 'meter_app_bench';

/** Database `db` on the admin URL's server, as its owner. */
export function ownerUrl(db: string) {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Drops and creates database `name` (through the open admin client), without migrating it. */
export async function recreateDatabase(admin: pg.Client, name: string) {
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
}

/** A new empty database `name` with the app's migrations applied. */
export async function migratedDatabase(name: string) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await recreateDatabase(admin, name);
  await admin.end();
  await migrateDatabase(ownerUrl(name), APP_PASSWORD);
}

/** {@link migratedDatabase}, then its owner's connection `o` and `one(text, params)`: a statement's first row. */
export async function migratedOwner(name: string) {
  await migratedDatabase(name);
  const o = new pg.Client({ connectionString: ownerUrl(name) });
  await o.connect();
  const one = async (text: string, p: unknown[] = []) => (await o.query(text, p)).rows[0];
  return { o, one };
}
