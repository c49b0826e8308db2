import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';

// The only SQL of online refunds (payment_refunds).

export interface RefundRecord {
  id: number;
  companyId: number;
  paymentId: number;
  channel: string;
  outTradeNo: string;
  outRefundNo: string;
  amountFen: number;
  reason: string;
  status: string;
  journalId: number | null;
  createdByName: string;
}

const record = (x: Record<string, unknown>): RefundRecord => ({
  id: Number(x.id), companyId: Number(x.company_id), paymentId: Number(x.payment_id), channel: String(x.channel), outTradeNo: String(x.out_trade_no),
  outRefundNo: String(x.out_refund_no), amountFen: Number(x.amount_fen), reason: String(x.reason), status: String(x.status),
  journalId: x.journal_id == null ? null : Number(x.journal_id), createdByName: String(x.created_by_name ?? ''),
});

/** The refund of this out_refund_no (visible in the transaction's scope), locked (lock: lock its order first). */
export async function lockRefund(tx: Tx, outRefundNo: string, lock = true): Promise<RefundRecord | undefined> {
  const r = await tx.execute(sql`SELECT * FROM payment_refunds WHERE out_refund_no = ${outRefundNo} ${lock ? sql`FOR UPDATE` : sql``}`);
  return r.rows[0] ? record(r.rows[0]) : undefined;
}

/** 分 refunded or being refunded of an order (failed refunds gave their money back). */
export async function refundedFen(tx: Tx, paymentId: number): Promise<number> {
  const r = await tx.execute(sql`SELECT coalesce(sum(amount_fen), 0)::bigint AS n FROM payment_refunds WHERE payment_id = ${paymentId} AND status <> 'failed'`);
  return Number(r.rows[0]?.n ?? 0);
}

export async function insertRefund(tx: Tx, r: {
  companyId: number; paymentId: number; channel: string; outTradeNo: string; outRefundNo: string; amountFen: number; reason: string;
  createdBy: number | null; createdByName: string;
}): Promise<number> {
  const x = await tx.execute(sql`
    INSERT INTO payment_refunds (company_id, payment_id, channel, out_trade_no, out_refund_no, amount_fen, reason, created_by, created_by_name)
    VALUES (${r.companyId}, ${r.paymentId}, ${r.channel}, ${r.outTradeNo}, ${r.outRefundNo}, ${r.amountFen}, ${r.reason}, ${r.createdBy}, ${r.createdByName})
    RETURNING id`);
  return Number(x.rows[0].id);
}

export async function setJournal(tx: Tx, id: number, journalId: number) {
  await tx.execute(sql`UPDATE payment_refunds SET journal_id = ${journalId} WHERE id = ${id}`);
}

/** The provider's answer: success or failed (final), or still processing (its refund number noted). */
export async function finishRefund(tx: Tx, id: number, f: { status: string; providerRefundNo: string; providerMessage: string; reversalJournalId?: number | null }) {
  const final = f.status !== 'processing';
  await tx.execute(sql`
    UPDATE payment_refunds SET status = ${f.status}, provider_refund_no = coalesce(nullif(${f.providerRefundNo}, ''), provider_refund_no),
      provider_message = ${f.providerMessage.slice(0, 255)}, reversal_journal_id = coalesce(${f.reversalJournalId ?? null}::bigint, reversal_journal_id),
      finished_at = CASE WHEN ${final} THEN now() ELSE finished_at END
    WHERE id = ${id}`);
}

const columns = sql`
  f.id, f.out_trade_no AS "outTradeNo", f.out_refund_no AS "outRefundNo", f.channel, f.amount_fen AS "amountFen", f.reason, f.status,
  f.provider_refund_no AS "providerRefundNo", f.provider_message AS "providerMessage", f.created_by_name AS "createdByName",
  ${localTime(sql`f.created_at`)} AS "createdAt", ${localTime(sql`f.finished_at`)} AS "finishedAt",
  (SELECT r.id FROM receipts r WHERE r.journal_id = f.journal_id AND f.status = 'success') AS "receiptId",
  (SELECT r.no FROM receipts r WHERE r.journal_id = f.journal_id AND f.status = 'success') AS "receiptNo"`;

export async function refundRow(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT ${columns} FROM payment_refunds f WHERE f.id = ${id}`);
  return r.rows[0];
}

/** The refunds of an order, newest first. */
export async function refundsOf(tx: Tx, paymentId: number) {
  const r = await tx.execute(sql`SELECT ${columns} FROM payment_refunds f WHERE f.payment_id = ${paymentId} ORDER BY f.created_at DESC, f.id DESC`);
  return r.rows;
}

/** Refunds sent and not answered yet, oldest first (the query job). */
export async function openRefunds(tx: Tx, minAgeMs: number, limit: number) {
  const r = await tx.execute(sql`
    SELECT * FROM payment_refunds WHERE status = 'processing' AND created_at < now() - make_interval(secs => ${minAgeMs / 1000}) ORDER BY created_at LIMIT ${limit}`);
  return r.rows.map(record);
}
