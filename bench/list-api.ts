// Paged list benchmark (DESIGN §9): RoomInfo/GetAllChildRoom over HTTP against the same SQL run raw
// through `pg`, at the same concurrency, on one million rooms.
//   npx tsx bench/list-api.ts            (reuses meter_bench when it already holds the data)
//   npx tsx bench/list-api.ts --fresh    (drops and regenerates it)
// Env: BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_DB (meter_bench),
// BENCH_ROOMS (1000000), BENCH_CONCURRENCY (16), BENCH_SECONDS (8 per path).
//
// The app runs in a child process (its own event loop, as in production), the clients here. Printed,
// one line per figure: req/s of both paths and their ratio (goal ≥ 0.9), p99 of both and their ratio
// (goal ≤ 1.2×), and the last page against the first page (goal ≤ 1.2×): issue 16 item 5. Everything
// stops by itself (a hard limit of 5 minutes, plus 3 minutes a million rooms for generating the data).
//
// Reading the figures. Last vs first page: a page is one or two slices of areas found from the per-area
// counters (room_area_counts, kept by statement triggers) and read on (company_id, area_id, id) with an
// offset inside its area, so the first, middle and last page of a million rooms cost the same; no
// request counts the rooms. Ratio: the raw path is the 2 statements on warm connections; the HTTP path
// is the session check (served by the one-second session memo, AUTH_SESSION_CACHE_MS, after the first
// request of a burst), then BEGIN + tenant settings in one message, the same 2 statements and COMMIT:
// 4 round trips against 2, plus HTTP and JSON. On this machine every round trip costs two syscalls on
// each side of a 2-core VM the database shares, so the ratio follows the round-trip count. The
// reference line (an authenticated call that returns a constant) is the ceiling any endpoint has here.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { appUrlFrom, migrateDatabase } from '../apps/server/src/db/client.ts';
import { ADMIN_URL, APP_PASSWORD, ownerUrl, recreateDatabase } from './db-common.ts';
import { forkAppChild, isAppChild, serveAppChild } from './app-child.ts';
import { hashPassword } from '../apps/server/src/modules/auth/crypto.ts';
import { roomPageSql, roomTotalsSql, totalsOf, type RoomFilter } from '../apps/server/src/modules/room/repo.ts';

const DB = process.env.BENCH_DB ?? 'meter_bench';
const ROOMS = Number(process.env.BENCH_ROOMS ?? 1_000_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const USER = { username: 'bench', password: 'bench123' };
const PAGE = 20;
const FLOORS = 1000; // 50 buildings × 20 floors
const PER_FLOOR = Math.ceil(ROOMS / FLOORS);
const OTHER_ROOMS = 10_000; // a second company, so the tenant filter has something to filter


// ---- data -----------------------------------------------------------------------------------

async function prepare(fresh: boolean): Promise<{ companyId: number }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const recreate = () => recreateDatabase(admin, DB);
  const exists = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [DB])).rowCount! > 0;
  if (!exists || fresh) await recreate();
  try {
    await migrateDatabase(ownerUrl(DB), APP_PASSWORD);
  } catch (e) {
    if (!exists || fresh) throw e;
    // the migrations changed under the kept database: start over
    console.log(`# ${DB} 与当前迁移不一致（${(e as Error).message.split('\n')[0]}），重新生成`);
    await recreate();
    await migrateDatabase(ownerUrl(DB), APP_PASSWORD);
  }
  await admin.end();

  const o = new pg.Client({ connectionString: ownerUrl(DB) });
  await o.connect();
  try {
    const have = await o.query(`SELECT c.id, (SELECT sum(n) FROM room_area_counts x WHERE x.company_id = c.id)::bigint AS n
      FROM companies c WHERE c.name = '压测单位'`);
    if (have.rows[0] && Number(have.rows[0].n) === FLOORS * PER_FLOOR) {
      console.log(`# 复用已有数据：${DB}（${Number(have.rows[0].n).toLocaleString()} 个房间；--fresh 重新生成）`);
      return { companyId: Number(have.rows[0].id) };
    }
    const t0 = performance.now();
    await o.query(`TRUNCATE companies, roles, admin_users, areas, rooms, owners, owner_room_history, room_area_counts, sessions, user_areas CASCADE`);
    const companyId = await generateCompany(o, '压测单位', FLOORS, PER_FLOOR, USER);
    await generateCompany(o, '压测对照单位', 100, OTHER_ROOMS / 100, { username: 'bench_other', password: USER.password });
    await o.query(`VACUUM ANALYZE areas, rooms, owners, room_area_counts`);
    console.log(`# 生成数据：${(FLOORS * PER_FLOOR).toLocaleString()} 个房间 + ${OTHER_ROOMS.toLocaleString()} 个对照房间，用时 ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { companyId };
  } finally {
    await o.end();
  }
}

/** One company: admin role and user, a park of 50 buildings, `floors` floors, rooms, owners in 90% of them. */
async function generateCompany(o: pg.Client, name: string, floors: number, perFloor: number, user: { username: string; password: string }) {
  const c = Number((await o.query(`INSERT INTO companies (name) VALUES ($1) RETURNING id`, [name])).rows[0].id);
  const role = (await o.query(`INSERT INTO roles (company_id, name, routes, operations) VALUES ($1, '管理员', $2, $3) RETURNING id`,
    [c, ['recordsRoom', 'recordsOwner'], ['room.basic', 'owner.basic']])).rows[0].id;
  await o.query(`INSERT INTO admin_users (company_id, username, password_hash, role_id, real_name) VALUES ($1, $2, $3, $4, '压测')`,
    [c, user.username, await hashPassword(user.password), role]);
  const park = (await o.query(`INSERT INTO areas (company_id, name, deep) VALUES ($1, $2, 0) RETURNING id`, [c, `${name}园区`])).rows[0].id;
  const buildings = Math.min(50, floors);
  await o.query(`INSERT INTO areas (company_id, parent_id, name, deep, sort)
    SELECT $1, $2, b || '号楼', 1, b FROM generate_series(1, $3::int) b`, [c, park, buildings]);
  await o.query(`INSERT INTO areas (company_id, parent_id, name, deep, sort)
    SELECT $1, a.id, f || '层', 2, f FROM areas a CROSS JOIN generate_series(1, $3::int) f WHERE a.parent_id = $2`,
  [c, park, Math.ceil(floors / buildings)]);
  await o.query(`INSERT INTO rooms (company_id, area_id, name, decoration, orientation, size_m2)
    SELECT $1, a.id, b.sort || '-' || a.sort || lpad(k::text, 4, '0'), k % 4, k % 9, (40 + k % 80) || '.00'
    FROM areas a JOIN areas b ON b.id = a.parent_id CROSS JOIN generate_series(1, $2::int) k
    WHERE a.company_id = $1 AND a.deep = 2`, [c, perFloor]);
  await o.query(`INSERT INTO owners (company_id, room_id, name, phone, status, moved_in_at)
    SELECT $1, r.id, '业主' || r.id, '13' || lpad((r.id % 1000000000)::text, 9, '0'), 1, now()
    FROM rooms r WHERE r.company_id = $1 AND r.id % 10 <> 0`, [c]);
  return c;
}

// ---- clients --------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function get(port: number, path: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: { authorization: token } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function post(port: number, path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

interface Run {
  n: number;
  seconds: number;
  latencies: number[];
}

/** `workers` loops calling `once` until the time is up; every call's latency is kept. */
async function load(workers: number, seconds: number, once: () => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        const s = performance.now();
        await once();
        latencies.push(performance.now() - s);
      }
    }),
  );
  return { n: latencies.length, seconds: (performance.now() - t0) / 1000, latencies };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs: number[]) => pct(xs, 50);

/** Sequential latency of one call, median of `times` after a warm-up. */
async function timed(times: number, once: () => Promise<void>) {
  for (let i = 0; i < 3; i++) await once();
  const xs: number[] = [];
  for (let i = 0; i < times; i++) {
    const s = performance.now();
    await once();
    xs.push(performance.now() - s);
  }
  return median(xs);
}

// ---- main -----------------------------------------------------------------------------------

async function main() {
  const { companyId } = await prepare(process.argv.includes('--fresh'));

  const { port, stop } = await forkAppChild(fileURLToPath(import.meta.url));
  try {
    const login = await post(port, '/yonghu/api/admin/login', USER);
    const token = JSON.parse(login.body).data?.token as string;
    if (!token) throw new Error(`登录失败：${login.body}`);

    const listUrl = (index: number) => `/yewu/api/RoomInfo/GetAllChildRoom?index=${index}&size=${PAGE}`;
    const first = await get(port, listUrl(1), token);
    const total = JSON.parse(first.body).count as number;
    const lastIndex = Math.ceil(total / PAGE);
    const httpPage = (index: number) => async () => {
      const r = await get(port, listUrl(index), token);
      if (r.status !== 200 || !r.body.startsWith('{"code":"SUCCESS"')) throw new Error(`列表请求失败：${r.status} ${r.body.slice(0, 200)}`);
    };

    // the raw path: the same two statements the list runs (the per-area totals, then the page), built
    // once, through pg as the app role with the same tenant setting, on the same number of connections
    const raw = new pg.Pool({
      connectionString: appUrlFrom(ownerUrl(DB), APP_PASSWORD),
      max: CONCURRENCY,
      // the tenant for the whole session (row-level security reads it), as the app sets it per transaction
      options: `-c app.company_id=${companyId} -c app.all_companies=off`,
    });
    const dialect = new PgDialect();
    const filter: RoomFilter = { companyId };
    const totalsQ = dialect.sqlToQuery(roomTotalsSql(filter));
    const totals = totalsOf(filter, (await raw.query(totalsQ.sql, totalsQ.params as unknown[])).rows);
    if (totals.total !== total) throw new Error(`总数不一致：HTTP ${total}，直连 ${totals.total}`);
    const rawPage = (index: number) => {
      const q = dialect.sqlToQuery(roomPageSql(filter, totals, PAGE, (index - 1) * PAGE)!);
      return async () => {
        await raw.query(totalsQ.sql, totalsQ.params as unknown[]);
        const r = await raw.query(q.sql, q.params as unknown[]);
        if (r.rowCount === 0) throw new Error('原始查询没有返回行');
      };
    };

    const os = await import('node:os');
    console.log(`# ${total.toLocaleString()} 个房间，每页 ${PAGE} 条，并发 ${CONCURRENCY}，每条路径 ${SECONDS} s；CPU ${os.cpus().length} 核，负载 ${os.loadavg()[0].toFixed(1)}；应用在子进程`);
    // warm both paths (plans, caches, connections)
    await load(CONCURRENCY, 1.5, httpPage(1));
    await load(CONCURRENCY, 1.5, rawPage(1));

    // the two paths take turns in one-second windows, so a change in the machine's other load (2
    // shared cores) falls on both alike; each path's figure is its total over all its windows
    const h: Run = { n: 0, seconds: 0, latencies: [] };
    const r: Run = { n: 0, seconds: 0, latencies: [] };
    for (let i = 0; i < SECONDS; i++) {
      for (const [acc, once] of [[h, httpPage(1)], [r, rawPage(1)]] as const) {
        const w = await load(CONCURRENCY, 1, once);
        acc.n += w.n;
        acc.seconds += w.seconds;
        acc.latencies.push(...w.latencies);
      }
    }
    const httpRps = h.n / h.seconds;
    const rawRps = r.n / r.seconds;
    console.log(`HTTP GetAllChildRoom 第1页吞吐: ${httpRps.toFixed(0)} req/s`);
    console.log(`同一 SQL 直连 pg 吞吐: ${rawRps.toFixed(0)} req/s`);
    console.log(`吞吐比 HTTP/直连: ${(httpRps / rawRps).toFixed(2)}（目标 ≥ 0.9；两条路径每秒交替，各 ${SECONDS} s）`);
    // the fixed cost of any signed-in call (session lookup, scope, envelope), for reading the ratio
    const floor = await load(CONCURRENCY, Math.min(4, SECONDS), async () => void (await get(port, '/yewu/api/GetDecorationEnum', token)));
    console.log(`参考：仅鉴权的常量接口 GetDecorationEnum 吞吐: ${(floor.n / floor.seconds).toFixed(0)} req/s`);
    console.log(`HTTP p99: ${pct(h.latencies, 99).toFixed(1)} ms`);
    console.log(`直连 p99: ${pct(r.latencies, 99).toFixed(1)} ms`);
    console.log(`p99 HTTP/直连: ${(pct(h.latencies, 99) / pct(r.latencies, 99)).toFixed(2)}×（目标 ≤ 1.2×）`);

    const firstMs = await timed(40, httpPage(1));
    const lastMs = await timed(40, httpPage(lastIndex));
    const middleMs = await timed(10, httpPage(Math.ceil(lastIndex / 2)));
    console.log(`HTTP 第1页耗时（中位数）: ${firstMs.toFixed(2)} ms`);
    console.log(`HTTP 末页（第 ${lastIndex.toLocaleString()} 页）耗时（中位数）: ${lastMs.toFixed(2)} ms`);
    console.log(`末页/首页: ${(lastMs / firstMs).toFixed(2)}×（目标 ≤ 1.2×）`);
    console.log(`HTTP 中间页（第 ${Math.ceil(lastIndex / 2).toLocaleString()} 页）耗时（中位数）: ${middleMs.toFixed(2)} ms`);
    await raw.end();
  } finally {
    agent.destroy();
    await stop();
  }
}

// ---- the app, in a child process ------------------------------------------------------------

if (isAppChild) {
  await serveAppChild(DB, 20);
} else {
  const minutes = 5 + Math.ceil(3 * ROOMS / 1_000_000);
  const hardStop = setTimeout(() => {
    console.error(`基准测试超过 ${minutes} 分钟，强制结束`);
    process.exit(1);
  }, minutes * 60_000);
  hardStop.unref();
  await main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
  process.exit();
}
