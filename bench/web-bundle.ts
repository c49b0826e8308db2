// Web bundle benchmark (DESIGN §9): the JavaScript a browser must fetch, as it goes on the wire: the
// brotli copy the build writes beside each file (dist/**/*.js.br, served by the server to browsers that
// accept br), gzip -9 alongside for comparison.
// Run after `npm run build -w @meter/web`:  npx tsx bench/web-bundle.ts
// First load = the entry <script type="module"> and every <link rel="modulepreload"> of dist/index.html.
// Also printed: the shell route (what a signed-in user's first visit to /home adds, followed through the
// Vite manifest's static imports), the first list page (sign-in → /home → /systemRecords, static imports;
// bench/web-nav.ts measures the real page in Chromium, lazy chunks included) and the total of all chunks.
// Budgets (issue 16): first load ≤ 220 KB — exits 1 above WEB_FIRST_LOAD_LIMIT_KB (default 220); first list
// page ≤ 450 KB — the ratio to that goal is printed, and it exits 1 above WEB_LIST_PAGE_LIMIT_KB (default
// 450, the goal).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const LIMIT_KB = Number(process.env.WEB_FIRST_LOAD_LIMIT_KB ?? 220);
const LIST_GOAL_KB = 450;
const LIST_LIMIT_KB = Number(process.env.WEB_LIST_PAGE_LIMIT_KB ?? LIST_GOAL_KB);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.WEB_DIST ?? join(root, 'apps/web/dist'));

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`no build at ${dist}: run \`npm run build -w @meter/web\` first`);
  process.exit(2);
}

const sizes = new Map<string, { br: number; gz: number }>();
function size(rel: string): { br: number; gz: number } {
  const clean = rel.replace(/^\//, '');
  let n = sizes.get(clean);
  if (n === undefined) {
    const raw = readFileSync(join(dist, clean));
    const brFile = join(dist, `${clean}.br`);
    const br = existsSync(brFile)
      ? statSync(brFile).size
      : brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    n = { br: br / 1024, gz: gzipSync(raw, { level: 9 }).length / 1024 };
    sizes.set(clean, n);
  }
  return n;
}
const sum = (files: Iterable<string>) => [...files].reduce((a, f) => a + size(f).br, 0);
const sumGz = (files: Iterable<string>) => [...files].reduce((a, f) => a + size(f).gz, 0);
const kb = (n: number) => `${n.toFixed(1)} KB`;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
const firstJs = new Set<string>();
const firstCss = new Set<string>();
for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
  const src = attr(tag, 'src');
  if (src && /type\s*=\s*["']module["']/i.test(tag)) firstJs.add(src.replace(/^\//, ''));
}
for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
  const rel = attr(tag, 'rel');
  const href = attr(tag, 'href');
  if (!href) continue;
  if (rel === 'modulepreload') firstJs.add(href.replace(/^\//, ''));
  if (rel === 'stylesheet') firstCss.add(href.replace(/^\//, ''));
}
if (firstJs.size === 0) {
  console.error('no module script found in dist/index.html');
  process.exit(2);
}

const firstKB = sum(firstJs);
console.log(`web first-load JS br: ${kb(firstKB)} (gzip ${kb(sumGz(firstJs))}; limit ${LIMIT_KB} KB, ratio ${(firstKB / LIMIT_KB).toFixed(2)}, ${firstJs.size} files)`);
console.log(`web first-load CSS br: ${kb(sum(firstCss))}`);
let listKB = 0;

// Follow the manifest: the shell + home route a signed-in user loads right after the entry.
const manifestPath = join(dist, '.vite/manifest.json');
if (existsSync(manifestPath)) {
  type Entry = { file: string; imports?: string[]; css?: string[] };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Entry>;
  const closure = (key: string, into: Set<string>) => {
    const e = manifest[key];
    if (!e || into.has(e.file)) return;
    into.add(e.file);
    for (const i of e.imports ?? []) closure(i, into);
  };
  const route = new Set<string>(firstJs);
  for (const key of ['src/app/Shell.tsx', 'src/pages/home/Home.tsx']) closure(key, route);
  const routeKB = sum(route);
  console.log(`web signed-in /home JS br (first load + shell + home page): ${kb(routeKB)} (gzip ${kb(sumGz(route))}; ratio to first load ${(routeKB / firstKB).toFixed(2)}, ${route.size} files)`);
  const list = new Set<string>(route);
  for (const key of ['src/app/LoginPage.tsx', 'src/pages/system/SystemRecords.tsx']) closure(key, list);
  listKB = sum(list);
  console.log(`web first list page JS br (sign-in → /home → list page /systemRecords): ${kb(listKB)} (gzip ${kb(sumGz(list))}; ` +
    `goal ${LIST_GOAL_KB} KB, ratio ${(listKB / LIST_GOAL_KB).toFixed(2)} ${listKB <= LIST_GOAL_KB ? 'MET' : 'MISSED'}; limit ${LIST_LIMIT_KB} KB)`);
}

const all: string[] = [];
const walk = (dir: string) => {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (f.endsWith('.js')) all.push(p.slice(dist.length + 1));
  }
};
walk(join(dist, 'assets'));
const totalKB = sum(all);
console.log(`web all chunks JS br: ${kb(totalKB)} (gzip ${kb(sumGz(all))}; ${all.length} files, first load is ${((firstKB / totalKB) * 100).toFixed(0)}% of it)`);

if (firstKB > LIMIT_KB) {
  console.error(`FAIL: first-load JS ${kb(firstKB)} exceeds the ${LIMIT_KB} KB limit`);
  process.exit(1);
}
if (listKB > LIST_LIMIT_KB) {
  console.error(`FAIL: first list page JS ${kb(listKB)} exceeds the ${LIST_LIMIT_KB} KB limit`);
  process.exit(1);
}
