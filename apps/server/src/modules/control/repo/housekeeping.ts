// Housekeeping (worker jobs, system scope): online state, offline warnings, partitions, pruning.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { intArr } from '../../../db/array-literal.ts';
import { ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS } from '@meter/contracts';
import { arr, num } from './sql.ts';
import type { WarningRow } from './warnings.ts';

// ---------------------------------------------------------------------------------------------
// Housekeeping (worker jobs, system scope)
// ---------------------------------------------------------------------------------------------

/** NB meters (SPEC §3 plans) in SQL: `m` is the meters row. */
export const isNb = sql`((m.kind = 1 AND m.plan = ANY(${intArr(ELECTRIC_PLAN_KINDS.nb)}::int[])) OR (m.kind = 2 AND m.plan = ANY(${intArr(WATER_PLAN_KINDS.nb)}::int[])))`;

/**
 * Minutes between a meter's own reports, in SQL: its own setting, else for NB meters the configured
 * NB interval, else 0 (its connection's heartbeat decides).
 */
export const reportMinutes = (nbMinutes: number) =>
  sql`(CASE WHEN m.report_interval_minutes > 0 THEN m.report_interval_minutes WHEN ${isNb} THEN ${Math.max(0, Math.round(nbMinutes))}::int ELSE 0 END)`;

/** Missed reports after which a directly connected meter is offline. */
export const MISSED_REPORTS = 3;

/**
 * Devices marked online whose last contact is older than the cut-off: the gateway that held them is
 * gone. A directly connected meter that reports by itself (NB, or an interval set) is given
 * MISSED_REPORTS of its intervals (+30 s) instead, when that is longer: between reports it is silent.
 */
export async function staleOnline(tx: Tx, cutoff: Date, o: { now: Date; nbReportMinutes: number }) {
  const c = await tx.execute(sql`
    UPDATE collectors SET online = false WHERE online AND (last_seen_at IS NULL OR last_seen_at < ${cutoff.toISOString()})
    RETURNING id, company_id, area_id`);
  const ids = c.rows.map((x) => Number(x.id));
  if (ids.length) await tx.execute(sql`UPDATE meters SET online = false WHERE online AND collector_id = ANY(${arr(ids)}::bigint[])`);
  const m = await tx.execute(sql`
    UPDATE meters m SET online = false WHERE m.online AND m.collector_id IS NULL AND (m.last_seen_at IS NULL OR m.last_seen_at < least(
      ${cutoff.toISOString()}::timestamptz,
      ${o.now.toISOString()}::timestamptz - make_interval(secs => ${MISSED_REPORTS}::int * 60 * ${reportMinutes(o.nbReportMinutes)} + 30)))
    RETURNING m.id, m.company_id, m.area_id`);
  const map = (x: Record<string, unknown>) => ({ id: Number(x.id), companyId: Number(x.company_id), areaId: num(x.area_id) });
  return { collectors: c.rows.map(map), meters: m.rows.map(map) };
}

/** Offline collectors and directly connected meters not heard from since the cut-off (warning candidates). */
export async function offlineTooLong(tx: Tx, cutoff: Date): Promise<WarningRow[]> {
  const r = await tx.execute(sql`
    SELECT NULL::bigint AS meter_id, id AS collector_id, company_id, area_id, last_seen_at FROM collectors
    WHERE NOT online AND coalesce(last_seen_at, created_at) < ${cutoff.toISOString()}
    UNION ALL
    SELECT id, NULL, company_id, area_id, last_seen_at FROM meters
    WHERE NOT online AND status = 1 AND collector_id IS NULL AND coalesce(last_seen_at, created_at) < ${cutoff.toISOString()}`);
  return r.rows.map((x) => ({
    companyId: Number(x.company_id),
    meterId: num(x.meter_id),
    collectorId: num(x.collector_id),
    areaId: num(x.area_id),
    kind: 'offline',
    detail: { lastSeenAt: x.last_seen_at ?? null },
  }));
}

/** Meters in use (an owner's room or not) with no reading since the cutoff, nor ever when older than it. */
export async function noReadTooLong(tx: Tx, cutoff: Date): Promise<WarningRow[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.area_id, l.read_at FROM meters m LEFT JOIN meter_latest l ON l.meter_id = m.id
    WHERE m.status = 1 AND coalesce(l.read_at, m.created_at) < ${cutoff.toISOString()}`);
  return r.rows.map((x) => ({
    companyId: Number(x.company_id),
    meterId: Number(x.id),
    collectorId: null,
    areaId: num(x.area_id),
    kind: 'no_read',
    detail: { lastReadAt: x.read_at ?? null },
  }));
}

/** Meters with an open no_read warning that have a reading newer than the cutoff again. */
export async function readAgain(tx: Tx, cutoff: Date): Promise<number[]> {
  const r = await tx.execute(sql`
    SELECT w.meter_id FROM device_warnings w JOIN meter_latest l ON l.meter_id = w.meter_id
    WHERE w.status = 0 AND w.kind = 'no_read' AND l.read_at >= ${cutoff.toISOString()}`);
  return r.rows.map((x) => Number(x.meter_id));
}

/**
 * Monthly partitions ahead: readings (months of the database's time zone, 0005), and the journal and
 * settlements (China months, 0054). Old months are detached by hand (docs/OPERATIONS.md «Partitions»).
 */
export async function ensurePartitions(tx: Tx, monthsAhead: number) {
  const china = sql`(now() AT TIME ZONE 'Asia/Shanghai')::date`;
  const r = await tx.execute(sql`
    SELECT ensure_reading_partitions(date_trunc('month', now())::date, ${monthsAhead})
      + ensure_month_partitions('journal', ${china}, ${monthsAhead}) + ensure_month_partitions('settlements', ${china}, ${monthsAhead}) AS made`);
  return Number(r.rows[0].made);
}

export async function pruneOld(tx: Tx, reportsBefore: Date, readCommandsBefore: Date) {
  const a = await tx.execute(sql`DELETE FROM device_reports WHERE created_at < ${reportsBefore.toISOString()}`);
  const b = await tx.execute(sql`
    DELETE FROM commands WHERE kind = 'read' AND origin = 4 AND status IN ('succeeded', 'failed', 'timed_out', 'expired')
      AND created_at < ${readCommandsBefore.toISOString()}`);
  return { reports: a.rowCount ?? 0, commands: b.rowCount ?? 0 };
}
