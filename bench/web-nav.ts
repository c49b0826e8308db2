// Browser benchmark (issue 16 items 1–2): menu click → table rows, and the JavaScript on the wire.
// Run after `npm run build -w @meter/web`:  npx tsx bench/web-nav.ts
//
// Starts its own server (the built web app, embedded PostgreSQL, demo seed, no simulator) on
// WEB_NAV_PORT..+3 (default 18560..18563) with a throw-away data directory, and drives Debian's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium) through Playwright. Each session is a fresh browser context
// (empty HTTP cache): sign in as demo, then
//   cold — click 7 list pages in the side menu, one after another (first visit: chunk + data);
//   warm — close all tabs, click the same 7 again (chunks in memory, pages mount anew, data refetched).
// A time is from the mousedown of the click to the first table row in the DOM of that page.
// Each round runs a baseline session (prefetch off: localStorage meter.prefetch=off, the app as before
// route prefetch) and a prefetch session, alternating which goes first; WEB_NAV_ROUNDS rounds (default 3).
// Printed: medians per page and overall, ratio prefetch/baseline, the goals (cold ≤ 400 ms, warm ≤ 150 ms),
// JS bytes on the wire up to the first list page (encoded, vs the same files uncompressed; goal ≤ 450 KB),
// and API GETs per navigation (a prefetch that misses shows as extra requests), then a budget table in the
// manner of Lighthouse's budgets: each figure against its goal (JS on the wire for the sign-in page and the
// first list page, cold and warm medians, a hashed asset asked over HTTP with Accept-Encoding: br answering
// content-encoding br and immutable caching, index.html no-cache). A bench, not a test: it exits 0 unless
// the run itself fails.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { root, startServer } from './server-common.ts';
import { armRowsClock, menuItem, PAGES, rowsAfterClick, type NavPage } from './web-nav-common.ts';

const PORT = Number(process.env.WEB_NAV_PORT ?? 18560);
const ROUNDS = Number(process.env.WEB_NAV_ROUNDS ?? 3);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const GOAL = { coldMs: 400, warmMs: 150, listPageKB: 450, firstLoadKB: 220 };


type Mode = 'baseline' | 'prefetch';
interface Session {
  mode: Mode;
  cold: Record<string, number>;
  warm: Record<string, number>;
  apiGets: { cold: number[]; warm: number[] };
  firstLoadJs: { wire: number; body: number; decoded: number; files: number };
  firstListJs: { wire: number; body: number; decoded: number; files: number };
  allJs: { wire: number; decoded: number };
}

if (!existsSync(join(root, 'apps/web/dist/index.html'))) {
  console.error('no web build: run `npm run build -w @meter/web` first');
  process.exit(2);
}

// ---- one browser session --------------------------------------------------------------------------

interface Net {
  /** wire: the response as sent (headers included); body: its encoded body (brotli bytes); decoded: the JS */
  js: Map<string, { url: string; wire: number; body: number; decoded: number }>;
  apiGets: number;
}

async function watchNetwork(context: BrowserContext, page: Page): Promise<Net> {
  const net: Net = { js: new Map(), apiGets: 0 };
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.method === 'GET' && /\/api\//.test(e.request.url)) net.apiGets++;
  });
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
  });
  cdp.on('Network.dataReceived', (e) => {
    const url = scripts.get(e.requestId);
    if (!url) return;
    const f = net.js.get(e.requestId) ?? { url, wire: 0, body: 0, decoded: 0 };
    f.decoded += e.dataLength;
    f.body += e.encodedDataLength;
    net.js.set(e.requestId, f);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const url = scripts.get(e.requestId);
    if (!url) return;
    const f = net.js.get(e.requestId) ?? { url, wire: 0, body: 0, decoded: 0 };
    f.wire = e.encodedDataLength;
    net.js.set(e.requestId, f);
  });
  return net;
}

const jsTotals = (net: Net) => {
  let wire = 0;
  let body = 0;
  let decoded = 0;
  for (const f of net.js.values()) {
    wire += f.wire;
    body += f.body;
    decoded += f.decoded;
  }
  return { wire, body, decoded, files: net.js.size };
};


/** Click a menu item and return mousedown → first row of that page, in ms (timed inside the page). */
async function clickToRows(page: Page, p: NavPage): Promise<number> {
  const item = await menuItem(page, p);
  await armRowsClock(page, p);
  await item.click();
  return rowsAfterClick(page);
}

async function session(browser: Browser, mode: Mode): Promise<Session> {
  const context = await browser.newContext({
    baseURL: BASE_URL, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript((off) => {
    if (off) localStorage.setItem('meter.prefetch', 'off');
    document.addEventListener('mousedown', () => (window.__navT0 = performance.now()), true);
  }, mode === 'baseline');
  // generous: the machines this runs on are small and often shared
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const net = await watchNetwork(context, page);
  const s: Session = { mode, cold: {}, warm: {}, apiGets: { cold: [], warm: [] }, firstLoadJs: { wire: 0, body: 0, decoded: 0, files: 0 }, firstListJs: { wire: 0, body: 0, decoded: 0, files: 0 }, allJs: { wire: 0, decoded: 0 } };

  await page.goto('/login');
  await page.getByPlaceholder('用户名').waitFor();
  await page.waitForLoadState('networkidle');
  s.firstLoadJs = jsTotals(net);
  if (process.env.WEB_NAV_VERBOSE) {
    console.log('first load (sign-in page):');
    const files = [...net.js.values()].sort((a, b) => b.wire - a.wire);
    console.log(files.map((f) => `  ${kb(f.wire).padStart(9)} ${kb(f.decoded).padStart(9)} ${f.url.replace(BASE_URL, '')}`).join('\n'));
    console.log('first list page:');
  }
  await page.getByPlaceholder('用户名').fill('demo');
  await page.getByPlaceholder('密码').fill('demo123');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL(/\/home$/);
  await page.getByText('快捷入口').waitFor();
  await page.waitForTimeout(1000); // let /home settle: its own requests are not the navigation's

  for (const [i, p] of PAGES.entries()) {
    const before = net.apiGets;
    s.cold[p.key] = await clickToRows(page, p);
    await page.waitForTimeout(800); // the page's remaining requests and lazy chunks land
    s.apiGets.cold.push(net.apiGets - before);
    if (i === 0) {
      s.firstListJs = jsTotals(net);
      if (process.env.WEB_NAV_VERBOSE) {
        const files = [...net.js.values()].sort((a, b) => b.wire - a.wire);
        console.log(files.map((f) => `  ${kb(f.wire).padStart(9)} ${kb(f.decoded).padStart(9)} ${f.url.replace(BASE_URL, '')}`).join('\n'));
      }
    }
  }

  await page.getByRole('button', { name: /页签操作/ }).click();
  await page.getByRole('menuitem', { name: '关闭全部' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.shell-tabs .ant-tabs-tab').length === 1);
  await page.waitForTimeout(500);

  for (const p of PAGES) {
    const before = net.apiGets;
    s.warm[p.key] = await clickToRows(page, p);
    await page.waitForTimeout(800);
    s.apiGets.warm.push(net.apiGets - before);
  }
  const all = jsTotals(net);
  s.allJs = { wire: all.wire, decoded: all.decoded };
  await context.close();
  return s;
}

// ---- report ---------------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length === 0 ? NaN : a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
};
const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ratio = (a: number, b: number) => (a / b).toFixed(2);

interface Delivery {
  asset: string;
  encoding: string;
  cacheControl: string;
  htmlCacheControl: string;
}

/** What the server sends for a hashed asset and for index.html, asked as `curl -H 'Accept-Encoding: br'`. */
async function delivery(): Promise<Delivery> {
  const html = await fetch(`${BASE_URL}/`, { headers: { 'accept-encoding': 'br' } });
  const text = await html.text();
  // the largest script index.html names (the build leaves files under 1 KB uncompressed)
  let asset = '';
  let largest = -1;
  for (const [, url] of text.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)) {
    const r = await fetch(`${BASE_URL}${url}`);
    const n = (await r.arrayBuffer()).byteLength;
    if (n > largest) [largest, asset] = [n, url];
  }
  const res = await fetch(`${BASE_URL}${asset}`, { headers: { 'accept-encoding': 'br' } });
  await res.arrayBuffer();
  return {
    asset,
    encoding: res.headers.get('content-encoding') ?? '(none)',
    cacheControl: res.headers.get('cache-control') ?? '(none)',
    htmlCacheControl: html.headers.get('cache-control') ?? '(none)',
  };
}

function report(sessions: Session[], served: Delivery) {
  const of = (mode: Mode) => sessions.filter((s) => s.mode === mode);
  const times = (mode: Mode, phase: 'cold' | 'warm', key?: string) =>
    of(mode).flatMap((s) => (key ? [s[phase][key]] : Object.values(s[phase])));

  console.log(`\nmenu click → table rows, median of ${ROUNDS} round(s) (baseline = prefetch off)`);
  console.log(`${'page'.padEnd(16)}${'cold base'.padStart(10)}${'cold pref'.padStart(10)}${'ratio'.padStart(7)}${'warm base'.padStart(10)}${'warm pref'.padStart(10)}${'ratio'.padStart(7)}`);
  for (const p of PAGES) {
    const cb = median(times('baseline', 'cold', p.key));
    const cp = median(times('prefetch', 'cold', p.key));
    const wb = median(times('baseline', 'warm', p.key));
    const wp = median(times('prefetch', 'warm', p.key));
    console.log(`${p.key.padEnd(16)}${ms(cb).padStart(10)}${ms(cp).padStart(10)}${ratio(cp, cb).padStart(7)}${ms(wb).padStart(10)}${ms(wp).padStart(10)}${ratio(wp, wb).padStart(7)}`);
  }
  const cb = median(times('baseline', 'cold'));
  const cp = median(times('prefetch', 'cold'));
  const wb = median(times('baseline', 'warm'));
  const wp = median(times('prefetch', 'warm'));
  console.log(`${'ALL (median)'.padEnd(16)}${ms(cb).padStart(10)}${ms(cp).padStart(10)}${ratio(cp, cb).padStart(7)}${ms(wb).padStart(10)}${ms(wp).padStart(10)}${ratio(wp, wb).padStart(7)}`);
  console.log(`goal: cold ≤ ${GOAL.coldMs} ms → prefetch ${Math.round(cp)} ms (ratio to goal ${ratio(cp, GOAL.coldMs)}) ${cp <= GOAL.coldMs ? 'MET' : 'MISSED'}; ` +
    `warm ≤ ${GOAL.warmMs} ms → ${Math.round(wp)} ms (ratio ${ratio(wp, GOAL.warmMs)}) ${wp <= GOAL.warmMs ? 'MET' : 'MISSED'}`);

  const gets = (mode: Mode, phase: 'cold' | 'warm') => of(mode).flatMap((s) => s.apiGets[phase]);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`API GETs per navigation (incl. prefetch): cold base ${(sum(gets('baseline', 'cold')) / gets('baseline', 'cold').length).toFixed(2)}, ` +
    `prefetch ${(sum(gets('prefetch', 'cold')) / gets('prefetch', 'cold').length).toFixed(2)}; warm base ${(sum(gets('baseline', 'warm')) / gets('baseline', 'warm').length).toFixed(2)}, ` +
    `prefetch ${(sum(gets('prefetch', 'warm')) / gets('prefetch', 'warm').length).toFixed(2)}`);

  const wire = median(sessions.map((s) => s.firstListJs.wire));
  const bodies = median(sessions.map((s) => s.firstListJs.body));
  const decoded = median(sessions.map((s) => s.firstListJs.decoded));
  const files = median(sessions.map((s) => s.firstListJs.files));
  console.log(`\nJS on the wire, sign-in → first list page (/${PAGES[0].key}): ${kb(bodies)} of bodies in ${files} files (${kb(wire)} with response headers); ` +
    `uncompressed ${kb(decoded)} (ratio ${ratio(bodies, decoded)}); goal ≤ ${GOAL.listPageKB} KB (ratio ${ratio(bodies / 1024, GOAL.listPageKB)}) ${bodies / 1024 <= GOAL.listPageKB ? 'MET' : 'MISSED'}`);
  console.log(`JS on the wire, whole session (7 pages cold + warm): ${kb(median(sessions.map((s) => s.allJs.wire)))}; uncompressed ${kb(median(sessions.map((s) => s.allJs.decoded)))}`);

  // the budgets count the JS itself as sent (brotli bodies); the response headers (~1 KB a file) beside it
  const firstLoad = median(sessions.map((s) => s.firstLoadJs.body)) / 1024;
  const firstLoadWire = median(sessions.map((s) => s.firstLoadJs.wire)) / 1024;
  const listBody = median(sessions.map((s) => s.firstListJs.body)) / 1024;
  const immutable = /\bimmutable\b/.test(served.cacheControl) && /max-age=31536000\b/.test(served.cacheControl);
  const rows: [string, string, string, boolean][] = [
    ['JS bodies, sign-in page (first load)', `${firstLoad.toFixed(1)} KB (with headers ${firstLoadWire.toFixed(1)})`, `≤ ${GOAL.firstLoadKB} KB`, firstLoad <= GOAL.firstLoadKB],
    [`JS bodies, sign-in → /${PAGES[0].key}`, `${listBody.toFixed(1)} KB (with headers ${(wire / 1024).toFixed(1)})`, `≤ ${GOAL.listPageKB} KB`, listBody <= GOAL.listPageKB],
    ['menu click → rows, cold (prefetch, median)', `${Math.round(cp)} ms`, `≤ ${GOAL.coldMs} ms`, cp <= GOAL.coldMs],
    ['menu click → rows, warm (prefetch, median)', `${Math.round(wp)} ms`, `≤ ${GOAL.warmMs} ms`, wp <= GOAL.warmMs],
    [`${served.asset} with Accept-Encoding: br`, `${served.encoding}; ${served.cacheControl}`, 'br; max-age=31536000, immutable', served.encoding === 'br' && immutable],
    ['index.html cache-control', served.htmlCacheControl, 'no-cache', served.htmlCacheControl === 'no-cache'],
  ];
  const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length)), Math.max(...rows.map((r) => r[2].length))];
  console.log(`\nbudget check`);
  console.log(`${'budget'.padEnd(w[0])}  ${'measured'.padEnd(w[1])}  ${'goal'.padEnd(w[2])}  result`);
  for (const [name, got, goal, ok] of rows) console.log(`${name.padEnd(w[0])}  ${got.padEnd(w[1])}  ${goal.padEnd(w[2])}  ${ok ? 'MET' : 'MISSED'}`);
}

async function main() {
  const stopServer = await startServer({ port: PORT, portEnv: 'WEB_NAV_PORT', tag: 'web-nav', env: { SIMULATOR: '0' } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void stopServer().finally(() => process.exit(130)));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const sessions: Session[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order: Mode[] = r % 2 === 0 ? ['baseline', 'prefetch'] : ['prefetch', 'baseline'];
      for (const mode of order) {
        const s = await session(browser, mode);
        sessions.push(s);
        console.log(`round ${r + 1} ${mode.padEnd(8)} cold ${Object.values(s.cold).map((n) => Math.round(n)).join(' ')} | warm ${Object.values(s.warm).map((n) => Math.round(n)).join(' ')} | first list page JS ${kb(s.firstListJs.body)} (with headers ${kb(s.firstListJs.wire)})`);
      }
    }
    report(sessions, await delivery());
  } finally {
    await browser.close();
    await stopServer();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
