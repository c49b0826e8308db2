// `npm run bench`: every benchmark at a small size, one after the other (each in its own process and
// database), then one table of the figures against the goals of issue 16. Small sizes make the ratios
// noisier than the full runs of each file (bench/README.md): this is the quick regression check, the
// full sizes are each file's defaults.
//   npm run bench                       (all; about 5–8 minutes on the shared 2-core machine)
//   BENCH_ONLY=settlement,ingest npm run bench
// Env: BENCH_PG_ADMIN_URL as every bench; BENCH_PREFIX (meter_bench_small) names the databases;
// WEB_NAV_PORT for web-nav. The web benches run only when apps/web/dist exists
// (`npm run build -w @meter/web`). Exits 1 when a bench fails or the settlement books do not balance
// (a missed goal is reported, not an error: the table says which).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { root } from './server-common.ts';

const PREFIX = process.env.BENCH_PREFIX ?? 'meter_bench_small';
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const webBuilt = existsSync(join(root, 'apps/web/dist/index.html'));

interface Figure {
  name: string;
  /** the figure from the bench's output, or undefined when the line is missing */
  pick: (out: string) => number | undefined;
  unit: string;
  /** the goal: at least (≥) or at most (≤) */
  goal: { atLeast?: number; atMost?: number };
}

interface Bench {
  key: string;
  file: string;
  env: Record<string, string>;
  minutes: number;
  figures: Figure[];
  skip?: string;
  /** output lines to keep in the report (the money invariants) */
  keep?: RegExp;
}

const num = (re: RegExp) => (out: string) => {
  const m = re.exec(out);
  return m ? Number(m[1].replace(/,/g, '')) : undefined;
};

const BENCHES: Bench[] = [
  {
    key: 'settlement',
    file: 'settlement.ts',
    env: { BENCH_SETTLE_DB: `${PREFIX}_settle`, BENCH_METERS: '20000' },
    minutes: 5,
    figures: [{ name: 'settlement real/floor (20,000 meters, batch 500)', pick: num(/BENCH settlement ratio=([\d.]+)/), unit: '×', goal: { atMost: 1.3 } }],
    keep: /^settlement check|invariants=/,
  },
  {
    key: 'ingest',
    file: 'ingest.ts',
    env: { BENCH_DB: `${PREFIX}_ingest`, BENCH_REPORTS: '200000' },
    minutes: 5,
    figures: [
      { name: 'ingest gateway/raw COPY (200,000 reports)', pick: num(/比值 网关\/COPY: ([\d.]+)/), unit: '', goal: { atLeast: 0.8 } },
      { name: 'ingest storage step/raw COPY', pick: num(/比值 仅入库\/COPY: ([\d.]+)/), unit: '', goal: {} },
    ],
  },
  {
    key: 'list-api',
    file: 'list-api.ts',
    env: { BENCH_DB: `${PREFIX}_list`, BENCH_ROOMS: '50000', BENCH_SECONDS: '3' },
    minutes: 5,
    figures: [
      { name: 'list API HTTP/raw SQL (50,000 rooms)', pick: num(/吞吐比 HTTP\/直连: ([\d.]+)/), unit: '', goal: { atLeast: 0.9 } },
      {
        name: 'list API last page/first page',
        pick: (out) => {
          const first = num(/HTTP 第1页耗时（中位数）: ([\d.]+) ms/)(out);
          const last = num(/HTTP 末页[^:]*: ([\d.]+) ms/)(out);
          return first && last ? last / first : undefined;
        },
        unit: '×',
        goal: { atMost: 1.2 },
      },
      {
        name: 'list API p99 HTTP/raw',
        pick: (out) => {
          const h = num(/HTTP p99: ([\d.]+) ms/)(out);
          const r = num(/直连 p99: ([\d.]+) ms/)(out);
          return h && r ? h / r : undefined;
        },
        unit: '×',
        goal: { atMost: 1.2 },
      },
    ],
  },
  {
    key: 'export',
    file: 'export.ts',
    env: { BENCH_EXPORT_DB: `${PREFIX}_export`, BENCH_ROWS: '50000' },
    minutes: 4,
    figures: [
      { name: 'export API/ExcelJS (50,000 rows)', pick: num(/export ratio API\/[^:]*: ([\d.]+)/), unit: '', goal: { atLeast: 0.95 } },
      { name: 'export peak memory above idle', pick: num(/export API peak memory: ([\d.]+) MB/), unit: ' MB', goal: { atMost: 100 } },
    ],
  },
  {
    key: 'connections',
    file: 'connections.ts',
    env: { BENCH_DB: `${PREFIX}_conn`, BENCH_CONNECTIONS: '2000', BENCH_COMMANDS: '100' },
    minutes: 4,
    figures: [
      { name: 'command round trip median (2,000 meters)', pick: num(/指令往返中位数[^:]*: ([\d.]+) ms/), unit: ' ms', goal: { atMost: 100 } },
      { name: 'command round trip p99', pick: num(/指令往返 p99: ([\d.]+) ms/), unit: ' ms', goal: { atMost: 500 } },
      { name: 'memory per connection', pick: num(/每连接内存（RSS 增量）: ([\d.]+) KB/), unit: ' KB', goal: { atMost: 10 } },
    ],
  },
  {
    key: 'bulk-close',
    file: 'bulk-close.ts',
    env: { BENCH_DB: `${PREFIX}_close`, BENCH_METERS: '1000' },
    minutes: 5,
    figures: [
      { name: 'bulk close 1,000 meters, request → last read-back', pick: num(/BENCH bulk-close seconds=([\d.]+)/), unit: ' s', goal: { atMost: 60 } },
      { name: 'bulk close / physical floor (same frames, no DB)', pick: num(/BENCH bulk-close seconds=[\d.]+ floor=[\d.]+ ratio=([\d.]+)/), unit: '×', goal: {} },
    ],
    keep: /^bulk-close check=|^检查:/,
  },
  {
    key: 'growth',
    file: 'growth.ts',
    env: { BENCH_DB: `${PREFIX}_growth`, BENCH_READINGS: '200000', BENCH_METERS: '2000', BENCH_TIMES: '3' },
    minutes: 6,
    figures: [
      { name: 'monthly report (扣费报表) HTTP median / 2 s (200,000 readings)', pick: num(/BENCH growth [^\n]*report_ratio=([\d.]+)/), unit: '', goal: { atMost: 1 } },
      { name: '/home BillingSummary HTTP median / 2 s', pick: num(/BENCH growth [^\n]*home_ratio=([\d.]+)/), unit: '', goal: { atMost: 1 } },
    ],
    keep: /^growth invariants=/,
  },
  {
    key: 'web-bundle',
    file: 'web-bundle.ts',
    env: {},
    minutes: 1,
    skip: webBuilt ? undefined : 'apps/web/dist missing (npm run build -w @meter/web)',
    figures: [
      { name: 'web first-load JS (brotli)', pick: num(/web first-load JS br: ([\d.]+) KB/), unit: ' KB', goal: { atMost: 220 } },
      { name: 'web first list page JS (brotli)', pick: num(/web first list page JS br[^:]*: ([\d.]+) KB/), unit: ' KB', goal: { atMost: 450 } },
    ],
  },
  {
    key: 'web-nav',
    file: 'web-nav.ts',
    env: { WEB_NAV_ROUNDS: '1' },
    minutes: 5,
    skip: webBuilt ? undefined : 'apps/web/dist missing (npm run build -w @meter/web)',
    figures: [
      { name: 'menu click → rows, cold median', pick: num(/goal: cold ≤ \d+ ms → prefetch (\d+) ms/), unit: ' ms', goal: { atMost: 400 } },
      { name: 'menu click → rows, warm median', pick: num(/warm ≤ \d+ ms → (\d+) ms/), unit: ' ms', goal: { atMost: 150 } },
    ],
  },
];

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function run(b: Bench): Promise<{ code: number | null; out: string; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', b.file)], {
      cwd: root,
      env: { ...process.env, ...b.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group: a bench past its time is stopped with everything it started
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      out += `\n(stopped after ${b.minutes} min)`;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }, b.minutes * 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

function verdict(v: number | undefined, g: Figure['goal']): string {
  if (v === undefined) return 'no figure';
  if (g.atLeast !== undefined) return v >= g.atLeast ? 'met' : 'MISSED';
  if (g.atMost !== undefined) return v <= g.atMost ? 'met' : 'MISSED';
  return '';
}

async function main() {
  const started = new Date();
  console.log(`npm run bench — ${started.toISOString()}, load ${load()}, node ${process.version}`);
  const rows: string[][] = [];
  const kept: string[] = [];
  let failed = false;
  for (const b of BENCHES) {
    if (ONLY && !ONLY.includes(b.key)) continue;
    if (b.skip) {
      for (const f of b.figures) rows.push([f.name, '—', goalText(f), `skipped: ${b.skip}`]);
      continue;
    }
    const before = load();
    console.log(`\n▶ ${b.key} (${Object.entries(b.env).map(([k, v]) => `${k}=${v}`).join(' ')}) load ${before}`);
    const r = await run(b);
    const tail = r.out.trim().split('\n');
    for (const line of tail.slice(-12)) console.log(`  ${line}`);
    console.log(`  (${r.seconds.toFixed(0)} s, exit ${r.code}, load ${load()})`);
    if (r.code !== 0) failed = true;
    if (b.keep) kept.push(...tail.filter((l) => b.keep!.test(l)));
    for (const f of b.figures) {
      const v = f.pick(r.out);
      rows.push([f.name, v === undefined ? '—' : `${v.toFixed(v < 10 ? 2 : 0)}${f.unit}`, goalText(f), r.code === 0 ? verdict(v, f.goal) : `bench failed (exit ${r.code})`]);
    }
  }
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[['figure', 'value', 'goal', ''], ...rows].map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${line(['figure', 'value', 'goal', ''])}`);
  for (const r of rows) console.log(line(r));
  for (const k of kept) console.log(k);
  console.log(`\n${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min, load ${load()} at the end`);
  process.exit(failed ? 1 : 0);
}

function goalText(f: Figure) {
  if (f.goal.atLeast !== undefined) return `≥ ${f.goal.atLeast}${f.unit}`;
  if (f.goal.atMost !== undefined) return `≤ ${f.goal.atMost}${f.unit}`;
  return '';
}

void main();
