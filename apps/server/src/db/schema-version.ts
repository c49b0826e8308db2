import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { StartupError } from '../ops/startup.ts';
import { MIGRATIONS_DIR } from './client.ts';

// Which migrations a database has had, against the ones this build carries (drizzle records each applied
// migration's journal `when` in drizzle.__drizzle_migrations.created_at). A process started with
// MIGRATE=off refuses a database that is behind; every process refuses one that is ahead (an old build
// after an upgrade: old and new versions against one schema are not supported, docs/OPERATIONS.md).

interface JournalEntry {
  tag: string;
  when: number;
}

export function bundledMigrations(dir = MIGRATIONS_DIR): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
}

export interface SchemaState {
  /** this build's migrations the database has not had */
  pending: string[];
  /** the database has had a migration newer than this build's last */
  ahead: boolean;
}

export async function schemaState(ownerUrl: string, bundled = bundledMigrations()): Promise<SchemaState> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const table = await c.query<{ t: string | null }>(`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`);
    const rows = table.rows[0].t === null ? [] : (await c.query<{ last: string | null }>('SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations')).rows;
    const last = rows[0]?.last == null ? -1 : Number(rows[0].last);
    const newest = bundled.at(-1)?.when ?? -1;
    return { pending: bundled.filter((m) => m.when > last).map((m) => m.tag), ahead: last > newest };
  } finally {
    await c.end();
  }
}

/** Throws a StartupError that says what to do when the database is behind or ahead of this build. */
export function assertSchemaCurrent(s: SchemaState, bundled = bundledMigrations()) {
  if (s.ahead) {
    throw new StartupError(
      `数据库结构比本程序新：数据库已执行过本程序没有的迁移（本程序最后一个迁移为 ${bundled.at(-1)?.tag ?? '无'}）。`,
      '把本机程序升级到与数据库一致的版本再启动；新旧版本不能同时连接同一个数据库。',
    );
  }
  if (s.pending.length) {
    const range = s.pending.length === 1 ? s.pending[0] : `${s.pending[0]} … ${s.pending.at(-1)}`;
    throw new StartupError(
      `数据库结构未升级：还有 ${s.pending.length} 个迁移未执行（${range}），而本进程设置了 MIGRATE=off。`,
      '先用新版本执行一次迁移（MIGRATE=only npm start，或以 MIGRATE=auto 启动一个进程），再启动其他进程。',
    );
  }
}
