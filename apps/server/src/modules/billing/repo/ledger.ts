// Ledger SQL: accounts, journal and balances (one row or set-based batches), alarm levels. Every function runs inside the caller's transaction.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { accounts, journal, journalKeys } from '../../../db/schema/index.ts';
import { arr } from './sql.ts';

/** A journal row as stored: whose account and wallet, what kind, how much (signed 分), how paid, what for. */
export interface JournalEntry {
  companyId: number;
  accountId: number;
  ownerId: number;
  roomId: number | null;
  wallet: string;
  kind: string;
  amountFen: number;
  payMethod: string;
  refType: string;
}

/** The account row, locked for the rest of the transaction; created (balance 0) if missing. */
export async function lockAccount(tx: Tx, a: { companyId: number; ownerId: number; roomId: number | null; wallet: string }) {
  await tx
    .insert(accounts)
    .values({ companyId: a.companyId, ownerId: a.ownerId, roomId: a.roomId, wallet: a.wallet })
    .onConflictDoNothing({ target: [accounts.ownerId, accounts.wallet] });
  const [row] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.ownerId, a.ownerId), eq(accounts.wallet, a.wallet)))
    .for('update');
  return row;
}

/** The journal row posted under a key: found through journal_keys, then by its primary key (one partition). */
export async function findByKey(tx: Tx, companyId: number, key: string) {
  const [r] = await tx
    .select(getTableColumns(journal))
    .from(journalKeys)
    .innerJoin(journal, and(eq(journal.id, journalKeys.journalId), eq(journal.createdAt, journalKeys.createdAt)))
    .where(and(eq(journalKeys.companyId, companyId), eq(journalKeys.idempotencyKey, key)));
  return r;
}

export async function insertJournal(tx: Tx, v: typeof journal.$inferInsert) {
  const [r] = await tx.insert(journal).values(v).returning();
  return r;
}

export async function setBalance(tx: Tx, accountId: number, balanceFen: number) {
  await tx.update(accounts).set({ balanceFen, updatedAt: sql`now()` }).where(eq(accounts.id, accountId));
}

/** Σ journal of an account, for reconciliation checks. */
export async function journalSum(tx: Tx, accountId: number) {
  const [r] = await tx
    .select({ sum: sql<string>`coalesce(sum(${journal.amountFen}), 0)` })
    .from(journal)
    .where(eq(journal.accountId, accountId));
  return Number(r.sum);
}

export interface LockedAccount {
  id: number;
  companyId: number;
  ownerId: number;
  roomId: number | null;
  wallet: string;
  balanceFen: number;
  status: number;
  alarmLevel: number;
}

export const toLocked = (r: Record<string, unknown>): LockedAccount => ({
  id: Number(r.id),
  companyId: Number(r.company_id),
  ownerId: Number(r.owner_id),
  roomId: r.room_id == null ? null : Number(r.room_id),
  wallet: String(r.wallet),
  balanceFen: Number(r.balance_fen),
  status: Number(r.status),
  alarmLevel: Number(r.alarm_level),
});

async function selectForUpdate(tx: Tx, owners: number[], wallets: string[]) {
  const r = await tx.execute(sql`
    SELECT a.id, a.company_id, a.owner_id, a.room_id, a.wallet, a.balance_fen, a.status, a.alarm_level
    FROM accounts a JOIN unnest(${arr(owners)}::bigint[], ${arr(wallets)}::varchar[]) AS k(owner_id, wallet)
      ON a.owner_id = k.owner_id AND a.wallet = k.wallet
    ORDER BY a.id FOR UPDATE OF a`);
  return r.rows.map(toLocked);
}

/** The accounts of these (owner, wallet) pairs, locked in id order; missing ones are created (balance 0). */
export async function lockAccounts(tx: Tx, want: { companyId: number; ownerId: number; roomId: number | null; wallet: string }[]): Promise<LockedAccount[]> {
  const unique = new Map<string, (typeof want)[number]>();
  for (const w of want) unique.set(`${w.ownerId}:${w.wallet}`, w);
  const pairs = [...unique.values()].sort((a, b) => a.ownerId - b.ownerId || a.wallet.localeCompare(b.wallet));
  const found = await selectForUpdate(tx, pairs.map((p) => p.ownerId), pairs.map((p) => p.wallet));
  const have = new Set(found.map((a) => `${a.ownerId}:${a.wallet}`));
  const missing = pairs.filter((p) => !have.has(`${p.ownerId}:${p.wallet}`));
  if (!missing.length) return found;
  await tx.execute(sql`
    INSERT INTO accounts (company_id, owner_id, room_id, wallet)
    SELECT * FROM unnest(${arr(missing.map((m) => m.companyId))}::bigint[], ${arr(missing.map((m) => m.ownerId))}::bigint[],
      ${arr(missing.map((m) => m.roomId))}::bigint[], ${arr(missing.map((m) => m.wallet))}::varchar[])
    ON CONFLICT (owner_id, wallet) DO NOTHING`);
  return [...found, ...(await selectForUpdate(tx, missing.map((p) => p.ownerId), missing.map((p) => p.wallet)))];
}

/** Journal rows already posted under any of these keys. */
export async function findByKeys(tx: Tx, keys: { companyId: number; key: string }[]) {
  if (!keys.length) return [];
  const r = await tx.execute(sql`
    SELECT j.id, j.account_id, j.balance_after_fen, j.amount_fen, j.company_id, j.idempotency_key
    FROM unnest(${arr(keys.map((k) => k.companyId))}::bigint[], ${arr(keys.map((k) => k.key))}::varchar[]) AS k(company_id, key)
      JOIN journal_keys jk ON jk.company_id = k.company_id AND jk.idempotency_key = k.key
      JOIN journal j ON j.id = jk.journal_id AND j.created_at = jk.created_at`);
  return r.rows.map((x) => ({
    id: Number(x.id),
    accountId: Number(x.account_id),
    balanceAfterFen: Number(x.balance_after_fen),
    amountFen: Number(x.amount_fen),
    companyId: Number(x.company_id),
    idempotencyKey: String(x.idempotency_key),
  }));
}

/** Ids for journal rows about to be inserted (so settlements and receipts can name them first). */
export async function nextJournalIds(tx: Tx, n: number): Promise<number[]> {
  if (n <= 0) return [];
  const r = await tx.execute(sql`SELECT nextval('journal_id_seq') AS id FROM generate_series(1, ${n}::int)`);
  return r.rows.map((x) => Number(x.id));
}

export async function insertJournalRows(tx: Tx, rows: (typeof journal.$inferInsert & { id: number })[]) {
  if (!rows.length) return;
  const col = <K extends keyof (typeof rows)[number]>(k: K) => arr(rows.map((r) => r[k] ?? null));
  await tx.execute(sql`
    INSERT INTO journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen,
      idempotency_key, pay_method, ref_type, ref_id, reverses_id, operator_id, operator_name, memo)
    SELECT * FROM unnest(${col('id')}::bigint[], ${col('companyId')}::bigint[], ${col('accountId')}::bigint[], ${col('ownerId')}::bigint[],
      ${col('roomId')}::bigint[], ${col('wallet')}::varchar[], ${col('kind')}::varchar[], ${col('amountFen')}::bigint[],
      ${col('balanceAfterFen')}::bigint[], ${col('idempotencyKey')}::varchar[], ${col('payMethod')}::varchar[], ${col('refType')}::varchar[],
      ${col('refId')}::bigint[], ${col('reversesId')}::bigint[], ${col('operatorId')}::bigint[], ${col('operatorName')}::varchar[], ${col('memo')}::text[])`);
}

export async function setBalances(tx: Tx, rows: { accountId: number; balanceFen: number }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE accounts a SET balance_fen = v.b, updated_at = now()
    FROM unnest(${arr(rows.map((r) => r.accountId))}::bigint[], ${arr(rows.map((r) => r.balanceFen))}::bigint[]) AS v(id, b)
    WHERE a.id = v.id`);
}

// ---- alarms ----------------------------------------------------------------------------------------

export interface AlarmContext {
  accountId: number;
  ownerName: string;
  phone: string;
  roomName: string;
  companyName: string;
  smsPriceFen: number;
  phonePriceFen: number;
  thresholds: { alarm1Fen: number; alarm2Fen: number; closeFen: number; overdraftFen: number } | null;
  notifySms: boolean;
  notifyPhone: boolean;
  /** the meters of the wallet's kind in the owner's current room (in use, not 公摊 meters) */
  meterIds: number[];
}

/**
 * What the alarm rules need per account: the owner and room, the company's name and message
 * prices, and the alarm scheme of the account's meters (the first meter, by id, that has one).
 */
export async function alarmContexts(tx: Tx, accountIds: number[]): Promise<AlarmContext[]> {
  if (!accountIds.length) return [];
  const r = await tx.execute(sql`
    SELECT a.id AS account_id, o.name AS owner_name, o.phone, coalesce(r.name, '') AS room_name,
      c.name AS company_name, c.sms_price_fen, c.phone_price_fen,
      s.id AS scheme_id, s.alarm1_fen, s.alarm2_fen, s.close_fen, s.overdraft_fen, s.notify_sms, s.notify_phone,
      coalesce(ms.meter_ids, '{}') AS meter_ids
    FROM accounts a
    JOIN owners o ON o.id = a.owner_id
    JOIN companies c ON c.id = a.company_id
    LEFT JOIN rooms r ON r.id = o.room_id AND o.status = 1
    LEFT JOIN LATERAL (
      SELECT array_agg(m.id ORDER BY m.id) AS meter_ids,
        (array_agg(m.alarm_scheme_id ORDER BY m.id) FILTER (WHERE m.alarm_scheme_id IS NOT NULL))[1] AS scheme_id
      FROM meters m
      WHERE m.room_id = r.id AND m.kind = CASE a.wallet WHEN 'electric' THEN 1 ELSE 2 END AND m.status = 1
        AND NOT EXISTS (SELECT 1 FROM shared_meters sm WHERE sm.meter_id = m.id)
    ) ms ON true
    LEFT JOIN alarm_schemes s ON s.id = ms.scheme_id AND s.status = 1
    WHERE a.id = ANY(${arr(accountIds)}::bigint[]) AND a.wallet IN ('electric', 'water')`);
  return r.rows.map((x) => ({
    accountId: Number(x.account_id),
    ownerName: String(x.owner_name),
    phone: String(x.phone ?? ''),
    roomName: String(x.room_name),
    companyName: String(x.company_name),
    smsPriceFen: Number(x.sms_price_fen),
    phonePriceFen: Number(x.phone_price_fen),
    thresholds: x.scheme_id == null ? null : {
      alarm1Fen: Number(x.alarm1_fen), alarm2Fen: Number(x.alarm2_fen), closeFen: Number(x.close_fen), overdraftFen: Number(x.overdraft_fen),
    },
    notifySms: x.notify_sms === true,
    notifyPhone: x.notify_phone === true,
    meterIds: (x.meter_ids as (string | number)[]).map(Number),
  }));
}

export async function setAlarmLevels(tx: Tx, rows: { accountId: number; level: number }[]) {
  if (!rows.length) return;
  await tx.execute(sql`
    UPDATE accounts a SET alarm_level = v.l
    FROM unnest(${arr(rows.map((r) => r.accountId))}::bigint[], ${arr(rows.map((r) => r.level))}::int[]) AS v(id, l)
    WHERE a.id = v.id`);
}
