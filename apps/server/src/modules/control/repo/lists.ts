// Read models behind the control pages: failed reads, unread, no power, power report, readings, device reports.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { inPeriod } from '../../../db/where.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import { and, arr, d, dn, like, meterPlaceCols, meterPlaceJoins, meterPlaceOf, num, paged } from './sql.ts';

// ---------------------------------------------------------------------------------------------
// Meter lists: failed reads, unread, no power, power report
// ---------------------------------------------------------------------------------------------

export interface MeterListFilter {
  keyword?: string;
  meterKind?: number;
  searchArea?: number;
}

export function meterWhere(f: MeterListFilter): SQL[] {
  const w: SQL[] = [sql`m.status = 1`];
  if (f.meterKind !== undefined) w.push(sql`m.kind = ${f.meterKind}`);
  if (f.keyword) w.push(sql`(m.name ILIKE ${like(f.keyword)} OR m.address ILIKE ${like(f.keyword)} OR r.name ILIKE ${like(f.keyword)})`);
  if (f.searchArea) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  return w;
}

export const meterListCols = sql`m.id, m.company_id, m.name, m.address, m.kind, m.plan, m.online, m.valve_state, m.last_seen_at,
  m.room_id, r.name AS room_name, m.area_id, a.name AS area_name, m.collector_id, c.name AS collector_name,
  c.online AS collector_online, l.read_at AS last_read_at, l.total AS last_total`;

export const meterListJoins = sql`${meterPlaceJoins}
  LEFT JOIN collectors c ON c.id = m.collector_id LEFT JOIN meter_latest l ON l.meter_id = m.id`;

export function toMeterListRow(x: Record<string, unknown>) {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    name: String(x.name ?? ''),
    address: String(x.address),
    kind: Number(x.kind),
    plan: Number(x.plan),
    online: x.online === true,
    valveState: num(x.valve_state),
    lastSeenAt: dn(x.last_seen_at),
    roomId: num(x.room_id),
    roomName: String(x.room_name ?? ''),
    areaId: num(x.area_id),
    areaName: String(x.area_name ?? ''),
    collectorId: num(x.collector_id),
    collectorName: String(x.collector_name ?? ''),
    collectorOnline: (x.collector_online ?? null) as boolean | null,
    lastReadAt: dn(x.last_read_at),
    lastTotal: (x.last_total ?? null) as string | null,
  };
}

/** Meters whose last `num` or more reads in a row failed (timed out, failed or expired). */
export async function readFailList(tx: Tx, minFails: number, f: MeterListFilter, limit: number, offset: number) {
  const r = await tx.execute(sql`
    WITH streak AS (
      SELECT c.meter_id, count(*) AS fails, max(c.finished_at) AS last_fail_at,
        (array_agg(c.error ORDER BY c.finished_at DESC))[1] AS last_error
      FROM commands c
      WHERE c.kind = 'read' AND c.status IN ('failed', 'timed_out', 'expired')
        AND c.finished_at > coalesce((SELECT max(s.finished_at) FROM commands s
                                      WHERE s.meter_id = c.meter_id AND s.kind = 'read' AND s.status = 'succeeded'), '-infinity')
      GROUP BY c.meter_id HAVING count(*) >= ${minFails})
    SELECT ${meterListCols}, s.fails, s.last_fail_at, s.last_error, count(*) OVER () AS total_count
    FROM streak s JOIN meters m ON m.id = s.meter_id ${meterListJoins}
    WHERE ${and(meterWhere(f))}
    ORDER BY s.fails DESC, m.id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    ...toMeterListRow(x),
    fails: Number(x.fails),
    lastFailAt: d(x.last_fail_at),
    lastError: String(x.last_error ?? ''),
  }));
}

/** Meters in use with no good reading since `since`. */
export async function unreadList(tx: Tx, since: Date, f: MeterListFilter, limit: number, offset: number) {
  const r = await tx.execute(sql`
    SELECT ${meterListCols}, count(*) OVER () AS total_count
    FROM meters m ${meterListJoins}
    WHERE ${and([...meterWhere(f), sql`(l.read_at IS NULL OR l.read_at < ${since.toISOString()})`])}
    ORDER BY l.read_at NULLS FIRST, m.id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, toMeterListRow);
}

/** Meters whose relay/valve is off (断电/关阀). */
export async function noPowerList(tx: Tx, f: MeterListFilter, limit: number, offset: number) {
  const r = await tx.execute(sql`
    SELECT ${meterListCols},
      (SELECT max(x.finished_at) FROM commands x WHERE x.meter_id = m.id AND x.kind = 'close' AND x.status = 'succeeded') AS closed_at,
      count(*) OVER () AS total_count
    FROM meters m ${meterListJoins}
    WHERE ${and([...meterWhere(f), sql`m.valve_state = 0`])}
    ORDER BY m.id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({ ...toMeterListRow(x), closedAt: dn(x.closed_at) }));
}

/** Power, voltage and current as read (功率记录). */
export async function powerReport(tx: Tx, f: MeterListFilter & { meterId?: number; start: Date; end: Date }, limit: number, offset: number) {
  const w = [...meterWhere(f), sql`(g.registers ? 'activePower' OR g.registers ? 'voltageA' OR g.registers ? 'currentA')`];
  inPeriod(w, 'g.read_at', { from: f.start, to: f.end });
  if (f.meterId) w.push(sql`g.meter_id = ${f.meterId}`);
  const r = await tx.execute(sql`
    SELECT g.meter_id, g.read_at, g.total, g.registers, g.source, ${meterPlaceCols}, count(*) OVER () AS total_count
    FROM readings g JOIN meters m ON m.id = g.meter_id ${meterPlaceJoins}
    WHERE ${and(w)} ORDER BY g.read_at DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => {
    const reg = (x.registers ?? {}) as Record<string, unknown>;
    return {
      meterId: Number(x.meter_id),
      ...meterPlaceOf(x),
      readAt: d(x.read_at),
      total: String(x.total),
      activePower: reg.activePower ?? null,
      voltageA: reg.voltageA ?? null,
      currentA: reg.currentA ?? null,
      source: Number(x.source),
    };
  });
}

export interface ReadingFilter extends MeterListFilter {
  meterId?: number;
  source?: number;
  exception?: boolean;
  start?: Date;
  end?: Date;
}

export async function listReadings(tx: Tx, f: ReadingFilter, limit: number, offset: number) {
  const w = [...meterWhere(f).slice(1)];
  if (f.meterId) w.push(sql`g.meter_id = ${f.meterId}`);
  if (f.source) w.push(sql`g.source = ${f.source}`);
  if (f.exception !== undefined) w.push(f.exception ? sql`g.exception <> ''` : sql`g.exception = ''`);
  inPeriod(w, 'g.read_at', { from: f.start, to: f.end });
  const r = await tx.execute(sql`
    SELECT g.id, g.meter_id, g.read_at, g.received_at, g.source, g.total, g.registers, g.exception, g.command_id,
      g.operator_id, u.real_name AS operator_name, ${meterPlaceCols}, m.kind, count(*) OVER () AS total_count
    FROM readings g JOIN meters m ON m.id = g.meter_id ${meterPlaceJoins} LEFT JOIN admin_users u ON u.id = g.operator_id
    WHERE ${and(w)} ORDER BY g.read_at DESC, g.meter_id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    id: Number(x.id),
    meterId: Number(x.meter_id),
    ...meterPlaceOf(x),
    meterKind: Number(x.kind),
    readAt: d(x.read_at),
    receivedAt: d(x.received_at),
    source: Number(x.source),
    total: String(x.total),
    registers: x.registers as Record<string, unknown>,
    exception: String(x.exception),
    commandId: num(x.command_id),
    operatorId: num(x.operator_id),
    operatorName: String(x.operator_name ?? ''),
  }));
}

/** Meters of a room (or of the room an owner lives in), with their latest reading. */
export async function metersOfRoom(tx: Tx, t: { roomId?: number; ownerId?: number }) {
  const w: SQL[] = [];
  if (t.roomId) w.push(sql`m.room_id = ${t.roomId}`);
  if (t.ownerId) w.push(sql`m.room_id = (SELECT o.room_id FROM owners o WHERE o.id = ${t.ownerId})`);
  const r = await tx.execute(sql`
    SELECT ${meterListCols}, count(*) OVER () AS total_count FROM meters m ${meterListJoins}
    WHERE ${and(w)} AND m.status <> 2 ORDER BY m.kind, m.id`);
  return r.rows.map(toMeterListRow);
}

/** The last good readings of each meter (newest first), at most `perMeter` each, since `since`. */
export async function recentReadings(tx: Tx, meterIds: number[], since: Date, perMeter: number) {
  if (!meterIds.length) return [];
  const r = await tx.execute(sql`
    SELECT meter_id, read_at, total, source FROM (
      SELECT g.meter_id, g.read_at, g.total, g.source,
        row_number() OVER (PARTITION BY g.meter_id ORDER BY g.read_at DESC) AS n
      FROM readings g WHERE g.meter_id = ANY(${arr(meterIds)}::bigint[]) AND g.exception = '' AND g.read_at >= ${since.toISOString()}) x
    WHERE n <= ${perMeter} ORDER BY meter_id, read_at DESC`);
  return r.rows.map((x) => ({ meterId: Number(x.meter_id), readAt: d(x.read_at), total: String(x.total), source: Number(x.source) }));
}

// ---------------------------------------------------------------------------------------------
// Device reports (raw frames)
// ---------------------------------------------------------------------------------------------

export async function listReports(
  tx: Tx,
  f: { meterId?: number; collectorId?: number; errorsOnly?: boolean; keyword?: string; searchArea?: number; start?: Date; end?: Date },
  limit: number,
  offset: number,
) {
  const w: SQL[] = [];
  if (f.meterId) w.push(sql`d.meter_id = ${f.meterId}`);
  if (f.collectorId) w.push(sql`d.collector_id = ${f.collectorId}`);
  if (f.errorsOnly) w.push(sql`d.error <> ''`);
  if (f.keyword) w.push(sql`(m.name ILIKE ${like(f.keyword)} OR m.address ILIKE ${like(f.keyword)} OR c.imei ILIKE ${like(f.keyword)})`);
  if (f.searchArea) w.push(sql`coalesce(m.area_id, c.area_id) IN ${areaAndBelow(f.searchArea)}`);
  inPeriod(w, 'd.created_at', { from: f.start, to: f.end });
  const r = await tx.execute(sql`
    SELECT d.*, m.name AS meter_name, m.address, c.name AS collector_name, c.imei AS collector_imei, count(*) OVER () AS total_count
    FROM device_reports d LEFT JOIN meters m ON m.id = d.meter_id LEFT JOIN collectors c ON c.id = d.collector_id
    WHERE ${and(w)} ORDER BY d.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    id: Number(x.id),
    meterId: num(x.meter_id),
    meterName: String(x.meter_name ?? ''),
    address: String(x.address ?? ''),
    collectorId: num(x.collector_id),
    collectorName: String(x.collector_name ?? ''),
    collectorImei: String(x.collector_imei ?? ''),
    direction: String(x.direction),
    channel: String(x.channel),
    hex: String(x.hex),
    decoded: x.decoded as Record<string, unknown> | null,
    error: String(x.error),
    createdAt: d(x.created_at),
  }));
}
