import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

// Job coordination: a periodic job runs in one worker at a time, whatever the number of workers.

/** Takes the job's transaction-scoped advisory lock if free; false = another worker is running it. */
export async function tryJobLock(tx: Tx, key: number): Promise<boolean> {
  const r = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(724200, ${key}) AS ok`);
  return r.rows[0]?.ok === true;
}
