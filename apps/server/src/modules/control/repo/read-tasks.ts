// Read tasks and scheduled reading.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { inPeriod } from '../../../db/where.ts';
import { isNb, reportMinutes } from './housekeeping.ts';
import { and, arr, d, dn, num, paged } from './sql.ts';

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

/**
 * Queues a close (拉闸/关阀) for each given meter as one task (origin 3, 批量拉闸/关阀), in one statement:
 * a queued open of the same meter is superseded; a meter with a close already pending keeps it (joined,
 * never a second close); the task counts only the closes queued here. Returns the ids queued.
 */
export async function queueCloses(
  tx: Tx,
  t: {
    taskId: number; meterIds: number[]; expiresAt: Date; maxAttempts: number; requestedBy: number | null; requesterName: string; origin: number;
    memo: string; overrideReason: string; supersededBy: string;
  },
): Promise<number[]> {
  const r = await tx.execute(sql`
    WITH sup AS (
      UPDATE commands SET status = 'expired', error = ${t.supersededBy}, finished_at = now()
      WHERE meter_id = ANY(${arr(t.meterIds)}::bigint[]) AND kind = 'open' AND status = 'queued'
      RETURNING id),
    ins AS (
      INSERT INTO commands (company_id, meter_id, collector_id, kind, payload, expires_at, max_attempts, requested_by,
        requester_name, origin, memo, override_reason, read_task_id)
      SELECT m.company_id, m.id, m.collector_id, 'close', '{}'::jsonb, ${t.expiresAt.toISOString()}::timestamptz, ${t.maxAttempts}::int,
        ${t.requestedBy}::bigint, ${t.requesterName}::varchar, ${t.origin}::int, ${t.memo}::text, ${t.overrideReason}::text, ${t.taskId}::bigint
      FROM meters m WHERE m.id = ANY(${arr(t.meterIds)}::bigint[])
      ORDER BY m.id
      ON CONFLICT (meter_id, kind) WHERE status IN ('queued', 'sent') DO NOTHING
      RETURNING meter_id),
    task AS (
      UPDATE read_tasks SET total = (SELECT count(*) FROM ins),
        status = CASE WHEN (SELECT count(*) FROM ins) = 0 THEN 'done' ELSE 'running' END,
        finished_at = CASE WHEN (SELECT count(*) FROM ins) = 0 THEN now() END
      WHERE id = ${t.taskId})
    SELECT meter_id FROM ins`);
  return r.rows.map((x) => Number(x.meter_id));
}

/**
 * Brings tasks' counts up to date from their commands (succeeded; failed, timed out or expired), and
 * marks a task done when every command it queued is final. Idempotent: any worker may recount any task
 * at any time (the commands are the truth), so no increment is lost to a crash and finishing commands do
 * not queue on the task's row one by one. ids null: every running task.
 */
export async function recountTasks(tx: Tx, ids: number[] | null) {
  if (ids && !ids.length) return;
  const which = ids ? sql`t.id = ANY(${arr(ids)}::bigint[])` : sql`true`;
  // rows locked in id order first: a worker's recount and housekeeping's may cover the same tasks at
  // once, and an UPDATE … FROM locks them in whatever order its join yields (a deadlock otherwise)
  await tx.execute(sql`SELECT t.id FROM read_tasks t WHERE t.status = 'running' AND ${which} ORDER BY t.id FOR UPDATE`);
  await tx.execute(sql`
    UPDATE read_tasks t SET succeeded = x.ok, failed = x.bad,
      status = CASE WHEN x.ok + x.bad >= t.total THEN 'done' ELSE 'running' END,
      finished_at = CASE WHEN x.ok + x.bad >= t.total THEN now() END
    FROM (
      SELECT t.id, count(c.id) FILTER (WHERE c.status = 'succeeded')::int AS ok,
        count(c.id) FILTER (WHERE c.status IN ('failed', 'timed_out', 'expired'))::int AS bad
      FROM read_tasks t LEFT JOIN commands c ON c.read_task_id = t.id
      WHERE t.status = 'running' AND ${which} GROUP BY t.id) x
    WHERE t.id = x.id AND (t.succeeded, t.failed) IS DISTINCT FROM (x.ok, x.bad)`);
}

export async function listReadTasks(tx: Tx, f: { id?: number; origin?: number; start?: Date; end?: Date }, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.id) w.push(sql`t.id = ${f.id}`);
  if (f.origin) w.push(sql`t.origin = ${f.origin}`);
  inPeriod(w, 't.started_at', { from: f.start, to: f.end });
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
