import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { areaPathOf } from '../room/index.ts';

// The only SQL of the owner app (业主端): owner sessions, SMS login codes, the owner's rooms and
// meters, usage and monthly bills from the settlements. Amounts in 分, quantities as exact text.

// ---- sign-in ----------------------------------------------------------------------------------------

/** Active owner rows with this phone (system scope: a phone is not yet any company's), oldest first. */
export async function ownersByPhone(tx: Tx, phone: string) {
  const r = await tx.execute(sql`SELECT o.id, o.company_id, o.name, o.phone, c.name AS company_name
    FROM owners o JOIN companies c ON c.id = o.company_id
    WHERE o.phone = ${phone} AND o.status = 1 AND o.room_id IS NOT NULL ORDER BY o.id`);
  return r.rows.map((x) => ({ id: Number(x.id), companyId: Number(x.company_id), name: String(x.name), phone: String(x.phone), companyName: String(x.company_name) }));
}

/** The current owner of a room, with the password hash of the owner portal. */
export async function ownerOfRoom(tx: Tx, roomId: number) {
  const r = await tx.execute(sql`SELECT o.id, o.company_id, o.name, o.phone, o.password_hash, c.name AS company_name
    FROM owners o JOIN companies c ON c.id = o.company_id
    WHERE o.room_id = ${roomId} AND o.status = 1 ORDER BY o.id DESC LIMIT 1`);
  const x = r.rows[0];
  return x
    ? { id: Number(x.id), companyId: Number(x.company_id), name: String(x.name), phone: String(x.phone), passwordHash: String(x.password_hash), companyName: String(x.company_name) }
    : undefined;
}

/** An owner row's owner-portal password hash ('' when none was ever set). */
export async function passwordOf(tx: Tx, ownerId: number) {
  const r = await tx.execute(sql`SELECT password_hash FROM owners WHERE id = ${ownerId}`);
  return String(r.rows[0]?.password_hash ?? '');
}

/** Codes sent since then to this phone and from this IP (the sending limits). */
export async function codesSince(tx: Tx, phone: string, ip: string, since: Date) {
  const r = await tx.execute(sql`SELECT
      count(*) FILTER (WHERE phone = ${phone})::int AS phone,
      count(*) FILTER (WHERE ip = ${ip})::int AS ip,
      max(created_at) FILTER (WHERE phone = ${phone}) AS last
    FROM owner_login_codes WHERE created_at >= ${since} AND (phone = ${phone} OR ip = ${ip})`);
  const x = r.rows[0]!;
  return { phone: Number(x.phone), ip: Number(x.ip), last: x.last == null ? null : new Date(String(x.last)) };
}

export async function insertCode(tx: Tx, c: { phone: string; codeHash: string; ip: string; expiresAt: Date }) {
  const r = await tx.execute(sql`INSERT INTO owner_login_codes (phone, code_hash, ip, expires_at)
    VALUES (${c.phone}, ${c.codeHash}, ${c.ip}, ${c.expiresAt}) RETURNING id`);
  return Number(r.rows[0]!.id);
}

/** The newest unused, unexpired code of a phone, locked while it is checked. */
export async function liveCode(tx: Tx, phone: string) {
  const r = await tx.execute(sql`SELECT id, code_hash, attempts FROM owner_login_codes
    WHERE phone = ${phone} AND used_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`);
  const x = r.rows[0];
  return x ? { id: Number(x.id), codeHash: String(x.code_hash), attempts: Number(x.attempts) } : undefined;
}

export async function codeTried(tx: Tx, id: number, used: boolean) {
  await tx.execute(sql`UPDATE owner_login_codes SET attempts = attempts + 1${used ? sql`, used_at = now()` : sql``} WHERE id = ${id}`);
}

export async function insertSession(tx: Tx, s: {
  tokenHash: string; ownerId: number; companyId: number; phone: string; via: 'sms' | 'password'; ip: string; userAgent: string; expiresAt: Date;
}) {
  await tx.execute(sql`INSERT INTO owner_sessions (token_hash, owner_id, company_id, phone, via, ip, user_agent, expires_at)
    VALUES (${s.tokenHash}, ${s.ownerId}, ${s.companyId}, ${s.phone}, ${s.via}, ${s.ip}, ${s.userAgent}, ${s.expiresAt})`);
}

/** A live owner session (not revoked, not expired, used within the idle time, its owner still living there), touched. */
export async function lookupSession(tx: Tx, tokenHash: string, idleMinutes: number) {
  const r = await tx.execute(sql`UPDATE owner_sessions s SET last_seen_at = now()
    FROM owners o
    WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > now()
      AND s.last_seen_at > now() - make_interval(mins => ${idleMinutes}) AND o.id = s.owner_id AND o.status = 1
    RETURNING s.id, s.owner_id, s.company_id, s.phone, o.name`);
  const x = r.rows[0];
  return x ? { sessionId: Number(x.id), ownerId: Number(x.owner_id), companyId: Number(x.company_id), phone: String(x.phone), name: String(x.name) } : undefined;
}

export async function revokeSession(tx: Tx, id: number) {
  await tx.execute(sql`UPDATE owner_sessions SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL`);
}

// ---- the owner's rooms --------------------------------------------------------------------------------

/**
 * The rooms an owner session may see: the owner row signed in, and with a phone (SMS login) every
 * active owner row of the company with that phone. Run in the company's scope.
 */
export async function roomsOf(r: Tx, o: { ownerId: number; companyId: number; phone: string }) {
  const res = await r.execute(sql`SELECT o.id AS owner_id, o.name AS owner_name, o.phone AS owner_phone, o.room_id, rm.name AS room_name,
      (${areaPathOf(sql`rm.area_id`)}) AS path
    FROM owners o JOIN rooms rm ON rm.id = o.room_id
    WHERE o.company_id = ${o.companyId} AND o.status = 1
      AND (o.id = ${o.ownerId} OR (${o.phone} <> '' AND o.phone = ${o.phone}))
    ORDER BY o.id`);
  return res.rows.map((x) => ({
    ownerId: Number(x.owner_id), ownerName: String(x.owner_name), ownerPhone: String(x.owner_phone), roomId: Number(x.room_id),
    roomName: String(x.room_name), path: `${x.path ? `${String(x.path)}/` : ''}${String(x.room_name)}`,
  }));
}

export async function roomMeters(r: Tx, roomIds: number[]) {
  if (!roomIds.length) return [];
  const res = await r.execute(sql`SELECT id, room_id, name, kind, valve_state, online FROM meters
    WHERE room_id = ANY(${`{${roomIds.join(',')}}`}::bigint[]) AND status <> 2 ORDER BY kind, id`);
  return res.rows.map((x) => ({
    id: Number(x.id), roomId: Number(x.room_id), name: String(x.name), kind: Number(x.kind),
    valveState: x.valve_state == null ? null : Number(x.valve_state), online: x.online === true,
  }));
}

/** Settled usage of a room's owner row by China day or month since `from`: quantities and amounts by meter kind. */
export async function usage(r: Tx, o: { ownerId: number; roomId: number }, by: 'day' | 'month', from: Date) {
  const fmt = by === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const res = await r.execute(sql`SELECT to_char(s.read_at AT TIME ZONE 'Asia/Shanghai', ${fmt}) AS period,
      coalesce(sum(s.quantity) FILTER (WHERE s.meter_kind = 1), 0)::numeric(16, 2)::text AS electric,
      coalesce(sum(s.quantity) FILTER (WHERE s.meter_kind = 2), 0)::numeric(16, 2)::text AS water,
      coalesce(sum(s.amount_fen) FILTER (WHERE s.meter_kind = 1), 0)::bigint AS electric_fen,
      coalesce(sum(s.amount_fen) FILTER (WHERE s.meter_kind = 2), 0)::bigint AS water_fen
    FROM settlements s WHERE s.owner_id = ${o.ownerId} AND s.room_id = ${o.roomId} AND s.read_at >= ${from}
    GROUP BY 1 ORDER BY 1`);
  return res.rows.map((x) => ({ period: String(x.period), electric: String(x.electric), water: String(x.water), electricFen: Number(x.electric_fen), waterFen: Number(x.water_fen) }));
}

/** Monthly fees (月租/最低消费) posted to an owner, by China month, in 分 (positive). */
export async function monthlyFees(r: Tx, ownerId: number) {
  const res = await r.execute(sql`SELECT to_char(created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM') AS month, -sum(amount_fen)::bigint AS fen
    FROM journal WHERE owner_id = ${ownerId} AND kind = 'fee' GROUP BY 1`);
  return new Map(res.rows.map((x) => [String(x.month), Number(x.fen)]));
}

export async function companyName(r: Tx, companyId: number) {
  const res = await r.execute(sql`SELECT name FROM companies WHERE id = ${companyId}`);
  return String(res.rows[0]?.name ?? '');
}
