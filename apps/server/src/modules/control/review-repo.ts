import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { intArr, textArr } from '../../db/array-literal.ts';
import type { LatestRow } from './repo/index.ts';

// The SQL of readings held as implausible (plausible.ts, review.ts): a meter's usual use for the
// check, and the held readings a person accepts or rejects. Held readings are found through the
// partial index readings_exceptions (exceptions are rare, so it costs the hot path nothing).

const d = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')));

/**
 * Usual use (units an hour) of each meter: from its earliest good reading in the 30 days up to a
 * day before its latest good one, to that latest one. Meters with less history are absent.
 */
export async function usualUse(tx: Tx, latest: LatestRow[]): Promise<Map<number, number>> {
  if (!latest.length) return new Map();
  const r = await tx.execute(sql`
    SELECT x.id AS meter_id, (x.total - o.total)::float8 / (extract(epoch FROM x.at - o.read_at) / 3600) AS per_hour
    FROM unnest(${intArr(latest.map((l) => l.meterId))}::bigint[], ${textArr(latest.map((l) => l.readAt.toISOString()))}::timestamptz[],
      ${textArr(latest.map((l) => l.total))}::numeric[]) AS x(id, at, total)
    CROSS JOIN LATERAL (
      SELECT r.read_at, r.total FROM readings r
      WHERE r.meter_id = x.id AND r.exception = '' AND r.read_at >= x.at - interval '30 days' AND r.read_at <= x.at - interval '1 day'
      ORDER BY r.read_at LIMIT 1) o`);
  return new Map(r.rows.filter((x) => x.per_hour != null).map((x) => [Number(x.meter_id), Math.max(0, Number(x.per_hour))]));
}

export interface ReviewWarning {
  id: number;
  companyId: number;
  meterId: number | null;
  areaId: number | null;
  kind: string;
  status: number;
}

/** The warning, locked (row-level security: only the caller's own). */
export async function lockWarning(tx: Tx, id: number): Promise<ReviewWarning | undefined> {
  const r = await tx.execute(sql`SELECT id, company_id, meter_id, area_id, kind, status FROM device_warnings WHERE id = ${id} FOR UPDATE`);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    meterId: x.meter_id == null ? null : Number(x.meter_id),
    areaId: x.area_id == null ? null : Number(x.area_id),
    kind: String(x.kind),
    status: Number(x.status),
  };
}

export interface HeldReading {
  readAt: Date;
  total: string;
  source: number;
  registers: Record<string, number | string | boolean>;
}

/** The meter's readings held as implausible, oldest first. */
export async function heldReadings(tx: Tx, meterId: number): Promise<HeldReading[]> {
  const r = await tx.execute(sql`
    SELECT read_at, total, source, registers FROM readings WHERE meter_id = ${meterId} AND exception = 'implausible' ORDER BY read_at`);
  return r.rows.map((x) => ({ readAt: d(x.read_at), total: String(x.total), source: Number(x.source), registers: (x.registers ?? {}) as HeldReading['registers'] }));
}

/** Sets the exception of held readings (accepted: ''; rejected / lower: 'rejected' / 'backwards'). */
export async function setHeldExceptions(tx: Tx, meterId: number, rows: { readAt: Date; exception: string }[]) {
  if (!rows.length) return;
  const r = await tx.execute(sql`
    UPDATE readings r SET exception = v.e
    FROM unnest(${textArr(rows.map((x) => x.readAt.toISOString()))}::timestamptz[], ${textArr(rows.map((x) => x.exception))}::text[]) AS v(t, e)
    WHERE r.meter_id = ${meterId} AND r.read_at = v.t AND r.exception = 'implausible'`);
  if ((r.rowCount ?? 0) !== rows.length) throw new Error(`held readings changed under review: ${r.rowCount} of ${rows.length}`);
}

/** Marks the warning handled by a person. */
export async function closeWarning(tx: Tx, id: number, userId: number, memo: string, detail: Record<string, unknown>) {
  await tx.execute(sql`
    UPDATE device_warnings SET status = 1, handled_by = ${userId}, handled_at = now(), handle_memo = ${memo},
      detail = detail || ${JSON.stringify(detail)}::jsonb
    WHERE id = ${id}`);
}

/** Open warnings among these ids of the given kind (the generic 处理 must not close them). */
export async function openOfKind(tx: Tx, ids: number[], kind: string): Promise<number[]> {
  const r = await tx.execute(sql`SELECT id FROM device_warnings WHERE id = ANY(${intArr(ids)}::bigint[]) AND kind = ${kind} AND status = 0`);
  return r.rows.map((x) => Number(x.id));
}
