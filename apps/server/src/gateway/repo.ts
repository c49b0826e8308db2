import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

// The gateway's SQL: who a connecting device is, online/offline and last-seen, the raw frame log.
// Runs in the system scope (devices are not users); every row written carries the device's company.

const arr = (v: unknown[]) => sql.param(v);

export interface RegisteredDevice {
  type: 'collector' | 'meter';
  id: number;
  companyId: number;
  areaId: number | null;
  name: string;
  /** a collector's registration secret ('' for a 4G meter: its secret derives from the server secret) */
  secret: string;
}

/** The collector, or else the 4G meter, that owns each IMEI (IMEIs nobody owns are absent). */
export async function findByImeis(tx: Tx, imeis: string[]): Promise<Map<string, RegisteredDevice>> {
  if (!imeis.length) return new Map();
  const r = await tx.execute(sql`
    SELECT 'collector' AS type, id, company_id, area_id, name, imei, reg_secret FROM collectors WHERE imei = ANY(${arr(imeis)}::text[])
    UNION ALL
    SELECT 'meter', id, company_id, area_id, name, imei, '' FROM meters WHERE imei = ANY(${arr(imeis)}::text[]) AND imei <> '' AND status <> 2`);
  const out = new Map<string, RegisteredDevice>();
  for (const row of r.rows) {
    const imei = String(row.imei);
    if (out.get(imei)?.type === 'collector') continue; // a collector wins over a meter with the same IMEI
    out.set(imei, {
      type: row.type as 'collector' | 'meter',
      id: Number(row.id),
      companyId: Number(row.company_id),
      areaId: row.area_id == null ? null : Number(row.area_id),
      name: String(row.name),
      secret: String(row.reg_secret ?? ''),
    });
  }
  return out;
}

export interface MeterRef {
  id: number;
  companyId: number;
  areaId: number | null;
  roomId: number | null;
  collectorId: number | null;
  kind: number;
  plan: number;
  address: string;
  imei: string;
  protocolId: number | null;
  online: boolean;
  valveState: number | null;
  status: number;
}

const meterCols = sql`m.id, m.company_id, m.area_id, m.room_id, m.collector_id, m.kind, m.plan, m.address, m.imei,
  m.protocol_id, m.online, m.valve_state, m.status`;

function toMeterRef(row: Record<string, unknown>): MeterRef {
  const n = (v: unknown) => (v == null ? null : Number(v));
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    areaId: n(row.area_id),
    roomId: n(row.room_id),
    collectorId: n(row.collector_id),
    kind: Number(row.kind),
    plan: Number(row.plan),
    address: String(row.address),
    imei: String(row.imei ?? ''),
    protocolId: n(row.protocol_id),
    online: row.online === true,
    valveState: n(row.valve_state),
    status: Number(row.status),
  };
}

export async function metersByAddress(tx: Tx, addresses: string[]): Promise<MeterRef[]> {
  if (!addresses.length) return [];
  const r = await tx.execute(sql`SELECT ${meterCols} FROM meters m WHERE m.address = ANY(${arr(addresses)}::text[])`);
  return r.rows.map(toMeterRef);
}

export async function meterById(tx: Tx, id: number): Promise<MeterRef | undefined> {
  const r = await tx.execute(sql`SELECT ${meterCols} FROM meters m WHERE m.id = ${id}`);
  return r.rows[0] ? toMeterRef(r.rows[0]) : undefined;
}

/** Marks a collector online/offline; going offline takes its meters offline too. Returns whether it changed. */
export async function setCollectorOnline(tx: Tx, id: number, online: boolean): Promise<boolean> {
  const r = await tx.execute(sql`
    UPDATE collectors SET online = ${online}, last_seen_at = CASE WHEN ${online} THEN now() ELSE last_seen_at END
    WHERE id = ${id} AND online IS DISTINCT FROM ${online} RETURNING id`);
  if (!online) await tx.execute(sql`UPDATE meters SET online = false WHERE collector_id = ${id} AND online`);
  return r.rows.length > 0;
}

/** Marks collectors online; returns the ids that were offline. */
export async function setCollectorsOnline(tx: Tx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const r = await tx.execute(sql`
    UPDATE collectors SET online = true, last_seen_at = now() WHERE id = ANY(${arr(ids)}::bigint[]) AND NOT online RETURNING id`);
  return r.rows.map((x) => Number(x.id));
}

/** Sets meters online/offline; returns the ids that changed (with company and area, for events). */
export async function setMetersOnline(tx: Tx, ids: number[], online: boolean) {
  if (!ids.length) return [];
  const r = await tx.execute(sql`
    UPDATE meters SET online = ${online}, last_seen_at = CASE WHEN ${online} THEN now() ELSE last_seen_at END
    WHERE id = ANY(${arr(ids)}::bigint[]) AND online IS DISTINCT FROM ${online}
    RETURNING id, company_id, area_id, address`);
  return r.rows.map((x) => ({ id: Number(x.id), companyId: Number(x.company_id), areaId: x.area_id == null ? null : Number(x.area_id), address: String(x.address) }));
}

/** Writes the last-seen times gathered in memory (one statement per table). */
/** Last-seen times (epoch ms) of collectors and meters; a time never moves backwards. */
export async function touchLastSeen(tx: Tx, collectors: Map<number, number>, meters: Map<number, number>) {
  if (collectors.size) {
    await tx.execute(sql`
      UPDATE collectors c SET last_seen_at = v.t
      FROM unnest(${arr([...collectors.keys()])}::bigint[], ${arr([...collectors.values()].map((t) => new Date(t).toISOString()))}::timestamptz[]) AS v(id, t)
      WHERE c.id = v.id AND (c.last_seen_at IS NULL OR c.last_seen_at < v.t)`);
  }
  if (meters.size) {
    await tx.execute(sql`
      UPDATE meters m SET last_seen_at = v.t
      FROM unnest(${arr([...meters.keys()])}::bigint[], ${arr([...meters.values()].map((t) => new Date(t).toISOString()))}::timestamptz[]) AS v(id, t)
      WHERE m.id = v.id AND (m.last_seen_at IS NULL OR m.last_seen_at < v.t)`);
  }
}

export interface ReportRow {
  companyId: number;
  meterId: number | null;
  collectorId: number | null;
  direction: 'up' | 'down';
  channel: 'tcp' | 'mqtt';
  hex: string;
  decoded: Record<string, unknown> | null;
  error: string;
  at: Date;
  /** the meter's address when its id was not known yet (resolved before writing) */
  address?: string;
}

export async function insertReports(tx: Tx, rows: ReportRow[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    INSERT INTO device_reports (company_id, meter_id, collector_id, direction, channel, hex, decoded, error, created_at)
    SELECT * FROM unnest(
      ${arr(rows.map((r) => r.companyId))}::bigint[], ${arr(rows.map((r) => r.meterId))}::bigint[],
      ${arr(rows.map((r) => r.collectorId))}::bigint[], ${arr(rows.map((r) => r.direction))}::varchar[],
      ${arr(rows.map((r) => r.channel))}::varchar[], ${arr(rows.map((r) => r.hex))}::text[],
      ${arr(rows.map((r) => (r.decoded ? JSON.stringify(r.decoded) : null)))}::jsonb[], ${arr(rows.map((r) => r.error))}::text[],
      ${arr(rows.map((r) => r.at.toISOString()))}::timestamptz[])`);
}

export interface DemoDeviceRow {
  meterId: number;
  companyId: number;
  address: string;
  kind: number;
  plan: number;
  imei: string;
  protocolId: number | null;
  collectorId: number | null;
  collectorImei: string | null;
  collectorName: string | null;
  /** the collector's registration secret */
  collectorSecret: string | null;
  total: string;
  valveState: number | null;
}

/**
 * The devices of the demo companies (those holding the demo logins), for the demo simulator fleet.
 * A database without demo companies yields nothing, so the simulator never impersonates real devices.
 */
/** Whether a meter was ever sent an open/close command (the demo's stuck valve gets one, once). */
export async function hasValveCommand(tx: Tx, meterId: number): Promise<boolean> {
  const r = await tx.execute(sql`SELECT 1 FROM commands WHERE meter_id = ${meterId} AND kind IN ('open', 'close') LIMIT 1`);
  return r.rows.length > 0;
}

export async function demoDevices(tx: Tx, demoUsernames: string[]): Promise<DemoDeviceRow[]> {
  const r = await tx.execute(sql`
    SELECT m.id, m.company_id, m.address, m.kind, m.plan, m.imei, m.protocol_id, m.collector_id, c.imei AS collector_imei, c.name AS collector_name, c.reg_secret AS collector_secret,
      coalesce(l.total, m.initial_reading) AS total, m.valve_state
    FROM meters m
    LEFT JOIN collectors c ON c.id = m.collector_id
    LEFT JOIN meter_latest l ON l.meter_id = m.id
    WHERE m.status <> 2 AND m.company_id IN (
      SELECT DISTINCT company_id FROM admin_users WHERE username = ANY(${arr(demoUsernames)}::text[]) AND company_id IS NOT NULL)
    ORDER BY m.collector_id NULLS LAST, m.id`);
  return r.rows.map((x) => ({
    meterId: Number(x.id),
    companyId: Number(x.company_id),
    address: String(x.address),
    kind: Number(x.kind),
    plan: Number(x.plan),
    imei: String(x.imei ?? ''),
    protocolId: x.protocol_id == null ? null : Number(x.protocol_id),
    collectorId: x.collector_id == null ? null : Number(x.collector_id),
    collectorImei: (x.collector_imei as string | null) ?? null,
    collectorName: (x.collector_name as string | null) ?? null,
    collectorSecret: (x.collector_secret as string | null) ?? null,
    total: String(x.total),
    valveState: x.valve_state == null ? null : Number(x.valve_state),
  }));
}
