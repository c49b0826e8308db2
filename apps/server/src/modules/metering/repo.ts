import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { inPeriod } from '../../db/where.ts';

// The only SQL of the metering module: the meter list of the control pages, manual-reading
// neighbours, protections (保电/保水) in bulk, timed valve control and the meter-config log. Row-level
// security limits every statement to the caller's company; joining `meters` applies the caller's
// area scope as well (meters carry the area policy). The timed-control job runs in the system scope.

const arr = (v: unknown[]) => sql.param(v);
const num = (v: unknown) => (v == null ? null : Number(v));
const str = (v: unknown) => (v == null ? '' : String(v));
const like = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;
const and = (w: SQL[]) => (w.length ? sql.join(w, sql` AND `) : sql`true`);
const iso = (d: Date) => d.toISOString();

/** A timestamp from a raw query (pg hands timestamptz over as text here) as a Date. */
export function dt(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(s.includes('T') ? s : s.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}
const dtOrNull = (v: unknown) => (v == null ? null : dt(v));

function paged<T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) {
  return { rows: rows.map(map), count: rows.length ? Number(rows[0].total_count) : 0 };
}

/** What the meter lists search by: a keyword and an area (with the areas below it). */
export interface MeterSearch {
  keyword?: string;
  searchArea?: number;
}

/** The meter lists' search: keyword over meter name/address, room name and `also` (ILIKE), and the area subtree. */
function meterSearch(w: SQL[], f: MeterSearch, ...also: SQL[]) {
  if (f.keyword) {
    const k = like(f.keyword);
    w.push(sql`(${sql.join([sql`m.name`, sql`m.address`, sql`r.name`, ...also].map((c) => sql`${c} ILIKE ${k}`), sql` OR `)})`);
  }
  if (f.searchArea) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
}

/** The meter's room and area (aliases r and a) for the lists that join `meters m`. */
const meterPlace = sql`LEFT JOIN rooms r ON r.id = m.room_id
    LEFT JOIN areas a ON a.id = m.area_id`;
/** the meter of a row selected with m.name AS meter_name, m.address, m.kind (and meterPlace's names) */
const meterOf = (x: Record<string, unknown>) => ({ meterName: str(x.meter_name), address: str(x.address), kind: Number(x.kind) });
const placeOf = (x: Record<string, unknown>) => ({ roomName: str(x.room_name), areaName: str(x.area_name) });

/**
 * One page of a list of rows kept per meter: `from` (a table and its alias) joined to its meter (m) and
 * the meter's place (r, a), then `joins`; filtered by `w`, in `order`, with the number found.
 */
async function perMeterPage<T>(
  tx: Tx,
  q: { cols: SQL; from: string; joins: SQL; w: SQL[]; order: SQL },
  limit: number,
  offset: number,
  map: (x: Record<string, unknown>) => T,
) {
  const alias = sql.raw(q.from.split(' ')[1]);
  const r = await tx.execute(sql`
    SELECT ${q.cols}, count(*) OVER () AS total_count
    FROM ${sql.raw(q.from)}
    JOIN meters m ON m.id = ${alias}.meter_id
    ${meterPlace}
    ${q.joins}
    WHERE ${and(q.w)}
    ORDER BY ${q.order} LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, map);
}

/** A protection in force now (active, started, not past its end). */
const inForce = (p: string) => sql.raw(`${p}.active AND ${p}.start_at <= now() AND (${p}.end_at IS NULL OR ${p}.end_at > now())`);

// ---------------------------------------------------------------------------------------------
// Meters as the control pages list them
// ---------------------------------------------------------------------------------------------

export interface ControlMeterFilter extends MeterSearch {
  kind?: number;
  roomId?: number;
  online?: boolean;
  valveState?: number;
  protected?: boolean;
  withDisabled?: boolean;
}

export async function listControlMeters(tx: Tx, f: ControlMeterFilter, limit: number, offset: number) {
  const w: SQL[] = [f.withDisabled ? sql`m.status IN (0, 1)` : sql`m.status = 1`];
  if (f.kind) w.push(sql`m.kind = ${f.kind}`);
  if (f.roomId) w.push(sql`m.room_id = ${f.roomId}`);
  if (f.online !== undefined) w.push(f.online ? sql`(m.online OR coalesce(c.online, false))` : sql`NOT (m.online OR coalesce(c.online, false))`);
  if (f.valveState !== undefined) w.push(sql`m.valve_state = ${f.valveState}`);
  if (f.protected !== undefined) w.push(f.protected ? sql`p.id IS NOT NULL` : sql`p.id IS NULL`);
  meterSearch(w, f, sql`a.name`);
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.name, m.address, m.kind, m.plan, m.phase_id, ph.name AS phase_name, m.status, m.online, m.initial_reading,
      m.valve_state, m.last_seen_at, m.room_id, r.name AS room_name, m.area_id, a.name AS area_name, m.collector_id,
      c.name AS collector_name, c.online AS collector_online, l.read_at AS last_read_at, l.total AS last_total, l.source AS last_source,
      p.id AS protection_id, p.reason AS protection_reason, p.start_at AS protection_start, p.end_at AS protection_end,
      (SELECT array_agg(x.kind ORDER BY x.id) FROM commands x WHERE x.meter_id = m.id AND x.status IN ('queued', 'sent')) AS pending,
      (SELECT count(*) FROM timed_controls t WHERE t.meter_id = m.id AND t.enabled) AS timed_count,
      count(*) OVER () AS total_count
    FROM meters m
    ${meterPlace}
    LEFT JOIN collectors c ON c.id = m.collector_id
    LEFT JOIN meter_latest l ON l.meter_id = m.id
    LEFT JOIN device_lookups ph ON ph.id = m.phase_id
    LEFT JOIN protections p ON p.meter_id = m.id AND ${inForce('p')}
    WHERE ${and(w)}
    ORDER BY a.name NULLS LAST, r.name NULLS LAST, m.kind, m.id
    LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    id: Number(x.id),
    companyId: Number(x.company_id),
    name: str(x.name),
    address: str(x.address),
    kind: Number(x.kind),
    plan: Number(x.plan),
    phaseId: num(x.phase_id),
    phaseName: str(x.phase_name),
    status: Number(x.status),
    online: x.online === true || x.collector_online === true,
    meterOnline: x.online === true,
    valveState: num(x.valve_state),
    lastSeenAt: dtOrNull(x.last_seen_at),
    roomId: num(x.room_id),
    roomName: str(x.room_name),
    areaId: num(x.area_id),
    areaName: str(x.area_name),
    collectorId: num(x.collector_id),
    collectorName: str(x.collector_name),
    collectorOnline: (x.collector_online ?? null) as boolean | null,
    lastReadAt: dtOrNull(x.last_read_at),
    lastTotal: x.last_total == null ? null : String(x.last_total),
    lastSource: num(x.last_source),
    initialReading: String(x.initial_reading),
    protection:
      x.protection_id != null
        ? { id: Number(x.protection_id), reason: str(x.protection_reason), startAt: dt(x.protection_start), endAt: dtOrNull(x.protection_end) }
        : null,
    pending: ((x.pending ?? []) as string[]).map(String),
    timedCount: Number(x.timed_count ?? 0),
  }));
}

// ---------------------------------------------------------------------------------------------
// Manual reading
// ---------------------------------------------------------------------------------------------

/** What the manual reading and the protections need of a meter (selected with `meterHeadCols`). */
interface MeterHead {
  id: number;
  companyId: number;
  areaId: number | null;
  name: string;
  address: string;
  kind: number;
  status: number;
}
const meterHeadCols = sql`m.id, m.company_id, m.area_id, m.name, m.address, m.kind, m.status`;
const meterHead = (x: Record<string, unknown>): MeterHead => ({
  id: Number(x.id),
  companyId: Number(x.company_id),
  areaId: num(x.area_id),
  name: str(x.name),
  address: str(x.address),
  kind: Number(x.kind),
  status: Number(x.status),
});

export interface ReadingMeter extends MeterHead {
  initialReading: string;
}

/** The meter, locked for the rest of the transaction (manual readings of one meter are serialised). */
export async function lockReadingMeter(tx: Tx, meterId: number): Promise<ReadingMeter | undefined> {
  const r = await tx.execute(sql`SELECT ${meterHeadCols}, m.initial_reading FROM meters m WHERE m.id = ${meterId} FOR UPDATE`);
  const x = r.rows[0];
  return x && { ...meterHead(x), initialReading: String(x.initial_reading) };
}

export interface Neighbour {
  readAt: Date;
  total: string;
}

/** The good readings just before and just after an instant, and whether one exists exactly then. */
export async function readingNeighbours(tx: Tx, meterId: number, at: Date) {
  const r = await tx.execute(sql`
    SELECT 'prev' AS side, read_at, total FROM (SELECT read_at, total FROM readings
      WHERE meter_id = ${meterId} AND exception = '' AND read_at < ${iso(at)} ORDER BY read_at DESC LIMIT 1) p
    UNION ALL
    SELECT 'next', read_at, total FROM (SELECT read_at, total FROM readings
      WHERE meter_id = ${meterId} AND exception = '' AND read_at > ${iso(at)} ORDER BY read_at LIMIT 1) n
    UNION ALL
    SELECT 'same', read_at, total FROM (SELECT read_at, total FROM readings WHERE meter_id = ${meterId} AND read_at = ${iso(at)} LIMIT 1) s`);
  const pick = (side: string): Neighbour | null => {
    const x = r.rows.find((y) => y.side === side);
    return x ? { readAt: dt(x.read_at), total: String(x.total) } : null;
  };
  return { prev: pick('prev'), next: pick('next'), same: pick('same') };
}

// ---------------------------------------------------------------------------------------------
// Protections (保电/保水)
// ---------------------------------------------------------------------------------------------

export interface TargetMeter extends MeterHead {
  protocolId: number | null;
}

/** Meters of the caller's scope named by ids, by room or by area (and below), of one kind, not 销表. */
export async function targetMeters(tx: Tx, t: { kind: number; meterIds?: number[]; roomId?: number; areaId?: number }): Promise<TargetMeter[]> {
  const w: SQL[] = [sql`m.kind = ${t.kind}`, sql`m.status <> 2`];
  if (t.meterIds?.length) w.push(sql`m.id = ANY(${arr(t.meterIds)}::bigint[])`);
  if (t.roomId) w.push(sql`m.room_id = ${t.roomId}`);
  if (t.areaId) w.push(sql`m.area_id IN ${areaAndBelow(t.areaId)}`);
  const r = await tx.execute(sql`SELECT ${meterHeadCols}, m.protocol_id FROM meters m WHERE ${and(w)} ORDER BY m.id`);
  return r.rows.map((x) => ({ ...meterHead(x), protocolId: num(x.protocol_id) }));
}

export async function roomVisible(tx: Tx, roomId: number) {
  const r = await tx.execute(sql`SELECT 1 FROM rooms WHERE id = ${roomId}`);
  return r.rows.length > 0;
}

export async function areaVisible(tx: Tx, areaId: number) {
  const r = await tx.execute(sql`SELECT 1 FROM areas WHERE id = ${areaId}`);
  return r.rows.length > 0;
}

/**
 * Starts (or renews: new reason and end) one protection per meter. An active row whose end has
 * passed is closed first, so the new one is not mistaken for a renewal. Returns which were renewed.
 */
export async function startProtections(
  tx: Tx,
  p: { meters: { id: number; companyId: number }[]; kind: number; reason: string; endAt: Date | null; userId: number },
) {
  if (!p.meters.length) return { started: 0, renewed: 0 };
  const ids = p.meters.map((m) => m.id);
  await tx.execute(sql`
    UPDATE protections SET active = false
    WHERE meter_id = ANY(${arr(ids)}::bigint[]) AND active AND end_at IS NOT NULL AND end_at <= now()`);
  const r = await tx.execute(sql`
    INSERT INTO protections (company_id, meter_id, kind, reason, end_at, created_by)
    SELECT v.c, v.m, ${p.kind}::int, ${p.reason}::text, ${p.endAt ? iso(p.endAt) : null}::timestamptz, ${p.userId}::bigint
    FROM unnest(${arr(p.meters.map((m) => m.companyId))}::bigint[], ${arr(ids)}::bigint[]) AS v(c, m)
    ON CONFLICT (meter_id) WHERE active DO UPDATE SET reason = EXCLUDED.reason, end_at = EXCLUDED.end_at
    RETURNING (xmax = 0) AS inserted`);
  const started = r.rows.filter((x) => x.inserted === true).length;
  return { started, renewed: r.rows.length - started };
}

/** Ends the active protections of these meters; returns the meters whose protection ended. */
export async function endProtections(tx: Tx, meterIds: number[], userId: number): Promise<number[]> {
  if (!meterIds.length) return [];
  const r = await tx.execute(sql`
    UPDATE protections SET active = false, end_at = least(coalesce(end_at, now()), now()), ended_by = ${userId}
    WHERE meter_id = ANY(${arr(meterIds)}::bigint[]) AND active AND (end_at IS NULL OR end_at > now())
    RETURNING meter_id`);
  return r.rows.map((x) => Number(x.meter_id));
}

export interface ProtectionFilter extends MeterSearch {
  kind?: number;
  active?: boolean;
  meterId?: number;
  start?: Date;
  end?: Date;
}

export async function listProtections(tx: Tx, f: ProtectionFilter, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.kind) w.push(sql`p.kind = ${f.kind}`);
  if (f.active !== undefined) w.push(f.active ? sql`${inForce('p')}` : sql`NOT (${inForce('p')})`);
  if (f.meterId) w.push(sql`p.meter_id = ${f.meterId}`);
  meterSearch(w, f, sql`p.reason`);
  inPeriod(w, 'p.start_at', { from: f.start, to: f.end });
  const cols = sql`p.id, p.meter_id, p.kind, p.active, p.reason, p.start_at, p.end_at, p.created_at,
      (${inForce('p')}) AS in_force, cu.real_name AS created_by_name, cu.username AS created_by_username,
      eu.real_name AS ended_by_name, eu.username AS ended_by_username, p.ended_by,
      m.name AS meter_name, m.address, m.kind AS meter_kind, m.valve_state, r.name AS room_name, a.name AS area_name`;
  const joins = sql`LEFT JOIN admin_users cu ON cu.id = p.created_by
    LEFT JOIN admin_users eu ON eu.id = p.ended_by`;
  return perMeterPage(tx, { cols, from: 'protections p', joins, w, order: sql`p.id DESC` }, limit, offset, (x) => {
    const inForceNow = x.in_force === true;
    const endedByPerson = x.ended_by != null;
    return {
      id: Number(x.id),
      meterId: Number(x.meter_id),
      kind: Number(x.kind),
      kindText: Number(x.kind) === 2 ? '保水' : '保电',
      meterName: str(x.meter_name),
      address: str(x.address),
      meterKind: Number(x.meter_kind),
      valveState: num(x.valve_state),
      ...placeOf(x),
      reason: str(x.reason),
      startAt: dt(x.start_at),
      endAt: dtOrNull(x.end_at),
      active: inForceNow,
      statusText: inForceNow ? '保护中' : endedByPerson ? '已解除' : '已到期',
      createdByName: str(x.created_by_name) || str(x.created_by_username),
      endedByName: str(x.ended_by_name) || str(x.ended_by_username),
      createdAt: dt(x.created_at),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Timed valve control (定时阀控)
// ---------------------------------------------------------------------------------------------

export interface TimedRow {
  id: number;
  companyId: number;
  meterId: number;
  action: 'open' | 'close';
  repeat: 'once' | 'daily';
  runAt: Date | null;
  timeOfDay: string;
  enabled: boolean;
  lastRunAt: Date | null;
  memo: string;
  createdBy: number | null;
  createdAt: Date;
}

function toTimed(x: Record<string, unknown>): TimedRow {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    meterId: Number(x.meter_id),
    action: x.action as 'open' | 'close',
    repeat: x.repeat as 'once' | 'daily',
    runAt: dtOrNull(x.run_at),
    timeOfDay: str(x.time_of_day),
    enabled: x.enabled === true,
    lastRunAt: dtOrNull(x.last_run_at),
    memo: str(x.memo),
    createdBy: num(x.created_by),
    createdAt: dt(x.created_at),
  };
}

export interface NewTimed {
  companyId: number;
  meterId: number;
  action: string;
  repeat: string;
  runAt: Date | null;
  timeOfDay: string;
  memo: string;
  createdBy: number;
  /** the run mark at creation (a daily time already past today counts as today's run) */
  lastRunAt: Date | null;
}

export async function insertTimed(tx: Tx, rows: NewTimed[]): Promise<number[]> {
  if (!rows.length) return [];
  const r = await tx.execute(sql`
    INSERT INTO timed_controls (company_id, meter_id, action, repeat, run_at, time_of_day, memo, created_by, last_run_at)
    SELECT * FROM unnest(
      ${arr(rows.map((x) => x.companyId))}::bigint[], ${arr(rows.map((x) => x.meterId))}::bigint[],
      ${arr(rows.map((x) => x.action))}::varchar[], ${arr(rows.map((x) => x.repeat))}::varchar[],
      ${arr(rows.map((x) => (x.runAt ? iso(x.runAt) : null)))}::timestamptz[], ${arr(rows.map((x) => x.timeOfDay))}::varchar[],
      ${arr(rows.map((x) => x.memo))}::text[], ${arr(rows.map((x) => x.createdBy))}::bigint[],
      ${arr(rows.map((x) => (x.lastRunAt ? iso(x.lastRunAt) : null)))}::timestamptz[])
    RETURNING id`);
  return r.rows.map((x) => Number(x.id));
}

/** Timed controls visible to the caller (their meter is in the caller's areas). */
export async function timedByIds(tx: Tx, ids: number[]): Promise<(TimedRow & { meterName: string; address: string; kind: number })[]> {
  if (!ids.length) return [];
  const r = await tx.execute(sql`
    SELECT t.*, m.name AS meter_name, m.address, m.kind FROM timed_controls t JOIN meters m ON m.id = t.meter_id
    WHERE t.id = ANY(${arr(ids)}::bigint[]) ORDER BY t.id`);
  return r.rows.map((x) => ({ ...toTimed(x), ...meterOf(x) }));
}

/** Updates a timed control; `lastRunAt` sets the run mark (null: not run yet), undefined keeps it. */
export async function updateTimed(
  tx: Tx,
  id: number,
  v: { action: string; repeat: string; runAt: Date | null; timeOfDay: string; memo: string; enabled?: boolean; lastRunAt?: Date | null },
) {
  const mark = v.lastRunAt === undefined ? sql`last_run_at` : sql`${v.lastRunAt ? iso(v.lastRunAt) : null}::timestamptz`;
  await tx.execute(sql`
    UPDATE timed_controls SET last_run_at = ${mark}, action = ${v.action}, repeat = ${v.repeat},
      run_at = ${v.runAt ? iso(v.runAt) : null}::timestamptz, time_of_day = ${v.timeOfDay}, memo = ${v.memo},
      enabled = coalesce(${v.enabled ?? null}::boolean, enabled)
    WHERE id = ${id}`);
}

export async function setTimedEnabled(tx: Tx, ids: number[], enabled: boolean) {
  const r = await tx.execute(sql`UPDATE timed_controls SET enabled = ${enabled} WHERE id = ANY(${arr(ids)}::bigint[]) AND enabled <> ${enabled} RETURNING id`);
  return r.rows.length;
}

export async function deleteTimed(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`DELETE FROM timed_controls WHERE id = ANY(${arr(ids)}::bigint[]) RETURNING id`);
  return r.rows.length;
}

export interface TimedFilter extends MeterSearch {
  action?: string;
  repeat?: string;
  enabled?: boolean;
  meterId?: number;
}

export async function listTimed(tx: Tx, f: TimedFilter, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.action) w.push(sql`t.action = ${f.action}`);
  if (f.repeat) w.push(sql`t.repeat = ${f.repeat}`);
  if (f.enabled !== undefined) w.push(sql`t.enabled = ${f.enabled}`);
  if (f.meterId) w.push(sql`t.meter_id = ${f.meterId}`);
  meterSearch(w, f, sql`t.memo`);
  const cols = sql`t.*, m.name AS meter_name, m.address, m.kind, m.phase_id, m.valve_state, m.status AS meter_status,
      r.name AS room_name, a.name AS area_name, u.real_name AS created_by_name, u.username AS created_by_username,
      lc.id AS cmd_id, lc.status AS cmd_status, lc.error AS cmd_error, lc.created_at AS cmd_at`;
  const joins = sql`LEFT JOIN admin_users u ON u.id = t.created_by
    LEFT JOIN LATERAL (
      SELECT c.id, c.status, c.error, c.created_at FROM commands c
      WHERE c.meter_id = t.meter_id AND c.origin = 3 AND c.payload->>'timedControlId' = t.id::text
      ORDER BY c.id DESC LIMIT 1) lc ON true`;
  return perMeterPage(tx, { cols, from: 'timed_controls t', joins, w, order: sql`t.enabled DESC, t.id DESC` }, limit, offset, (x) => ({
    ...toTimed(x),
    ...meterOf(x),
    phaseId: num(x.phase_id),
    valveState: num(x.valve_state),
    meterStatus: Number(x.meter_status),
    ...placeOf(x),
    createdByName: str(x.created_by_name) || str(x.created_by_username),
    lastCommand: x.cmd_id != null ? { id: Number(x.cmd_id), status: str(x.cmd_status), error: str(x.cmd_error), createdAt: dt(x.cmd_at) } : null,
  }));
}

/** Takes the timed-control job's transaction lock if free (one process runs a tick at a time). */
export async function tryTimedLock(tx: Tx): Promise<boolean> {
  const r = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(724300, 1) AS ok`);
  return r.rows[0]?.ok === true;
}

/** Enabled single runs whose time has come, and every enabled daily one (the job decides per day). */
export async function timedCandidates(tx: Tx, now: Date): Promise<(TimedRow & { requester: string })[]> {
  const r = await tx.execute(sql`
    SELECT t.*, coalesce(nullif(u.real_name, ''), u.username, '') AS requester FROM timed_controls t
    LEFT JOIN admin_users u ON u.id = t.created_by
    WHERE t.enabled AND ((t.repeat = 'once' AND t.last_run_at IS NULL AND t.run_at <= ${iso(now)}) OR t.repeat = 'daily')
    ORDER BY t.id
    FOR UPDATE OF t SKIP LOCKED`);
  return r.rows.map((x) => ({ ...toTimed(x), requester: str(x.requester) }));
}

/** Marks a run (or a missed run); a single run is switched off once it has run. */
export async function markTimedRun(tx: Tx, id: number, at: Date, disable: boolean) {
  await tx.execute(sql`
    UPDATE timed_controls SET last_run_at = ${iso(at)}, enabled = CASE WHEN ${disable} THEN false ELSE enabled END WHERE id = ${id}`);
}

// ---------------------------------------------------------------------------------------------
// Meter parameter log (meter_configs)
// ---------------------------------------------------------------------------------------------

export interface ConfigFilter extends MeterSearch {
  meterId?: number;
  kind?: number;
  op?: string;
  start?: Date;
  end?: Date;
}

export async function listConfigs(tx: Tx, f: ConfigFilter, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.meterId) w.push(sql`g.meter_id = ${f.meterId}`);
  if (f.kind) w.push(sql`m.kind = ${f.kind}`);
  if (f.op) w.push(sql`g.op = ${f.op}`);
  meterSearch(w, f);
  inPeriod(w, 'g.created_at', { from: f.start, to: f.end });
  const cols = sql`g.id, g.meter_id, g.op, g.params, g.command_id, g.created_at, m.name AS meter_name, m.address, m.kind,
      r.name AS room_name, a.name AS area_name, c.status AS command_status, c.requester_name,
      u.real_name AS created_by_name, u.username AS created_by_username`;
  const joins = sql`LEFT JOIN commands c ON c.id = g.command_id
    LEFT JOIN admin_users u ON u.id = g.created_by`;
  return perMeterPage(tx, { cols, from: 'meter_configs g', joins, w, order: sql`g.id DESC` }, limit, offset, (x) => ({
    id: Number(x.id),
    meterId: Number(x.meter_id),
    ...meterOf(x),
    ...placeOf(x),
    op: str(x.op),
    opText: x.op === 'set' ? '参数设置' : '参数读取',
    params: (x.params ?? {}) as Record<string, unknown>,
    commandId: num(x.command_id),
    commandStatus: str(x.command_status),
    operatorName: str(x.created_by_name) || str(x.created_by_username) || str(x.requester_name) || '系统',
    createdAt: dt(x.created_at),
  }));
}
