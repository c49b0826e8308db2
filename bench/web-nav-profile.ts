// Where a menu click's time goes (issue 16 item 2): the same clicks as web-nav.ts, with a CPU profile of
// the page's main thread and a count of React component renders for each click.
// Run after `npm run build -w @meter/web`:  npx tsx bench/web-nav-profile.ts
//
// WEB_PROF_URL: a server already running (its demo seed); else one is started on WEB_NAV_PORT..+3
// (default 18564). WEB_PROF_URLS=a=http://…,b=http://…: two servers (e.g. two builds, the server's
// WEB_DIST) compared in the same run, WEB_PROF_SESSIONS sessions each (default 1), order alternating.
// A session: sign in, 7 pages cold, then WEB_PROF_ROUNDS × (close all tabs, the 7 again) warm (default 2).
// For each click: mousedown → rows, the main thread's CPU time in that interval (profile samples that are
// not idle) and the renders (WEB_PROF_VERBOSE prints each; WEB_PROF_DETAIL=<page> each commit of that
// page's clicks). Then medians per target, the functions with the most self time over all clicks
// (WEB_PROF_CALLERS=<function>: where it is called from) and the components rendered most. Unminified
// names: build with `npx vite build --minify false` (apps/web). Renders are counted through React's DevTools hook (production React reports each commit
// to __REACT_DEVTOOLS_GLOBAL_HOOK__ when one is present), as React DevTools' profiler counts them.
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { startServer } from './server-common.ts';
import { armRowsClock, menuItem, PAGES, rowsAfterClick, type NavPage } from './web-nav-common.ts';

const PORT = Number(process.env.WEB_NAV_PORT ?? 18564);
const BASE_URL = process.env.WEB_PROF_URL ?? `http://127.0.0.1:${PORT}`;
const ROUNDS = Number(process.env.WEB_PROF_ROUNDS ?? 2);


declare global {
  interface Window {
    __renders?: Record<string, number>;
    __commits?: number;
    __detail?: { at: number; n: number; top: string }[];
    __detailTop?: number;
  }
}

// a string: tsx would wrap named functions in a helper the page does not have
const HOOK = `(() => {
  window.__renders = {};
  window.__commits = 0;
  const nameOf = (f) => {
    const t = f.type;
    if (!t || typeof t === 'string') return null;
    if (typeof t === 'function') return t.displayName || t.name || 'anonymous';
    if (t.render) return t.displayName || t.render.displayName || t.render.name || 'forwardRef';
    if (t.type) return t.displayName || t.type.displayName || t.type.name || 'memo';
    return null;
  };
  const count = (f) => {
    const n = nameOf(f);
    if (n) window.__renders[n] = (window.__renders[n] || 0) + 1;
  };
  // as React DevTools: a fiber rendered when it is new or did work (PerformedWork = 1); children are
  // visited only where the parent's child list changed
  const walk = (next, prev) => {
    if (!prev) { count(next); for (let c = next.child; c; c = c.sibling) walk(c, null); return; }
    if ((next.flags & 1) === 1) count(next);
    if (next.child === prev.child) return;
    for (let c = next.child; c; c = c.sibling) walk(c, c.alternate);
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(r) { const id = this.renderers.size + 1; this.renderers.set(id, r); return id; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      window.__commits++;
      const before = { ...window.__renders };
      const t = performance.now();
      const cur = root.current;
      const prev = cur.alternate;
      for (let c = cur.child; c; c = c.sibling) walk(c, prev && prev.child === c ? null : c.alternate);
      if (window.__detail) {
        const d = Object.entries(window.__renders).map(([k, v]) => [k, v - (before[k] || 0)]).filter(([, v]) => v > 0);
        window.__detail.push({ at: Math.round(t - (window.__navT0 || t)), n: d.reduce((a, [, v]) => a + v, 0), top: d.sort((a, b) => b[1] - a[1]).slice(0, window.__detailTop || 12).map(([k, v]) => k + ' ' + v).join(', ') });
      }
    },
  };
})()`;

async function clickToRows(page: Page, p: NavPage): Promise<number> {
  const item = await menuItem(page, p);
  await armRowsClock(page, p, 'window.__renders = {}; window.__commits = 0;');
  const detail = process.env.WEB_PROF_DETAIL === p.key;
  if (detail) await page.evaluate(`window.__detail = []; window.__detailTop = ${Number(process.env.WEB_PROF_DETAIL_TOP ?? 12)}`);
  await item.click();
  const ms = await rowsAfterClick(page);
  if (detail) {
    const commits = await page.evaluate(() => window.__detail!);
    for (const c of commits) console.log(`  commit +${c.at} ms: ${c.n} renders: ${c.top}`);
    await page.evaluate(() => (window.__detail = undefined));
  }
  return ms;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const selfTotals = new Map<string, number>();
/** WEB_PROF_CALLERS=fnName: where that function's self time is called from (5 frames up) */
const callerTotals = new Map<string, number>();
const frameName = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '')}:${n.callFrame.lineNumber + 1}`;
const renderTotals = new Map<string, number>();

/** CPU ms of the profile's samples between t0 and t1 (performance.now() of the page), non-idle. */
function cpuBetween(profile: Profile, t0: number, t1: number, timeOrigin: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime; // µs, monotonic clock as performance.timeOrigin + now() * 1000
  let busy = 0;
  const from = (timeOrigin + t0) * 1000;
  const to = (timeOrigin + t1) * 1000;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (t < from || t > to) continue;
    const n = byId.get(profile.samples[i])!;
    const fn = n.callFrame.functionName || '(anonymous)';
    if (fn === '(idle)') continue;
    busy += dt;
    const file = n.callFrame.url.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '');
    const key = `${fn} ${file}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
    selfTotals.set(key, (selfTotals.get(key) ?? 0) + dt / 1000);
    if (process.env.WEB_PROF_CALLERS && fn === process.env.WEB_PROF_CALLERS) {
      const chain: string[] = [];
      for (let id = parent.get(n.id); id !== undefined && chain.length < Number(process.env.WEB_PROF_DEPTH ?? 6); id = parent.get(id)) chain.push(frameName(byId.get(id)!));
      const c = chain.join(' < ');
      callerTotals.set(c, (callerTotals.get(c) ?? 0) + dt / 1000);
    }
  }
  return busy / 1000;
}

async function profiled(cdp: CDPSession, page: Page, p: NavPage) {
  await cdp.send('Profiler.start');
  const ms = await clickToRows(page, p);
  const profile = (await cdp.send('Profiler.stop')).profile as Profile;
  const { t0, t1, origin, renders, commits } = await page.evaluate(() => ({
    t0: window.__navT0!, t1: window.__rowsAt!, origin: performance.timeOrigin, renders: window.__renders!, commits: window.__commits!,
  }));
  // the profile's clock is the monotonic one; performance.timeOrigin is wall-clock: align on the ends
  const end = profile.endTime / 1000;
  const nowAtStop = await page.evaluate(() => performance.now());
  const offset = end - nowAtStop; // ms on the profile's clock for performance.now() = 0
  const cpu = cpuBetween(profile, t0, t1, offset);
  void origin;
  const total = Object.values(renders).reduce((a, b) => a + b, 0);
  for (const [k, v] of Object.entries(renders)) renderTotals.set(k, (renderTotals.get(k) ?? 0) + v);
  return { ms, cpu, renders: total, commits };
}

interface Run {
  cold: { cpu: number; ms: number; renders: number }[];
  warm: { cpu: number; ms: number; renders: number }[];
}

/** One browser session against a server: sign in, 7 pages cold, then ROUNDS × (close all, 7 pages warm). */
async function session(browser: Browser, baseURL: string, label: string): Promise<Run> {
  const context = await browser.newContext({ baseURL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1440, height: 900 } });
  try {
    await context.addInitScript(HOOK);
    await context.addInitScript(() => document.addEventListener('mousedown', () => (window.__navT0 = performance.now()), true));
    if (process.env.WEB_PROF_PREFETCH === 'off') await context.addInitScript(() => localStorage.setItem('meter.prefetch', 'off'));
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await page.goto('/login');
    await page.getByPlaceholder('用户名').fill('demo');
    await page.getByPlaceholder('密码').fill('demo123');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/home$/);
    await page.getByText('快捷入口').waitFor();
    await page.waitForTimeout(1000);
    const line = (phase: string, p: string, r: { ms: number; cpu: number; renders: number; commits: number }) =>
      console.log(`${label} ${phase} ${p.padEnd(14)} ${String(Math.round(r.ms)).padStart(5)} ms  cpu ${String(Math.round(r.cpu)).padStart(5)} ms  renders ${String(r.renders).padStart(5)}  commits ${r.commits}`);
    const run: Run = { cold: [], warm: [] };
    for (const p of PAGES) {
      const r = await profiled(cdp, page, p);
      run.cold.push(r);
      if (process.env.WEB_PROF_VERBOSE) line('cold', p.key, r);
      await page.waitForTimeout(800);
    }
    for (let round = 0; round < ROUNDS; round++) {
      await page.getByRole('button', { name: /页签操作/ }).click();
      await page.getByRole('menuitem', { name: '关闭全部' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.shell-tabs .ant-tabs-tab').length === 1);
      await page.waitForTimeout(500);
      for (const p of PAGES) {
        const r = await profiled(cdp, page, p);
        run.warm.push(r);
        if (process.env.WEB_PROF_VERBOSE) line('warm', p.key, r);
        await page.waitForTimeout(800);
      }
    }
    return run;
  } finally {
    await context.close();
  }
}

async function main() {
  // WEB_PROF_URLS=label=url,label=url: the servers to compare, a session each per round, order alternating
  const targets = (process.env.WEB_PROF_URLS ?? `run=${BASE_URL}`).split(',').map((t) => {
    const [label, url] = t.split('=');
    return { label, url };
  });
  const stop = process.env.WEB_PROF_URL || process.env.WEB_PROF_URLS
    ? async () => undefined
    : await startServer({ port: PORT, portEnv: 'WEB_NAV_PORT', tag: 'web-nav-profile', env: { SIMULATOR: '0' } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const runs = new Map<string, Run[]>(targets.map((t) => [t.label, []]));
  try {
    const sessions = Number(process.env.WEB_PROF_SESSIONS ?? 1);
    for (let i = 0; i < sessions; i++) {
      const order = i % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const r = await session(browser, t.url, t.label);
        runs.get(t.label)!.push(r);
        console.log(`session ${i + 1} ${t.label}: cold cpu ${r.cold.map((x) => Math.round(x.cpu)).join(' ')} | warm cpu ${r.warm.map((x) => Math.round(x.cpu)).join(' ')}`);
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const med = (xs: number[]) => {
    const a = [...xs].sort((x, y) => x - y);
    const m = a.length >> 1;
    return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
  };
  console.log(`\nper click, medians (cold: ${PAGES.length} clicks a session; warm: ${PAGES.length * ROUNDS})`);
  console.log(`${'target'.padEnd(10)}${'cold ms'.padStart(9)}${'cold cpu'.padStart(10)}${'renders'.padStart(9)}${'warm ms'.padStart(9)}${'warm cpu'.padStart(10)}${'renders'.padStart(9)}${'cpu sum'.padStart(9)}`);
  for (const [label, rs] of runs) {
    const cold = rs.flatMap((r) => r.cold);
    const warm = rs.flatMap((r) => r.warm);
    const f = (n: number) => String(Math.round(n)).padStart(9);
    console.log(`${label.padEnd(10)}${f(med(cold.map((x) => x.ms)))}${f(med(cold.map((x) => x.cpu))).padStart(10)}${f(med(cold.map((x) => x.renders)))}` +
      `${f(med(warm.map((x) => x.ms)))}${f(med(warm.map((x) => x.cpu))).padStart(10)}${f(med(warm.map((x) => x.renders)))}${f(sum([...cold, ...warm].map((x) => x.cpu)) / rs.length)}`);
  }
  console.log(`\nself time over all clicks (ms):`);
  for (const [k, v] of [...selfTotals].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.WEB_PROF_TOP ?? 30))) console.log(`${v.toFixed(1).padStart(8)}  ${k}`);
  if (callerTotals.size) {
    console.log(`\ncallers of ${process.env.WEB_PROF_CALLERS} (self ms):`);
    for (const [k, v] of [...callerTotals].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${v.toFixed(1).padStart(8)}  ${k}`);
  }
  console.log('\nrenders over all clicks:');
  for (const [k, v] of [...renderTotals].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${String(v).padStart(6)}  ${k}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
