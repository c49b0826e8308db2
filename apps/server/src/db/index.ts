import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { databaseFailure } from '../ops/startup.ts';
import { appUrlFrom, migrateDatabase, openDb, type Db } from './client.ts';

/** Starts (embedded) or reaches (DATABASE_URL) PostgreSQL, applies migrations, opens the app pool. */
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
    await migrateDatabase(ownerUrl, config.APP_DB_PASSWORD);
  } catch (e) {
    if (stopEmbedded) await stopEmbedded().catch(() => {});
    throw databaseFailure(e, ownerUrl);
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
