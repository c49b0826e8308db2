import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { inPeriod } from '../../db/where.ts';

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
  createdAt: Date;
}

/** Most tries of one message: a sender that died with it claimed may have sent it; one more, then never again. */
export const MAX_SEND_ATTEMPTS = 2;

/** Most tries of a message the provider refused with a passing reason (限流, 系统繁忙, no connection). */
export const MAX_RETRY_ATTEMPTS = 4;

/**
 * Claims (outbox): the oldest queued notifications whose back-off has run out, and those whose
 * sender's lease ran out, become 'sending' until now + leaseMs — committed before anything is sent.
 * A message whose lease ran out after its last try is failed as unknown instead of being sent again.
 */
export async function claimForSending(tx: Tx, limit: number, leaseMs: number): Promise<QueuedNotification[]> {
  await tx.execute(sql`
    UPDATE notifications SET status = 'failed', error = '发送过程中断，结果未知（已停止重发）', lease_until = NULL
    WHERE status = 'sending' AND lease_until < now() AND send_attempts >= ${MAX_SEND_ATTEMPTS}`);
  const r = await tx.execute(sql`
    UPDATE notifications n SET status = 'sending', send_attempts = n.send_attempts + 1,
      lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    FROM (SELECT id FROM notifications
          WHERE (status = 'queued' AND (next_try_at IS NULL OR next_try_at <= now())) OR (status = 'sending' AND lease_until < now())
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED) p
    WHERE n.id = p.id
    RETURNING n.id, n.company_id, n.channel, n.phone, n.content, n.send_attempts, n.created_at`);
  return r.rows
    .map((x) => ({
      id: Number(x.id), companyId: Number(x.company_id), channel: String(x.channel), phone: String(x.phone), content: String(x.content),
      attempt: Number(x.send_attempts), createdAt: new Date(String(x.created_at)),
    }))
    .sort((a, b) => a.id - b.id);
}

/** Records an accepted try (only while that try still holds the message): the provider's id and answer, and its cost. */
export async function markSent(tx: Tx, id: number, attempt: number, provider: string, ref: string, answer: string) {
  await tx.execute(sql`
    UPDATE notifications SET status = 'sent', provider = ${provider}, provider_ref = ${ref}, answer = ${answer}, error = '',
      sent_at = now(), lease_until = NULL, next_try_at = NULL, cost_fen = price_fen
    WHERE id = ${id} AND status = 'sending' AND send_attempts = ${attempt}`);
}

/** Records a refused try: failed for good, or queued again until `retryInMs` has passed (back-off). */
export async function markFailed(tx: Tx, id: number, attempt: number, provider: string, error: string, answer: string, retryInMs: number | null) {
  await tx.execute(sql`
    UPDATE notifications SET status = ${retryInMs == null ? 'failed' : 'queued'}, provider = ${provider}, error = ${error}, answer = ${answer},
      lease_until = NULL, next_try_at = ${retryInMs == null ? null : sql`now() + make_interval(secs => ${retryInMs / 1000})`}
    WHERE id = ${id} AND status = 'sending' AND send_attempts = ${attempt}`);
}

export interface AwaitingRow {
  id: number;
  companyId: number;
  provider: string;
  phone: string;
  ref: string;
  idempotencyKey: string;
  sentAt: Date;
}

/** Messages a provider accepted in the last 3 days whose delivery receipt is not in yet, oldest first. */
export async function awaitingReceipts(tx: Tx, limit: number): Promise<AwaitingRow[]> {
  const r = await tx.execute(sql`
    SELECT id, company_id, provider, phone, provider_ref, idempotency_key, sent_at FROM notifications
    WHERE status = 'sent' AND receipt = '' AND provider IN ('aliyun', 'tencent') AND sent_at > now() - interval '3 days'
    ORDER BY sent_at LIMIT ${limit}`);
  return r.rows.map((x) => ({
    id: Number(x.id), companyId: Number(x.company_id), provider: String(x.provider), phone: String(x.phone), ref: String(x.provider_ref),
    idempotencyKey: String(x.idempotency_key), sentAt: new Date(String(x.sent_at)),
  }));
}

/** A delivery receipt: delivered keeps the message sent; undelivered fails it (and it costs nothing). */
export async function recordReceipt(tx: Tx, id: number, delivered: boolean, text: string, at: Date) {
  await tx.execute(sql`
    UPDATE notifications SET receipt = ${delivered ? 'delivered' : 'undelivered'}, receipt_text = ${text}, receipt_at = ${at.toISOString()}::timestamptz,
      status = ${delivered ? 'sent' : 'failed'}, error = ${delivered ? '' : `未送达：${text}`}, cost_fen = ${delivered ? sql`cost_fen` : sql`0`}
    WHERE id = ${id} AND status = 'sent' AND receipt = ''`);
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
  inPeriod(w, 'n.created_at', f);
  return sql.join(w, sql` AND `);
}

export async function listNotifications(tx: Tx, f: NotificationFilter, limit: number, offset: number) {
  const w = where(f);
  const rows = await tx.execute(sql`
    SELECT n.id, n.owner_id AS "ownerId", o.name AS "ownerName", n.meter_id AS "meterId", n.level, n.channel, n.phone, n.content,
      n.status, n.provider, n.price_fen AS "priceFen", n.cost_fen AS "costFen", n.error, n.send_attempts AS "attempts",
      n.provider_ref AS "providerRef", n.answer, n.receipt, n.receipt_text AS "receiptText",
      ${localTime(sql`n.receipt_at`)} AS "receiptAt", ${localTime(sql`n.next_try_at`)} AS "nextTryAt",
      ${localTime(sql`n.created_at`)} AS "createdAt",
      ${localTime(sql`n.sent_at`)} AS "sentAt"
    FROM notifications n LEFT JOIN owners o ON o.id = n.owner_id
    WHERE ${w} ORDER BY n.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n, COALESCE(sum(n.cost_fen), 0)::bigint AS cost FROM notifications n LEFT JOIN owners o ON o.id = n.owner_id WHERE ${w}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0), costFen: Number(c.rows[0]?.cost ?? 0) };
}
