// Settlement benchmark (DESIGN §9, issue 16 item 4): one new reading on each of a million meters (mixed
// schemes: flat, tiered by month, time-of-use, tiered by year, water) settled by the real settlement
// code (modules/billing/settlement.ts: sweep → settleMeters, set-based per batch of meters, SKIP LOCKED
// workers) against a set-based floor writing the same rows in the same database: the real path runs
// first; what it wrote (journal and settlement rows, balances, cursors) is taken with COPY … TO, the
// books are put back as they were, and the floor writes those rows again in one transaction — COPY
// journal, COPY settlements, balances and cursors by COPY into temporary tables and one UPDATE … FROM
// each. The money invariants are checked after both (exit 1 when one fails).
//   npx tsx bench/settlement.ts
// Env: BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SETTLE_DB
// (meter_bench_settle, dropped and rebuilt each run), BENCH_METERS (1000000), BENCH_BATCH (meters per
// transaction, 500: the production sweep's), BENCH_CONCURRENCY (transactions at once, 2).
// Prints one line per figure, and for the floor and the real path what they cost besides time (WAL,
// full-page images, checkpoints, CPU of every postgres process and of node, load average), and a
// `BENCH settlement ratio=…` line for `npm run bench`; stops by itself (a hard limit of 30 minutes).
// Figures, and the earlier ones against a floor that wrote only balances and journal: bench/README.md.
import { readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { appUrlFrom, openDb } from '../apps/server/src/db/client.ts';
import { captureWritten, JOURNAL_COLS, ROLLUPS, restoreBooks, SETTLEMENT_COLS } from './settle-books.ts';
import { APP_PASSWORD, ownerUrl, migratedOwner } from './db-common.ts';
import { sweep } from '../apps/server/src/modules/billing/settlement.ts';
import { copyIn } from '../apps/server/src/db/copy.ts';
import { processCpuSeconds } from './proc.ts';

const DB = process.env.BENCH_SETTLE_DB ?? 'meter_bench_settle';
const METERS = Number(process.env.BENCH_METERS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500); // the production batch (sweep's default)
const GOAL = 1.3;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const ROOMS = Math.ceil(METERS / 2); // one electric and one water meter per room

setTimeout(() => {
  console.error('bench/settlement: 30 分钟仍未结束，已停止');
  process.exit(2);
}, 30 * 60_000).unref();

const secs = (ms: number) => (ms / 1000).toFixed(2);

/** CPU seconds used so far by every postgres process of this machine (backends, WAL writer, checkpointer). */
function postgresCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const f = stat.slice(close + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

/** CPU seconds used so far by one process (a backend of this bench). */
const processCpu = (pid: number): number => processCpuSeconds(pid) ?? 0;

/**
 * CPU seconds of this database's backends other than the owner's: the real path's pool (opened by the
 * sweep, so all of their CPU is the sweep's). The machine-wide postgres CPU counts other work too.
 */
async function poolCpu(o: pg.Client) {
  const pids = (await o.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows.map((r) => Number(r.pid));
  return pids.reduce((sum, pid) => sum + processCpu(pid), 0);
}

/** What a phase cost besides its time: WAL, full-page images, checkpoints, CPU. */
async function meter(o: pg.Client) {
  const snap = async () => {
    const r = (await o.query(
      `SELECT pg_current_wal_lsn() AS lsn, (SELECT wal_fpi FROM pg_stat_wal) AS fpi,
         (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter) AS ckpt`,
    )).rows[0];
    return { lsn: String(r.lsn), fpi: Number(r.fpi), ckpt: Number(r.ckpt), pgCpu: postgresCpu(), node: process.cpuUsage(), load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0] };
  };
  const a = await snap();
  return async () => {
    const b = await snap();
    const wal = Number((await o.query(`SELECT pg_wal_lsn_diff($1, $2) AS d`, [b.lsn, a.lsn])).rows[0].d);
    const node = process.cpuUsage(a.node);
    return `WAL ${(wal / 2 ** 20).toFixed(0)} MiB, ${b.fpi - a.fpi} full-page images, ${b.ckpt - a.ckpt} checkpoints, postgres CPU ${(b.pgCpu - a.pgCpu).toFixed(1)} s, node CPU ${((node.user + node.system) / 1e6).toFixed(1)} s, load ${a.load} → ${b.load}`;
  };
}

async function prepare() {
  const { o, one } = await migratedOwner(DB);
  const t0 = performance.now();
  const company = Number((await one(`INSERT INTO companies (name) VALUES ('结算基准单位') RETURNING id`)).id);
  const area = Number((await one(`INSERT INTO areas (company_id, name) VALUES ($1, '基准园区') RETURNING id`, [company])).id);
  const scheme = async (name: string, kind: number, monthType: number | null, mode: string, unitPrice: string, tiers: unknown[], tou: unknown) => {
    const id = Number((await one(`INSERT INTO charging_schemes (company_id, name, kind, charging_month_type) VALUES ($1, $2, $3, $4) RETURNING id`, [company, name, kind, monthType])).id);
    await o.query(
      `INSERT INTO charging_scheme_versions (company_id, scheme_id, effective_from, mode, unit_price, tiers, tou) VALUES ($1, $2, '2020-01-01', $3, $4, $5, $6)`,
      [company, id, mode, unitPrice, JSON.stringify(tiers), JSON.stringify(tou)],
    );
    return id;
  };
  const electric = [
    await scheme('统一电价', 1, null, 'flat', '0.6800', [], { periods: [] }),
    await scheme('阶梯电价', 1, 1, 'tiered', '0', [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }], { periods: [] }),
    await scheme('分时电价', 1, null, 'tou', '0', [], {
      periods: [
        { name: '尖', price: '1.2000', ranges: ['19:00-21:00'] }, { name: '峰', price: '0.9000', ranges: ['08:00-11:00', '13:00-19:00', '21:00-22:00'] },
        { name: '平', price: '0.6000', ranges: ['07:00-08:00', '11:00-13:00', '22:00-23:00'] }, { name: '谷', price: '0.3000', ranges: ['23:00-07:00'] },
      ],
    }),
  ];
  const water = [
    await scheme('统一水价', 2, null, 'flat', '4.2000', [], { periods: [] }),
    await scheme('阶梯水价', 2, 2, 'tiered', '0', [{ upTo: '180', price: '4.2000' }, { upTo: '260', price: '5.4600' }, { upTo: null, price: '8.4000' }], { periods: [] }),
  ];
  const alarm = Number((await one(`INSERT INTO alarm_schemes (company_id, name) VALUES ($1, '基准报警') RETURNING id`, [company])).id);
  await o.query(`INSERT INTO rooms (company_id, area_id, name) SELECT $1, $2, 'R' || g FROM generate_series(1, ${ROOMS}) g`, [company, area]);
  await o.query(`INSERT INTO owners (company_id, room_id, name, status) SELECT company_id, id, '业主' || id, 1 FROM rooms WHERE company_id = $1`, [company]);
  // meter 2k-1 electric, 2k water, in room k; schemes in turn
  await o.query(
    `INSERT INTO meters (company_id, room_id, area_id, name, kind, plan, address, charging_scheme_id, alarm_scheme_id, initial_reading)
     SELECT $1, r.id, $2, CASE WHEN k = 1 THEN '电表' ELSE '水表' END, k, CASE WHEN k = 1 THEN 0 ELSE 100 END,
       lpad((r.rn * 2 + k)::text, 12, '0'),
       CASE WHEN k = 1 THEN ($3::bigint[])[1 + r.rn % 3] ELSE ($4::bigint[])[1 + r.rn % 2] END, $5, 0
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM rooms WHERE company_id = $1) r CROSS JOIN (VALUES (1), (2)) AS kk(k)`,
    [company, area, electric, water, alarm],
  );
  // accounts with an opening balance, posted as journal rows (balance == Σ journal)
  await o.query(
    `INSERT INTO accounts (company_id, owner_id, room_id, wallet, balance_fen)
     SELECT company_id, id, room_id, w, 100000 FROM owners CROSS JOIN (VALUES ('electric'), ('water')) AS ww(w) WHERE company_id = $1`,
    [company],
  );
  await o.query(
    `INSERT INTO journal (company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, memo)
     SELECT company_id, id, owner_id, room_id, wallet, 'prepay', 100000, 100000, 'open:' || id, 'cash', '期初余额' FROM accounts WHERE company_id = $1`,
    [company],
  );
  // the previous reading is settled (cursor, with the state of this month's or year's period); one new reading each
  await o.query(
    `INSERT INTO settle_cursors (meter_id, company_id, read_at, total, registers, period_key, period_quantity, period_exact, period_charged_fen)
     SELECT m.id, m.company_id, x.at, 100 + m.id % 100,
       CASE WHEN m.kind = 1 THEN jsonb_build_object('尖', (10 + m.id % 7)::text, '峰', (30 + m.id % 11)::text, '平', (40 + m.id % 13)::text, '谷', (20 + m.id % 5)::text) ELSE '{}' END,
       to_char(x.at AT TIME ZONE 'Asia/Shanghai', CASE WHEN s.charging_month_type = 2 THEN 'YYYY' ELSE 'YYYY-MM' END), 100, 68, 6800
     FROM meters m JOIN charging_schemes s ON s.id = m.charging_scheme_id CROSS JOIN (SELECT date_trunc('hour', now()) - interval '1 hour' AS at) x
     WHERE m.company_id = $1`,
    [company],
  );
  await o.query(
    `INSERT INTO readings (company_id, meter_id, read_at, source, total, registers)
     SELECT m.company_id, m.id, date_trunc('hour', now()) - interval '1 hour' + interval '30 minutes', 1,
       100 + m.id % 100 + 0.5 + (m.id % 9) * 0.25,
       CASE WHEN m.kind = 1 THEN jsonb_build_object('sharp', 10 + m.id % 7, 'peak', 30 + m.id % 11 + 0.5 + (m.id % 9) * 0.25, 'flat', 40 + m.id % 13, 'valley', 20 + m.id % 5) ELSE '{}' END
     FROM meters m WHERE m.company_id = $1`,
    [company],
  );
  await o.query(
    `INSERT INTO meter_latest (meter_id, company_id, read_at, total, source)
     SELECT meter_id, company_id, read_at, total, 1 FROM readings WHERE company_id = $1`,
    [company],
  );
  await o.query('VACUUM ANALYZE');
  console.log(`settlement setup: ${METERS} meters, ${ROOMS} rooms and owners, ${ROOMS * 2} accounts in ${secs(performance.now() - t0)} s`);
  return { o, company };
}

/**
 * What the real path wrote, as the floor's input: its journal and settlement rows (the very rows,
 * ids included), the balances and the cursors after it. Then the books are put back as they were
 * before the real path (rows deleted, balances and cursors restored, the tables rewritten compact by
 * VACUUM FULL), so the floor writes the same rows into the same starting state.
 */
async function captureAndUndo(o: pg.Client, company: number) {
  const input = await captureWritten(o, company);
  // the floor's COPY fires the same triggers into the same state as the real path's statements did
  await restoreBooks(o, company);
  for (const t of ['journal', 'journal_keys', 'settlements', 'accounts', 'settle_cursors', ...ROLLUPS]) await o.query(`VACUUM (FULL, ANALYZE) ${t}`);
  return input;
}

/**
 * The floor: the same rows written set-based in one transaction — COPY of the journal rows, COPY of
 * the settlement rows, the balances and the cursors by COPY into temporary tables and one
 * UPDATE … FROM each. Pricing is not in it (its input was computed outside the timing).
 */
async function floor(o: pg.Client, input: Awaited<ReturnType<typeof captureAndUndo>>) {
  await o.query('CHECKPOINT');
  const cost = await meter(o);
  const own = Number((await o.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const c0 = processCpu(own);
  const t0 = performance.now();
  await o.query('BEGIN');
  await copyIn(o, `COPY journal (${JOURNAL_COLS}) FROM STDIN`, input.journal);
  await copyIn(o, `COPY settlements (${SETTLEMENT_COLS}) FROM STDIN`, input.settlements);
  await copyIn(o, `CREATE TEMP TABLE bal (id bigint, balance_fen bigint, alarm_level int) ON COMMIT DROP; COPY bal FROM STDIN`, input.balances);
  await o.query(`UPDATE accounts a SET balance_fen = b.balance_fen, alarm_level = b.alarm_level, updated_at = now() FROM bal b WHERE a.id = b.id`);
  await copyIn(o, `CREATE TEMP TABLE cur (meter_id bigint, read_at timestamptz, total numeric, registers jsonb, period_key varchar, period_quantity numeric,
    period_exact numeric, period_charged_fen bigint) ON COMMIT DROP; COPY cur FROM STDIN`, input.cursors);
  await o.query(`UPDATE settle_cursors c SET read_at = v.read_at, total = v.total, registers = v.registers, period_key = v.period_key, period_quantity = v.period_quantity,
    period_exact = v.period_exact, period_charged_fen = v.period_charged_fen, updated_at = now() FROM cur v WHERE c.meter_id = v.meter_id`);
  await o.query('COMMIT');
  const ms = performance.now() - t0;
  return { ms, backend: processCpu(own) - c0, spent: await cost() };
}

/**
 * The money invariants after a run: every pending reading settled exactly once (a settlement row per
 * reading after the starting cursor, no reading twice, no cursor short of its meter's last reading),
 * one deduction per settlement that charged something, and every balance equal to Σ its journal.
 */
async function books(o: pg.Client, company: number) {
  const r = (await o.query(
    `SELECT (SELECT count(*) FROM settlements WHERE company_id = $1)::int AS settlements,
       (SELECT count(*) FROM (SELECT 1 FROM settlements WHERE company_id = $1 GROUP BY meter_id, read_at HAVING count(*) > 1) d)::int AS twice,
       (SELECT count(*) FROM readings r JOIN bench_cursors0 b ON b.meter_id = r.meter_id AND r.read_at > b.read_at
          WHERE r.company_id = $1 AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.meter_id = r.meter_id AND s.read_at = r.read_at))::int AS unsettled,
       (SELECT count(*) FROM settle_cursors c JOIN meter_latest l USING (meter_id) WHERE c.company_id = $1 AND c.read_at <> l.read_at)::int AS behind,
       (SELECT count(*) FROM journal WHERE company_id = $1 AND kind = 'deduction')::int AS deductions,
       (SELECT count(*) FROM settlements WHERE company_id = $1 AND amount_fen > 0)::int AS charged,
       (SELECT count(*) FROM accounts a WHERE a.company_id = $1 AND a.balance_fen <>
          (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = a.id))::int AS unbalanced,
       (SELECT count(*) FROM journal j WHERE j.company_id = $1 AND NOT EXISTS
          (SELECT 1 FROM journal_keys k WHERE k.company_id = j.company_id AND k.idempotency_key = j.idempotency_key AND k.journal_id = j.id))::int AS keyless,
       (SELECT coalesce(sum(settlements), 0) FROM usage_daily WHERE company_id = $1)::int AS rolled,
       (SELECT coalesce(sum(entries), 0) FROM journal_daily WHERE company_id = $1 AND kind = 'deduction')::int AS rolledDeductions`,
    [company],
  )).rows[0];
  const ok = r.settlements === METERS && r.twice === 0 && r.unsettled === 0 && r.behind === 0 && r.deductions === r.charged && r.unbalanced === 0
    && r.keyless === 0 && r.rolled === r.settlements && r.rolleddeductions === r.deductions;
  return {
    ok,
    text: `${r.settlements} settlements (${r.twice} twice, ${r.unsettled} readings unsettled, ${r.behind} cursors behind), ${r.deductions} deductions for ${r.charged} charged settlements, ${r.unbalanced} unbalanced accounts; `
      + `${r.keyless} journal rows without their key, rollups: ${r.rolled} settlements, ${r.rolleddeductions} deductions`,
  };
}

async function main() {
  const { o, company } = await prepare();
  // the state before any settlement, to check against and to return to
  await o.query(`CREATE TABLE bench_cursors0 AS SELECT * FROM settle_cursors WHERE company_id = ${company}`);
  await o.query(`CREATE TABLE bench_accounts0 AS SELECT id, balance_fen, alarm_level FROM accounts WHERE company_id = ${company}`);
  for (const t of ROLLUPS) await o.query(`CREATE TABLE bench_${t}0 AS SELECT * FROM ${t}`);

  const db = openDb(appUrlFrom(ownerUrl(DB), APP_PASSWORD), CONCURRENCY + 2);
  await o.query('CHECKPOINT');
  const cost = await meter(o);
  const n0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await sweep(db, { batchSize: BATCH, concurrency: CONCURRENCY, log: (m, e) => console.error(m, e) });
  const ms = performance.now() - t0;
  const nodeCpu = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(n0));
  const spent = await cost();
  const backends = await poolCpu(o);
  await db.close();
  console.log(`settlement real path (sweep, ${BATCH} meters/transaction × ${CONCURRENCY}): ${r.readings} readings in ${secs(ms)} s (${Math.round(r.readings / (ms / 1000))} readings/s)`);
  console.log(`settlement real path cost: ${spent}; its own backends' CPU ${backends.toFixed(1)} s`);
  const real = await books(o, company);
  console.log(`settlement check (real path): ${real.text}`);

  const input = await captureAndUndo(o, company);
  const f = await floor(o, input);
  console.log(`settlement floor (the same rows: COPY journal + COPY settlements + UPDATE … FROM balances and cursors): ${r.readings} readings in ${secs(f.ms)} s (${Math.round(r.readings / (f.ms / 1000))} readings/s)`);
  console.log(`settlement floor cost: ${f.spent}; its own backend's CPU ${f.backend.toFixed(1)} s`);
  const fl = await books(o, company);
  console.log(`settlement check (floor): ${fl.text}`);
  console.log(`settlement ratio real/floor: ${(ms / f.ms).toFixed(2)}× (goal ≤ ${GOAL}×); CPU: real path's backends + node / floor's backend ${((backends + nodeCpu) / f.backend).toFixed(2)}×, backends alone ${(backends / f.backend).toFixed(2)}×`);
  console.log(`BENCH settlement ratio=${(ms / f.ms).toFixed(3)} goal<=${GOAL} meters=${METERS} invariants=${real.ok && fl.ok ? 'ok' : 'FAILED'}`);
  await o.end();
  if (!real.ok || !fl.ok) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
