// The rollups' compaction (billing.rollups): append-only delta tables, written by the statement triggers
// of the settlements, the journal and the rooms (migrations 0058, 0061, 0062), moved into their daily
// rows. The rows added are the rows deleted, in one statement: a delta is counted once, whether a reader
// sums it before or after; a second run at the same time waits on the rows the first deletes, then skips them.
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';

async function moveDeltas(tx: Tx, delta: string, daily: string, keys: string[], sums: string[]): Promise<number> {
  const list = (xs: string[]) => sql.raw(xs.join(', '));
  const set: SQL = sql.raw(sums.map((c) => `${c} = d.${c} + excluded.${c}`).join(', '));
  const r = await tx.execute(sql`
    WITH moved AS (DELETE FROM ${sql.identifier(delta)} RETURNING ${list([...keys, ...sums])}),
    added AS (
      INSERT INTO ${sql.identifier(daily)} AS d (${list([...keys, ...sums])})
        SELECT ${list(keys)}, ${list(sums.map((c) => `sum(${c})`))} FROM moved GROUP BY ${list(keys)} ORDER BY ${list(keys)}
      ON CONFLICT (${list(keys)}) DO UPDATE SET ${set})
    SELECT count(*)::int AS moved FROM moved`);
  return Number(r.rows[0].moved);
}

/** journal_company_delta into journal_company_daily (0058: /home of a whole company). */
const compactCompanyJournalDeltas = (tx: Tx) =>
  moveDeltas(tx, 'journal_company_delta', 'journal_company_daily', ['company_id', 'day', 'kind', 'pay_method'], ['entries', 'amount_fen']);

/** journal_area_delta into journal_area_daily (0062: /home by area, or for a user bound to areas). */
const compactAreaJournalDeltas = (tx: Tx) =>
  moveDeltas(tx, 'journal_area_delta', 'journal_area_daily', ['company_id', 'day', 'area_id', 'kind', 'pay_method'], ['entries', 'amount_fen']);

/** usage_company_delta into usage_company_daily (0061: the 扣费报表 of a whole company). */
export const compactUsageDeltas = (tx: Tx) =>
  moveDeltas(tx, 'usage_company_delta', 'usage_company_daily', ['company_id', 'day', 'meter_kind'],
    ['settlements', 'meters', 'quantity', 'amount_fen', 'charged_fen', 'vacant_fen']);

/** The journal's deltas into their daily rows (0058 per company, 0062 per area); answers how many moved. */
export async function compactJournalDeltas(tx: Tx): Promise<number> {
  return (await compactCompanyJournalDeltas(tx)) + (await compactAreaJournalDeltas(tx));
}

/** Every rollup's deltas into their daily rows (the billing.rollups job); answers how many moved. */
export async function compactRollups(tx: Tx): Promise<number> {
  return (await compactJournalDeltas(tx)) + (await compactUsageDeltas(tx));
}
