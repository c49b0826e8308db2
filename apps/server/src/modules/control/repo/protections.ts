// Protections, meter configs and third-party settings.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { type MeterListFilter, meterListCols, meterListJoins, meterWhere, toMeterListRow } from './lists.ts';
import { and, arr, d, paged } from './sql.ts';

// ---------------------------------------------------------------------------------------------
// Protections, configs, third-party settings
// ---------------------------------------------------------------------------------------------

export async function startProtection(tx: Tx, p: { companyId: number; meterId: number; kind: number; reason: string; endAt: Date | null; userId: number | null }) {
  const r = await tx.execute(sql`
    INSERT INTO protections (company_id, meter_id, kind, reason, end_at, created_by)
    VALUES (${p.companyId}, ${p.meterId}, ${p.kind}, ${p.reason}, ${p.endAt ? p.endAt.toISOString() : null}, ${p.userId})
    ON CONFLICT (meter_id) WHERE active DO UPDATE SET reason = EXCLUDED.reason, end_at = EXCLUDED.end_at
    RETURNING id`);
  return Number(r.rows[0].id);
}

export async function endProtection(tx: Tx, meterId: number, userId: number | null) {
  const r = await tx.execute(sql`
    UPDATE protections SET active = false, end_at = least(coalesce(end_at, now()), now()), ended_by = ${userId}
    WHERE meter_id = ${meterId} AND active RETURNING id`);
  return r.rows.length > 0;
}

/** Protections whose end time has passed are no longer active. */
export async function endExpiredProtections(tx: Tx) {
  const r = await tx.execute(sql`UPDATE protections SET active = false WHERE active AND end_at IS NOT NULL AND end_at <= now() RETURNING id`);
  return r.rows.length;
}

export async function insertMeterConfig(tx: Tx, c: { companyId: number; meterId: number; op: 'read' | 'set'; params: Record<string, unknown>; commandId: number; createdBy: number | null }) {
  await tx.execute(sql`
    INSERT INTO meter_configs (company_id, meter_id, op, params, command_id, created_by)
    VALUES (${c.companyId}, ${c.meterId}, ${c.op}, ${JSON.stringify(c.params)}::jsonb, ${c.commandId}, ${c.createdBy})`);
}

/** The CT ratio (倍率) the platform last set on a meter successfully; undefined when it never set one. */
export async function expectedCtRatio(tx: Tx, meterId: number): Promise<number | undefined> {
  const r = await tx.execute(sql`
    SELECT params->>'ctRatio' AS ct FROM meter_configs WHERE meter_id = ${meterId} AND op = 'set' AND params ? 'ctRatio'
    ORDER BY created_at DESC, id DESC LIMIT 1`);
  return r.rows[0] ? Number(r.rows[0].ct) : undefined;
}

export async function latestConfigs(tx: Tx, meterIds: number[]) {
  if (!meterIds.length) return new Map<number, { params: Record<string, unknown>; at: Date }>();
  const r = await tx.execute(sql`
    SELECT DISTINCT ON (meter_id) meter_id, params, created_at FROM meter_configs
    WHERE meter_id = ANY(${arr(meterIds)}::bigint[]) AND op = 'read' ORDER BY meter_id, created_at DESC`);
  return new Map(r.rows.map((x) => [Number(x.meter_id), { params: x.params as Record<string, unknown>, at: d(x.created_at) }]));
}

/** Meters of a plan family (LoRa list), with their latest config snapshot. */
export async function metersByPlans(tx: Tx, plans: number[], f: MeterListFilter, limit: number, offset: number) {
  const r = await tx.execute(sql`
    SELECT ${meterListCols}, count(*) OVER () AS total_count FROM meters m ${meterListJoins}
    WHERE ${and([...meterWhere(f), sql`m.plan = ANY(${arr(plans)}::int[])`])}
    ORDER BY m.id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, toMeterListRow);
}

export async function getThird(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`SELECT config, updated_at FROM company_third WHERE company_id = ${companyId}`);
  return r.rows[0] ? { config: r.rows[0].config as Record<string, unknown>, updatedAt: d(r.rows[0].updated_at) } : undefined;
}

export async function saveThird(tx: Tx, companyId: number, config: Record<string, unknown>) {
  await tx.execute(sql`
    INSERT INTO company_third (company_id, config, updated_at) VALUES (${companyId}, ${JSON.stringify(config)}::jsonb, now())
    ON CONFLICT (company_id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`);
}
