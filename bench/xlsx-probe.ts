// Probe: the product's writer (report/xlsx.ts writeXlsx) on generated rows into a sink that drops the
// bytes, in this process alone; prints RSS / heap / array-buffer peaks above the start (after a full GC).
//   npx tsx --expose-gc bench/xlsx-probe.ts   (PROBE_ROWS, default 200000)
import { Writable, PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { SETTLEMENT_COLUMNS } from '../apps/server/src/modules/billing/export.ts';
import { writeXlsx } from '../apps/server/src/modules/report/xlsx.ts';

const ROWS = Number(process.env.PROBE_ROWS ?? 200_000);
const PB = Number(process.env.PB ?? 2000);
const two = (n: number) => (n < 10 ? '0' : '') + n;
const at = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
};
async function* rows(): AsyncGenerator<unknown[][]> {
  const t = Date.UTC(2026, 11, 1);
  for (let i = 0; i < ROWS; i += PB) {
    const b: unknown[][] = [];
    for (let j = i; j < Math.min(ROWS, i + PB); j++) {
      const water = j % 2 === 1;
      b.push([water ? '冷水表' : '照明电表', String(100000000000 + j), water ? '水表' : '电表', 'R' + (j % 5000), '业主' + (j % 5000), at(t - j * 1000 - 3600_000), at(t - j * 1000),
        1000 + (j >> 10), 1001.25 + (j >> 10), 1, 1.25, water ? 'm³' : 'kWh', water ? 5.25 : 0.85, '2026-12', '已扣费', at(t)]);
    }
    await new Promise((r) => setImmediate(r)); // a batch arrives later, as from the database
    yield b;
  }
}
global.gc?.();
await new Promise((r) => setTimeout(r, 100));
global.gc?.();
const m0 = process.memoryUsage();
const pk = { rss: 0, heapUsed: 0, heapTotal: 0, ab: 0 };
const sample = () => {
  const u = process.memoryUsage();
  pk.rss = Math.max(pk.rss, u.rss - m0.rss);
  pk.heapUsed = Math.max(pk.heapUsed, u.heapUsed - m0.heapUsed);
  pk.heapTotal = Math.max(pk.heapTotal, u.heapTotal - m0.heapTotal);
  pk.ab = Math.max(pk.ab, u.arrayBuffers - m0.arrayBuffers);
};
const timer = setInterval(sample, 20);
let bytes = 0;
// the socket side: a slow-ish consumer that takes a chunk every tick
const sink = new Writable({ highWaterMark: 64 << 10, write: (c: Buffer, _e, cb) => ((bytes += c.length), setImmediate(cb)) });
const out = new PassThrough({ highWaterMark: 1 << 20 });
out.pipe(sink);
const done = new Promise((r) => sink.on('finish', r));
const c0 = process.cpuUsage();
const t0 = performance.now();
await writeXlsx(out, { sheet: '抄表结算', columns: SETTLEMENT_COLUMNS, batches: rows() });
await done;
sample();
clearInterval(timer);
const c = process.cpuUsage(c0);
const MB = (b: number) => (b / 1048576).toFixed(1);
console.log(`probe ${ROWS} rows ${MB(bytes)} MB in ${((performance.now() - t0) / 1000).toFixed(2)} s, CPU ${((c.user + c.system) / 1e6).toFixed(2)} s; peaks above start: RSS ${MB(pk.rss)} MB, heap used ${MB(pk.heapUsed)}, heap total ${MB(pk.heapTotal)}, array buffers ${MB(pk.ab)} MB`);
