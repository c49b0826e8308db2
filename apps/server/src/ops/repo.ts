import { sql } from 'drizzle-orm';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';

// The SQL of the metrics: commands by state (all companies). Final states count the last day only,
// so a scrape stays cheap however long the history; queued and sent are counted in full.

export async function commandCounts(db: Db) {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const r = await tx.execute(sql`
      SELECT status, count(*)::int AS n FROM commands
      WHERE status IN ('queued', 'sent') OR created_at > now() - interval '1 day'
      GROUP BY status`);
    return r.rows.map((x) => ({ status: String(x.status), n: Number(x.n) }));
  });
}

export async function ping(db: Db) {
  await db.pool.query('SELECT 1');
}
