import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

// Job coordination: a periodic job runs in one worker at a time, whatever the number of workers.

/** Takes the job's transaction-scoped advisory lock if free; false = another worker is running it. */
export async function tryJobLock(tx: Tx, key: number): Promise<boolean> {
  const r = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(724200, ${key}) AS ok`);
  return r.rows[0]?.ok === true;
}

/** The area of each command's device (its meter, or its collector when it has no meter), for routing its event. */
export async function commandAreas(tx: Tx, commands: { id: number; meterId: number | null; collectorId: number | null }[]): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  if (!commands.length) return out;
  const meterIds = commands.flatMap((c) => (c.meterId != null ? [c.meterId] : []));
  const collectorIds = commands.flatMap((c) => (c.meterId == null && c.collectorId != null ? [c.collectorId] : []));
  const r = await tx.execute<{ kind: string; id: unknown; area_id: unknown }>(sql`
    SELECT 'm' AS kind, id, area_id FROM meters WHERE id = ANY(${`{${meterIds.join(',')}}`}::bigint[])
    UNION ALL
    SELECT 'c', id, area_id FROM collectors WHERE id = ANY(${`{${collectorIds.join(',')}}`}::bigint[])`);
  const area = new Map(r.rows.map((x) => [`${x.kind}${Number(x.id)}`, x.area_id == null ? null : Number(x.area_id)]));
  for (const c of commands) out.set(c.id, area.get(c.meterId != null ? `m${c.meterId}` : `c${c.collectorId}`) ?? null);
  return out;
}
