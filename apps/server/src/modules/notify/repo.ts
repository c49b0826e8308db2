import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';

// The only SQL of notifications (/notesMessage): queued by the alarm rules, sent by the worker.

const arr = (v: unknown[]) => sql.param(v);

export interface NewNotification {
  companyId: number;
  ownerId: number | null;
  accountId: number | null;
  meterId: number | null;
  level: number;
  channel: 'sms' | 'phone';
  phone: string;
  content: string;
  priceFen: number;
  idempotencyKey: string;
}

/** Queues notifications; a key already used is not queued again. Returns how many were queued. */
export async function insertNotifications(tx: Tx, rows: NewNotification[]): Promise<number> {
  if (!rows.length) return 0;
  const col = <K extends keyof NewNotification>(k: K) => arr(rows.map((r) => r[k]));
  const r = await tx.execute(sql`
    INSERT INTO notifications (company_id, owner_id, account_id, meter_id, level, channel, phone, content, price_fen, idempotency_key)
    SELECT * FROM unnest(${col('companyId')}::bigint[], ${col('ownerId')}::bigint[], ${col('accountId')}::bigint[], ${col('meterId')}::bigint[],
      ${col('level')}::int[], ${col('channel')}::varchar[], ${col('phone')}::varchar[], ${col('content')}::text[], ${col('priceFen')}::int[],
      ${col('idempotencyKey')}::varchar[])
    ON CONFLICT (company_id, idempotency_key) DO NOTHING
    RETURNING id`);
  return r.rows.length;
}

export interface QueuedNotification {
  id: number;
  companyId: number;
  channel: string;
  phone: string;
  content: string;
  /** this try (1 = first); the outcome is recorded only for it */
  attempt: number;
}

/** Most tries of one message: a sender that died with it claimed may have sent it; one more, then never again. */
export const MAX_SEND_ATTEMPTS = 2;

/**
 * Claims (outbox): the oldest queued notifications, and those whose sender's lease ran out, become
 * 'sending' until now + leaseMs — committed before anything is sent. A message whose lease ran out
 * after its last try is failed as unknown instead of being sent a third time.
 */
export async function claimForSending(tx: Tx, limit: number, leaseMs: number): Promise<QueuedNotification[]> {
  await tx.execute(sql`
    UPDATE notifications SET status = 'failed', error = '发送过程中断，结果未知（已停止重发）'
    WHERE status = 'sending' AND lease_until < now() AND send_attempts >= ${MAX_SEND_ATTEMPTS}`);
  const r = await tx.execute(sql`
    UPDATE notifications n SET status = 'sending', send_attempts = n.send_attempts + 1,
      lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    FROM (SELECT id FROM notifications
          WHERE status = 'queued' OR (status = 'sending' AND lease_until < now())
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) p
    WHERE n.id = p.id
    RETURNING n.id, n.company_id, n.channel, n.phone, n.content, n.send_attempts`);
  return r.rows
    .map((x) => ({ id: Number(x.id), companyId: Number(x.company_id), channel: String(x.channel), phone: String(x.phone), content: String(x.content), attempt: Number(x.send_attempts) }))
    .sort((a, b) => a.id - b.id);
}

/** Records a try's outcome (only while that try still holds the message). */
export async function markDone(tx: Tx, id: number, attempt: number, provider: string, error: string) {
  await tx.execute(sql`
    UPDATE notifications SET status = ${error ? 'failed' : 'sent'}, provider = ${provider}, error = ${error},
      sent_at = CASE WHEN ${error} = '' THEN now() ELSE sent_at END, lease_until = NULL
    WHERE id = ${id} AND status = 'sending' AND send_attempts = ${attempt}`);
}

export interface NotificationFilter {
  areaRestricted: boolean;
  searchArea?: number;
  ownerName?: string;
  phone?: string;
  status?: string;
  level?: number;
  from?: Date;
  to?: Date;
}

function where(f: NotificationFilter): SQL {
  const w: SQL[] = [sql`true`];
  if (f.areaRestricted || f.searchArea != null) {
    const rooms = f.searchArea != null ? sql`(SELECT r.id FROM rooms r WHERE r.area_id IN ${areaAndBelow(f.searchArea)})` : sql`(SELECT r.id FROM rooms r)`;
    w.push(sql`n.owner_id IN (SELECT o.id FROM owners o WHERE o.room_id IN ${rooms})`);
  }
  if (f.ownerName) w.push(sql`o.name ILIKE ${`%${f.ownerName.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (f.phone) w.push(sql`n.phone LIKE ${`%${f.phone.replace(/[%_\\]/g, '\\$&')}%`}`);
  if (f.status) w.push(sql`n.status = ${f.status}`);
  if (f.level != null) w.push(sql`n.level = ${f.level}`);
  if (f.from) w.push(sql`n.created_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) w.push(sql`n.created_at < ${f.to.toISOString()}::timestamptz`);
  return sql.join(w, sql` AND `);
}

export async function listNotifications(tx: Tx, f: NotificationFilter, limit: number, offset: number) {
  const w = where(f);
  const rows = await tx.execute(sql`
    SELECT n.id, n.owner_id AS "ownerId", o.name AS "ownerName", n.meter_id AS "meterId", n.level, n.channel, n.phone, n.content,
      n.status, n.provider, n.price_fen AS "priceFen", n.error,
      ${localTime(sql`n.created_at`)} AS "createdAt",
      ${localTime(sql`n.sent_at`)} AS "sentAt"
    FROM notifications n LEFT JOIN owners o ON o.id = n.owner_id
    WHERE ${w} ORDER BY n.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM notifications n LEFT JOIN owners o ON o.id = n.owner_id WHERE ${w}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}
