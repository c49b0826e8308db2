// Demo seed: schemes, meters without one, owners with their meters.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { arr } from './sql.ts';

// ---- demo seed ------------------------------------------------------------------------------------------

export async function schemesOf(tx: Tx, companyId: number) {
  const c = await tx.execute(sql`SELECT id, kind, name FROM charging_schemes WHERE company_id = ${companyId} AND status = 1 ORDER BY id`);
  const a = await tx.execute(sql`SELECT id, kind, name, overdraft_fen FROM alarm_schemes WHERE company_id = ${companyId} AND status = 1 ORDER BY id`);
  return {
    charging: c.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind), name: String(x.name) })),
    alarm: a.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind), name: String(x.name), overdraftFen: Number(x.overdraft_fen) })),
  };
}

export async function metersWithoutScheme(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT id, kind FROM meters WHERE company_id = ${companyId} AND charging_scheme_id IS NULL AND status = 1 ORDER BY id`);
  return r.rows.map((x) => ({ id: Number(x.id), kind: Number(x.kind) }));
}

export async function setMeterSchemes(tx: Tx, rows: { id: number; schemeId: number; alarmSchemeId: number | null }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE meters m SET charging_scheme_id = v.s, alarm_scheme_id = coalesce(m.alarm_scheme_id, v.a)
    FROM unnest(${arr(rows.map((r) => r.id))}::bigint[], ${arr(rows.map((r) => r.schemeId))}::bigint[], ${arr(rows.map((r) => r.alarmSchemeId))}::bigint[]) AS v(id, s, a)
    WHERE m.id = v.id`);
}

/** The company's current owners, with which kinds of meters their room has. */
export async function ownersWithMeters(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`
    SELECT o.id, o.room_id, bool_or(m.kind = 1) AS electric, bool_or(m.kind = 2) AS water
    FROM owners o JOIN meters m ON m.room_id = o.room_id
    WHERE o.company_id = ${companyId} AND o.status = 1 GROUP BY o.id, o.room_id ORDER BY o.id`);
  return r.rows.map((x) => ({ ownerId: Number(x.id), roomId: Number(x.room_id), electric: x.electric === true, water: x.water === true }));
}
