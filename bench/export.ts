// Export benchmark (DESIGN §9): a 1,000,000-row CopySettlement/Export (.xlsx) through the HTTP API —
// keyset batches from PostgreSQL streamed through ExcelJS's WorkbookWriter into the response — against
// ExcelJS's WorkbookWriter (the product's options) writing the same rows from a generator, in the same run.
//   npx tsx bench/export.ts
// Env: BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_EXPORT_DB
// (meter_bench_export, rebuilt each run unless BENCH_EXPORT_REUSE=1 finds BENCH_ROWS settlements in it),
// BENCH_ROWS (1000000), BENCH_CHILD_ARGS (extra Node flags of the app's process, e.g. --cpu-prof),
// BENCH_EXPORT_API_ONLY=1 (the API's figures only, no baselines: for memory work).
// The app runs in a forked child process (bench/app-child.ts): the client reading the download here
// shares neither its event loop nor its heap, and the API's peak is the app process's RSS (/proc) above
// its RSS after a full GC just before the request. The baseline runs in this process after the app stopped.
// Prints one line per figure: both times, the throughput ratio API/generator (goal ≥ 0.95), the peak
// memory of the API path (RSS above the idle server), the size. Stops by itself (30 minutes at most).
import http from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadavg } from 'node:os';
import { getHeapSpaceStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { ownerUrl, migratedOwner } from './db-common.ts';
import { forkAppChild, isAppChild, serveAppChild } from './app-child.ts';
import { hashPassword } from '../apps/server/src/modules/auth/crypto.ts';
import { SETTLEMENT_COLUMNS } from '../apps/server/src/modules/billing/export.ts';
import { XLSX_WRITER_OPTIONS, writeXlsx } from '../apps/server/src/modules/report/xlsx.ts';
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { OPERATION_KEYS } from '@meter/contracts';

const DB = process.env.BENCH_EXPORT_DB ?? 'meter_bench_export';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const METERS = 10_000;

if (!isAppChild) {
  setTimeout(() => {
    console.error('bench/export: 30 分钟仍未结束，已停止');
    process.exit(2);
  }, 30 * 60_000).unref();
}

const secs = (ms: number) => (ms / 1000).toFixed(2);
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

/** BENCH_EXPORT_REUSE=1: the company of an earlier set-up of DB when it holds ROWS settlements. */
async function reusable(): Promise<number | null> {
  if (process.env.BENCH_EXPORT_REUSE !== '1') return null;
  const o = new pg.Client({ connectionString: ownerUrl(DB) });
  try {
    await o.connect();
    const r = await o.query(`SELECT (SELECT id FROM companies WHERE name = '导出基准单位') AS id, (SELECT count(*) FROM settlements)::int AS n`);
    return r.rows[0].id != null && r.rows[0].n === ROWS ? Number(r.rows[0].id) : null;
  } catch {
    return null;
  } finally {
    await o.end().catch(() => {});
  }
}

async function prepare() {
  const reused = await reusable();
  if (reused != null) {
    console.log(`export setup: reusing ${DB} (${ROWS} settlements)`);
    return reused;
  }
  const { o, one } = await migratedOwner(DB);
  const t0 = performance.now();
  const company = Number((await one(`INSERT INTO companies (name) VALUES ('导出基准单位') RETURNING id`)).id);
  const area = Number((await one(`INSERT INTO areas (company_id, name) VALUES ($1, '导出园区') RETURNING id`, [company])).id);
  await o.query(`INSERT INTO rooms (company_id, area_id, name) SELECT $1, $2, 'R' || g FROM generate_series(1, ${METERS / 2}) g`, [company, area]);
  await o.query(`INSERT INTO owners (company_id, room_id, name, status) SELECT company_id, id, '业主' || id, 1 FROM rooms WHERE company_id = $1`, [company]);
  await o.query(
    `INSERT INTO meters (company_id, room_id, area_id, name, kind, plan, address)
     SELECT $1, r.id, $2, CASE WHEN k = 1 THEN '照明电表' ELSE '冷水表' END, k, 0, lpad((r.id * 2 + k)::text, 12, '0')
     FROM rooms r CROSS JOIN (VALUES (1), (2)) AS kk(k) WHERE r.company_id = $1`,
    [company, area],
  );
  // ROWS settlements spread over the meters, one per hour per meter
  await o.query(
    `INSERT INTO settlements (company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity, amount_fen, period_key, meter_kind, lines)
     SELECT $1, m.id, o.id, m.room_id, now() - (g / ${METERS}) * interval '1 hour' - (m.id % 3600) * interval '1 second',
       now() - (g / ${METERS} + 1) * interval '1 hour' - (m.id % 3600) * interval '1 second',
       1000 + g / ${METERS}, 1001.25 + g / ${METERS}, 1.25, CASE WHEN m.kind = 1 THEN 85 ELSE 525 END, to_char(now(), 'YYYY-MM'), m.kind,
       '[{"item":"单价","quantity":"1.25","amountFen":85}]'::jsonb
     FROM generate_series(0, ${ROWS - 1}) g JOIN meters m ON m.id = (SELECT min(id) FROM meters) + g % ${METERS}
     JOIN owners o ON o.room_id = m.room_id`,
    [company],
  );
  await o.query('VACUUM ANALYZE');
  const role = Number((await one(`INSERT INTO roles (company_id, name, routes, operations) VALUES ($1, '财务', $2, $3) RETURNING id`, [company, ['copyread'], OPERATION_KEYS])).id);
  await o.query(`INSERT INTO admin_users (company_id, username, password_hash, role_id, access, real_name) VALUES ($1, 'bench', $2, $3, 1, '基准')`, [company, await hashPassword('bench123'), role]);
  console.log(`export setup: ${ROWS} settlements of ${METERS} meters in ${secs(performance.now() - t0)} s`);
  await o.end();
  return company;
}

/** Samples this process's RSS while fn runs; returns fn's time and the peak above the start. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peak: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { value, ms, peak: peak - base };
}

interface MeterRow { id: number; name: string; address: string; kind: number; multiplier: number; room: string; owner: string }

const two = (n: number) => (n < 10 ? '0' : '') + n;
/** 'YYYY-MM-DD HH:MM:SS' in Asia/Shanghai (UTC+8, no daylight saving), as the export's local_time. */
function shanghai(ms: number) {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** The set-up's settlements as the export's row arrays, newest first, in batches of 5000. */
async function* sameRows(meters: MeterRow[], nowSec: number, periodKey: string): AsyncGenerator<unknown[][]> {
  const minId = meters[0].id;
  const settledAt = shanghai(nowSec * 1000);
  // within an hour, read_at = now - h hours - (id % 3600) s: ascending offset, then the later insert first
  const ordered = [...meters].sort((a, b) => (a.id % 3600) - (b.id % 3600) || b.id - a.id);
  let batch: unknown[][] = [];
  for (let h = 0; h * METERS < ROWS; h++) {
    const n = Math.min(METERS, ROWS - h * METERS); // g = h * METERS + (meter id - min id)
    for (const m of ordered) {
      if (m.id - minId >= n) continue;
      const read = (nowSec - h * 3600 - (m.id % 3600)) * 1000;
      const water = m.kind === 2;
      batch.push([
        m.name, m.address, water ? '水表' : '电表', m.room, m.owner, shanghai(read - 3600_000), shanghai(read),
        1000 + h, 1001.25 + h, m.multiplier, 1.25, water ? 'm³' : 'kWh', water ? 5.25 : 0.85, periodKey, '已扣费', settledAt,
      ]);
      if (batch.length === 5000) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** ExcelJS alone: the product's writer options and sheet (frozen bold header, widths), rows from sameRows. */
async function baseline(company: number, bounded = false) {
  const o = new pg.Client({ connectionString: ownerUrl(DB) });
  await o.connect();
  const meters = (
    await o.query(
      `SELECT m.id::int, m.name, m.address, m.kind, m.multiplier::float8 AS multiplier, r.name AS room, ow.name AS owner
       FROM meters m JOIN rooms r ON r.id = m.room_id JOIN owners ow ON ow.room_id = m.room_id WHERE m.company_id = $1 ORDER BY m.id`,
      [company],
    )
  ).rows as MeterRow[];
  const s = (await o.query(`SELECT floor(extract(epoch FROM created_at))::bigint AS now, period_key FROM settlements LIMIT 1`)).rows[0];
  await o.end();
  let bytes = 0;
  const sink = new Writable({ write: (chunk: Buffer, _e, cb) => ((bytes += chunk.length), cb()) });
  const finished = new Promise((r) => sink.on('finish', r));
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  out.pipe(sink);
  if (bounded) {
    // the product's own writer loop (report/xlsx.ts writeXlsx: the 4 MB bound on the sheet's XML
    // waiting for the zip, the drain waits) on the same rows: what is left is the database and HTTP
    const rows = await writeXlsx(out, { sheet: '抄表结算', columns: SETTLEMENT_COLUMNS, batches: sameRows(meters, Number(s.now), String(s.period_key)) });
    await finished;
    return { rows, bytes };
  }
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, ...XLSX_WRITER_OPTIONS });
  const ws = wb.addWorksheet('抄表结算', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = SETTLEMENT_COLUMNS.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  let rows = 0;
  for await (const batch of sameRows(meters, Number(s.now), String(s.period_key))) {
    for (const row of batch) ws.addRow(row).commit();
    rows += batch.length;
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  ws.commit();
  await wb.commit();
  await finished;
  return { rows, bytes };
}

/** The forked app's RSS after a full GC, and its CPU time so far (µs, user + system, all threads). */
interface Idle {
  rss: number;
  cpu: number;
  peaks: { heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
  now: { heapUsed: number; arrayBuffers: number; spaces: Record<string, number> };
  atPeak: AtPeak;
}
interface AtPeak {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}
function childIdle(child: ChildProcess): Promise<Idle> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Idle));
    child.send('idle');
  });
}

/** Resident set of process `pid` in bytes, from /proc (Linux); 0 elsewhere. */
function rssOf(pid: number) {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

/** Downloads `path` and drops the bytes as they come (the socket is read, nothing is kept). */
function download(port: number, path: string, token: string) {
  return new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { authorization: token }, agent: false }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (b: Buffer) => (bytes += b.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The bench user's token (a connection of its own, closed after: nothing keeps the app from stopping). */
function signIn(port: number) {
  return new Promise<string>((resolve, reject) => {
    const body = JSON.stringify({ username: 'bench', password: 'bench123' });
    const req = http.request(
      { host: '127.0.0.1', port, path: '/yonghu/api/admin/login', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (b: Buffer) => (text += b.toString()));
        res.on('end', () => resolve((JSON.parse(text) as { data: { token: string } }).data.token));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const load = () => loadavg()[0].toFixed(1);

async function main() {
  const company = await prepare();
  // the app in its own process (as in production): the client reading the download here neither shares
  // its event loop nor its heap, and the peak is the app's alone (its RSS sampled from /proc)
  const childArgs = [...process.execArgv.filter((a) => a !== '--expose-gc'), '--expose-gc', ...(process.env.BENCH_CHILD_ARGS ?? '').split(' ').filter(Boolean)];
  const { child, port } = await forkAppChild(fileURLToPath(import.meta.url), childArgs);
  const token = await signIn(port);

  // the API: a real HTTP download, read and dropped by this process
  const load0 = load();
  const idle = await childIdle(child);
  let peak = idle.rss;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(child.pid ?? 0))), 20);
  const t0 = performance.now();
  const bytes = await download(port, '/yewu/api/CopySettlement/Export', token);
  const apiMs = performance.now() - t0;
  clearInterval(timer);
  const after = await childIdle(child);
  console.log(`export API (CopySettlement/Export over HTTP): ${ROWS} rows, ${mb(bytes)} in ${secs(apiMs)} s (${Math.round(ROWS / (apiMs / 1000))} rows/s; load ${load0} → ${load()})`);
  console.log(`export API peak memory: ${mb(peak - idle.rss)} above the idle server`);
  console.log(`export API server CPU: ${secs((after.cpu - idle.cpu) / 1000)} s`);
  const p = after.peaks;
  console.log(`export API server peaks: V8 heap ${mb(p.heapTotal)} (used ${mb(p.heapUsed)}), external ${mb(p.external)} (array buffers ${mb(p.arrayBuffers)}); idle: heap used ${mb(idle.now.heapUsed)}, array buffers ${mb(idle.now.arrayBuffers)}`);
  const at = after.atPeak;
  const grown = (k: string) => mb((at.spaces[k] ?? 0) - (idle.now.spaces[k] ?? 0));
  console.log(
    `export API server at its RSS peak: RSS +${mb(at.rss - idle.rss)}, heap used +${mb(at.heapUsed - idle.now.heapUsed)}, array buffers +${mb(at.arrayBuffers - idle.now.arrayBuffers)}; spaces' size above idle: new ${grown('new_space')}, old ${grown('old_space')}, large objects ${grown('large_object_space')}, code ${grown('code_space')}`,
  );
  await stopChild(child);
  if (process.env.BENCH_EXPORT_API_ONLY === '1') return;

  // the baseline: ExcelJS's streaming writer, with the product's options and sheet layout, fed by a
  // generator of the same rows (computed here from the set-up's formula, in the export's order:
  // read_at DESC, id DESC), never held whole in memory
  const load1 = load();
  const cpu0 = process.cpuUsage();
  const mem = await measured(() => baseline(company));
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `export ExcelJS from a generator: ${mem.value.rows} rows, ${mb(mem.value.bytes)} in ${secs(mem.ms)} s (${Math.round(mem.value.rows / (mem.ms / 1000))} rows/s; load ${load1} → ${load()})`,
  );
  console.log(`export ExcelJS CPU: ${secs((cpu.user + cpu.system) / 1000)} s, peak ${mb(mem.peak)} above the start`);
  console.log(`export ratio API/generator throughput: ${(mem.ms / apiMs).toFixed(2)} (goal ≥ 0.95)`);
  console.log(`export sizes API/generator: ${bytes} / ${mem.value.bytes} bytes`);
  // the same generator through the product's writer loop (bounded backlog, as the API): memory like the
  // API's, so this ratio isolates the database and HTTP from the cost of bounding ExcelJS's backlog
  const load2 = load();
  const bcpu0 = process.cpuUsage();
  const b = await measured(() => baseline(company, true));
  const bcpu = process.cpuUsage(bcpu0);
  console.log(
    `export writeXlsx from a generator (bounded): ${b.value.rows} rows in ${secs(b.ms)} s, CPU ${secs((bcpu.user + bcpu.system) / 1000)} s, peak ${mb(b.peak)} above the start (load ${load2} → ${load()})`,
  );
  console.log(`export ratio API/bounded generator throughput: ${(b.ms / apiMs).toFixed(2)}`);
  if (mem.value.rows !== ROWS) process.exit(1);
}

/** Asks the app to stop (closing its server and pool; it exits), and waits for its exit. */
async function stopChild(child: ChildProcess) {
  const exited = once(child, 'exit');
  child.send('stop');
  await exited;
}

if (isAppChild) {
  const { app, pool } = await serveAppChild(DB, 8);
  process.on('message', (m) => {
    if (m === 'stop') void app.close().then(() => pool.close()).then(() => process.exit(0));
    if (m !== 'idle') return;
    global.gc?.();
    heapSample();
    const c = process.cpuUsage();
    const u = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((x) => [x.space_name, x.space_size]));
    process.send?.({ rss: u.rss, cpu: c.user + c.system, peaks, now: { heapUsed: u.heapUsed, arrayBuffers: u.arrayBuffers, spaces }, atPeak });
    peaks = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
    atPeak = { rss: 0, heapUsed: 0, arrayBuffers: 0, spaces: {} };
  });
  // BENCH_HEAP_SAMPLE=<file>: V8's sampling heap profiler from the first idle to the next, keeping the
  // samples of objects that lived through the young generation's collections (promoted) and died in a
  // full one: where the old generation's garbage, what a full collection frees, comes from
  let sampling: Session | null = null;
  const heapSample = () => {
    const file = process.env.BENCH_HEAP_SAMPLE;
    if (!file) return;
    if (!sampling) {
      sampling = new Session();
      sampling.connect();
      sampling.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
      return;
    }
    sampling.post('HeapProfiler.stopSampling', (err, r) => {
      if (!err) writeFileSync(file, JSON.stringify(r.profile));
    });
  };
  // the app's own view of its peak (V8 heap, buffers outside it), for where the RSS peak sits; and the
  // same at the sample of the highest RSS, with the heap's spaces (their size: what the RSS holds)
  let atPeak: AtPeak = { rss: 0, heapUsed: 0, arrayBuffers: 0, spaces: {} };
  let peaks = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  setInterval(() => {
    const u = process.memoryUsage();
    peaks = { heapTotal: Math.max(peaks.heapTotal, u.heapTotal), heapUsed: Math.max(peaks.heapUsed, u.heapUsed), external: Math.max(peaks.external, u.external), arrayBuffers: Math.max(peaks.arrayBuffers, u.arrayBuffers) };
    if (u.rss > atPeak.rss) atPeak = { rss: u.rss, heapUsed: u.heapUsed, arrayBuffers: u.arrayBuffers, spaces: Object.fromEntries(getHeapSpaceStatistics().map((x) => [x.space_name, x.space_size])) };
  }, 50).unref();
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
