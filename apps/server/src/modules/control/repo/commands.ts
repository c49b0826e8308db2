// Commands and their lifecycle (queue, claim, attempts, recovery, expiry), and meters as commands see them. Control owns the commands table: other modules go through these functions.
import { sql, type SQL } from 'drizzle-orm';
import { executePrepared, type Tx } from '../../../db/client.ts';
import { inPeriod } from '../../../db/where.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import type { CommandKind, CommandStatus } from '../rules.ts';
import { and, arr, d, dn, like, meterPlaceCols, meterPlaceJoins, meterPlaceOf, num, paged } from './sql.ts';

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
 * Commands of one collector in flight at once: its channel sends one frame at a time, so more only
 * wait in the gateway's queue; two keep the channel busy while the other's results are written.
 */
export const PER_COLLECTOR = 2;

/** A queued command that may start now: due, not expired, its meter has none in flight nor an older one due. */
const STARTABLE = sql`q.status = 'queued' AND q.next_attempt_at <= now() AND q.expires_at > now()
  AND NOT EXISTS (SELECT 1 FROM commands s WHERE s.meter_id = q.meter_id AND s.status IN ('queued', 'sent')
    AND (s.status = 'sent' OR (s.id < q.id AND s.next_attempt_at <= now() AND s.expires_at > now())))`;

/**
 * Claims up to `limit` due commands for execution (queued → sent, one attempt more): at most one
 * command per meter at a time and at most PER_COLLECTOR per collector (so a bulk run spreads over
 * every collector instead of queueing behind a few), people's commands before scheduled reads, then
 * round-robin over collectors. Only the collectors with a free slot are looked at: the collectors with
 * queued commands are found by a skip scan of commands_queued_collector (one probe each), and each
 * free one's next commands read from it in claim order, so a claim with thousands queued reads tens of
 * rows, not all of them. Claims are serialised by an advisory lock so two workers never start two
 * commands of one meter together.
 */
export async function claimCommands(tx: Tx, limit: number, worker: number | null = null): Promise<CommandRow[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(724100)`);
  const r = await executePrepared(tx, sql`
    WITH RECURSIVE queued_at AS (
      (SELECT collector_id FROM commands WHERE status = 'queued' AND collector_id IS NOT NULL ORDER BY collector_id LIMIT 1)
      UNION ALL
      SELECT (SELECT c.collector_id FROM commands c WHERE c.status = 'queued' AND c.collector_id > r.collector_id ORDER BY c.collector_id LIMIT 1)
      FROM queued_at r WHERE r.collector_id IS NOT NULL),
    busy AS MATERIALIZED (
      SELECT collector_id, count(*)::int AS n FROM commands WHERE status = 'sent' AND collector_id IS NOT NULL GROUP BY collector_id),
    free AS MATERIALIZED (
      SELECT q.collector_id, coalesce(b.n, 0) AS n FROM queued_at q LEFT JOIN busy b ON b.collector_id = q.collector_id
      WHERE q.collector_id IS NOT NULL AND coalesce(b.n, 0) < ${PER_COLLECTOR}::int),
    ranked AS MATERIALIZED (
      SELECT q.id, q.origin, q.next_attempt_at, k.n + row_number() OVER (PARTITION BY k.collector_id ORDER BY (q.origin = 4), q.next_attempt_at, q.id) AS slot
      FROM free k CROSS JOIN LATERAL (
        SELECT q.id, q.origin, q.next_attempt_at FROM commands q WHERE q.collector_id = k.collector_id AND ${STARTABLE}
        ORDER BY (q.origin = 4), q.next_attempt_at, q.id LIMIT ${PER_COLLECTOR}::int) q
      UNION ALL
      (SELECT q.id, q.origin, q.next_attempt_at, 1 FROM commands q WHERE q.collector_id IS NULL AND ${STARTABLE}
        ORDER BY (q.origin = 4), q.next_attempt_at, q.id LIMIT ${limit}::int)),
    picked AS (
      SELECT c.id FROM commands c JOIN ranked k ON k.id = c.id
      WHERE c.status = 'queued' AND k.slot <= ${PER_COLLECTOR}::int
      ORDER BY (k.origin = 4), k.slot, k.next_attempt_at, c.id
      LIMIT ${limit}::int
      FOR UPDATE OF c SKIP LOCKED)
    UPDATE commands c SET status = 'sent', attempts = c.attempts + 1, sent_at = now(), claimed_by = ${worker}::int, orphan_at = NULL
    FROM picked WHERE c.id = picked.id
    RETURNING c.*`);
  return r.rows.map(toCommand);
}

/** The end of one attempt: a final status, or back to the queue for another try (see finishAttempts). */
export interface AttemptResult {
  id: number;
  /** the attempt that ended (commands.attempts when it was claimed) */
  attempt: number;
  status: CommandStatus;
  reply: Record<string, unknown> | null;
  error: string;
  nextAttemptAt?: Date;
  /** the relay/valve state read back from the command's meter during the attempt, recorded on the meter */
  valve?: { meterId: number; state: number };
}

/**
 * Ends attempts in one statement: each only from 'sent', and only the attempt given, so a worker whose
 * attempt was recovered and claimed again by another cannot overwrite the newer attempt's outcome. The
 * relay/valve states read back are recorded on their meters in the same statement (a state is a fact
 * of the device: recorded whether or not the attempt was still this worker's). Returns each command
 * whose attempt it ended, with the area of its device (its meter's, else its collector's).
 */
export async function finishAttempts(tx: Tx, results: AttemptResult[]): Promise<{ row: CommandRow; areaId: number | null }[]> {
  if (!results.length) return [];
  const doc = JSON.stringify(
    results.map((t) => ({
      id: t.id,
      attempt: t.attempt,
      status: t.status,
      reply: t.reply,
      error: t.error,
      next: t.nextAttemptAt?.toISOString() ?? null,
      meter: t.valve?.meterId ?? null,
      valve: t.valve?.state ?? null,
    })),
  );
  // one state a meter (the last attempt's, should two of its attempts end together)
  const r = await tx.execute(sql`
    WITH v AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${doc}::jsonb)
        AS x(id bigint, attempt int, status text, reply jsonb, error text, next timestamptz, meter bigint, valve int)),
    valves AS (
      UPDATE meters m SET valve_state = s.valve, online = true, last_seen_at = now()
      FROM (SELECT DISTINCT ON (meter) meter, valve FROM v WHERE meter IS NOT NULL ORDER BY meter, id DESC) s
      WHERE m.id = s.meter)
    UPDATE commands c SET status = v.status, reply = coalesce(v.reply, c.reply), error = v.error,
      finished_at = CASE WHEN v.status <> 'queued' THEN now() END,
      next_attempt_at = coalesce(v.next, c.next_attempt_at)
    FROM v WHERE c.id = v.id AND c.status = 'sent' AND c.attempts = v.attempt
    RETURNING c.*, CASE WHEN c.meter_id IS NOT NULL THEN (SELECT area_id FROM meters WHERE id = c.meter_id)
      ELSE (SELECT area_id FROM collectors WHERE id = c.collector_id) END AS device_area_id`);
  return r.rows.map((x) => ({ row: toCommand(x), areaId: num(x.device_area_id) }));
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
  inPeriod(w, 'c.created_at', { from: f.start, to: f.end });
  // the meter join also applies the caller's area scope (meters carry the area policy)
  const r = await tx.execute(sql`
    SELECT c.*, ${meterPlaceCols}, m.kind AS meter_kind, count(*) OVER () AS total_count
    FROM commands c JOIN meters m ON m.id = c.meter_id ${meterPlaceJoins}
    WHERE ${and(w)} ORDER BY c.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return paged(r.rows, (x) => ({
    ...toCommand(x),
    ...meterPlaceOf(x),
    meterKind: num(x.meter_kind),
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

/** A timed valve command that was not carried out (metering's timed controls). */
export interface UnrunCommand {
  companyId: number;
  meterId: number;
  kind: string;
  status: 'failed' | 'expired';
  error: string;
  timedControlId: number;
  requestedBy: number | null;
  requesterName: string;
  memo: string;
}

/**
 * Records a timed valve command that was not carried out (refused by a rule, or its time was
 * missed) as a finished command, so the valve-control log shows why nothing happened.
 */
export async function insertUnrunCommand(tx: Tx, c: UnrunCommand) {
  const r = await tx.execute(sql`
    INSERT INTO commands (company_id, meter_id, kind, payload, status, attempts, expires_at, requested_by, requester_name, origin, memo, error, finished_at)
    VALUES (${c.companyId}, ${c.meterId}, ${c.kind}, ${JSON.stringify({ timedControlId: c.timedControlId })}::jsonb, ${c.status}, 0, now(),
      ${c.requestedBy}, ${c.requesterName}, 3, ${c.memo}, ${c.error}, now())
    RETURNING id`);
  return Number(r.rows[0].id);
}

/** Whether switching this meter (or any of these meters) off asks the valve-control password (SPEC §4: phaseId 1). */
export async function asksValvePassword(tx: Tx, meterIds: number | number[]) {
  const ids = Array.isArray(meterIds) ? meterIds : [meterIds];
  if (!ids.length) return false;
  const r = await tx.execute<{ ask: boolean }>(sql`SELECT bool_or(phase_id = 1) AS ask FROM meters WHERE id = ANY(${arr(ids)}::bigint[])`);
  return r.rows[0]?.ask === true;
}
