// Web bundle benchmark (DESIGN §9): the JavaScript a browser must fetch on first load, gzipped.
// Run after `npm run build -w @meter/web`:  npx tsx bench/web-bundle.ts
// First load = the entry <script type="module"> and every <link rel="modulepreload"> of dist/index.html.
// Also printed: the shell route (what a signed-in user's first visit to /home adds, followed through the
// Vite manifest's static imports) and the total of all chunks. Exits 1 when first load > the limit.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_KB = Number(process.env.WEB_FIRST_LOAD_LIMIT_KB ?? 300);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.WEB_DIST ?? join(root, 'apps/web/dist'));

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`no build at ${dist}: run \`npm run build -w @meter/web\` first`);
  process.exit(2);
}

const gz = new Map<string, number>();
function gzipKB(rel: string): number {
  const clean = rel.replace(/^\//, '');
  let n = gz.get(clean);
  if (n === undefined) {
    n = gzipSync(readFileSync(join(dist, clean)), { level: 9 }).length / 1024;
    gz.set(clean, n);
  }
  return n;
}
const sum = (files: Iterable<string>) => [...files].reduce((a, f) => a + gzipKB(f), 0);
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
console.log(`web first-load JS gzip: ${kb(firstKB)} (limit ${LIMIT_KB} KB, ratio ${(firstKB / LIMIT_KB).toFixed(2)}, ${firstJs.size} files)`);
console.log(`web first-load CSS gzip: ${kb(sum(firstCss))}`);

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
  console.log(`web signed-in /home JS gzip (first load + shell + home page): ${kb(routeKB)} (ratio to first load ${(routeKB / firstKB).toFixed(2)}, ${route.size} files)`);
  const pro = new Set<string>(route);
  closure('src/pages/system/SystemRecords.tsx', pro);
  console.log(`web first table page JS gzip (/home + ProTable page /systemRecords): ${kb(sum(pro))}`);
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
console.log(`web all chunks JS gzip: ${kb(totalKB)} (${all.length} files, first load is ${((firstKB / totalKB) * 100).toFixed(0)}% of it)`);

if (firstKB > LIMIT_KB) {
  console.error(`FAIL: first-load JS ${kb(firstKB)} exceeds the ${LIMIT_KB} KB limit`);
  process.exit(1);
}
