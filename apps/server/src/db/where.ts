import { sql, type SQL } from 'drizzle-orm';
import { areaAndBelow } from './crud-repo.ts';

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

/** The scope of a list of rows kept per room: the company (null: every one), the caller bound to areas, a searched area. */
export interface RoomScope {
  companyId: number | null;
  /** the caller is bound to areas: only rows of a room the caller sees */
  areaRestricted: boolean;
  searchArea?: number;
}

/**
 * Rows whose room (`column`) lies in the searched area or below it; without one, when the caller is bound
 * to areas, rows of a room the caller sees (row-level security limits `rooms` to the caller's areas).
 */
export function inRoomScope(w: SQL[], column: string, f: Omit<RoomScope, 'companyId'>) {
  const room = sql.raw(column);
  if (f.searchArea != null) w.push(sql`${room} IN (SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(f.searchArea)})`);
  else if (f.areaRestricted) w.push(sql`${room} IN (SELECT ra.id FROM rooms ra)`);
}
