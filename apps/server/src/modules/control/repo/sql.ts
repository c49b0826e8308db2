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

/** The room and area (aliases r, a) of the meter (alias m) a list joins. */
export const meterPlaceJoins = sql`LEFT JOIN rooms r ON r.id = m.room_id LEFT JOIN areas a ON a.id = m.area_id`;
/** The meter a row kept per meter shows: its name, address, room and area (the room and area by meterPlaceJoins). */
export const meterPlaceCols = sql`m.name AS meter_name, m.address, r.name AS room_name, a.name AS area_name`;
/** meterPlaceCols of a row */
export const meterPlaceOf = (x: Record<string, unknown>) => ({
  meterName: String(x.meter_name ?? ''),
  address: String(x.address ?? ''),
  roomName: String(x.room_name ?? ''),
  areaName: String(x.area_name ?? ''),
});
