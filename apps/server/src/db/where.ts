import { sql, type SQL } from 'drizzle-orm';

// Pieces of a raw list query's WHERE that many repositories share (their columns as written in the
// query, with its table alias). Row-level security still limits every statement to the caller's scope.

/**
 * A list's first conditions: `true`, and the company's rows when the caller works in one (a platform
 * view passes null: every company).
 */
export function companyRows(column: string, companyId: number | null | undefined): SQL[] {
  const w: SQL[] = [sql`true`];
  if (companyId != null) w.push(sql`${sql.raw(column)} = ${companyId}`);
  return w;
}

/** `column` within [from, to) when they are given. */
export function inPeriod(w: SQL[], column: string, f: { from?: Date; to?: Date }) {
  if (f.from) w.push(sql`${sql.raw(column)} >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) w.push(sql`${sql.raw(column)} < ${f.to.toISOString()}::timestamptz`);
}
