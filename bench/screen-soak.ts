// Soak of the large screen (issue 15 item 10: "stays usable on a TV all day, no memory growth over an
// hour with the demo fleet running"). Run after `npm run build -w @meter/web`:
//   npx tsx bench/screen-soak.ts            (SCREEN_SOAK_MINUTES, default 60; SCREEN_SOAK_PORT, default 18600..18603)
//
// Starts its own server (built web app, embedded PostgreSQL, demo seed, SIMULATOR=1: the demo fleet reports
// over real TCP/MQTT) with a throw-away data directory, signs in as demo in Debian's Chromium, opens /screen at
// 1920×1080 and leaves it. Every minute a counter top-up is made through the API (a `payment` event), and the
// page's JS heap is read after a forced garbage collection (CDP), with its DOM nodes and event listeners.
// Printed: one line per minute, then the heap's growth from the 2nd minute to the last and the DOM/listener
// counts first and last. A bench, not a test: it exits 0 unless the run itself fails.
// SCREEN_SOAK_SNAPSHOTS=1 also takes a heap snapshot at minute 2 and at the end and prints what grew
// between them, by constructor (count and bytes), so a rise can be told from a retained object.
import { chromium } from '@playwright/test';
import { startServer } from './server-common.ts';

const PORT = Number(process.env.SCREEN_SOAK_PORT ?? 18600);
const MINUTES = Number(process.env.SCREEN_SOAK_MINUTES ?? 60);
const SNAPSHOTS = process.env.SCREEN_SOAK_SNAPSHOTS === '1';

type Cdp = Awaited<ReturnType<Awaited<ReturnType<Awaited<ReturnType<typeof chromium.launch>>['newContext']>>['newCDPSession']>>;

/** A heap snapshot summed by node type and name: count and self size. */
async function heapSummary(cdp: Cdp): Promise<Map<string, { n: number; bytes: number }>> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const f = snap.snapshot.meta.node_fields;
  const [iType, iName, iSize] = [f.indexOf('type'), f.indexOf('name'), f.indexOf('self_size')];
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { n: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    const type = types[snap.nodes[i + iType]];
    const name = type === 'object' || type === 'closure' || type === 'native' ? snap.strings[snap.nodes[i + iName]].slice(0, 60) : '';
    const key = `${type} ${name}`.trim();
    const e = out.get(key) ?? { n: 0, bytes: 0 };
    e.n++;
    e.bytes += snap.nodes[i + iSize];
    out.set(key, e);
  }
  return out;
}
const BASE = `http://127.0.0.1:${PORT}`;


async function post(path: string, body: unknown, token?: string) {
  const r = await fetch(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) });
  return r.json() as Promise<{ code: string; message: string; data: never }>;
}

const stop = await startServer({
  port: PORT, portEnv: 'SCREEN_SOAK_PORT', tag: 'screen-soak',
  env: { SIMULATOR: '1', LOGIN_RATE_PER_IP: '1000', LOGIN_RATE_PER_ACCOUNT: '1000' },
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const login = await post('/yonghu/api/admin/login', { username: 'demo', password: 'demo123' });
  const token = (login.data as { token: string }).token;
  const rooms = await (await fetch(`${BASE}/yewu/api/RoomInfo/GetEnergyRoom?index=1&size=50`, { headers: { authorization: token } })).json() as { data: { roomId: number; ownerId: number | null }[] };
  const room = rooms.data.find((r) => r.ownerId != null)!;

  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const page = await context.newPage();
  let asks = 0;
  let events = 0;
  page.on('request', (r) => {
    if (r.url().includes('/Screen/Summary')) asks++;
  });
  page.on('websocket', (ws) => ws.on('framereceived', () => events++));
  await page.goto(`${BASE}/login`);
  await page.getByPlaceholder('用户名').fill('demo');
  await page.getByPlaceholder('密码').fill('demo123');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL(/\/home$/);
  await page.goto(`${BASE}/screen`);
  await page.getByTestId('panel-online').waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return { heapMB: m.JSHeapUsedSize / 2 ** 20, nodes: m.Nodes, listeners: m.JSEventListeners };
  };
  const samples: { heapMB: number; nodes: number; listeners: number }[] = [];
  let early: Map<string, { n: number; bytes: number }> | undefined;
  for (let minute = 1; minute <= MINUTES; minute++) {
    await new Promise((r) => setTimeout(r, 60_000));
    const paid = await post('/yewu/api/Energy/Prepay', { roomId: room.roomId, wallet: 'electric', amount: '1.00', payMethod: 'cash', memo: '大屏压测', requestId: `soak-${Date.now()}` }, token);
    if (paid.code !== 'SUCCESS') console.warn(`top-up refused: ${paid.message}`);
    const s = await sample();
    samples.push(s);
    const paidText = await page.getByTestId('kpi-paid').textContent();
    if (SNAPSHOTS && minute === 2) early = await heapSummary(cdp);
    console.log(`${String(minute).padStart(3)} min  heap ${s.heapMB.toFixed(2)} MB  DOM nodes ${s.nodes}  listeners ${s.listeners}  summary asks ${asks}  ws frames ${events}  ${paidText}`);
  }
  if (early) {
    const late = await heapSummary(cdp);
    const grew = [...late].map(([k, v]) => ({ k, n: v.n - (early!.get(k)?.n ?? 0), bytes: v.bytes - (early!.get(k)?.bytes ?? 0) }))
      .filter((x) => x.bytes !== 0).sort((a, b) => b.bytes - a.bytes);
    console.log('heap snapshot, minute 2 → last: what grew most (by self size)');
    for (const x of grew.slice(0, 15)) console.log(`  ${(x.bytes / 1024).toFixed(1).padStart(8)} KB  ${String(x.n).padStart(6)} objects  ${x.k}`);
    console.log(`  total ${(grew.reduce((a, x) => a + x.bytes, 0) / 1024).toFixed(1)} KB`);
  }
  const from = samples[Math.min(1, samples.length - 1)];
  const to = samples[samples.length - 1];
  console.log(`heap after GC: ${from.heapMB.toFixed(2)} MB (minute ${Math.min(2, samples.length)}) → ${to.heapMB.toFixed(2)} MB (minute ${samples.length}), ` +
    `${(to.heapMB - from.heapMB).toFixed(2)} MB; DOM nodes ${samples[0].nodes} → ${to.nodes}; listeners ${samples[0].listeners} → ${to.listeners}`);
} finally {
  await browser.close();
  await stop();
}
