import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { companyRows, inRoomScope, type RoomScope } from '../../db/where.ts';

// The only SQL of online payments.


export async function insertPayment(tx: Tx, p: {
  companyId: number; ownerId: number; accountId: number; roomId: number; channel: string; outTradeNo: string; amountFen: number;
  subject: string; codeUrl: string; expiresAt: Date; createdBy: number | null; merchantCompanyId: number | null;
}) {
  const r = await tx.execute(sql`
    INSERT INTO payments (company_id, owner_id, account_id, room_id, channel, out_trade_no, amount_fen, subject, code_url, expires_at, created_by, merchant_company_id)
    VALUES (${p.companyId}, ${p.ownerId}, ${p.accountId}, ${p.roomId}, ${p.channel}, ${p.outTradeNo}, ${p.amountFen}, ${p.subject},
      ${p.codeUrl}, ${p.expiresAt.toISOString()}, ${p.createdBy}, ${p.merchantCompanyId})
    RETURNING id, ${localTime(sql`expires_at`)} AS expires_at`);
  return { id: Number(r.rows[0].id), expiresAt: String(r.rows[0].expires_at) };
}

export interface PaymentRow {
  id: number;
  companyId: number;
  ownerId: number;
  accountId: number;
  roomId: number | null;
  channel: string;
  outTradeNo: string;
  amountFen: number;
  status: string;
  wallet: string;
  /** the staff member who took the order at the counter (null: the owner's own order) */
  createdBy: number | null;
  creatorName: string;
  /** whose merchant took the order (null: the platform's) */
  merchantCompanyId: number | null;
}

/** The order (visible in the transaction's scope), locked. */
export async function lockPayment(tx: Tx, outTradeNo: string): Promise<PaymentRow | undefined> {
  const r = await tx.execute(sql`
    SELECT p.id, p.company_id, p.owner_id, p.account_id, p.room_id, p.channel, p.out_trade_no, p.amount_fen, p.status, a.wallet, p.created_by, p.merchant_company_id,
      coalesce((SELECT coalesce(nullif(u.real_name, ''), u.username) FROM admin_users u WHERE u.id = p.created_by), '') AS creator_name
    FROM payments p JOIN accounts a ON a.id = p.account_id WHERE p.out_trade_no = ${outTradeNo} FOR UPDATE OF p`);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    id: Number(x.id), companyId: Number(x.company_id), ownerId: Number(x.owner_id), accountId: Number(x.account_id),
    roomId: x.room_id == null ? null : Number(x.room_id), channel: String(x.channel), outTradeNo: String(x.out_trade_no),
    amountFen: Number(x.amount_fen), status: String(x.status), wallet: String(x.wallet),
    createdBy: x.created_by == null ? null : Number(x.created_by), creatorName: String(x.creator_name),
    merchantCompanyId: x.merchant_company_id == null ? null : Number(x.merchant_company_id),
  };
}

export async function markPaid(tx: Tx, id: number, providerTradeNo: string, journalId: number) {
  await tx.execute(sql`
    UPDATE payments SET status = 'paid', provider_trade_no = ${providerTradeNo}, journal_id = ${journalId}, paid_at = now() WHERE id = ${id}`);
}

export interface PaymentFilter extends RoomScope {
  channel?: string;
  status?: string;
  outTradeNo?: string;
}

function where(f: PaymentFilter): SQL {
  const w = companyRows('p.company_id', f.companyId);
  if (f.channel) w.push(sql`p.channel = ${f.channel}`);
  if (f.status === 'closed') w.push(sql`(p.status = 'closed' OR (p.status = 'created' AND p.expires_at < now()))`);
  else if (f.status === 'created') w.push(sql`p.status = 'created' AND p.expires_at >= now()`);
  else if (f.status) w.push(sql`p.status = ${f.status}`);
  if (f.outTradeNo) w.push(sql`p.out_trade_no = ${f.outTradeNo}`);
  inRoomScope(w, 'p.room_id', f);
  return sql.join(w, sql` AND `);
}

export async function listPayments(tx: Tx, f: PaymentFilter, limit: number, offset: number) {
  const w = where(f);
  const rows = await tx.execute(sql`
    SELECT p.id, p.out_trade_no AS "outTradeNo", p.channel, p.merchant_company_id AS "merchantCompanyId", a.wallet, p.amount_fen AS "amountFen",
      CASE WHEN p.status = 'created' AND p.expires_at < now() THEN 'closed' ELSE p.status END AS status,
      p.provider_trade_no AS "providerTradeNo", p.subject, p.room_id AS "roomId", r.name AS "roomName", p.owner_id AS "ownerId", o.name AS "ownerName",
      p.journal_id AS "journalId", (SELECT rc.id FROM receipts rc WHERE rc.journal_id = p.journal_id) AS "receiptId",
      (SELECT coalesce(sum(f.amount_fen), 0) FROM payment_refunds f WHERE f.payment_id = p.id AND f.status <> 'failed') AS "refundedFen",
      ${localTime(sql`p.created_at`)} AS "createdAt", ${localTime(sql`p.paid_at`)} AS "paidAt", ${localTime(sql`p.expires_at`)} AS "expiresAt"
    FROM payments p JOIN accounts a ON a.id = p.account_id LEFT JOIN rooms r ON r.id = p.room_id LEFT JOIN owners o ON o.id = p.owner_id
    WHERE ${w} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM payments p WHERE ${w}`);
  return { rows: rows.rows, count: Number(c.rows[0]?.n ?? 0) };
}

export async function setCodeUrl(tx: Tx, id: number, codeUrl: string) {
  await tx.execute(sql`UPDATE payments SET code_url = ${codeUrl} WHERE id = ${id}`);
}

/** An unpaid order is closed (a paid one stays paid). */
export async function closePayment(tx: Tx, id: number) {
  await tx.execute(sql`UPDATE payments SET status = 'closed' WHERE id = ${id} AND status = 'created'`);
}

/**
 * Unpaid orders older than minAgeMs (oldest first), for the query job: the platform merchant's of these
 * channels, and (withMerchants) every company merchant's; expired: past expires_at.
 */
export async function openPayments(tx: Tx, channels: string[], minAgeMs: number, limit: number, withMerchants = false) {
  const platform = channels.length ? sql`(merchant_company_id IS NULL AND channel IN ${channels})` : sql`false`;
  const own = withMerchants ? sql`merchant_company_id IS NOT NULL` : sql`false`;
  const r = await tx.execute(sql`
    SELECT id, channel, out_trade_no, merchant_company_id, expires_at < now() AS expired FROM payments
    WHERE status = 'created' AND (${platform} OR ${own}) AND created_at < now() - make_interval(secs => ${minAgeMs / 1000})
    ORDER BY created_at LIMIT ${limit}`);
  return r.rows.map((x) => ({
    id: Number(x.id), channel: String(x.channel), outTradeNo: String(x.out_trade_no), expired: x.expired === true,
    merchantCompanyId: x.merchant_company_id == null ? null : Number(x.merchant_company_id),
  }));
}

/** Whose merchant took the order (null: the platform's; undefined: no such order). */
export async function merchantOfOrder(tx: Tx, outTradeNo: string): Promise<number | null | undefined> {
  const r = await tx.execute(sql`SELECT merchant_company_id FROM payments WHERE out_trade_no = ${outTradeNo}`);
  if (!r.rows[0]) return undefined;
  return r.rows[0].merchant_company_id == null ? null : Number(r.rows[0].merchant_company_id);
}
