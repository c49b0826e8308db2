import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { rowMapper } from '../../db/row-map.ts';
import { companyRows, inPeriod } from '../../db/where.ts';

// The only SQL of the pay-application accounts.

const num = (v: unknown) => Number(v);

export interface AppRow {
  id: number;
  companyId: number;
  name: string;
  kind: number;
  idNo: string;
  status: string;
  providerAppId: string;
  bankName: string;
  bankAccountName: string;
  bankAccountNo: string;
  balanceFen: number;
}

const appRow = (x: Record<string, unknown>): AppRow => ({
  id: num(x.id), companyId: num(x.company_id), name: String(x.name), kind: num(x.kind), idNo: String(x.id_no), status: String(x.status),
  providerAppId: String(x.provider_app_id), bankName: String(x.bank_name), bankAccountName: String(x.bank_account_name),
  bankAccountNo: String(x.bank_account_no), balanceFen: num(x.balance_fen),
});

export async function insertApp(tx: Tx, a: {
  companyId: number; name: string; kind: number; legalPerson: string; contactName: string; idNo: string; phone: string;
  bankName: string; bankAccountName: string; bankAccountNo: string; memo: string; createdBy: number;
}) {
  const r = await tx.execute(sql`
    INSERT INTO pay_apps (company_id, name, kind, legal_person, contact_name, id_no, phone, bank_name, bank_account_name, bank_account_no, memo, created_by)
    VALUES (${a.companyId}, ${a.name}, ${a.kind}, ${a.legalPerson}, ${a.contactName}, ${a.idNo}, ${a.phone}, ${a.bankName}, ${a.bankAccountName},
      ${a.bankAccountNo}, ${a.memo}, ${a.createdBy})
    ON CONFLICT DO NOTHING RETURNING id`);
  return r.rows[0] ? num(r.rows[0].id) : null;
}

/** The account (visible in the transaction's scope, not deleted), locked. */
export async function lockApp(tx: Tx, id: number, includeDeleted = false): Promise<AppRow | undefined> {
  const r = await tx.execute(sql`SELECT * FROM pay_apps WHERE id = ${id} AND (deleted_at IS NULL OR ${includeDeleted}) FOR UPDATE`);
  return r.rows[0] ? appRow(r.rows[0]) : undefined;
}

export async function updateBank(tx: Tx, id: number, b: { bankName: string; bankAccountName: string; bankAccountNo: string }) {
  await tx.execute(sql`
    UPDATE pay_apps SET bank_name = ${b.bankName}, bank_account_name = ${b.bankAccountName}, bank_account_no = ${b.bankAccountNo}, updated_at = now()
    WHERE id = ${id}`);
}

export async function setStatus(tx: Tx, id: number, status: string, extra: { providerAppId?: string; reason?: string } = {}) {
  await tx.execute(sql`
    UPDATE pay_apps SET status = ${status}, updated_at = now(),
      provider_app_id = coalesce(${extra.providerAppId ?? null}, provider_app_id),
      reason = coalesce(${extra.reason ?? null}, reason),
      opened_at = CASE WHEN ${status} = 'opened' AND opened_at IS NULL THEN now() ELSE opened_at END
    WHERE id = ${id}`);
}

export async function softDelete(tx: Tx, id: number) {
  await tx.execute(sql`UPDATE pay_apps SET deleted_at = now(), updated_at = now() WHERE id = ${id}`);
}

export async function setBalance(tx: Tx, id: number, balanceFen: number) {
  await tx.execute(sql`UPDATE pay_apps SET balance_fen = ${balanceFen}, updated_at = now() WHERE id = ${id}`);
}

/** Withdrawals of the account still being processed: how many and how much. */
export async function processing(tx: Tx, appId: number) {
  const r = await tx.execute(sql`
    SELECT count(*)::int AS n, coalesce(sum(amount_fen), 0)::bigint AS fen FROM pay_app_withdrawals WHERE app_id = ${appId} AND status = 0`);
  return { count: num(r.rows[0].n), amountFen: num(r.rows[0].fen) };
}

export interface JournalEntry {
  companyId: number;
  appId: number;
  kind: 'collect' | 'withdrawal' | 'fee' | 'reversal';
  amountFen: number;
  balanceAfterFen: number;
  key: string;
  refType: string;
  refId: number | null;
  operatorName: string;
  memo: string;
}

/** Appends a journal row; null when its key is already there (the effect was done before). */
export async function insertJournal(tx: Tx, e: JournalEntry): Promise<number | null> {
  const r = await tx.execute(sql`
    INSERT INTO pay_app_journal (company_id, app_id, kind, amount_fen, balance_after_fen, idempotency_key, ref_type, ref_id, operator_name, memo)
    VALUES (${e.companyId}, ${e.appId}, ${e.kind}, ${e.amountFen}, ${e.balanceAfterFen}, ${e.key}, ${e.refType}, ${e.refId}, ${e.operatorName}, ${e.memo})
    ON CONFLICT (company_id, idempotency_key) DO NOTHING RETURNING id`);
  return r.rows[0] ? num(r.rows[0].id) : null;
}

const wdRow = rowMapper({
  id: 'number', companyId: 'number', appId: 'number', requestId: 'string', amountFen: 'number', feeFen: 'number', status: 'number',
  bankAccountNo: 'string', providerNo: 'string', createdAt: 'date',
});
export type WithdrawalRow = ReturnType<typeof wdRow>;

export async function withdrawalByRequest(tx: Tx, companyId: number, requestId: string) {
  const r = await tx.execute(sql`SELECT * FROM pay_app_withdrawals WHERE company_id = ${companyId} AND request_id = ${requestId}`);
  return r.rows[0] ? wdRow(r.rows[0]) : undefined;
}

export async function insertWithdrawal(tx: Tx, w: {
  companyId: number; appId: number; requestId: string; amountFen: number; feeFen: number; bankName: string; bankAccountName: string;
  bankAccountNo: string; memo: string; operatorId: number; operatorName: string;
}) {
  const r = await tx.execute(sql`
    INSERT INTO pay_app_withdrawals (company_id, app_id, request_id, amount_fen, fee_fen, bank_name, bank_account_name, bank_account_no, memo, operator_id, operator_name)
    VALUES (${w.companyId}, ${w.appId}, ${w.requestId}, ${w.amountFen}, ${w.feeFen}, ${w.bankName}, ${w.bankAccountName}, ${w.bankAccountNo},
      ${w.memo}, ${w.operatorId}, ${w.operatorName})
    RETURNING *`);
  return wdRow(r.rows[0]);
}

/** Withdrawals still processing, with what the provider needs; the oldest first. */
export async function processingWithdrawals(tx: Tx, limit: number) {
  const r = await tx.execute(sql`
    SELECT w.*, a.provider_app_id FROM pay_app_withdrawals w JOIN pay_apps a ON a.id = w.app_id
    WHERE w.status = 0 ORDER BY w.id LIMIT ${limit}`);
  return r.rows.map((x) => ({ ...wdRow(x), providerAppId: String(x.provider_app_id) }));
}

export async function lockWithdrawal(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT * FROM pay_app_withdrawals WHERE id = ${id} FOR UPDATE`);
  return r.rows[0] ? wdRow(r.rows[0]) : undefined;
}

export async function setProviderNo(tx: Tx, id: number, providerNo: string) {
  await tx.execute(sql`UPDATE pay_app_withdrawals SET provider_no = ${providerNo} WHERE id = ${id} AND provider_no = ''`);
}

export async function finishWithdrawal(tx: Tx, id: number, status: 1 | 2, reason: string) {
  await tx.execute(sql`UPDATE pay_app_withdrawals SET status = ${status}, reason = ${reason}, finished_at = now() WHERE id = ${id} AND status = 0`);
}

/** Applications waiting for the provider. */
export async function pendingApps(tx: Tx, limit: number) {
  const r = await tx.execute(sql`SELECT * FROM pay_apps WHERE status = 'pending' AND deleted_at IS NULL ORDER BY id LIMIT ${limit}`);
  return r.rows.map(appRow);
}

/** Each company's collecting account: its oldest opened one. */
export async function collectingApps(tx: Tx) {
  const r = await tx.execute(sql`
    SELECT DISTINCT ON (a.company_id) a.id, a.company_id FROM pay_apps a
    WHERE a.status = 'opened' AND a.deleted_at IS NULL ORDER BY a.company_id, a.id`);
  return r.rows.map((x) => ({ id: num(x.id), companyId: num(x.company_id) }));
}

/**
 * The company's paid online payments not yet collected, oldest first. After an account's first
 * collection only the recent ones are looked at (see pay_apps.last_collect_at): a range scan of the
 * payments_company_time index instead of every payment the company ever had.
 */
export async function uncollectedPayments(tx: Tx, appId: number, companyId: number, limit: number) {
  const r = await tx.execute(sql`
    SELECT p.id, p.out_trade_no, p.amount_fen, p.channel FROM payments p, pay_apps a
    WHERE a.id = ${appId} AND p.company_id = ${companyId} AND p.status = 'paid'
      AND (a.last_collect_at IS NULL
        OR (p.created_at >= a.last_collect_at - interval '2 days' AND p.paid_at >= a.last_collect_at - interval '10 minutes'))
      AND NOT EXISTS (SELECT 1 FROM pay_app_journal j WHERE j.company_id = p.company_id AND j.idempotency_key = 'pay:' || p.out_trade_no)
    ORDER BY p.paid_at, p.id LIMIT ${limit}`);
  return r.rows.map((x) => ({ id: num(x.id), outTradeNo: String(x.out_trade_no), amountFen: num(x.amount_fen), channel: String(x.channel) }));
}

/** Marks when the account collected (the start of its transaction: every payment paid before then was seen). */
export async function markCollected(tx: Tx, appId: number) {
  await tx.execute(sql`UPDATE pay_apps SET last_collect_at = now() WHERE id = ${appId}`);
}

// ---- lists ----------------------------------------------------------------------------------------

export async function listApps(tx: Tx, f: { companyId: number | null; name?: string; status?: string; id?: number }, limit: number, offset: number) {
  const w: SQL[] = [sql`a.deleted_at IS NULL`];
  if (f.companyId != null) w.push(sql`a.company_id = ${f.companyId}`);
  if (f.name) w.push(sql`a.name ILIKE ${`%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (f.status) w.push(sql`a.status = ${f.status}`);
  if (f.id != null) w.push(sql`a.id = ${f.id}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT a.id, a.company_id AS "companyId", c.name AS "companyName", a.name, a.kind, a.legal_person AS "legalPerson",
      a.contact_name AS "contactName", a.id_no AS "idNo", a.phone, a.bank_name AS "bankName", a.bank_account_name AS "bankAccountName",
      a.bank_account_no AS "bankAccountNo", a.status, a.provider_app_id AS "providerAppId", a.reason, a.balance_fen AS "balanceFen", a.memo,
      coalesce(p.n, 0)::int AS "processingCount", coalesce(p.fen, 0)::bigint AS "processingFen",
      ${localTime(sql`a.opened_at`)} AS "openedAt", ${localTime(sql`a.created_at`)} AS "createdAt", ${localTime(sql`a.updated_at`)} AS "updatedAt"
    FROM pay_apps a LEFT JOIN companies c ON c.id = a.company_id
    LEFT JOIN LATERAL (SELECT count(*) AS n, sum(w.amount_fen) AS fen FROM pay_app_withdrawals w WHERE w.app_id = a.id AND w.status = 0) p ON true
    WHERE ${where} ORDER BY a.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM pay_apps a WHERE ${where}`);
  return { rows: rows.rows, count: num(c.rows[0]?.n ?? 0) };
}

export async function listWithdrawals(tx: Tx, f: { companyId: number | null; status?: number; appId?: number; from?: Date; to?: Date; id?: number }, limit: number, offset: number) {
  const w = companyRows('w.company_id', f.companyId);
  if (f.status != null) w.push(sql`w.status = ${f.status}`);
  if (f.appId != null) w.push(sql`w.app_id = ${f.appId}`);
  if (f.id != null) w.push(sql`w.id = ${f.id}`);
  inPeriod(w, 'w.created_at', f);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT w.id, w.company_id AS "companyId", c.name AS "companyName", w.app_id AS "applicationId", a.name AS "applicationName",
      w.request_id AS "requestId", w.amount_fen AS "amountFen", w.fee_fen AS "feeFen", w.bank_name AS "bankName",
      w.bank_account_name AS "bankAccountName", w.bank_account_no AS "bankAccount", w.status, w.provider_no AS "providerNo", w.reason, w.memo,
      w.operator_name AS "operatorName", ${localTime(sql`w.created_at`)} AS "createdAt", ${localTime(sql`w.finished_at`)} AS "finishedAt"
    FROM pay_app_withdrawals w JOIN pay_apps a ON a.id = w.app_id LEFT JOIN companies c ON c.id = w.company_id
    WHERE ${where} ORDER BY w.created_at DESC, w.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM pay_app_withdrawals w WHERE ${where}`);
  return { rows: rows.rows, count: num(c.rows[0]?.n ?? 0) };
}

export async function listJournal(tx: Tx, f: { companyId: number | null; appId: number; kind?: string; from?: Date; to?: Date }, limit: number, offset: number) {
  const w: SQL[] = [sql`j.app_id = ${f.appId}`];
  if (f.companyId != null) w.push(sql`j.company_id = ${f.companyId}`);
  if (f.kind) w.push(sql`j.kind = ${f.kind}`);
  inPeriod(w, 'j.created_at', f);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT j.id, j.app_id AS "applicationId", j.kind, j.amount_fen AS "amountFen", j.balance_after_fen AS "balanceAfterFen",
      j.idempotency_key AS "key", j.ref_type AS "refType", j.ref_id AS "refId", j.operator_name AS "operatorName", j.memo,
      ${localTime(sql`j.created_at`)} AS "createdAt"
    FROM pay_app_journal j WHERE ${where} ORDER BY j.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM pay_app_journal j WHERE ${where}`);
  return { rows: rows.rows, count: num(c.rows[0]?.n ?? 0) };
}
