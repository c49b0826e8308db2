import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { databaseFailure, StartupError } from '../ops/startup.ts';
import { appUrlFrom, migrateDatabase, openDb, type Db } from './client.ts';
import { assertSchemaCurrent, schemaState } from './schema-version.ts';

/**
 * Starts (embedded) or reaches (DATABASE_URL) PostgreSQL, applies migrations (MIGRATE=auto, only) or
 * checks none is pending (off), refuses a schema newer than this build, opens the app pool.
 */
export async function startDatabase(config: Config, log: (m: string) => void): Promise<{ db: Db; stop: () => Promise<void>; embedded: boolean }> {
  let ownerUrl = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!ownerUrl) {
    const t0 = Date.now();
    const h = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.EMBEDDED_PG_PORT, log });
    log(`内置数据库已启动（${Date.now() - t0} ms，端口 ${config.EMBEDDED_PG_PORT}，目录 ${config.dataDir}/pg）`);
    ownerUrl = h.url;
    stopEmbedded = h.stop;
  }
  try {
    if (config.MIGRATE !== 'off') await migrateDatabase(ownerUrl, config.APP_DB_PASSWORD);
    assertSchemaCurrent(await schemaState(ownerUrl));
  } catch (e) {
    if (stopEmbedded) await stopEmbedded().catch(() => {});
    throw e instanceof StartupError ? e : databaseFailure(e, ownerUrl);
  }
  const db = openDb(appUrlFrom(ownerUrl, config.APP_DB_PASSWORD), 20);
  return {
    db,
    embedded: !!stopEmbedded,
    stop: async () => {
      await db.close();
      if (stopEmbedded) await stopEmbedded();
    },
  };
}
