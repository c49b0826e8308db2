import { sql, type SQL } from 'drizzle-orm';
import type { Reader } from '../../db/client.ts';

// The only SQL of the large screen (/screen). Aggregates over the tenant's rows, each on an index that
// starts with company_id (a platform view passes every company id, so the same indexes serve it):
// settlements_company_time, journal_company_time, commands_company_created, device_warnings_company_kind,
// appeals_company_kind_status, collectors_company_area, meters_company_area, accounts_company_room.
// A user bound to areas sees their areas only: the rows are narrowed through rooms / meters, whose
// row-level area policy does the narrowing.

export interface ScreenFilter {
  /** the companies shown (one, or every company for the platform) */
  companyIds: number[];
  /** the user is bound to areas: narrow through the area-scoped tables */
  areaRestricted: boolean;
  /** the user's visible areas (null = all) */
  areaIds: number[] | null;
}

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::bigint[]`;
const company = (col: SQL, f: ScreenFilter) => sql`${col} = ANY(${ids(f.companyIds)})`;
const viaRooms = (col: SQL, f: ScreenFilter) => (f.areaRestricted ? sql` AND ${col} IN (SELECT ra.id FROM rooms ra)` : sql``);
const viaMeters = (col: SQL, f: ScreenFilter) => (f.areaRestricted ? sql` AND ${col} IN (SELECT ma.id FROM meters ma)` : sql``);
const inAreas = (col: SQL, f: ScreenFilter) =>
  f.areaIds ? sql` AND ${col} = ANY(${ids(f.areaIds)})` : sql``;

export async function companyIds(db: Reader, only: number | null): Promise<{ ids: number[]; name: string }> {
  const { rows } = await db.execute<{ id: string; name: string }>(
    only != null ? sql`SELECT id, name FROM companies WHERE id = ${only}` : sql`SELECT id, name FROM companies ORDER BY id`,
  );
  return { ids: rows.map((r) => Number(r.id)), name: only != null ? (rows[0]?.name ?? '') : '全部单位' };
}

export interface Consumption {
  /** 1 电, 2 水 */
  kind: number;
  /** Beijing date YYYY-MM-DD */
  day: string;
  /** Beijing hour, for the rows of the `hours` query */
  hour: number | null;
  quantity: number;
}

/** Settled consumption in [from, to) by Beijing day (and hour when `byHour`), electricity and water. */
export async function consumption(db: Reader, f: ScreenFilter, from: Date, to: Date, byHour: boolean): Promise<Consumption[]> {
  const local = sql`(s.read_at AT TIME ZONE 'Asia/Shanghai')`;
  const hour = byHour ? sql`extract(hour FROM ${local})::int` : sql`NULL::int`;
  const { rows } = await db.execute<{ kind: number; day: string; hour: number | null; q: string }>(sql`
    SELECT s.meter_kind AS kind, to_char(${local}, 'YYYY-MM-DD') AS day, ${hour} AS hour, sum(s.quantity)::text AS q
      FROM settlements s
     WHERE ${company(sql`s.company_id`, f)} AND s.read_at >= ${ts(from)} AND s.read_at < ${ts(to)} AND s.quantity > 0${viaMeters(sql`s.meter_id`, f)}
     GROUP BY 1, 2, 3`);
  return rows.map((r) => ({ kind: Number(r.kind), day: r.day, hour: r.hour == null ? null : Number(r.hour), quantity: Number(r.q) }));
}

export interface RoomConsumption {
  kind: number;
  roomId: number;
  quantity: number;
}

/** Settled consumption in [from, to) per room and kind (rooms with a meter of their own). */
export async function roomConsumption(db: Reader, f: ScreenFilter, from: Date, to: Date): Promise<RoomConsumption[]> {
  const { rows } = await db.execute<{ kind: number; room_id: string; q: string }>(sql`
    SELECT s.meter_kind AS kind, s.room_id, sum(s.quantity)::text AS q
      FROM settlements s
     WHERE ${company(sql`s.company_id`, f)} AND s.read_at >= ${ts(from)} AND s.read_at < ${ts(to)} AND s.quantity > 0
       AND s.room_id IS NOT NULL AND s.note <> 'shared'${viaMeters(sql`s.meter_id`, f)}
     GROUP BY 1, 2`);
  return rows.map((r) => ({ kind: Number(r.kind), roomId: Number(r.room_id), quantity: Number(r.q) }));
}

export async function roomNames(db: Reader, roomIds: number[]): Promise<Map<number, { roomName: string; areaName: string }>> {
  if (!roomIds.length) return new Map();
  const { rows } = await db.execute<{ id: string; name: string; area: string | null }>(sql`
    SELECT r.id, r.name, a.name AS area FROM rooms r LEFT JOIN areas a ON a.id = r.area_id WHERE r.id = ANY(${ids(roomIds)})`);
  return new Map(rows.map((r) => [Number(r.id), { roomName: r.name, areaName: r.area ?? '' }]));
}

export interface DeviceCounts {
  collectors: number;
  collectorsOnline: number;
  electric: number;
  electricOnline: number;
  water: number;
  waterOnline: number;
  offNow: number;
}

/** Collectors and meters in use, how many are online, and the meters whose supply is off now. */
export async function devices(db: Reader, f: ScreenFilter): Promise<DeviceCounts> {
  const { rows } = await db.execute<Record<string, number>>(sql`
    SELECT
      (SELECT count(*)::int FROM collectors c WHERE ${company(sql`c.company_id`, f)}) AS collectors,
      (SELECT count(*)::int FROM collectors c WHERE ${company(sql`c.company_id`, f)} AND c.online) AS "collectorsOnline",
      count(*) FILTER (WHERE m.kind = 1)::int AS electric,
      count(*) FILTER (WHERE m.kind = 1 AND m.online)::int AS "electricOnline",
      count(*) FILTER (WHERE m.kind = 2)::int AS water,
      count(*) FILTER (WHERE m.kind = 2 AND m.online)::int AS "waterOnline",
      count(*) FILTER (WHERE m.valve_state = 0)::int AS "offNow"
      FROM meters m
     WHERE ${company(sql`m.company_id`, f)} AND m.status = 1`);
  const r = rows[0] ?? {};
  const n = (k: keyof DeviceCounts) => Number(r[k] ?? 0);
  return {
    collectors: n('collectors'), collectorsOnline: n('collectorsOnline'), electric: n('electric'), electricOnline: n('electricOnline'),
    water: n('water'), waterOnline: n('waterOnline'), offNow: n('offNow'),
  };
}

/** Supply switched today: closes and opens that succeeded since `from`. */
export async function supplyToday(db: Reader, f: ScreenFilter, from: Date): Promise<{ cut: number; restored: number }> {
  const { rows } = await db.execute<{ cut: number; restored: number }>(sql`
    SELECT count(*) FILTER (WHERE c.kind = 'close')::int AS cut, count(*) FILTER (WHERE c.kind = 'open')::int AS restored
      FROM commands c
     WHERE ${company(sql`c.company_id`, f)} AND c.created_at >= ${ts(new Date(from.getTime() - 86_400_000))}
       AND c.kind IN ('open', 'close') AND c.status = 'succeeded' AND c.finished_at >= ${ts(from)}${viaMeters(sql`c.meter_id`, f)}`);
  return { cut: Number(rows[0]?.cut ?? 0), restored: Number(rows[0]?.restored ?? 0) };
}

export interface ChannelSum {
  channel: string;
  amountFen: number;
  count: number;
}

/** Top-ups received since `from` (实收: cash, WeChat, Alipay, bank), by pay method. */
export async function paymentsSince(db: Reader, f: ScreenFilter, from: Date): Promise<ChannelSum[]> {
  const { rows } = await db.execute<{ channel: string; fen: string; n: number }>(sql`
    SELECT j.pay_method AS channel, sum(j.amount_fen)::bigint AS fen, count(*)::int AS n
      FROM journal j
     WHERE ${company(sql`j.company_id`, f)} AND j.created_at >= ${ts(from)}
       AND j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')${viaRooms(sql`j.room_id`, f)}
     GROUP BY 1`);
  return rows.map((r) => ({ channel: r.channel, amountFen: Number(r.fen), count: Number(r.n) }));
}

export interface OpenAppeal {
  id: number;
  kind: number;
  title: string;
  roomName: string;
  status: number;
  deadlineAt: Date;
  createdAt: Date;
}

/** Appeals 待受理 / 处理中: how many, how many past their deadline, and the newest `limit`. */
export async function openAppeals(db: Reader, f: ScreenFilter, now: Date, limit: number) {
  const where = sql`${company(sql`a.company_id`, f)} AND a.kind IN (1, 2) AND a.status IN (0, 1)${inAreas(sql`a.area_id`, f)}`;
  const counts = await db.execute<{ open: number; overdue: number }>(sql`
    SELECT count(*)::int AS open, count(*) FILTER (WHERE a.deadline_at < ${ts(now)})::int AS overdue FROM appeals a WHERE ${where}`);
  const { rows } = await db.execute<{ id: string; kind: number; title: string; room: string | null; status: number; deadline_at: Date; created_at: Date }>(sql`
    SELECT a.id, a.kind, a.title, r.name AS room, a.status, a.deadline_at, a.created_at
      FROM appeals a LEFT JOIN rooms r ON r.id = a.room_id
     WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit}`);
  return {
    open: Number(counts.rows[0]?.open ?? 0),
    overdue: Number(counts.rows[0]?.overdue ?? 0),
    latest: rows.map((r): OpenAppeal => ({
      id: Number(r.id), kind: Number(r.kind), title: r.title, roomName: r.room ?? '', status: Number(r.status),
      deadlineAt: new Date(r.deadline_at), createdAt: new Date(r.created_at),
    })),
  };
}

export interface OpenWarning {
  id: number;
  kind: string;
  device: string;
  areaName: string;
  createdAt: Date;
}

/** Open device warnings: how many of each kind, and the newest `limit`. */
export async function openWarnings(db: Reader, f: ScreenFilter, limit: number) {
  const where = sql`${company(sql`w.company_id`, f)} AND w.status = 0${inAreas(sql`w.area_id`, f)}`;
  const kinds = await db.execute<{ kind: string; n: number }>(sql`
    SELECT w.kind, count(*)::int AS n FROM device_warnings w WHERE ${where} GROUP BY 1 ORDER BY 2 DESC, 1`);
  const latest = await latestWarnings(db, where, limit);
  return {
    byKind: kinds.rows.map((r) => ({ kind: r.kind, count: Number(r.n) })),
    latest,
  };
}

/** The newest `limit` device warnings matching `where` (alias w), with the device and area names. */
export async function latestWarnings(db: Reader, where: SQL, limit: number): Promise<OpenWarning[]> {
  const { rows } = await db.execute<{ id: string; kind: string; meter: string | null; collector: string | null; area: string | null; created_at: Date }>(sql`
    SELECT w.id, w.kind,
           CASE WHEN m.id IS NOT NULL THEN coalesce(nullif(m.name, ''), m.address) END AS meter,
           c.name AS collector, a.name AS area, w.created_at
      FROM device_warnings w
      LEFT JOIN meters m ON m.id = w.meter_id
      LEFT JOIN collectors c ON c.id = w.collector_id
      LEFT JOIN areas a ON a.id = w.area_id
     WHERE ${where} ORDER BY w.created_at DESC, w.id DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id), kind: r.kind, device: r.meter ?? r.collector ?? '', areaName: r.area ?? '', createdAt: new Date(r.created_at),
  }));
}

/** Owners with an electricity or water wallet below zero (and the sum below zero), or at an alarm level but not below zero. */
export async function arrears(db: Reader, f: ScreenFilter): Promise<{ owners: number; owedFen: number; lowOwners: number }> {
  const { rows } = await db.execute<{ owners: number; owed: string; low: number }>(sql`
    SELECT count(DISTINCT x.owner_id) FILTER (WHERE x.balance_fen < 0)::int AS owners,
           coalesce(-sum(x.balance_fen) FILTER (WHERE x.balance_fen < 0), 0)::bigint AS owed,
           count(DISTINCT x.owner_id) FILTER (WHERE x.balance_fen >= 0 AND x.alarm_level > 0)::int AS low
      FROM accounts x
     WHERE ${company(sql`x.company_id`, f)} AND x.status = 1 AND x.wallet IN ('electric', 'water')${viaRooms(sql`x.room_id`, f)}`);
  const r = rows[0];
  return { owners: Number(r?.owners ?? 0), owedFen: Number(r?.owed ?? 0), lowOwners: Number(r?.low ?? 0) };
}

/**
 * Credits since the last look, for the live channel (no browser sees the journal otherwise): the
 * newest journal id first, then the top-ups, refunds and reversals up to it (system scope).
 */
export async function newestJournalId(db: Reader): Promise<number> {
  const { rows } = await db.execute<{ id: string | null }>(sql`SELECT max(id) AS id FROM journal`);
  return Number(rows[0]?.id ?? 0);
}

export async function creditsBetween(db: Reader, after: number, upTo: number, limit: number) {
  const { rows } = await db.execute<{ id: string; company_id: string; area_id: string | null; kind: string }>(sql`
    SELECT j.id, j.company_id, r.area_id, j.kind
      FROM journal j LEFT JOIN rooms r ON r.id = j.room_id
     WHERE j.id > ${after} AND j.id <= ${upTo} AND j.kind IN ('prepay', 'refund', 'reversal')
     ORDER BY j.id LIMIT ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id), companyId: Number(r.company_id), areaId: r.area_id == null ? null : Number(r.area_id), kind: r.kind,
  }));
}
