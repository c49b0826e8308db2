// Where the settlement sweep spends, statement by statement (issue 16 item 4): against the database a
// `bench/settlement.ts` run left behind (BENCH_SETTLE_DB), the books are put back to their state
// before settlement, then the real sweep runs again while every query of its pool is timed — wall and
// the backend's own CPU (from /proc, the backend runs on this machine) — grouped by the statement's
// first words; node's CPU beside it. Repeat it for A/B runs of a change in the same conditions.
//   BENCH_SETTLE_DB=meter_bench_settle_settle npx tsx bench/settle-probe.ts
// Env: PROBE_RUNS (sweeps, each after an undo; 1), BENCH_BATCH (500), BENCH_CONCURRENCY (2).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { appUrlFrom, openDb } from '../apps/server/src/db/client.ts';
import { captureWritten, JOURNAL_COLS, ROLLUPS, restoreBooks, SETTLEMENT_COLS } from './settle-books.ts';
import { APP_PASSWORD, ownerUrl } from './db-common.ts';
import { sweep } from '../apps/server/src/modules/billing/settlement.ts';
import { copyIn } from '../apps/server/src/db/copy.ts';
import { processCpuSeconds } from './proc.ts';


const DB = process.env.BENCH_SETTLE_DB ?? 'meter_bench_settle';
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const RUNS = Number(process.env.PROBE_RUNS ?? 1);

const cpuOf = (pid: number): number => processCpuSeconds(pid) ?? 0;

/** The books as they were before any settlement (the tables bench/settlement.ts keeps: bench_*0). */
async function undo(o: pg.Client, company: number) {
  await restoreBooks(o, company);
  await o.query(`DELETE FROM meter_periods`);
  for (const t of ['journal', 'journal_keys', 'settlements', 'accounts', 'settle_cursors', 'meter_periods', ...ROLLUPS]) await o.query(`VACUUM (FULL, ANALYZE) ${t}`);
  await o.query('CHECKPOINT');
}

interface Stat { n: number; wall: number; cpu: number }
const stats = new Map<string, Stat>();
const pending = new Map<string, number>();
/** labels to explain once (PROBE_EXPLAIN=write,lockAndLoad) */
const EXPLAIN = process.env.PROBE_EXPLAIN?.split(',');
const label = (q: unknown): string => {
  const text = typeof q === 'string' ? q : ((q as { text?: string; name?: string })?.text ?? '');
  const t = text.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
  if (t.startsWith('WITH c AS MATERIALIZED')) return 'lockAndLoad';
  if (t.startsWith('WITH ids AS MATERIALIZED')) return 'write';
  if (t.includes('FROM meter_latest ml')) return 'pendingMeters';
  if (t.startsWith('BEGIN')) return 'BEGIN+scope';
  return t.slice(0, 40);
};

/** The backend's pid of a pg client (node-postgres keeps it, its types do not declare it). */
const pidOf = (c: object): number => Number(Reflect.get(c, 'processID') ?? 0);

/** One statement of kind `l` ended: its wall time and its backend's CPU since `t0` / `c0`. */
function ended(l: string, pid: number, t0: number, c0: number) {
  pending.set(l, pending.get(l)! - 1);
  const s = stats.get(l) ?? { n: 0, wall: 0, cpu: 0 };
  s.n++;
  s.wall += performance.now() - t0;
  s.cpu += cpuOf(pid) - c0;
  stats.set(l, s);
}

function instrument() {
  const query = pg.Client.prototype.query;
  const original = query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const pid = pidOf(this);
    const l = label(args[0]);
    const seen = (stats.get(l)?.n ?? 0) + (pending.get(l) ?? 0);
    pending.set(l, (pending.get(l) ?? 0) + 1);
    if (EXPLAIN && EXPLAIN.includes(l) && seen === 20) {
      // the 21st of its kind, explained inside a savepoint first (what it writes is rolled back)
      const q = args[0] as { text: string; values?: unknown[]; types?: unknown };
      void original.call(this, 'SAVEPOINT probe');
      void (original.call(this, { text: `EXPLAIN (ANALYZE, BUFFERS, VERBOSE) ${q.text}`, values: q.values, types: q.types }) as Promise<pg.QueryResult>)
        .then((x) => console.log(`--- ${l}\n${x.rows.map((r) => r['QUERY PLAN']).join('\n')}`));
      void original.call(this, 'ROLLBACK TO SAVEPOINT probe');
    }
    if (args[0] instanceof pg.Query) {
      // a query object (FramedQuery, ScopedQuery): its callback ends it
      const q = args[0] as pg.Query & { callback?: (...a: unknown[]) => void };
      const callback = q.callback;
      const c0 = cpuOf(pid);
      const t0 = performance.now();
      q.callback = (...a: unknown[]) => {
        ended(l, pid, t0, c0);
        callback?.(...a);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (!(result instanceof Promise)) {
      pending.set(l, pending.get(l)! - 1);
      return result;
    }
    const c0 = cpuOf(pid);
    const t0 = performance.now();
    const done = () => ended(l, pid, t0, c0);
    return result.then((v) => (done(), v), (e) => (done(), Promise.reject(e)));
  } as typeof query;
}

/** The floor of bench/settlement.ts on what the sweep wrote, each step's backend CPU (PROBE_FLOOR=1). */
async function floorSteps(o: pg.Client, company: number) {
  const input = await captureWritten(o, company);
  await undo(o, company);
  const pid = Number((await o.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const out: string[] = [];
  const step = async (name: string, f: () => Promise<unknown>) => {
    const c0 = cpuOf(pid);
    const t0 = performance.now();
    await f();
    out.push(`${name} ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(cpuOf(pid) - c0).toFixed(2)} s CPU`);
  };
  const c0 = cpuOf(pid);
  const t0 = performance.now();
  await o.query('BEGIN');
  await step('journal', () => copyIn(o, `COPY journal (${JOURNAL_COLS}) FROM STDIN`, input.journal));
  await step('settlements', () => copyIn(o, `COPY settlements (${SETTLEMENT_COLS}) FROM STDIN`, input.settlements));
  await step('balances', async () => {
    await copyIn(o, `CREATE TEMP TABLE bal (id bigint, balance_fen bigint, alarm_level int) ON COMMIT DROP; COPY bal FROM STDIN`, input.balances);
    await o.query(`UPDATE accounts a SET balance_fen = b.balance_fen, alarm_level = b.alarm_level, updated_at = now() FROM bal b WHERE a.id = b.id`);
  });
  await step('cursors', async () => {
    await copyIn(o, `CREATE TEMP TABLE cur (meter_id bigint, read_at timestamptz, total numeric, registers jsonb, period_key varchar, period_quantity numeric,
      period_exact numeric, period_charged_fen bigint) ON COMMIT DROP; COPY cur FROM STDIN`, input.cursors);
    await o.query(`UPDATE settle_cursors c SET read_at = v.read_at, total = v.total, registers = v.registers, period_key = v.period_key, period_quantity = v.period_quantity,
      period_exact = v.period_exact, period_charged_fen = v.period_charged_fen, updated_at = now() FROM cur v WHERE c.meter_id = v.meter_id`);
  });
  await step('COMMIT', () => o.query('COMMIT'));
  console.log(`floor: ${((performance.now() - t0) / 1000).toFixed(2)} s wall, backend CPU ${(cpuOf(pid) - c0).toFixed(2)} s; ${out.join('; ')}`);
}

async function main() {
  const o = new pg.Client({ connectionString: ownerUrl(DB) });
  await o.connect();
  const company = Number((await o.query(`SELECT company_id FROM bench_cursors0 LIMIT 1`)).rows[0].company_id);
  instrument();
  for (let run = 1; run <= RUNS; run++) {
    await undo(o, company);
    stats.clear();
    const db = openDb(process.env.PROBE_AS_OWNER ? ownerUrl(DB) : appUrlFrom(ownerUrl(DB), APP_PASSWORD), CONCURRENCY + 2);
    const pids = new Set<number>();
    db.pool.on('connect', (c) => pids.add(pidOf(c)));
    const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const n0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await sweep(db, { batchSize: BATCH, concurrency: CONCURRENCY, log: (m, e) => console.error(m, e) });
    const ms = performance.now() - t0;
    const node = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(n0));
    const backends = [...pids].reduce((s, p) => s + cpuOf(p), 0);
    const plans: string[] = [];
    for (let k = 0; k < CONCURRENCY; k++) {
      const c = await db.pool.connect();
      const x = await c.query(`SELECT name, generic_plans, custom_plans FROM pg_prepared_statements`);
      plans.push(x.rows.map((p) => `${p.name} g${p.generic_plans}/c${p.custom_plans}`).join(' '));
      c.release();
    }
    await db.close();
    const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`run ${run}: ${r.readings} readings in ${(ms / 1000).toFixed(2)} s; backends CPU ${backends.toFixed(2)} s, node CPU ${node.toFixed(2)} s; load ${load0} → ${load1}`);
    const rows = [...stats.entries()].sort((a, b) => b[1].cpu - a[1].cpu);
    for (const [l, s] of rows) console.log(`  ${l.padEnd(42)} n=${String(s.n).padStart(5)} wall ${(s.wall / 1000).toFixed(2).padStart(6)} s  backend CPU ${s.cpu.toFixed(2).padStart(6)} s`);
    console.log(`  prepared: ${plans.join(' | ')}`);
    if (process.env.PROBE_FLOOR) await floorSteps(o, company);
  }
  await o.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
