// SQL helpers shared by the control repos.
import { sql, type SQL } from 'drizzle-orm';

export const arr = (v: unknown[]) => sql.param(v);
/** Timestamps of raw SQL arrive as text (drizzle keeps node-postgres from parsing them). */
export const d = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')));
export const dn = (v: unknown): Date | null => (v == null ? null : d(v));
export const num = (v: unknown) => (v == null ? null : Number(v));
export const like = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;
export const and = (w: SQL[]) => (w.length ? sql.join(w, sql` AND `) : sql`true`);

export function paged<T>(rows: Record<string, unknown>[], map: (r: Record<string, unknown>) => T) {
  return { rows: rows.map(map), count: rows.length ? Number(rows[0].total_count) : 0 };
}
