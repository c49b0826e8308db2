import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';

// The only SQL of 短信余额 (a company's SMS credit, companies.sms_credit_fen, and its journal
// sms_credit_journal). NULL credit = none kept: messages are not limited. A priced message is charged
// when it is claimed for sending (once: notifications.credit_fen remembers it) — or held ('held',
// 余额不足) when the credit does not cover it; a top-up queues the held messages again. A message that
// finally fails, or is reported undelivered, gets its charge back.

export const HELD_ERROR = '短信余额不足，已暂停发送；平台充值后自动发送';

export interface CreditState {
  companyId: number;
  creditFen: number | null;
  smsPriceFen: number;
  phonePriceFen: number;
  heldCount: number;
}

export async function creditOf(tx: Tx, companyId: number): Promise<CreditState | null> {
  const r = await tx.execute(sql`
    SELECT c.id, c.sms_credit_fen, c.sms_price_fen, c.phone_price_fen,
      (SELECT count(*)::int FROM notifications n WHERE n.company_id = c.id AND n.status = 'held') AS held
    FROM companies c WHERE c.id = ${companyId}`);
  const x = r.rows[0];
  if (!x) return null;
  return {
    companyId: Number(x.id), creditFen: x.sms_credit_fen == null ? null : Number(x.sms_credit_fen), smsPriceFen: Number(x.sms_price_fen),
    phonePriceFen: Number(x.phone_price_fen), heldCount: Number(x.held),
  };
}

/**
 * Of the messages just claimed, charges each priced one not charged yet to its company's credit (when
 * one is kept) or holds it when the credit does not cover it. Answers the ids held (not to be sent).
 */
export async function chargeClaimed(tx: Tx, ids: number[]): Promise<Set<number>> {
  const held = new Set<number>();
  if (!ids.length) return held;
  const r = await tx.execute(sql`
    SELECT n.id, n.company_id, n.price_fen FROM notifications n JOIN companies c ON c.id = n.company_id
    WHERE n.id = ANY(${sql.param(ids)}::bigint[]) AND n.price_fen > 0 AND n.credit_fen = 0 AND c.sms_credit_fen IS NOT NULL ORDER BY n.id`);
  for (const x of r.rows) {
    const id = Number(x.id);
    const price = Number(x.price_fen);
    const c = await tx.execute(sql`
      UPDATE companies SET sms_credit_fen = sms_credit_fen - ${price} WHERE id = ${x.company_id} AND sms_credit_fen >= ${price} RETURNING sms_credit_fen`);
    if (c.rows[0]) {
      await tx.execute(sql`UPDATE notifications SET credit_fen = ${price} WHERE id = ${id}`);
      await tx.execute(sql`
        INSERT INTO sms_credit_journal (company_id, kind, amount_fen, balance_fen, notification_id, memo)
        VALUES (${x.company_id}, 'charge', ${-price}, ${c.rows[0].sms_credit_fen}, ${id}, '消息发送扣费')`);
    } else {
      // not a try: the message goes back as it was, held until a top-up
      await tx.execute(sql`
        UPDATE notifications SET status = 'held', error = ${HELD_ERROR}, lease_until = NULL, next_try_at = NULL, send_attempts = greatest(send_attempts - 1, 0)
        WHERE id = ${id}`);
      held.add(id);
    }
  }
  return held;
}

/** A message that failed for good (or was not delivered) gets its charge back. */
export async function refundFailed(tx: Tx, id: number) {
  await tx.execute(sql`
    WITH old AS (SELECT id, company_id, credit_fen FROM notifications WHERE id = ${id} AND credit_fen > 0 AND status = 'failed' FOR UPDATE),
      n AS (UPDATE notifications x SET credit_fen = 0 FROM old WHERE x.id = old.id RETURNING x.id),
      c AS (UPDATE companies SET sms_credit_fen = sms_credit_fen + old.credit_fen FROM old WHERE companies.id = old.company_id AND sms_credit_fen IS NOT NULL
            RETURNING companies.id, companies.sms_credit_fen)
    INSERT INTO sms_credit_journal (company_id, kind, amount_fen, balance_fen, notification_id, memo)
    SELECT old.company_id, 'refund', old.credit_fen, c.sms_credit_fen, old.id, '发送失败或未送达，退回扣费' FROM old JOIN c ON c.id = old.company_id`);
}

/** Adds to the credit (starting one if none was kept), journals it and queues the held messages again; answers the new balance and how many were released. */
export async function topUp(tx: Tx, companyId: number, amountFen: number, memo: string, operatorName: string) {
  const c = await tx.execute(sql`UPDATE companies SET sms_credit_fen = coalesce(sms_credit_fen, 0) + ${amountFen} WHERE id = ${companyId} RETURNING sms_credit_fen`);
  if (!c.rows[0]) return null;
  const balance = Number(c.rows[0].sms_credit_fen);
  await tx.execute(sql`
    INSERT INTO sms_credit_journal (company_id, kind, amount_fen, balance_fen, memo, operator_name)
    VALUES (${companyId}, 'topup', ${amountFen}, ${balance}, ${memo}, ${operatorName})`);
  const released = await tx.execute(sql`
    UPDATE notifications SET status = 'queued', error = '', next_try_at = NULL WHERE company_id = ${companyId} AND status = 'held' RETURNING id`);
  return { balance, released: released.rows.length };
}

export async function journal(tx: Tx, companyId: number | null, limit: number, offset: number) {
  const where = companyId == null ? sql`true` : sql`j.company_id = ${companyId}`;
  const rows = await tx.execute(sql`
    SELECT j.id, j.company_id AS "companyId", j.kind, j.amount_fen AS "amountFen", j.balance_fen AS "balanceFen", j.notification_id AS "notificationId",
      j.memo, j.operator_name AS "operatorName", ${localTime(sql`j.created_at`)} AS "createdAt"
    FROM sms_credit_journal j WHERE ${where} ORDER BY j.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::int AS n FROM sms_credit_journal j WHERE ${where}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}
