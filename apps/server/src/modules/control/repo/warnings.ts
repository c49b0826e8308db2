// Warnings: opening, resolving, listing and handling them.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { inPeriod } from '../../../db/where.ts';
import { areaAndBelow } from '../../../db/crud-repo.ts';
import { and, arr, d, dn, like, num, paged } from './sql.ts';

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
    .map(warningHead);
}

/**
 * Meters among these whose last `n` reads all failed (timed out, failed or expired): a read_fail
 * warning each, with the whole streak since their last good read. Walks each meter's newest commands
 * (commands_meter_created).
 */
export async function readFailStreaks(tx: Tx, meterIds: number[], n: number): Promise<WarningRow[]> {
  if (!meterIds.length) return [];
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.area_id, s.fails, s.last_fail_at, s.last_error
    FROM meters m CROSS JOIN LATERAL (
      SELECT count(*) AS fails, max(c.finished_at) AS last_fail_at, (array_agg(c.error ORDER BY c.created_at DESC))[1] AS last_error
      FROM commands c
      WHERE c.meter_id = m.id AND c.kind = 'read' AND c.status IN ('failed', 'timed_out', 'expired')
        AND c.created_at > coalesce((SELECT g.created_at FROM commands g WHERE g.meter_id = m.id AND g.kind = 'read' AND g.status = 'succeeded'
                                     ORDER BY g.created_at DESC LIMIT 1), '-infinity')) s
    WHERE m.id = ANY(${arr(meterIds)}::bigint[]) AND s.fails >= ${n}`);
  return r.rows.map((x) => ({
    companyId: Number(x.company_id),
    meterId: Number(x.id),
    collectorId: null,
    areaId: num(x.area_id),
    kind: 'read_fail',
    detail: { fails: Number(x.fails), lastFailAt: x.last_fail_at ?? null, lastError: String(x.last_error ?? '') },
  }));
}

/** Closes open warnings the system itself saw resolved (device back online, clock synced, read again). */
export async function resolveWarnings(tx: Tx, t: { meterId?: number; meterIds?: number[]; collectorId?: number; kinds: string[]; memo: string }) {
  const w: SQL[] = [sql`status = 0`, sql`kind = ANY(${arr(t.kinds)}::varchar[])`];
  if (t.meterId !== undefined) w.push(sql`meter_id = ${t.meterId}`);
  // as device_warnings_one_open has it, so a batch of meters finds their open warnings by that index
  if (t.meterIds !== undefined) w.push(sql`coalesce(meter_id, 0) = ANY(${arr(t.meterIds)}::bigint[])`);
  if (t.collectorId !== undefined) w.push(sql`collector_id = ${t.collectorId}`);
  const r = await tx.execute(sql`
    UPDATE device_warnings SET status = 1, handled_at = now(), handle_memo = ${t.memo}
    WHERE ${and(w)} RETURNING meter_id`);
  return r.rows.map((x) => num(x.meter_id));
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
  inPeriod(w, 'w.created_at', { from: f.start, to: f.end });
  return and(w);
}

/** A warning's identity: what it is about and what it says. */
function warningHead(x: Record<string, unknown>) {
  return {
    id: Number(x.id),
    companyId: Number(x.company_id),
    meterId: num(x.meter_id),
    collectorId: num(x.collector_id),
    areaId: num(x.area_id),
    kind: String(x.kind),
    detail: x.detail as Record<string, unknown>,
  };
}

function toWarning(x: Record<string, unknown>) {
  return {
    ...warningHead(x),
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
    WHERE id = ANY(${arr(ids)}::bigint[]) AND status = 0 RETURNING id, company_id, meter_id, collector_id, kind`);
  return r.rows.map((x) => ({ id: Number(x.id), companyId: Number(x.company_id), meterId: num(x.meter_id), collectorId: num(x.collector_id), kind: String(x.kind) }));
}

export async function warningIdsVisible(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`SELECT id FROM device_warnings WHERE id = ANY(${arr(ids)}::bigint[])`);
  return r.rows.map((x) => Number(x.id));
}
