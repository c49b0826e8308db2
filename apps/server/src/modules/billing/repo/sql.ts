// SQL helpers shared by the billing repos.
import { sql, type SQL } from 'drizzle-orm';

/** An area (a column or expression) and every area below it. */
export const subtreeOf = (area: SQL) => sql`(WITH RECURSIVE t AS (SELECT ${area} AS id UNION SELECT a2.id FROM areas a2 JOIN t ON a2.parent_id = t.id) SELECT id FROM t)`;

export const like = (v: string) => `%${v.replace(/[%_\\]/g, '\\$&')}%`;

/** An array parameter (pg serialises JS arrays to PostgreSQL arrays). */
export const arr = (v: unknown[]) => sql.param(v);

/** A timestamp as exact ISO text in UTC with microseconds (raw queries return timestamps as text). */
export const isoOf = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const orNull = (v: unknown) => (v == null ? null : Number(v));
