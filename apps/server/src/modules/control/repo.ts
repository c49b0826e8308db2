import { sql, type SQL } from 'drizzle-orm';
import { clientOf, queryMany, type Tx } from '../../db/client.ts';
import { intArr, textArr } from '../../db/array-literal.ts';
import { BinaryCopyWriter } from '../../db/copy-binary.ts';
import { copyIn } from '../../db/copy.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS } from '@meter/contracts';
import type { PlausibilityTerms } from './plausible.ts';
import type { CommandKind, CommandStatus } from './rules.ts';

// The only SQL of device control: readings and the latest value, commands and their lifecycle,
// read tasks, warnings, protections, configs and the lists behind the control pages. Row-level
// security (the transaction's scope) limits every statement to the caller's company and areas;
// the gateway and the worker run in the system scope.

const arr = (v: unknown[]) => sql.param(v);
/** Timestamps of raw SQL arrive as text (drizzle keeps node-postgres from parsing them). */
const d = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')));
const dn = (v: unknown): Date | null => (v == null ? null : d(v));
const num = (v: unknown) => (v == null ? null : Number(v));
const like = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;
const and = (w: SQL[]) => (w.length ? sql.join(w, sql` AND `) : sql`true`);

function paged<T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) {
  return { rows: rows.map(map), count: rows.length ? Number(rows[0].total_count) : 0 };
}

// ---------------------------------------------------------------------------------------------
// Readings
// ---------------------------------------------------------------------------------------------

export interface LatestRow {
  meterId: number;
  readAt: Date;
  total: string;
  registers: Record<string, number | string | boolean>;
}

/** Meter buckets of the ingest lock: batches touching the same meters take turns. */
const INGEST_BUCKETS = 64;
/** The lock buckets of these meters, ascending (the order every holder takes them in). */
const bucketsOf = (meterIds: number[]) => [...new Set(meterIds.map((m) => m % INGEST_BUCKETS))].sort((a, b) => a - b);

/**
 * The latest good reading of each meter, with the ingest lock of those meters held until the
 * transaction ends: transaction-scoped advisory locks per bucket of meter ids, taken in bucket
 * order (no deadlock), so concurrent ingests of one meter are serialised — including its very first
 * reading, which has no meter_latest row to lock — without writing a row lock per meter.
 */
export async function lockLatest(tx: Tx, meterIds: number[]): Promise<Map<number, LatestRow>> {
  if (!meterIds.length) return new Map();
  const buckets = bucketsOf(meterIds);
  // one round trip; the locks are taken one row at a time in bucket order
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(724300, b)) FROM (SELECT unnest(${arr(buckets)}::int[]) AS b ORDER BY 1) AS x`);
  const r = await tx.execute(sql`
    SELECT meter_id, read_at, total, registers FROM meter_latest WHERE meter_id = ANY(${arr(meterIds)}::bigint[])`);
  return new Map(
    r.rows.map((x) => [
      Number(x.meter_id),
      { meterId: Number(x.meter_id), readAt: d(x.read_at), total: String(x.total), registers: (x.registers ?? {}) as LatestRow['registers'] },
    ]),
  );
}

/**
 * {@link lockLatest} for ingest: the same locks, and with each meter's latest good reading (of its
 * registers only the relay/valve state) the company of its `meters` row as the caller's row-level
 * security shows it (absent: not visible).
 */
export async function lockIngest(
  tx: Tx,
  meterIds: number[],
): Promise<{ latest: Map<number, LatestRow>; companyOf: Map<number, number>; terms: Map<number, PlausibilityTerms> }> {
  const latest = new Map<number, LatestRow>();
  const companyOf = new Map<number, number>();
  const terms = new Map<number, PlausibilityTerms>();
  if (!meterIds.length) return { latest, companyOf, terms };
  if (!meterIds.every(Number.isSafeInteger)) throw new TypeError('meter ids must be integers');
  const buckets = bucketsOf(meterIds);
  // One round trip, two statements (simple protocol; the ids are integers, inlined): the locks first,
  // then the read, whose own snapshot (READ COMMITTED) sees what the previous holder committed.
  const res = await queryMany(clientOf(tx), `
    SELECT count(pg_advisory_xact_lock(724300, b)) FROM (SELECT unnest('{${buckets.join(',')}}'::int[]) AS b ORDER BY 1) AS x;
    SELECT x.id AS meter_id, m.company_id, m.kind, m.phase_id, m.caliber_id, (extract(epoch FROM l.read_at) * 1000)::float8 AS read_ms, l.total, l.registers->'valve' AS valve
    FROM unnest('{${meterIds.join(',')}}'::bigint[]) AS x(id)
    LEFT JOIN meters m ON m.id = x.id
    LEFT JOIN meter_latest l ON l.meter_id = x.id`);
  // of the registers only the relay/valve state is read by ingest: only it is fetched (no jsonb parse per meter)
  for (const x of res[1].rows) {
    const id = Number(x.meter_id);
    if (x.company_id != null) {
      companyOf.set(id, Number(x.company_id));
      terms.set(id, { kind: Number(x.kind), phaseId: num(x.phase_id), caliberId: num(x.caliber_id) });
    }
    if (x.read_ms != null) {
      const valve = x.valve as number | string | boolean | null;
      latest.set(id, { meterId: id, readAt: new Date(Number(x.read_ms)), total: String(x.total), registers: valve == null ? {} : { valve } });
    }
  }
  return { latest, companyOf, terms };
}

export interface ReadingRow {
  companyId: number;
  meterId: number;
  readAt: Date;
  source: number;
  total: string;
  registers: Record<string, number | string | boolean>;
  exception: string;
  commandId: number | null;
  operatorId: number | null;
}

/** Inserts readings; a (meter, read_at) already stored is skipped. Returns the keys inserted. */
export async function insertReadings(tx: Tx, rows: ReadingRow[]): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const r = await tx.execute(sql`
    INSERT INTO readings (company_id, meter_id, read_at, source, total, registers, exception, command_id, operator_id)
    SELECT * FROM unnest(
      ${arr(rows.map((x) => x.companyId))}::bigint[], ${arr(rows.map((x) => x.meterId))}::bigint[],
      ${arr(rows.map((x) => x.readAt.toISOString()))}::timestamptz[], ${arr(rows.map((x) => x.source))}::int[],
      ${arr(rows.map((x) => x.total))}::numeric[], ${arr(rows.map((x) => JSON.stringify(x.registers)))}::jsonb[],
      ${arr(rows.map((x) => x.exception))}::varchar[], ${arr(rows.map((x) => x.commandId))}::bigint[],
      ${arr(rows.map((x) => x.operatorId))}::bigint[])
    ON CONFLICT (meter_id, read_at) DO NOTHING
    RETURNING meter_id, read_at`);
  return new Set(r.rows.map((x) => `${x.meter_id}@${d(x.read_at).getTime()}`));
}

const READING_COLUMNS = 'company_id, meter_id, read_at, source, total, registers, exception, command_id, operator_id';

/** Counters of the COPY path since the process started (tests and diagnostics). */
export const copyStats = { batches: 0, rows: 0, fallbacks: 0 };

/** Whether COPY under meter_ingest works here (unknown until tried; off after a refusal). */
let copyUsable: boolean | undefined;
/** Refusals that mean "this database has no usable meter_ingest role", not "this batch is bad". */
const COPY_REFUSED = new Set(['0A000', '42501', '22023', '42704']);

/**
 * Inserts readings with COPY, as the `meter_ingest` role (migration 0020) inside a savepoint.
 * The caller must have taken each row's company from its `meters` row and ruled out duplicates
 * within the batch. Returns false — nothing inserted, the transaction as it was — when a row is
 * already stored (unique violation) or COPY is not available; the caller then uses
 * {@link insertReadings}, which skips what is already there.
 */
export async function copyReadings(tx: Tx, rows: ReadingRow[]): Promise<boolean> {
  if (!rows.length) return true;
  if (copyUsable === false) return false;
  // binary COPY: no formatting of numbers and instants here, no parsing of them in the server
  const w = new BinaryCopyWriter(rows.length * 96);
  for (const x of rows) {
    w.row(9)
      .int8(x.companyId)
      .int8(x.meterId)
      .timestamptz(x.readAt)
      .int4(x.source)
      .numeric(x.total)
      .jsonb(JSON.stringify(x.registers))
      .text(x.exception)
      .int8(x.commandId)
      .int8(x.operatorId);
  }
  try {
    await copyIn(
      clientOf(tx),
      `SAVEPOINT ingest_copy; SET LOCAL ROLE meter_ingest; COPY readings (${READING_COLUMNS}) FROM STDIN (FORMAT binary); SET LOCAL ROLE NONE; RELEASE SAVEPOINT ingest_copy`,
      w.finish(),
    );
    copyUsable = true;
    copyStats.batches++;
    copyStats.rows += rows.length;
    return true;
  } catch (e) {
    copyStats.fallbacks++;
    await tx.execute(sql`ROLLBACK TO SAVEPOINT ingest_copy`);
    await tx.execute(sql`RELEASE SAVEPOINT ingest_copy`);
    const code = (e as { code?: string }).code;
    if (code === '23505') return false;
    if (code && COPY_REFUSED.has(code) && copyUsable !== true) {
      copyUsable = false;
      return false;
    }
    // anything else: let the INSERT path judge the batch (and report its error)
    return false;
  }
}

/** Moves meter_latest forward (never backwards); registers accumulate (clock check time survives). */
function latestUpsertSql(rows: ReadingRow[]): SQL {
  return sql`
    INSERT INTO meter_latest (meter_id, company_id, read_at, total, registers, source, updated_at)
    SELECT v.m, v.c, v.t, v.total, v.reg, v.src, now() FROM unnest(
      ${intArr(rows.map((x) => x.meterId))}::bigint[], ${intArr(rows.map((x) => x.companyId))}::bigint[],
      ${textArr(rows.map((x) => x.readAt.toISOString()))}::timestamptz[], ${textArr(rows.map((x) => x.total))}::numeric[],
      ${textArr(rows.map((x) => JSON.stringify(x.registers)))}::jsonb[], ${intArr(rows.map((x) => x.source))}::int[]) AS v(m, c, t, total, reg, src)
    ON CONFLICT (meter_id) DO UPDATE SET read_at = EXCLUDED.read_at, total = EXCLUDED.total,
      registers = meter_latest.registers || EXCLUDED.registers, source = EXCLUDED.source, updated_at = now()
    WHERE meter_latest.read_at < EXCLUDED.read_at`;
}

export async function upsertLatest(tx: Tx, rows: ReadingRow[]) {
  if (rows.length) await tx.execute(latestUpsertSql(rows));
}

/**
 * What follows stored readings, in one statement: meter_latest moves forward ({@link upsertLatest}),
 * the meters whose relay/valve state changed are written (online and last-seen are the gateway's, so
 * two writers never queue on one row), and the state the last successful valve command of each given
 * meter left it in (open or close) is returned.
 */
export async function afterReadings(
  tx: Tx,
  latest: ReadingRow[],
  state: { meterId: number; valve: number | null; at: Date }[],
  valveMeterIds: number[],
): Promise<Map<number, { kind: string; at: Date }>> {
  const changed = state.filter((x) => x.valve !== null);
  const r = await tx.execute(sql`
    WITH latest AS (${latestUpsertSql(latest)}
    ), state AS (
      UPDATE meters m SET valve_state = v.valve, last_seen_at = greatest(m.last_seen_at, v.t)
      FROM unnest(${intArr(changed.map((x) => x.meterId))}::bigint[], ${intArr(changed.map((x) => x.valve))}::int[],
        ${textArr(changed.map((x) => x.at.toISOString()))}::timestamptz[]) AS v(id, valve, t)
      WHERE m.id = v.id AND m.valve_state IS DISTINCT FROM v.valve
    )
    SELECT DISTINCT ON (meter_id) meter_id, kind, finished_at FROM commands
    WHERE meter_id = ANY(${intArr(valveMeterIds)}::bigint[]) AND kind IN ('open', 'close') AND status = 'succeeded'
    ORDER BY meter_id, finished_at DESC`);
  return new Map(r.rows.map((x) => [Number(x.meter_id), { kind: String(x.kind), at: d(x.finished_at) }]));
}


export async function setValveState(tx: Tx, meterId: number, valve: number) {
  await tx.execute(sql`UPDATE meters SET valve_state = ${valve}, online = true, last_seen_at = now() WHERE id = ${meterId}`);
}


// ---------------------------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------------------------

export interface WarningRow {
  companyId: number;
  meterId: number | null;
  collectorId: number | null;
  areaId: number | null;
  kind: string;
  detail: Record<string, unknown>;
}

/** Opens warnings; an open one of the same meter/collector and kind is refreshed instead. Returns the new ones. */
export async function openWarnings(tx: Tx, all: WarningRow[]) {
  if (!all.length) return [];
  // one row per device and kind (a statement may not touch the same open warning twice): the last wins
  const rows = [...new Map(all.map((w) => [`${w.meterId ?? 0}:${w.collectorId ?? 0}:${w.kind}`, w])).values()];
  const r = await tx.execute(sql`
    INSERT INTO device_warnings (company_id, meter_id, collector_id, area_id, kind, detail)
    SELECT * FROM unnest(
      ${arr(rows.map((x) => x.companyId))}::bigint[], ${arr(rows.map((x) => x.meterId))}::bigint[],
      ${arr(rows.map((x) => x.collectorId))}::bigint[], ${arr(rows.map((x) => x.areaId))}::bigint[],
      ${arr(rows.map((x) => x.kind))}::varchar[], ${arr(rows.map((x) => JSON.stringify(x.detail)))}::jsonb[])
    ON CONFLICT (coalesce(meter_id, 0), coalesce(collector_id, 0), kind) WHERE status = 0
    DO UPDATE SET detail = EXCLUDED.detail, last_seen_at = now()
    RETURNING id, company_id, meter_id, collector_id, area_id, kind, detail, (xmax = 0) AS inserted`);
  return r.rows
    .filter((x) => x.inserted === true)
    .map((x) => ({
      id: Number(x.id),
      companyId: Number(x.company_id),
      meterId: num(x.meter_id),
      collectorId: num(x.collector_id),
      areaId: num(x.area_id),
      kind: String(x.kind),
      detail: x.detail as Record<string, unknown>,
    }));
}

/** Closes open warnings the system itself saw resolved (device back online, clock synced). */
export async function resolveWarnings(tx: Tx, t: { meterId?: number; collectorId?: number; kinds: string[]; memo: string }) {
  const w: SQL[] = [sql`status = 0`, sql`kind = ANY(${arr(t.kinds)}::varchar[])`];
  if (t.meterId !== undefined) w.push(sql`meter_id = ${t.meterId}`);
  if (t.collectorId !== undefined) w.push(sql`collector_id = ${t.collectorId}`);
  const r = await tx.execute(sql`
    UPDATE device_warnings SET status = 1, handled_at = now(), handle_memo = ${t.memo}
    WHERE ${and(w)} RETURNING id`);
  return r.rows.length;
}

/** Closes the open offline warnings of devices that came back. */
export async function resolveOfflineWarnings(tx: Tx, collectorIds: number[], meterIds: number[], memo: string) {
  if (!collectorIds.length && !meterIds.length) return 0;
  const r = await tx.execute(sql`
    UPDATE device_warnings SET status = 1, handled_at = now(), handle_memo = ${memo}
    WHERE status = 0 AND kind = 'offline'
      AND (collector_id = ANY(${arr(collectorIds)}::bigint[]) OR meter_id = ANY(${arr(meterIds)}::bigint[]))
    RETURNING id`);
  return r.rows.length;
}

export interface WarningFilter {
  kind?: string[];
  status?: number;
  meterKind?: number;
  keyword?: string;
  searchArea?: number;
  start?: Date;
  end?: Date;
}

const warningCols = sql`w.id, w.company_id, w.meter_id, w.collector_id, w.area_id, w.kind, w.detail, w.status, w.handled_by,
  w.handled_at, w.handle_memo, w.created_at, w.last_seen_at, m.name AS meter_name, m.address, m.kind AS meter_kind,
  m.valve_state, m.online AS meter_online, c.name AS collector_name, c.imei AS collector_imei, a.name AS area_name,
  r.name AS room_name, u.real_name AS handled_by_name`;

function warningWhere(f: WarningFilter): SQL {
  const w: SQL[] = [];
  if (f.kind?.length) w.push(sql`w.kind = ANY(${arr(f.kind)}::varchar[])`);
  if (f.status !== undefined) w.push(sql`w.status = ${f.status}`);
  if (f.meterKind !== undefined) w.push(sql`m.kind = ${f.meterKind}`);
  if (f.keyword) w.push(sql`(m.name ILIKE ${like(f.keyword)} OR m.address ILIKE ${like(f.keyword)} OR c.name ILIKE ${like(f.keyword)} OR c.imei ILIKE ${like(f.keyword)} OR r.name ILIKE ${like(f.keyword)})`);
  if (f.searchArea) w.push(sql`w.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.start) w.push(sql`w.created_at >= ${f.start.toISOString()}`);
  if (f.end) w.push(sql`w.created_at < ${f.end.toISOString()}`);
  return and(w);
}

function toWarning(x: Record<string, unknown>) {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    meterId: num(x.meter_id),
    collectorId: num(x.collector_id),
    areaId: num(x.area_id),
    kind: String(x.kind),
    detail: x.detail as Record<string, unknown>,
    status: Number(x.status),
    handledBy: num(x.handled_by),
    handledByName: (x.handled_by_name as string | null) ?? '',
    handledAt: dn(x.handled_at),
    handleMemo: String(x.handle_memo),
    createdAt: d(x.created_at),
    lastSeenAt: d(x.last_seen_at),
    meterName: (x.meter_name as string | null) ?? '',
    address: (x.address as string | null) ?? '',
    meterKind: num(x.meter_kind),
    valveState: num(x.valve_state),
    meterOnline: x.meter_online as boolean | null,
    collectorName: (x.collector_name as string | null) ?? '',
    collectorImei: (x.collector_imei as string | null) ?? '',
    areaName: (x.area_name as string | null) ?? '',
    roomName: (x.room_name as string | null) ?? '',
  };
}
export type WarningView = ReturnType<typeof toWarning>;

export async function listWarnings(tx: Tx, f: WarningFilter, limit: number, offset: number) {
  const r = await tx.execute(sql`
    SELECT ${warningCols}, count(*) OVER () AS total_count
    FROM device_warnings w
    LEFT JOIN meters m ON m.id = w.meter_id
    LEFT JOIN collectors c ON c.id = w.collector_id
    LEFT JOIN areas a ON a.id = w.area_id
    LEFT JOIN rooms r ON r.id = m.room_id
    LEFT JOIN admin_users u ON u.id = w.handled_by
    WHERE ${warningWhere(f)}
    ORDER BY w.status, w.last_seen_at DESC, w.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, toWarning);
}

/** Marks warnings handled by a person; returns the ids changed (already handled ones are left alone). */
export async function dealWarnings(tx: Tx, ids: number[], userId: number, memo: string) {
  const r = await tx.execute(sql`
    UPDATE device_warnings SET status = 1, handled_by = ${userId}, handled_at = now(), handle_memo = ${memo}
    WHERE id = ANY(${arr(ids)}::bigint[]) AND status = 0 RETURNING id, company_id, meter_id, kind`);
  return r.rows.map((x) => ({ id: Number(x.id), companyId: Number(x.company_id), meterId: num(x.meter_id), kind: String(x.kind) }));
}

export async function warningIdsVisible(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`SELECT id FROM device_warnings WHERE id = ANY(${arr(ids)}::bigint[])`);
  return r.rows.map((x) => Number(x.id));
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

export interface CommandRow {
  id: number;
  companyId: number;
  meterId: number | null;
  collectorId: number | null;
  kind: CommandKind;
  payload: Record<string, unknown>;
  status: CommandStatus;
  attempts: number;
  maxAttempts: number;
  expiresAt: Date;
  nextAttemptAt: Date;
  requestedBy: number | null;
  requesterName: string;
  origin: number;
  memo: string;
  overrideReason: string;
  reply: Record<string, unknown> | null;
  error: string;
  readTaskId: number | null;
  createdAt: Date;
  sentAt: Date | null;
  finishedAt: Date | null;
}

function toCommand(x: Record<string, unknown>): CommandRow {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    meterId: num(x.meter_id),
    collectorId: num(x.collector_id),
    kind: x.kind as CommandKind,
    payload: (x.payload ?? {}) as Record<string, unknown>,
    status: x.status as CommandStatus,
    attempts: Number(x.attempts),
    maxAttempts: Number(x.max_attempts),
    expiresAt: d(x.expires_at),
    nextAttemptAt: d(x.next_attempt_at),
    requestedBy: num(x.requested_by),
    requesterName: String(x.requester_name ?? ''),
    origin: Number(x.origin),
    memo: String(x.memo ?? ''),
    overrideReason: String(x.override_reason ?? ''),
    reply: (x.reply ?? null) as Record<string, unknown> | null,
    error: String(x.error ?? ''),
    readTaskId: num(x.read_task_id),
    createdAt: d(x.created_at),
    sentAt: dn(x.sent_at),
    finishedAt: dn(x.finished_at),
  };
}

export interface NewCommand {
  companyId: number;
  meterId: number;
  collectorId: number | null;
  kind: CommandKind;
  payload: Record<string, unknown>;
  expiresAt: Date;
  maxAttempts: number;
  requestedBy: number | null;
  requesterName: string;
  origin: number;
  memo: string;
  overrideReason: string;
  readTaskId?: number | null;
}

/** Queues a command unless one of the same kind is pending for the meter (then returns undefined). */
export async function insertCommand(tx: Tx, c: NewCommand): Promise<CommandRow | undefined> {
  const r = await tx.execute(sql`
    INSERT INTO commands (company_id, meter_id, collector_id, kind, payload, expires_at, max_attempts, requested_by,
      requester_name, origin, memo, override_reason, read_task_id)
    VALUES (${c.companyId}, ${c.meterId}, ${c.collectorId}, ${c.kind}, ${JSON.stringify(c.payload)}::jsonb,
      ${c.expiresAt.toISOString()}, ${c.maxAttempts}, ${c.requestedBy}, ${c.requesterName}, ${c.origin}, ${c.memo},
      ${c.overrideReason}, ${c.readTaskId ?? null})
    ON CONFLICT (meter_id, kind) WHERE status IN ('queued', 'sent') DO NOTHING
    RETURNING *`);
  return r.rows[0] ? toCommand(r.rows[0]) : undefined;
}

export async function pendingCommand(tx: Tx, meterId: number, kind: CommandKind) {
  const r = await tx.execute(sql`SELECT * FROM commands WHERE meter_id = ${meterId} AND kind = ${kind} AND status IN ('queued', 'sent')`);
  return r.rows[0] ? toCommand(r.rows[0]) : undefined;
}

/** A queued (not yet sent) command of the opposite kind is superseded by a newer request. */
export async function supersedeQueued(tx: Tx, meterId: number, kind: CommandKind, reason: string) {
  const r = await tx.execute(sql`
    UPDATE commands SET status = 'expired', error = ${reason}, finished_at = now()
    WHERE meter_id = ${meterId} AND kind = ${kind} AND status = 'queued' RETURNING *`);
  return r.rows.map(toCommand);
}

export async function getCommand(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT * FROM commands WHERE id = ${id}`);
  return r.rows[0] ? toCommand(r.rows[0]) : undefined;
}

export async function getCommands(tx: Tx, ids: number[]) {
  if (!ids.length) return [];
  const r = await tx.execute(sql`SELECT * FROM commands WHERE id = ANY(${arr(ids)}::bigint[])`);
  return r.rows.map(toCommand);
}

/**
 * Claims up to `limit` due commands for execution (queued → sent, one attempt more): at most one
 * command per meter at a time, people's commands before scheduled reads. Claims are serialised
 * by an advisory lock so two workers never start two commands of one meter together.
 */
export async function claimCommands(tx: Tx, limit: number, worker: number | null = null): Promise<CommandRow[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(724100)`);
  const r = await tx.execute(sql`
    WITH candidates AS (
      SELECT DISTINCT ON (q.meter_id) q.id, q.origin, q.next_attempt_at FROM commands q
      WHERE q.status = 'queued' AND q.next_attempt_at <= now() AND q.expires_at > now()
        AND NOT EXISTS (SELECT 1 FROM commands s WHERE s.meter_id = q.meter_id AND s.status = 'sent')
      ORDER BY q.meter_id, q.id),
    picked AS (
      SELECT c.id FROM commands c JOIN candidates k ON k.id = c.id
      WHERE c.status = 'queued'
      ORDER BY (k.origin = 4), k.next_attempt_at, c.id
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED)
    UPDATE commands c SET status = 'sent', attempts = c.attempts + 1, sent_at = now(), claimed_by = ${worker}, orphan_at = NULL
    FROM picked WHERE c.id = picked.id
    RETURNING c.*`);
  return r.rows.map(toCommand);
}

/**
 * Ends an attempt: a final status, or back to the queue for another try. Only from 'sent', and only
 * the attempt given (`attempt`): a worker whose attempt was recovered and claimed again by another
 * cannot overwrite the newer attempt's outcome.
 */
export async function finishAttempt(
  tx: Tx,
  id: number,
  t: { status: CommandStatus; reply?: Record<string, unknown> | null; error?: string; nextAttemptAt?: Date; attempt?: number },
): Promise<CommandRow | undefined> {
  const final = t.status !== 'queued';
  const r = await tx.execute(sql`
    UPDATE commands SET status = ${t.status}, reply = coalesce(${t.reply ? JSON.stringify(t.reply) : null}::jsonb, reply),
      error = ${t.error ?? ''}, finished_at = ${final ? sql`now()` : sql`NULL`},
      next_attempt_at = ${t.nextAttemptAt ? t.nextAttemptAt.toISOString() : sql`next_attempt_at`}
    WHERE id = ${id} AND status = 'sent' ${t.attempt !== undefined ? sql`AND attempts = ${t.attempt}` : sql``} RETURNING *`);
  return r.rows[0] ? toCommand(r.rows[0]) : undefined;
}

/**
 * What the gateway saw of a frame whose worker was gone (the device's reply, or its silence), kept
 * on the command (reply.gateway, a list) for the attempt that recovers it and for people reading it.
 */
export async function recordGatewayOutcome(tx: Tx, id: number, seen: Record<string, unknown>) {
  await tx.execute(sql`
    UPDATE commands SET reply = jsonb_set(coalesce(reply, '{}'::jsonb), '{gateway}',
      coalesce(reply->'gateway', '[]'::jsonb) || jsonb_build_array(${JSON.stringify(seen)}::jsonb))
    WHERE id = ${id}`);
}

/** Kinds whose attempt changes the device: a recovered one reads the device back before acting again. */
const ACTUATING = sql`('open', 'close', 'protect_on', 'protect_off')`;

/**
 * The recovery of attempts whose worker is gone or stuck: never a guess. An attempt that may be
 * retried goes back to the queue (the executor reads the state before it actuates); an actuating
 * one that may not is queued once more as verifyOnly (read back, record what the device says, send
 * nothing); anything else times out.
 */
const RECOVER = (reason: string) => sql`
  status = CASE WHEN attempts < max_attempts AND expires_at > now() THEN 'queued'
    WHEN kind IN ${ACTUATING} THEN 'queued' ELSE 'timed_out' END,
  payload = CASE WHEN (attempts >= max_attempts OR expires_at <= now()) AND kind IN ${ACTUATING}
    THEN payload || '{"verifyOnly": true}'::jsonb ELSE payload END,
  max_attempts = CASE WHEN (attempts >= max_attempts OR expires_at <= now()) AND kind IN ${ACTUATING}
    THEN attempts + 1 ELSE max_attempts END,
  expires_at = CASE WHEN (attempts >= max_attempts OR expires_at <= now()) AND kind IN ${ACTUATING}
    THEN greatest(expires_at, now() + interval '5 minutes') ELSE expires_at END,
  finished_at = CASE WHEN (attempts >= max_attempts OR expires_at <= now()) AND kind NOT IN ${ACTUATING} THEN now() END,
  error = ${reason}, next_attempt_at = now(), orphan_at = NULL`;

/**
 * Attempts whose worker is gone: its lease (a session advisory lock) is free. Seen once, the
 * attempt is marked; still free `graceSeconds` later, it is recovered (a worker cut off from the
 * database for a moment takes its lease back first).
 */
export async function recoverOrphans(tx: Tx, leaseKey: number, graceSeconds: number) {
  // the live workers' keys, read once per statement (pg_locks is a function scan of the lock table)
  const held = sql`WITH held AS MATERIALIZED (SELECT l.objid::bigint AS k FROM pg_locks l WHERE l.locktype = 'advisory'
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.classid = ${leaseKey}::int::oid
    AND l.objsubid = 2 AND l.granted)`;
  await tx.execute(sql`${held} UPDATE commands c SET orphan_at = NULL
    WHERE c.status = 'sent' AND c.orphan_at IS NOT NULL AND c.claimed_by IN (SELECT k FROM held)`);
  await tx.execute(sql`${held} UPDATE commands c SET orphan_at = now()
    WHERE c.status = 'sent' AND c.claimed_by IS NOT NULL AND c.orphan_at IS NULL AND c.claimed_by NOT IN (SELECT k FROM held)`);
  const r = await tx.execute(sql`${held}
    UPDATE commands c SET ${RECOVER('执行中断（执行进程已退出），将先回读设备状态')}
    WHERE c.status = 'sent' AND c.orphan_at < now() - make_interval(secs => ${graceSeconds}) AND c.claimed_by NOT IN (SELECT k FROM held)
    RETURNING *`);
  return r.rows.map(toCommand);
}

/** Queued commands past their expiry. */
export async function expireDue(tx: Tx) {
  const r = await tx.execute(sql`
    UPDATE commands SET status = 'expired', finished_at = now(),
      error = CASE WHEN attempts = 0 THEN '指令已过期：有效期内未能下发' ELSE '指令已过期：有效期内未能执行成功' END
    WHERE status = 'queued' AND expires_at <= now() RETURNING *`);
  return r.rows.map(toCommand);
}

/** Commands left 'sent' far too long (a stuck worker, or one without a lease): recovered as above. */
export async function recoverStale(tx: Tx, olderThan: Date) {
  const r = await tx.execute(sql`
    UPDATE commands SET ${RECOVER('执行中断（服务重启或执行超时），将先回读设备状态')}
    WHERE status = 'sent' AND sent_at < ${olderThan.toISOString()} RETURNING *`);
  return r.rows.map(toCommand);
}

export interface CommandFilter {
  kind?: string[];
  status?: string[];
  meterId?: number;
  keyword?: string;
  origin?: number;
  searchArea?: number;
  start?: Date;
  end?: Date;
}

export async function listCommands(tx: Tx, f: CommandFilter, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.kind?.length) w.push(sql`c.kind = ANY(${arr(f.kind)}::varchar[])`);
  if (f.status?.length) w.push(sql`c.status = ANY(${arr(f.status)}::varchar[])`);
  if (f.meterId) w.push(sql`c.meter_id = ${f.meterId}`);
  if (f.origin) w.push(sql`c.origin = ${f.origin}`);
  if (f.keyword) w.push(sql`(m.name ILIKE ${like(f.keyword)} OR m.address ILIKE ${like(f.keyword)} OR r.name ILIKE ${like(f.keyword)} OR c.requester_name ILIKE ${like(f.keyword)})`);
  if (f.searchArea) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  if (f.start) w.push(sql`c.created_at >= ${f.start.toISOString()}`);
  if (f.end) w.push(sql`c.created_at < ${f.end.toISOString()}`);
  // the meter join also applies the caller's area scope (meters carry the area policy)
  const r = await tx.execute(sql`
    SELECT c.*, m.name AS meter_name, m.address, m.kind AS meter_kind, r.name AS room_name, a.name AS area_name,
      count(*) OVER () AS total_count
    FROM commands c JOIN meters m ON m.id = c.meter_id
    LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id
    WHERE ${and(w)} ORDER BY c.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    ...toCommand(x),
    meterName: String(x.meter_name ?? ''),
    address: String(x.address ?? ''),
    meterKind: num(x.meter_kind),
    roomName: String(x.room_name ?? ''),
    areaName: String(x.area_name ?? ''),
  }));
}

// ---------------------------------------------------------------------------------------------
// Meters as commands see them
// ---------------------------------------------------------------------------------------------

export interface ControlMeter {
  id: number;
  companyId: number;
  areaId: number | null;
  roomId: number | null;
  collectorId: number | null;
  collectorImei: string | null;
  name: string;
  kind: number;
  plan: number;
  address: string;
  imei: string;
  protocolId: number | null;
  phaseId: number | null;
  status: number;
  online: boolean;
  collectorOnline: boolean | null;
  valveState: number | null;
  noClose: { noCloseStart: string; noCloseEnd: string; noCloseWeekend: boolean } | null;
  protection: { id: number; kind: number; reason: string; startAt: Date; endAt: Date | null } | null;
}

const controlMeterSql = (where: SQL) => sql`
  SELECT m.id, m.company_id, m.area_id, m.room_id, m.collector_id, c.imei AS collector_imei, c.online AS collector_online,
    m.name, m.kind, m.plan, m.address, m.imei, m.protocol_id, m.phase_id, m.status, m.online, m.valve_state,
    s.no_close_start, s.no_close_end, s.no_close_weekend,
    p.id AS protection_id, p.kind AS protection_kind, p.reason AS protection_reason, p.start_at AS protection_start,
    p.end_at AS protection_end
  FROM meters m
  LEFT JOIN collectors c ON c.id = m.collector_id
  LEFT JOIN alarm_schemes s ON s.id = m.alarm_scheme_id AND s.status = 1
  LEFT JOIN protections p ON p.meter_id = m.id AND p.active AND p.start_at <= now() AND (p.end_at IS NULL OR p.end_at > now())
  WHERE ${where}`;

function toControlMeter(x: Record<string, unknown>): ControlMeter {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    areaId: num(x.area_id),
    roomId: num(x.room_id),
    collectorId: num(x.collector_id),
    collectorImei: (x.collector_imei as string | null) ?? null,
    name: String(x.name ?? ''),
    kind: Number(x.kind),
    plan: Number(x.plan),
    address: String(x.address),
    imei: String(x.imei ?? ''),
    protocolId: num(x.protocol_id),
    phaseId: num(x.phase_id),
    status: Number(x.status),
    online: x.online === true,
    collectorOnline: (x.collector_online ?? null) as boolean | null,
    valveState: num(x.valve_state),
    noClose:
      x.no_close_start != null
        ? { noCloseStart: String(x.no_close_start), noCloseEnd: String(x.no_close_end), noCloseWeekend: x.no_close_weekend === true }
        : null,
    protection:
      x.protection_id != null
        ? {
            id: Number(x.protection_id),
            kind: Number(x.protection_kind),
            reason: String(x.protection_reason ?? ''),
            startAt: d(x.protection_start),
            endAt: dn(x.protection_end),
          }
        : null,
  };
}

export async function controlMeters(tx: Tx, ids: number[]): Promise<ControlMeter[]> {
  if (!ids.length) return [];
  const r = await tx.execute(controlMeterSql(sql`m.id = ANY(${arr(ids)}::bigint[])`));
  return r.rows.map(toControlMeter);
}

// ---------------------------------------------------------------------------------------------
// Read tasks and scheduled reading
// ---------------------------------------------------------------------------------------------

export async function lastScheduledRound(tx: Tx): Promise<Date | null> {
  const r = await tx.execute(sql`SELECT max(started_at) AS t FROM read_tasks WHERE origin = 1`);
  return dn(r.rows[0]?.t);
}

export async function companiesWithMeters(tx: Tx): Promise<number[]> {
  const r = await tx.execute(sql`SELECT DISTINCT company_id FROM meters WHERE status = 1 ORDER BY company_id`);
  return r.rows.map((x) => Number(x.company_id));
}

export async function createReadTask(tx: Tx, companyId: number, origin: number, requestedBy: number | null) {
  const r = await tx.execute(sql`
    INSERT INTO read_tasks (company_id, origin, requested_by) VALUES (${companyId}, ${origin}, ${requestedBy}) RETURNING id`);
  return Number(r.rows[0].id);
}

/**
 * Queues a read for each reachable meter of a company (scheduled round), or for the given meters
 * (bulk on-demand). Meters with a read already pending are skipped. A meter whose clock was not
 * checked for a day gets a full read (clock included). Returns how many were queued.
 */
export async function queueReads(
  tx: Tx,
  t: {
    taskId: number; companyId: number; meterIds?: number[]; origin: number; source: number; expiresAt: Date; maxAttempts: number; requestedBy: number | null;
    requesterName: string; clockEveryHours: number;
    /** NB meters are reachable right after their own report: their reads wait for the next one (this interval unless the meter has its own) */
    nbReportMinutes?: number;
  },
) {
  // an NB meter's next report window: its last contact plus whole intervals, the first not yet past
  // (a meter heard from in the last 30 s is awake now); other meters: now
  const every = sql`make_interval(mins => ${reportMinutes(t.nbReportMinutes ?? 0)})`;
  const nextAt = t.nbReportMinutes
    ? sql`CASE WHEN ${isNb} AND ${reportMinutes(t.nbReportMinutes)} > 0 AND m.last_seen_at IS NOT NULL
        THEN greatest(now(), m.last_seen_at + ${every} * greatest(0, ceil(extract(epoch FROM now() - m.last_seen_at - interval '30 seconds') / extract(epoch FROM ${every}))) + interval '5 seconds')
        ELSE now() END`
    : sql`now()`;
  const which = t.meterIds
    ? sql`m.id = ANY(${arr(t.meterIds)}::bigint[])`
    : sql`(m.online OR EXISTS (SELECT 1 FROM collectors c WHERE c.id = m.collector_id AND c.online))`;
  const r = await tx.execute(sql`
    WITH ins AS (
      INSERT INTO commands (company_id, meter_id, collector_id, kind, payload, expires_at, next_attempt_at, max_attempts, requested_by,
        requester_name, origin, read_task_id)
      SELECT m.company_id, m.id, m.collector_id, 'read',
        jsonb_build_object('source', ${t.source}::int, 'full',
          coalesce((l.registers->>'clockAt')::timestamptz < now() - make_interval(hours => ${t.clockEveryHours}::int), true)),
        -- a read waiting for a report window stays worth doing until one interval past it
        ${t.nbReportMinutes ? sql`greatest(${t.expiresAt.toISOString()}::timestamptz, n.next_at + ${every})` : sql`${t.expiresAt.toISOString()}::timestamptz`}, n.next_at,
        ${t.maxAttempts}::int, ${t.requestedBy}::bigint, ${t.requesterName}::varchar, ${t.origin}::int, ${t.taskId}::bigint
      FROM meters m LEFT JOIN meter_latest l ON l.meter_id = m.id
      CROSS JOIN LATERAL (SELECT ${nextAt} AS next_at) n
      WHERE m.company_id = ${t.companyId} AND m.status = 1 AND ${which}
      ON CONFLICT (meter_id, kind) WHERE status IN ('queued', 'sent') DO NOTHING
      RETURNING id)
    UPDATE read_tasks SET total = (SELECT count(*) FROM ins),
      status = CASE WHEN (SELECT count(*) FROM ins) = 0 THEN 'done' ELSE 'running' END,
      finished_at = CASE WHEN (SELECT count(*) FROM ins) = 0 THEN now() END
    WHERE id = ${t.taskId} RETURNING total`);
  return Number(r.rows[0]?.total ?? 0);
}

/** Counts a finished read of a task; the task is done when every read is counted. */
export async function countTaskRead(tx: Tx, taskId: number, ok: boolean) {
  await tx.execute(sql`
    UPDATE read_tasks SET succeeded = succeeded + ${ok ? 1 : 0}, failed = failed + ${ok ? 0 : 1},
      status = CASE WHEN succeeded + failed + 1 >= total THEN 'done' ELSE status END,
      finished_at = CASE WHEN succeeded + failed + 1 >= total THEN now() ELSE finished_at END
    WHERE id = ${taskId}`);
}

export async function listReadTasks(tx: Tx, f: { origin?: number; start?: Date; end?: Date }, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.origin) w.push(sql`t.origin = ${f.origin}`);
  if (f.start) w.push(sql`t.started_at >= ${f.start.toISOString()}`);
  if (f.end) w.push(sql`t.started_at < ${f.end.toISOString()}`);
  const r = await tx.execute(sql`
    SELECT t.*, u.real_name AS requested_by_name, co.name AS company_name, count(*) OVER () AS total_count
    FROM read_tasks t LEFT JOIN admin_users u ON u.id = t.requested_by LEFT JOIN companies co ON co.id = t.company_id
    WHERE ${and(w)} ORDER BY t.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    id: Number(x.id),
    companyId: Number(x.company_id),
    companyName: String(x.company_name ?? ''),
    origin: Number(x.origin),
    total: Number(x.total),
    succeeded: Number(x.succeeded),
    failed: Number(x.failed),
    status: String(x.status),
    startedAt: d(x.started_at),
    finishedAt: dn(x.finished_at),
    requestedBy: num(x.requested_by),
    requestedByName: String(x.requested_by_name ?? ''),
  }));
}

// ---------------------------------------------------------------------------------------------
// Meter lists: failed reads, unread, no power, power report
// ---------------------------------------------------------------------------------------------

export interface MeterListFilter {
  keyword?: string;
  meterKind?: number;
  searchArea?: number;
}

function meterWhere(f: MeterListFilter): SQL[] {
  const w: SQL[] = [sql`m.status = 1`];
  if (f.meterKind !== undefined) w.push(sql`m.kind = ${f.meterKind}`);
  if (f.keyword) w.push(sql`(m.name ILIKE ${like(f.keyword)} OR m.address ILIKE ${like(f.keyword)} OR r.name ILIKE ${like(f.keyword)})`);
  if (f.searchArea) w.push(sql`m.area_id IN ${areaAndBelow(f.searchArea)}`);
  return w;
}

const meterListCols = sql`m.id, m.company_id, m.name, m.address, m.kind, m.plan, m.online, m.valve_state, m.last_seen_at,
  m.room_id, r.name AS room_name, m.area_id, a.name AS area_name, m.collector_id, c.name AS collector_name,
  c.online AS collector_online, l.read_at AS last_read_at, l.total AS last_total`;

const meterListJoins = sql`LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id
  LEFT JOIN collectors c ON c.id = m.collector_id LEFT JOIN meter_latest l ON l.meter_id = m.id`;

function toMeterListRow(x: Record<string, unknown>) {
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
  const w = [...meterWhere(f), sql`g.read_at >= ${f.start.toISOString()}`, sql`g.read_at < ${f.end.toISOString()}`,
    sql`(g.registers ? 'activePower' OR g.registers ? 'voltageA' OR g.registers ? 'currentA')`];
  if (f.meterId) w.push(sql`g.meter_id = ${f.meterId}`);
  const r = await tx.execute(sql`
    SELECT g.meter_id, g.read_at, g.total, g.registers, g.source, m.name, m.address, r.name AS room_name, a.name AS area_name,
      count(*) OVER () AS total_count
    FROM readings g JOIN meters m ON m.id = g.meter_id
    LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id
    WHERE ${and(w)} ORDER BY g.read_at DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => {
    const reg = (x.registers ?? {}) as Record<string, unknown>;
    return {
      meterId: Number(x.meter_id),
      meterName: String(x.name ?? ''),
      address: String(x.address),
      roomName: String(x.room_name ?? ''),
      areaName: String(x.area_name ?? ''),
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
  if (f.start) w.push(sql`g.read_at >= ${f.start.toISOString()}`);
  if (f.end) w.push(sql`g.read_at < ${f.end.toISOString()}`);
  const r = await tx.execute(sql`
    SELECT g.id, g.meter_id, g.read_at, g.received_at, g.source, g.total, g.registers, g.exception, g.command_id,
      g.operator_id, u.real_name AS operator_name, m.name, m.address, m.kind, r.name AS room_name, a.name AS area_name,
      count(*) OVER () AS total_count
    FROM readings g JOIN meters m ON m.id = g.meter_id
    LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id LEFT JOIN admin_users u ON u.id = g.operator_id
    WHERE ${and(w)} ORDER BY g.read_at DESC, g.meter_id LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    id: Number(x.id),
    meterId: Number(x.meter_id),
    meterName: String(x.name ?? ''),
    address: String(x.address),
    meterKind: Number(x.kind),
    roomName: String(x.room_name ?? ''),
    areaName: String(x.area_name ?? ''),
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
  if (f.start) w.push(sql`d.created_at >= ${f.start.toISOString()}`);
  if (f.end) w.push(sql`d.created_at < ${f.end.toISOString()}`);
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

// ---------------------------------------------------------------------------------------------
// Housekeeping (worker jobs, system scope)
// ---------------------------------------------------------------------------------------------

/** NB meters (SPEC §3 plans) in SQL: `m` is the meters row. */
const isNb = sql`((m.kind = 1 AND m.plan = ANY(${intArr(ELECTRIC_PLAN_KINDS.nb)}::int[])) OR (m.kind = 2 AND m.plan = ANY(${intArr(WATER_PLAN_KINDS.nb)}::int[])))`;

/**
 * Minutes between a meter's own reports, in SQL: its own setting, else for NB meters the configured
 * NB interval, else 0 (its connection's heartbeat decides).
 */
const reportMinutes = (nbMinutes: number) =>
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

export async function ensurePartitions(tx: Tx, monthsAhead: number) {
  const r = await tx.execute(sql`SELECT ensure_reading_partitions(date_trunc('month', now())::date, ${monthsAhead}) AS made`);
  return Number(r.rows[0].made);
}

export async function pruneOld(tx: Tx, reportsBefore: Date, readCommandsBefore: Date) {
  const a = await tx.execute(sql`DELETE FROM device_reports WHERE created_at < ${reportsBefore.toISOString()}`);
  const b = await tx.execute(sql`
    DELETE FROM commands WHERE kind = 'read' AND origin = 4 AND status IN ('succeeded', 'failed', 'timed_out', 'expired')
      AND created_at < ${readCommandsBefore.toISOString()}`);
  return { reports: a.rowCount ?? 0, commands: b.rowCount ?? 0 };
}

/** Whether switching this meter (or any of these meters) off asks the valve-control password (SPEC §4: phaseId 1). */
export async function asksValvePassword(tx: Tx, meterIds: number | number[]) {
  const ids = Array.isArray(meterIds) ? meterIds : [meterIds];
  if (!ids.length) return false;
  const r = await tx.execute<{ ask: boolean }>(sql`SELECT bool_or(phase_id = 1) AS ask FROM meters WHERE id = ANY(${arr(ids)}::bigint[])`);
  return r.rows[0]?.ask === true;
}
