// The settlement benches' books: bench/settlement.ts keeps the tables as they were before any settlement
// (bench_accounts0, bench_cursors0, bench_<rollup>0) and puts them back between the real path and the floor;
// bench/settle-probe.ts puts them back before each of its runs.
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/** The rollup tables the settlements' and journal's triggers keep (migrations 0055, 0058, 0061–0062). */
export const ROLLUPS = ['usage_daily', 'usage_hourly', 'journal_daily', 'journal_company_delta', 'journal_company_daily'];

/**
 * The company's deductions and settlements deleted without their triggers (no rollup of the deletion, no
 * immutability check), their keys in journal_keys (0054) with them, and the rollups, balances and cursors
 * as they were: the next run fires the same triggers into the same state.
 */
export async function restoreBooks(o: pg.Client, company: number) {
  await o.query(`ALTER TABLE journal DISABLE TRIGGER USER`);
  await o.query(`ALTER TABLE settlements DISABLE TRIGGER USER`);
  await o.query(
    `WITH d AS (DELETE FROM journal WHERE company_id = $1 AND kind = 'deduction' RETURNING company_id, idempotency_key)
     DELETE FROM journal_keys k USING d WHERE k.company_id = d.company_id AND k.idempotency_key = d.idempotency_key`,
    [company],
  );
  await o.query(`DELETE FROM settlements WHERE company_id = $1`, [company]);
  await o.query(`ALTER TABLE journal ENABLE TRIGGER USER`);
  await o.query(`ALTER TABLE settlements ENABLE TRIGGER USER`);
  for (const t of ROLLUPS) await o.query(`TRUNCATE ${t}; INSERT INTO ${t} SELECT * FROM bench_${t}0`);
  await o.query(`UPDATE accounts a SET balance_fen = b.balance_fen, alarm_level = b.alarm_level FROM bench_accounts0 b WHERE a.id = b.id`);
  await o.query(`UPDATE settle_cursors c SET read_at = b.read_at, total = b.total, registers = b.registers, period_key = b.period_key,
    period_quantity = b.period_quantity, period_exact = b.period_exact, period_charged_fen = b.period_charged_fen FROM bench_cursors0 b WHERE c.meter_id = b.meter_id`);
}

export const JOURNAL_COLS = 'id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, ref_type, ref_id, memo, created_at';
export const SETTLEMENT_COLS = 'id, company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity, amount_fen, lines, period_key, journal_id, meter_kind, note, created_at';

/** COPY … TO STDOUT into one buffer (outside the timing: the floor's input). */
async function copyOut(o: pg.Client, text: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of o.query(copyTo(text))) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** What the real path wrote, as the floor's input: its journal and settlement rows (the very rows, ids included), the balances and the cursors after it. */
export async function captureWritten(o: pg.Client, company: number) {
  return {
    journal: await copyOut(o, `COPY (SELECT ${JOURNAL_COLS} FROM journal WHERE company_id = ${company} AND kind = 'deduction' ORDER BY id) TO STDOUT`),
    settlements: await copyOut(o, `COPY (SELECT ${SETTLEMENT_COLS} FROM settlements WHERE company_id = ${company} ORDER BY id) TO STDOUT`),
    balances: await copyOut(o, `COPY (SELECT id, balance_fen, alarm_level FROM accounts WHERE company_id = ${company} AND balance_fen <> 100000 ORDER BY id) TO STDOUT`),
    cursors: await copyOut(o, `COPY (SELECT c.meter_id, c.read_at, c.total, c.registers, c.period_key, c.period_quantity, c.period_exact, c.period_charged_fen
      FROM settle_cursors c JOIN bench_cursors0 b USING (meter_id) WHERE c.read_at <> b.read_at ORDER BY c.meter_id) TO STDOUT`),
  };
}
