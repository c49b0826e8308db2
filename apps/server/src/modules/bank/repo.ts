import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { localTime } from '../../db/local-time.ts';
import { rowMapper } from '../../db/row-map.ts';
import type { RegSubMerRequest } from './protocol.ts';
import { companyRows, inPeriod } from '../../db/where.ts';

// The only SQL of the bank sub-merchants.

const num = (v: unknown) => Number(v);
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An application: what the bank is sent (protocol.ts) and where it stands here. */
export interface PropertyRow extends Omit<RegSubMerRequest, 'outMerNo'> {
  id: number;
  companyId: number;
  status: string;
  subMerId: string;
  bankType: number;
}

const propertyRow = (x: Record<string, unknown>): PropertyRow => ({
  id: num(x.id), companyId: num(x.company_id), name: String(x.name), shortName: String(x.short_name), licenseNo: String(x.license_no),
  legalPerson: String(x.legal_person), legalIdNo: String(x.legal_id_no), contactName: String(x.contact_name), phone: String(x.phone),
  address: String(x.address), accountName: String(x.account_name), accountNo: String(x.account_no), accountBank: String(x.account_bank ?? ''),
  status: String(x.status), subMerId: String(x.sub_mer_id), bankType: num(x.bank_type ?? 0),
});

/** The application (by id or sub-merchant number, visible in the transaction's scope), locked. */
export async function lockProperty(tx: Tx, by: { id: number } | { subMerId: string }): Promise<PropertyRow | undefined> {
  const where = 'id' in by ? sql`p.id = ${by.id}` : sql`p.sub_mer_id = ${by.subMerId}`;
  const r = await tx.execute(sql`
    SELECT p.*, b.name AS account_bank, c.bank_type FROM property_infos p
    LEFT JOIN banks b ON b.id = p.bank_id LEFT JOIN companies c ON c.id = p.company_id
    WHERE ${where} FOR UPDATE OF p`);
  return r.rows[0] ? propertyRow(r.rows[0]) : undefined;
}

export async function statusOf(tx: Tx, ids: number[]) {
  const r = await tx.execute(sql`SELECT id, status, sub_mer_id FROM property_infos WHERE id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
  return r.rows.map((x) => ({ id: num(x.id), status: String(x.status), subMerId: String(x.sub_mer_id) }));
}

export async function setState(tx: Tx, id: number, s: { status: string; subMerId?: string; reason?: string }) {
  await tx.execute(sql`
    UPDATE property_infos SET status = ${s.status}, sub_mer_id = coalesce(${s.subMerId ?? null}, sub_mer_id),
      reason = coalesce(${s.reason ?? null}, reason), updated_at = now(),
      activated_at = CASE WHEN ${s.status} = 'active' AND activated_at IS NULL THEN now() ELSE activated_at END
    WHERE id = ${id}`);
}

/** What a Property_Info row shows besides its own columns. */
export async function propertyExtras(tx: Tx, ids: number[]) {
  if (ids.length === 0) return [];
  const r = await tx.execute(sql`
    SELECT p.id, p.company_id, c.name AS company_name, c.bank_type, coalesce(b.name, '') AS bank_name, p.reason,
      ${localTime(sql`p.activated_at`)} AS activated_at
    FROM property_infos p LEFT JOIN companies c ON c.id = p.company_id LEFT JOIN banks b ON b.id = p.bank_id
    WHERE p.id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
  return r.rows.map((x) => ({
    id: num(x.id), companyId: num(x.company_id), companyName: x.company_name == null ? null : String(x.company_name), bankType: num(x.bank_type ?? 0),
    bankName: String(x.bank_name), reason: String(x.reason), activatedAt: x.activated_at == null ? null : String(x.activated_at),
  }));
}

// ---- the log ----------------------------------------------------------------------------------------

export interface LogEntry {
  companyId: number;
  propertyId: number | null;
  subMerId: string;
  bankName: string;
  action: string;
  ok: boolean;
  errCode: string;
  message: string;
  statusFrom: string;
  statusTo: string;
  request: unknown;
  response: unknown;
  operatorName: string;
}

export async function insertLog(tx: Tx, e: LogEntry) {
  await tx.execute(sql`
    INSERT INTO bank_logs (company_id, property_id, sub_mer_id, bank_name, action, ok, err_code, message, status_from, status_to, request, response, operator_name)
    VALUES (${e.companyId}, ${e.propertyId}, ${e.subMerId}, ${e.bankName}, ${e.action}, ${e.ok}, ${e.errCode}, ${e.message}, ${e.statusFrom}, ${e.statusTo},
      ${JSON.stringify(e.request ?? null)}::jsonb, ${JSON.stringify(e.response ?? null)}::jsonb, ${e.operatorName})`);
}

export async function listLogs(tx: Tx, f: { companyId: number | null; subMerId?: string; action?: string; ok?: boolean; from?: Date; to?: Date }, limit: number, offset: number) {
  const w = companyRows('l.company_id', f.companyId);
  if (f.subMerId) w.push(sql`l.sub_mer_id ILIKE ${like(f.subMerId)}`);
  if (f.action) w.push(sql`l.action = ${f.action}`);
  if (f.ok != null) w.push(sql`l.ok = ${f.ok}`);
  inPeriod(w, 'l.created_at', f);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT l.id, l.company_id AS "companyId", c.name AS "companyName", l.property_id AS "propertyId", p.name AS "propertyName",
      l.sub_mer_id AS "subMerId", l.bank_name AS "bankName", l.action, l.ok, l.err_code AS "errCode", l.message,
      l.status_from AS "statusFrom", l.status_to AS "statusTo", coalesce(l.request::text, '') AS request, coalesce(l.response::text, '') AS response,
      l.operator_name AS "operatorName", ${localTime(sql`l.created_at`)} AS "createdAt"
    FROM bank_logs l LEFT JOIN companies c ON c.id = l.company_id LEFT JOIN property_infos p ON p.id = l.property_id
    WHERE ${where} ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM bank_logs l WHERE ${where}`);
  return {
    rows: rows.rows.map((x): Record<string, unknown> => ({ ...x, id: num(x.id), companyId: num(x.companyId), propertyId: x.propertyId == null ? null : num(x.propertyId) })),
    count: num(c.rows[0]?.n ?? 0),
  };
}

// ---- withdrawals --------------------------------------------------------------------------------------

const wdRow = rowMapper({
  id: 'number', companyId: 'number', propertyId: 'number', requestId: 'string', amountFen: 'number', status: 'number', bankSerial: 'string',
});
export type WithdrawalRow = ReturnType<typeof wdRow>;

export async function withdrawalByRequest(tx: Tx, companyId: number, requestId: string) {
  const r = await tx.execute(sql`SELECT * FROM bank_withdrawals WHERE company_id = ${companyId} AND request_id = ${requestId} FOR UPDATE`);
  return r.rows[0] ? wdRow(r.rows[0]) : undefined;
}

/** Withdrawals of the sub-merchant the bank has not confirmed yet (it may not have taken them from the balance). */
export async function unconfirmedFen(tx: Tx, propertyId: number) {
  const r = await tx.execute(sql`SELECT coalesce(sum(amount_fen), 0)::bigint AS fen FROM bank_withdrawals WHERE property_id = ${propertyId} AND status = 0`);
  return num(r.rows[0].fen);
}

export async function insertWithdrawal(tx: Tx, w: {
  companyId: number; propertyId: number; subMerId: string; requestId: string; amountFen: number; accountName: string; accountNo: string;
  memo: string; operatorId: number; operatorName: string;
}) {
  const r = await tx.execute(sql`
    INSERT INTO bank_withdrawals (company_id, property_id, sub_mer_id, request_id, amount_fen, account_name, account_no, memo, operator_id, operator_name)
    VALUES (${w.companyId}, ${w.propertyId}, ${w.subMerId}, ${w.requestId}, ${w.amountFen}, ${w.accountName}, ${w.accountNo}, ${w.memo}, ${w.operatorId}, ${w.operatorName})
    RETURNING *`);
  return wdRow(r.rows[0]);
}

export async function lockWithdrawal(tx: Tx, id: number) {
  const r = await tx.execute(sql`SELECT * FROM bank_withdrawals WHERE id = ${id} FOR UPDATE`);
  return r.rows[0] ? wdRow(r.rows[0]) : undefined;
}

export async function finishWithdrawal(tx: Tx, id: number, o: { status: number; bankSerial: string; reason: string }) {
  await tx.execute(sql`
    UPDATE bank_withdrawals SET status = ${o.status}, bank_serial = CASE WHEN ${o.bankSerial} = '' THEN bank_serial ELSE ${o.bankSerial} END,
      reason = ${o.reason}, finished_at = CASE WHEN ${o.status} = 0 THEN NULL ELSE now() END
    WHERE id = ${id} AND status = 0`);
}

/** Withdrawals still 处理中 (the bank's answer was lost) that were asked at least `minAgeMs` ago, oldest first. */
export async function pendingWithdrawals(tx: Tx, minAgeMs: number, limit: number) {
  const r = await tx.execute(sql`
    SELECT w.id, w.company_id, w.property_id, w.sub_mer_id, w.amount_fen, p.status AS property_status, c.bank_type,
      extract(epoch FROM now() - w.created_at)::float8 * 1000 AS age_ms
    FROM bank_withdrawals w JOIN property_infos p ON p.id = w.property_id JOIN companies c ON c.id = w.company_id
    WHERE w.status = 0 AND w.created_at < now() - make_interval(secs => ${minAgeMs / 1000})
    ORDER BY w.id LIMIT ${limit}`);
  return r.rows.map((x) => ({
    id: num(x.id), companyId: num(x.company_id), propertyId: num(x.property_id), subMerId: String(x.sub_mer_id), amountFen: num(x.amount_fen),
    propertyStatus: String(x.property_status), bankType: num(x.bank_type), ageMs: Number(x.age_ms),
  }));
}

export async function listWithdrawals(tx: Tx, f: { companyId: number | null; subMerId?: string; id?: number }, limit: number, offset: number) {
  const w = companyRows('w.company_id', f.companyId);
  if (f.subMerId) w.push(sql`w.sub_mer_id = ${f.subMerId}`);
  if (f.id != null) w.push(sql`w.id = ${f.id}`);
  const where = sql.join(w, sql` AND `);
  const rows = await tx.execute(sql`
    SELECT w.id, w.company_id AS "companyId", w.property_id AS "propertyId", p.name AS "propertyName", w.sub_mer_id AS "subMerId",
      w.request_id AS "requestId", w.amount_fen AS "amountFen", w.status, w.bank_serial AS "bankSerial", coalesce(b.name, '') AS "bankName",
      w.account_name AS "accountName", w.account_no AS "accountNo", w.reason, w.memo, w.operator_name AS "operatorName",
      ${localTime(sql`w.created_at`)} AS "createdAt", ${localTime(sql`w.finished_at`)} AS "finishedAt"
    FROM bank_withdrawals w JOIN property_infos p ON p.id = w.property_id LEFT JOIN banks b ON b.id = p.bank_id
    WHERE ${where} ORDER BY w.id DESC LIMIT ${limit} OFFSET ${offset}`);
  const c = await tx.execute(sql`SELECT count(*)::bigint AS n FROM bank_withdrawals w WHERE ${where}`);
  return { rows: rows.rows, count: num(c.rows[0]?.n ?? 0) };
}

// ---- companyBocInfo -------------------------------------------------------------------------------------

export async function bocInfo(tx: Tx, companyId: number) {
  const r = await tx.execute(sql`
    SELECT c.id AS "companyId", c.name AS "companyName", c.bank_type AS "bankType", coalesce(i.mer_id, '') AS "merId",
      coalesce(i.branch_name, '') AS "branchName", coalesce(i.account_name, '') AS "accountName", coalesce(i.account_no, '') AS "accountNo",
      coalesce(i.contact_name, '') AS "contactName", coalesce(i.phone, '') AS phone, coalesce(i.memo, '') AS memo,
      ${localTime(sql`i.updated_at`)} AS "updatedAt"
    FROM companies c LEFT JOIN company_bank_infos i ON i.company_id = c.id WHERE c.id = ${companyId}`);
  return r.rows[0];
}

export async function saveBocInfo(tx: Tx, companyId: number, b: { merId: string; branchName: string; accountName: string; accountNo: string; contactName: string; phone: string; memo: string }) {
  await tx.execute(sql`
    INSERT INTO company_bank_infos (company_id, mer_id, branch_name, account_name, account_no, contact_name, phone, memo)
    VALUES (${companyId}, ${b.merId}, ${b.branchName}, ${b.accountName}, ${b.accountNo}, ${b.contactName}, ${b.phone}, ${b.memo})
    ON CONFLICT (company_id) DO UPDATE SET mer_id = excluded.mer_id, branch_name = excluded.branch_name, account_name = excluded.account_name,
      account_no = excluded.account_no, contact_name = excluded.contact_name, phone = excluded.phone, memo = excluded.memo, updated_at = now()`);
}
