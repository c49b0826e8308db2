import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';

// The only SQL of 群发短信: the owners a bulk message goes to, and a batch's progress.

export interface BulkFilter {
  areaId?: number;
  arrearsOnly?: boolean;
  meterKind?: number;
}

export interface Recipient {
  ownerId: number;
  ownerName: string;
  phone: string;
  roomName: string;
}

/** Owners living in a room (status 入住) of the caller's scope, filtered by area, arrears and meter kind. */
export async function recipients(tx: Tx, f: BulkFilter): Promise<Recipient[]> {
  const w: SQL[] = [sql`o.status = 1`, sql`o.room_id IS NOT NULL`];
  if (f.areaId != null) w.push(sql`r.area_id IN ${areaAndBelow(f.areaId)}`);
  if (f.arrearsOnly) w.push(sql`EXISTS (SELECT 1 FROM accounts a WHERE a.owner_id = o.id AND a.wallet IN ('electric', 'water') AND a.balance_fen < 0)`);
  if (f.meterKind != null) w.push(sql`EXISTS (SELECT 1 FROM meters m WHERE m.room_id = o.room_id AND m.kind = ${f.meterKind})`);
  const r = await tx.execute(sql`
    SELECT o.id, o.name, o.phone, r.name AS room_name FROM owners o JOIN rooms r ON r.id = o.room_id
    WHERE ${sql.join(w, sql` AND `)} ORDER BY o.id`);
  return r.rows.map((x) => ({ ownerId: Number(x.id), ownerName: String(x.name), phone: String(x.phone), roomName: String(x.room_name) }));
}

export async function companyName(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT name FROM companies WHERE id = ${companyId}`);
  return String(r.rows[0]?.name ?? '');
}

/** How a batch's messages stand (keys bulk:<batch>:<owner>). */
export async function batchProgress(tx: Tx, companyId: number, batch: string) {
  const r = await tx.execute(sql`
    SELECT count(*)::int AS total,
      count(*) FILTER (WHERE status = 'queued')::int AS queued, count(*) FILTER (WHERE status = 'sending')::int AS sending,
      count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed,
      COALESCE(sum(cost_fen), 0)::int AS cost
    FROM notifications WHERE company_id = ${companyId} AND idempotency_key LIKE ${`bulk:${batch}:%`}`);
  const x = r.rows[0] ?? {};
  return { total: Number(x.total ?? 0), queued: Number(x.queued ?? 0), sending: Number(x.sending ?? 0), sent: Number(x.sent ?? 0), failed: Number(x.failed ?? 0), costFen: Number(x.cost ?? 0) };
}
