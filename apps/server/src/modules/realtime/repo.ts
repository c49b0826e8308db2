import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** The device behind an IMEI as the caller may see it: a collector with its meters, or a 4G meter. */
export async function deviceByImei(tx: Tx, imei: string): Promise<{ collectorId: number | null; meterIds: number[] } | undefined> {
  const c = await tx.execute(sql`SELECT id FROM collectors WHERE imei = ${imei}`);
  if (c.rows[0]) {
    const id = Number(c.rows[0].id);
    const m = await tx.execute(sql`SELECT id FROM meters WHERE collector_id = ${id}`);
    return { collectorId: id, meterIds: m.rows.map((x) => Number(x.id)) };
  }
  const m = await tx.execute(sql`SELECT id FROM meters WHERE imei = ${imei} AND imei <> ''`);
  return m.rows[0] ? { collectorId: null, meterIds: [Number(m.rows[0].id)] } : undefined;
}
