import pg from 'pg';
import { migratedDatabase, ownerUrl } from '/work/wt/perf-growth/bench/db-common.ts';
await migratedDatabase('t_growth_mig2');
const c = new pg.Client({ connectionString: ownerUrl('t_growth_mig2') });
await c.connect();
const r = await c.query(`SELECT inhrelid::regclass::text AS p, pg_get_expr(c.relpartbound, c.oid) AS b FROM pg_inherits JOIN pg_class c ON c.oid = inhrelid WHERE inhparent IN ('journal'::regclass, 'settlements'::regclass) ORDER BY 1`);
console.log(r.rows);
await c.end();
