import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import type { JournalEntry } from '../billing/index.ts';
import type { DayTotals } from './figures.ts';

// The only SQL of the finance day: closings (日结/交班), the journal figures of a business day, and
// receipt voids (作废/冲正). journal.business_day is set by the database (migration 0036).

/** The advisory lock a closing holds exclusively and every journal writer of a counted kind shares (see 0036). */
const LOCK_NS = 724035;

/** Taken by a closing: waits for every open writer of the company, keeps new ones out until commit. */
export async function lockDays(tx: Tx, companyId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_NS}, ${companyId}::int)`);
}

/** Taken by a writer that checks a day's state before it writes (a void): no closing commits in between. */
export async function holdDays(tx: Tx, companyId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${LOCK_NS}, ${companyId}::int)`);
}

/** One group of a day's journal: per operator, pay method and kind (deductions and fees left out). */
export interface FigureRow {
  day: string;
  operatorId: number | null;
  operatorName: string;
  payMethod: string;
  kind: string;
  amountFen: number;
  count: number;
}

export async function dayFigures(tx: Tx, companyId: number, days: string[], operatorId?: number): Promise<FigureRow[]> {
  if (!days.length) return [];
  const r = await tx.execute(sql`
    SELECT to_char(j.business_day, 'YYYY-MM-DD') AS day, j.operator_id, max(j.operator_name) AS operator_name, j.pay_method, j.kind,
      sum(j.amount_fen)::bigint AS amount_fen, count(*)::int AS n
    FROM journal j
    WHERE j.company_id = ${companyId} AND j.business_day = ANY(${sql.param(days)}::date[]) AND j.kind NOT IN ('deduction', 'fee')
      ${operatorId != null ? sql`AND j.operator_id = ${operatorId}` : sql``}
    GROUP BY j.business_day, j.operator_id, j.pay_method, j.kind`);
  return r.rows.map((x) => ({
    day: String(x.day), operatorId: x.operator_id == null ? null : Number(x.operator_id), operatorName: String(x.operator_name ?? ''),
    payMethod: String(x.pay_method), kind: String(x.kind), amountFen: Number(x.amount_fen), count: Number(x.n),
  }));
}

export interface ClosingRow {
  id: number;
  day: string;
  operatorId: number | null;
  operatorName: string;
  totals: DayTotals;
  netFen: number;
  entries: number;
  closedByName: string;
  memo: string;
  closedAt: string;
}

const closingColumns = sql`id, to_char(day, 'YYYY-MM-DD') AS day, operator_id, operator_name, totals, net_fen, entries, closed_by_name, memo,
  ${localTime(sql`closed_at`)} AS closed_at`;

const closingOf = (x: Record<string, unknown>): ClosingRow => ({
  id: Number(x.id), day: String(x.day), operatorId: x.operator_id == null ? null : Number(x.operator_id), operatorName: String(x.operator_name),
  totals: x.totals as DayTotals, netFen: Number(x.net_fen), entries: Number(x.entries), closedByName: String(x.closed_by_name),
  memo: String(x.memo), closedAt: String(x.closed_at),
});

/** The closings (日结 and 交班) of these days. */
export async function closings(tx: Tx, companyId: number, days: string[]): Promise<ClosingRow[]> {
  if (!days.length) return [];
  const r = await tx.execute(sql`
    SELECT ${closingColumns} FROM finance_closings WHERE company_id = ${companyId} AND day = ANY(${sql.param(days)}::date[])
    ORDER BY day, operator_id NULLS FIRST`);
  return r.rows.map(closingOf);
}

/** Is the day closed for the company, or for this operator's shift? */
export async function dayClosed(tx: Tx, companyId: number, day: string, operatorId: number | null) {
  const r = await tx.execute(sql`
    SELECT operator_id FROM finance_closings
    WHERE company_id = ${companyId} AND day = ${day}::date AND (operator_id IS NULL OR operator_id = ${operatorId})
    ORDER BY operator_id NULLS FIRST LIMIT 1`);
  const x = r.rows[0];
  return x ? { company: x.operator_id == null } : null;
}

export async function insertClosing(tx: Tx, v: {
  companyId: number; day: string; operatorId: number | null; operatorName: string; totals: DayTotals; netFen: number; entries: number;
  closedBy: number; closedByName: string; memo: string;
}): Promise<ClosingRow> {
  const r = await tx.execute(sql`
    INSERT INTO finance_closings (company_id, day, operator_id, operator_name, totals, net_fen, entries, closed_by, closed_by_name, memo)
    VALUES (${v.companyId}, ${v.day}::date, ${v.operatorId}, ${v.operatorName}, ${JSON.stringify(v.totals)}::jsonb, ${v.netFen}, ${v.entries},
      ${v.closedBy}, ${v.closedByName}, ${v.memo})
    RETURNING ${closingColumns}`);
  return closingOf(r.rows[0]);
}

/** A staff member of the company (for a hand-over of someone else's shift). */
export async function staffName(tx: Tx, userId: number): Promise<string | undefined> {
  const r = await tx.execute(sql`SELECT coalesce(nullif(real_name, ''), username) AS name FROM admin_users WHERE id = ${userId}`);
  return r.rows[0] ? String(r.rows[0].name) : undefined;
}

export async function companyName(tx: Tx, companyId: number): Promise<string> {
  const r = await tx.execute(sql`SELECT name FROM companies WHERE id = ${companyId}`);
  return String(r.rows[0]?.name ?? '');
}

// ---- receipt voids -----------------------------------------------------------------------------------

/** A receipt and the journal row it records. */
export interface VoidTarget extends JournalEntry {
  receiptId: number;
  no: string;
  receiptKind: string;
  journalId: number;
  operatorId: number | null;
  businessDay: string;
  voided: boolean;
}

/** A receipt (visible to the caller) with the journal row it records, locked against a concurrent void. */
export async function lockVoidTarget(tx: Tx, receiptId: number, areaRestricted: boolean): Promise<VoidTarget | undefined> {
  const r = await tx.execute(sql`
    SELECT rc.id AS receipt_id, rc.no, rc.kind AS receipt_kind, rc.company_id, j.id AS journal_id, j.account_id, j.owner_id, j.room_id, j.wallet, j.kind,
      j.amount_fen, j.pay_method, j.ref_type, j.operator_id, to_char(j.business_day, 'YYYY-MM-DD') AS business_day,
      EXISTS (SELECT 1 FROM receipt_voids v WHERE v.receipt_id = rc.id OR v.journal_id = j.id) AS voided
    FROM receipts rc JOIN journal j ON j.id = rc.journal_id
    WHERE rc.id = ${receiptId} ${areaRestricted ? sql`AND rc.room_id IN (SELECT ra.id FROM rooms ra)` : sql``}
    FOR UPDATE OF rc`);
  const x = r.rows[0];
  if (!x) return undefined;
  return {
    receiptId: Number(x.receipt_id), no: String(x.no), receiptKind: String(x.receipt_kind), companyId: Number(x.company_id), journalId: Number(x.journal_id),
    accountId: Number(x.account_id), ownerId: Number(x.owner_id), roomId: x.room_id == null ? null : Number(x.room_id), wallet: String(x.wallet),
    kind: String(x.kind), amountFen: Number(x.amount_fen), payMethod: String(x.pay_method), refType: String(x.ref_type),
    operatorId: x.operator_id == null ? null : Number(x.operator_id), businessDay: String(x.business_day), voided: x.voided === true,
  };
}

export async function insertVoid(tx: Tx, v: {
  receiptId: number; companyId: number; journalId: number; reversalJournalId: number; reason: string; voidedBy: number; voidedByName: string;
}) {
  await tx.execute(sql`
    INSERT INTO receipt_voids (receipt_id, company_id, journal_id, reversal_journal_id, reason, voided_by, voided_by_name)
    VALUES (${v.receiptId}, ${v.companyId}, ${v.journalId}, ${v.reversalJournalId}, ${v.reason}, ${v.voidedBy}, ${v.voidedByName})`);
}

/** The voids of these receipts (visible in the caller's scope). */
export async function voidsOf(tx: Tx, receiptIds: number[]) {
  if (!receiptIds.length) return [];
  const r = await tx.execute(sql`
    SELECT v.receipt_id, v.reversal_journal_id, v.reason, v.voided_by_name, ${localTime(sql`v.voided_at`)} AS voided_at,
      j.amount_fen, to_char(j.business_day, 'YYYY-MM-DD') AS business_day
    FROM receipt_voids v JOIN journal j ON j.id = v.reversal_journal_id
    WHERE v.receipt_id = ANY(${sql.param(receiptIds)}::bigint[])`);
  return r.rows.map((x) => ({
    receiptId: Number(x.receipt_id), reversalJournalId: Number(x.reversal_journal_id), reason: String(x.reason), voidedByName: String(x.voided_by_name),
    voidedAt: String(x.voided_at), amountFen: Number(x.amount_fen), businessDay: String(x.business_day),
  }));
}
