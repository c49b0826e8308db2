// Periodic postings (monthly fees, minimum charges, timed subsidies) and the billing jobs' lock.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';

// ---- periodic postings (monthly fees, minimum charges, timed subsidies) -----------------------------

/** The version of a meter's scheme in force at `at` (or its first version when none is yet). */
const versionAt = (at: string) => sql`LATERAL (
  SELECT v.monthly_fee_fen, v.minimum_charge_fen FROM charging_scheme_versions v WHERE v.scheme_id = m.charging_scheme_id
  ORDER BY (v.effective_from <= ${at}::timestamptz) DESC, CASE WHEN v.effective_from <= ${at}::timestamptz THEN v.effective_from END DESC NULLS LAST, v.effective_from
  LIMIT 1) v`;

export interface FeeDue {
  meterId: number;
  companyId: number;
  kind: number;
  roomId: number;
  ownerId: number;
  meterName: string;
  feeFen: number;
  chargedFen: number;
}

/** Meters owing the month's fixed fee (not yet posted under fee:<meterId>:<month>). */
export async function monthlyFeesDue(tx: Tx, month: string, start: Date, afterId: number, limit: number): Promise<FeeDue[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.kind, m.room_id, o.id AS owner_id, m.name, v.monthly_fee_fen
    FROM meters m JOIN owners o ON o.room_id = m.room_id AND o.status = 1
    JOIN ${versionAt(start.toISOString())} ON true
    WHERE m.id > ${afterId} AND m.status = 1 AND m.charging_scheme_id IS NOT NULL AND v.monthly_fee_fen > 0
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = m.company_id AND j.idempotency_key = 'fee:' || m.id || ':' || ${month})
    ORDER BY m.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    meterId: Number(x.id), companyId: Number(x.company_id), kind: Number(x.kind), roomId: Number(x.room_id), ownerId: Number(x.owner_id),
    meterName: String(x.name), feeFen: Number(x.monthly_fee_fen), chargedFen: 0,
  }));
}

/**
 * Meters with a minimum charge for a closed month, not yet topped up (min:<meterId>:<month>), whose
 * month is fully settled (a reading after the month's end is settled, or three days have passed),
 * with what their readings of the month were charged.
 */
export async function minimumChargesDue(tx: Tx, month: string, start: Date, end: Date, afterId: number, limit: number): Promise<FeeDue[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.kind, m.room_id, o.id AS owner_id, m.name, v.minimum_charge_fen,
      coalesce((SELECT sum(s.amount_fen) FROM settlements s WHERE s.meter_id = m.id
        AND s.read_at >= ${start.toISOString()}::timestamptz AND s.read_at < ${end.toISOString()}::timestamptz), 0)::bigint AS charged
    FROM meters m JOIN owners o ON o.room_id = m.room_id AND o.status = 1
    JOIN ${versionAt(new Date(end.getTime() - 1).toISOString())} ON true
    LEFT JOIN settle_cursors c ON c.meter_id = m.id
    WHERE m.id > ${afterId} AND m.status = 1 AND m.charging_scheme_id IS NOT NULL AND v.minimum_charge_fen > 0
      AND (c.read_at >= ${end.toISOString()}::timestamptz OR now() >= ${end.toISOString()}::timestamptz + interval '3 days')
      AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = m.company_id AND j.idempotency_key = 'min:' || m.id || ':' || ${month})
    ORDER BY m.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    meterId: Number(x.id), companyId: Number(x.company_id), kind: Number(x.kind), roomId: Number(x.room_id), ownerId: Number(x.owner_id),
    meterName: String(x.name), feeFen: Number(x.minimum_charge_fen), chargedFen: Number(x.charged),
  }));
}

/** Timed subsidies due this month (the day has come, not yet credited under subsidy:<planId>:<month>). */
export async function subsidiesDue(tx: Tx, month: string, day: number, limit: number) {
  const r = await tx.execute(sql`
    SELECT p.id, p.company_id, p.room_id, p.wallet, p.amount_fen, o.id AS owner_id
    FROM subsidy_plans p JOIN owners o ON o.room_id = p.room_id AND o.status = 1
    WHERE p.enabled AND p.start_month <= ${month} AND (p.end_month = '' OR p.end_month >= ${month}) AND p.day_of_month <= ${day}
      AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.company_id = p.company_id AND j.idempotency_key = 'subsidy:' || p.id || ':' || ${month})
    ORDER BY p.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    planId: Number(x.id), companyId: Number(x.company_id), roomId: Number(x.room_id), wallet: String(x.wallet), amountFen: Number(x.amount_fen), ownerId: Number(x.owner_id),
  }));
}

/** Takes a billing job's transaction-scoped advisory lock if free (one worker runs it at a time). */
export async function tryJobLock(tx: Tx, key: number): Promise<boolean> {
  const r = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(725100, ${key}) AS ok`);
  return r.rows[0]?.ok === true;
}
