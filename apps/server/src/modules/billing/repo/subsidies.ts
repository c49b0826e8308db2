// Room timed subsidies and 公摊 (shared) meters.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { localTime } from '../../../db/local-time.ts';
import { sharedMeters, subsidyPlans } from '../../../db/schema/index.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import { areaPathOf } from '../../room/index.ts';
import { arr, like, subtreeOf } from './sql.ts';
import { companyRows } from '../../../db/where.ts';

// ---- room timed subsidies ------------------------------------------------------------------------------

export async function insertSubsidyPlan(tx: Tx, v: typeof subsidyPlans.$inferInsert) {
  const [r] = await tx.insert(subsidyPlans).values(v).returning({ id: subsidyPlans.id });
  return r.id;
}

export async function listSubsidyPlans(tx: Tx, f: { companyId: number | null; searchArea?: number; roomName?: string; enabled?: number; roomId?: number }, limit: number, offset: number) {
  const w = companyRows('p.company_id', f.companyId);
  if (f.searchArea != null) w.push(sql`r.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.roomName) w.push(sql`r.name ILIKE ${like(f.roomName)}`);
  if (f.enabled != null) w.push(sql`p.enabled = ${f.enabled === 1}`);
  if (f.roomId != null) w.push(sql`p.room_id = ${f.roomId}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT p.id, p.room_id AS "roomId", r.name AS "roomName", o.name AS "ownerName", p.wallet, p.amount_fen AS "amountFen",
      p.day_of_month AS "dayOfMonth", p.start_month AS "startMonth", p.end_month AS "endMonth", p.enabled, p.memo,
      ${localTime(sql`p.created_at`)} AS "createdAt",
      (SELECT count(*) FROM journal j WHERE j.company_id = p.company_id AND j.ref_type = 'subsidy_plan' AND j.ref_id = p.id)::int AS "creditedTimes"
    FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id LEFT JOIN owners o ON o.room_id = r.id AND o.status = 1
    WHERE ${where} ORDER BY p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

/** A plan whose room the caller may see. */
export async function getSubsidyPlan(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT p.id, p.room_id, r.name AS room_name FROM subsidy_plans p JOIN rooms r ON r.id = p.room_id WHERE p.id = ${id}`);
  return r.rows[0] ? { id: Number(r.rows[0].id), roomId: Number(r.rows[0].room_id), roomName: String(r.rows[0].room_name) } : undefined;
}

export async function setSubsidyEnabled(tx: Tx, id: number, enabled: boolean) {
  await tx.update(subsidyPlans).set({ enabled }).where(eq(subsidyPlans.id, id));
}

// ---- 公摊 meters -----------------------------------------------------------------------------------------

export async function listSharedMeters(tx: Tx, f: { companyId: number | null; searchArea?: number }, limit: number, offset: number) {
  const w = companyRows('sm.company_id', f.companyId);
  if (f.searchArea != null) w.push(sql`sm.area_id IN ${areaAndBelow(f.searchArea)}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT sm.meter_id AS "meterId", m.name AS "meterName", m.address, m.kind AS "meterKind", sm.area_id AS "areaId",
      (${areaPathOf(sql`sm.area_id`)}) AS "areaName", sm.method, sm.memo, ${localTime(sql`sm.created_at`)} AS "createdAt",
      (SELECT count(*) FROM rooms r JOIN owners o ON o.room_id = r.id AND o.status = 1 WHERE r.area_id IN ${subtreeOf(sql`sm.area_id`)})::int AS "rooms"
    FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id JOIN areas a ON a.id = sm.area_id
    WHERE ${where} ORDER BY sm.created_at DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id JOIN areas a ON a.id = sm.area_id WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function findMeter(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT id, company_id, name, address, kind, room_id FROM meters WHERE id = ${id}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name), address: String(x.address), kind: Number(x.kind), roomId: x.room_id == null ? null : Number(x.room_id) } : undefined;
}

export async function findArea(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT id, company_id, name FROM areas WHERE id = ${id}`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name) } : undefined;
}

export async function upsertSharedMeter(tx: Tx, v: { meterId: number; companyId: number; areaId: number; method: number; memo: string; createdBy: number }) {
  await tx
    .insert(sharedMeters)
    .values(v)
    .onConflictDoUpdate({ target: sharedMeters.meterId, set: { areaId: v.areaId, method: v.method, memo: v.memo } });
}

export async function deleteSharedMeters(tx: Tx, meterIds: number[]) {
  const r = await tx.delete(sharedMeters).where(inArray(sharedMeters.meterId, meterIds)).returning({ id: sharedMeters.meterId });
  return r.length;
}

export async function sharedMetersVisible(tx: Tx, meterIds: number[]) {
  const r = await tx.execute(sql`SELECT sm.meter_id FROM shared_meters sm JOIN meters m ON m.id = sm.meter_id WHERE sm.meter_id = ANY(${arr(meterIds)}::bigint[])`);
  return r.rows.map((x) => Number(x.meter_id));
}

/** 公摊: the occupied rooms below each area with their owner and floor area (m²). */
export async function shareTargets(tx: Tx, areaIds: number[]) {
  if (!areaIds.length) return [];
  const r = await tx.execute(sql`
    WITH RECURSIVE t(root, id) AS (
      SELECT a.id, a.id FROM areas a WHERE a.id = ANY(${arr(areaIds)}::bigint[])
      UNION SELECT t.root, a.id FROM areas a JOIN t ON a.parent_id = t.id
    )
    SELECT t.root AS area_id, r.id AS room_id, o.id AS owner_id, r.size_m2
    FROM t JOIN rooms r ON r.area_id = t.id JOIN owners o ON o.room_id = r.id AND o.status = 1
    ORDER BY t.root, r.id`);
  return r.rows.map((x) => ({ areaId: Number(x.area_id), roomId: Number(x.room_id), ownerId: Number(x.owner_id), sizeM2: String(x.size_m2 ?? '') }));
}
