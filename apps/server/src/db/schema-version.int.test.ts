import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/fresh-db.ts';
import { migrateDatabase } from './client.ts';
import { assertSchemaCurrent, bundledMigrations, schemaState } from './schema-version.ts';

// MIGRATE=off (a process that must not change the schema) refuses a database with pending migrations,
// and every process refuses a database that an upgrade has taken past its own migrations.

let ownerUrl: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ url: ownerUrl, drop } = await freshDatabase('schema_version'));
});
afterAll(() => drop());

describe('schema version at start', () => {
  const bundled = bundledMigrations();

  it('an empty database has every migration pending; MIGRATE=off refuses it and says what to do', async () => {
    const s = await schemaState(ownerUrl);
    expect(s).toEqual({ pending: bundled.map((m) => m.tag), ahead: false });
    expect(() => assertSchemaCurrent(s)).toThrow(/还有 \d+ 个迁移未执行（0000_.* … 0\d{3}_.*）[\s\S]*MIGRATE=only/);
  });

  it('after migrating, nothing is pending', async () => {
    // the same app password as the shared test database: the meter_app role is cluster-wide
    await migrateDatabase(ownerUrl, 'meter_app_test');
    const s = await schemaState(ownerUrl);
    expect(s).toEqual({ pending: [], ahead: false });
    expect(() => assertSchemaCurrent(s)).not.toThrow();
  }, 60_000);

  it('a newer build sees its new migration pending; an older build sees the database ahead and refuses', async () => {
    const newer = [...bundled, { tag: '9999_next_release', when: bundled.at(-1)!.when + 1 }];
    expect((await schemaState(ownerUrl, newer)).pending).toEqual(['9999_next_release']);
    const older = bundled.slice(0, -1);
    const s = await schemaState(ownerUrl, older);
    expect(s.ahead).toBe(true);
    expect(() => assertSchemaCurrent(s, older)).toThrow(/数据库结构比本程序新[\s\S]*新旧版本不能同时连接/);
  });
});
