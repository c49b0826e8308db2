import { sql, type SQL } from 'drizzle-orm';
import type { Reader } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { latestWarnings } from './repo.ts';

// The only SQL of 区域概况 (/gether): one area and the areas below it. Everything runs in the user's
// scope, so row-level security keeps it to the company and, for a user bound to areas, to the areas
// they may see (the area itself is looked up first: invisible = not found).

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
/** the rooms of the area and below */
const roomsIn = (areaId: number) => sql`(SELECT r.id FROM rooms r WHERE r.area_id IN ${areaAndBelow(areaId)})`;
/** the meters of the area and below: placed in one of its areas, or in one of its rooms */
const metersIn = (areaId: number) =>
  sql`(SELECT m.id FROM meters m WHERE m.area_id IN ${areaAndBelow(areaId)} OR m.room_id IN ${roomsIn(areaId)})`;
const n = (v: unknown) => Number(v ?? 0);

export async function area(tx: Reader, areaId: number) {
  const { rows } = await tx.execute<{ id: string; name: string; path: string | null; company: string | null; company_id: string }>(sql`
    WITH RECURSIVE up AS (
      SELECT a.id, a.parent_id, a.name, 0 AS depth FROM areas a WHERE a.id = ${areaId}
      UNION ALL SELECT p.id, p.parent_id, p.name, up.depth + 1 FROM areas p JOIN up ON p.id = up.parent_id)
    SELECT a.id, a.name, a.company_id, c.name AS company,
           (SELECT string_agg(up.name, ' / ' ORDER BY up.depth DESC) FROM up) AS path
      FROM areas a LEFT JOIN companies c ON c.id = a.company_id WHERE a.id = ${areaId}`);
  const r = rows[0];
  return r ? { id: Number(r.id), name: r.name, path: r.path ?? r.name, companyName: r.company ?? '', companyId: Number(r.company_id) } : null;
}

export async function rooms(tx: Reader, areaId: number) {
  const { rows } = await tx.execute<{ total: number; occupied: number }>(sql`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM owners o WHERE o.room_id = r.id AND o.status = 1))::int AS occupied
      FROM rooms r WHERE r.id IN ${roomsIn(areaId)} AND r.status = 1`);
  return { total: n(rows[0]?.total), occupied: n(rows[0]?.occupied) };
}

export async function devices(tx: Reader, areaId: number) {
  const { rows } = await tx.execute<Record<string, number>>(sql`
    SELECT
      (SELECT count(*)::int FROM collectors c WHERE c.area_id IN ${areaAndBelow(areaId)}) AS collectors,
      (SELECT count(*)::int FROM collectors c WHERE c.area_id IN ${areaAndBelow(areaId)} AND c.online) AS "collectorsOnline",
      count(*) FILTER (WHERE m.kind = 1)::int AS electric,
      count(*) FILTER (WHERE m.kind = 1 AND m.online)::int AS "electricOnline",
      count(*) FILTER (WHERE m.kind = 2)::int AS water,
      count(*) FILTER (WHERE m.kind = 2 AND m.online)::int AS "waterOnline",
      count(*) FILTER (WHERE m.valve_state = 0)::int AS "offNow"
      FROM meters m WHERE m.id IN ${metersIn(areaId)} AND m.status = 1`);
  const r = rows[0] ?? {};
  return {
    collectors: { total: n(r.collectors), online: n(r.collectorsOnline) },
    electric: { total: n(r.electric), online: n(r.electricOnline) },
    water: { total: n(r.water), online: n(r.waterOnline) },
    offNow: n(r.offNow),
  };
}

/** Wallet balances of the area's rooms, and the rooms whose balance (electricity + water) is below `lineFen`. */
export async function balances(tx: Reader, areaId: number, lineFen: number) {
  const { rows } = await tx.execute<{ electric: string; water: string; rooms: number; below: string }>(sql`
    WITH per_room AS (
      SELECT x.room_id,
             sum(x.balance_fen) FILTER (WHERE x.wallet = 'electric') AS electric,
             sum(x.balance_fen) FILTER (WHERE x.wallet = 'water') AS water,
             sum(x.balance_fen) AS total
        FROM accounts x
       WHERE x.status = 1 AND x.wallet IN ('electric', 'water') AND x.room_id IN ${roomsIn(areaId)}
       GROUP BY x.room_id)
    SELECT coalesce(sum(electric), 0)::bigint AS electric, coalesce(sum(water), 0)::bigint AS water,
           count(*) FILTER (WHERE total < ${lineFen})::int AS rooms,
           coalesce(sum(${lineFen} - total) FILTER (WHERE total < ${lineFen}), 0)::bigint AS below
      FROM per_room`);
  const r = rows[0];
  return { electricFen: n(r?.electric), waterFen: n(r?.water), arrearsRooms: n(r?.rooms), arrearsFen: n(r?.below) };
}

/** Settled consumption and amounts in [from, to) by meter kind. */
export async function usage(tx: Reader, areaId: number, from: Date, to: Date) {
  const { rows } = await tx.execute<{ electric: string; water: string; fen: string }>(sql`
    SELECT coalesce(sum(s.quantity) FILTER (WHERE s.meter_kind = 1), 0)::text AS electric,
           coalesce(sum(s.quantity) FILTER (WHERE s.meter_kind = 2), 0)::text AS water,
           coalesce(sum(s.amount_fen), 0)::bigint AS fen
      FROM settlements s
     WHERE s.read_at >= ${ts(from)} AND s.read_at < ${ts(to)} AND s.meter_id IN ${metersIn(areaId)}`);
  const r = rows[0];
  return { electric: Number(r?.electric ?? 0), water: Number(r?.water ?? 0), amountFen: n(r?.fen) };
}

const RECEIVED = sql`j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')`;

/** Money received (实收) for the area's rooms since `from`, and the newest `limit` payments. */
export async function payments(tx: Reader, areaId: number, from: Date, limit: number) {
  const where: SQL = sql`${RECEIVED} AND j.room_id IN ${roomsIn(areaId)}`;
  const sum = await tx.execute<{ fen: string; n: number }>(sql`
    SELECT coalesce(sum(j.amount_fen), 0)::bigint AS fen, count(*)::int AS n FROM journal j WHERE ${where} AND j.created_at >= ${ts(from)}`);
  const { rows } = await tx.execute<{ id: string; room: string | null; owner: string | null; fen: string; pay_method: string; created_at: Date }>(sql`
    SELECT j.id, r.name AS room, o.name AS owner, j.amount_fen AS fen, j.pay_method, j.created_at
      FROM journal j LEFT JOIN rooms r ON r.id = j.room_id LEFT JOIN owners o ON o.id = j.owner_id
     WHERE ${where} ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit}`);
  return {
    monthFen: n(sum.rows[0]?.fen),
    monthCount: n(sum.rows[0]?.n),
    latest: rows.map((r) => ({
      id: Number(r.id), roomName: r.room ?? '', ownerName: r.owner ?? '', amountFen: n(r.fen), payMethod: r.pay_method, createdAt: new Date(r.created_at),
    })),
  };
}

/** Open device warnings of the area and below: how many, and the newest `limit`. */
export async function alarms(tx: Reader, areaId: number, limit: number) {
  const where = sql`w.status = 0 AND w.area_id IN ${areaAndBelow(areaId)}`;
  const c = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_warnings w WHERE ${where}`);
  return { open: n(c.rows[0]?.n), latest: await latestWarnings(tx, where, limit) };
}

/** The child areas with their own rooms, meters (online) and rooms below the line, each counted with what lies below it. */
export async function children(tx: Reader, areaId: number, lineFen: number) {
  const { rows } = await tx.execute<{ id: string; name: string; rooms: number; meters: number; online: number; arrears: number }>(sql`
    WITH RECURSIVE tree AS (
      SELECT a.id AS child, a.id FROM areas a WHERE a.parent_id = ${areaId}
      UNION ALL SELECT t.child, a.id FROM areas a JOIN tree t ON a.parent_id = t.id),
    room_area AS (SELECT t.child, r.id AS room_id FROM tree t JOIN rooms r ON r.area_id = t.id AND r.status = 1),
    meter_area AS (
      SELECT DISTINCT t.child, m.id, m.online FROM tree t
        JOIN meters m ON m.status = 1 AND (m.area_id = t.id OR m.room_id IN (SELECT r.id FROM rooms r WHERE r.area_id = t.id))),
    room_balance AS (
      SELECT ra.child, ra.room_id, sum(x.balance_fen) AS total FROM room_area ra
        JOIN accounts x ON x.room_id = ra.room_id AND x.status = 1 AND x.wallet IN ('electric', 'water') GROUP BY 1, 2)
    SELECT a.id, a.name,
           (SELECT count(*)::int FROM room_area ra WHERE ra.child = a.id) AS rooms,
           (SELECT count(*)::int FROM meter_area ma WHERE ma.child = a.id) AS meters,
           (SELECT count(*)::int FROM meter_area ma WHERE ma.child = a.id AND ma.online) AS online,
           (SELECT count(*)::int FROM room_balance rb WHERE rb.child = a.id AND rb.total < ${lineFen}) AS arrears
      FROM areas a WHERE a.parent_id = ${areaId} ORDER BY a.sort, a.id`);
  return rows.map((r) => ({ id: Number(r.id), name: r.name, rooms: n(r.rooms), meters: n(r.meters), online: n(r.online), arrearsRooms: n(r.arrears) }));
}
