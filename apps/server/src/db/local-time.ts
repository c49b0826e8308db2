import { sql, type SQL } from 'drizzle-orm';

/** A timestamptz column as the pages show it: Beijing time, `YYYY-MM-DD HH24:MI:SS`. */
export const localTime = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS')`;
