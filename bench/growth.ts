// Growth benchmark (issue 16 item 9): one company with BENCH_READINGS readings (default 10,000,000),
// every reading settled and charged — the readings, their settlements and their deductions written by
// COPY (pg-copy-streams), in time order, into the partitioned tables (triggers off for the bulk load;
// journal_keys and the rollups then built set-based, as migrations 0054–0055, 0058 and 0061–0062 do) — then the monthly report
// (扣费报表, this China month), /home and /home searched by the park that holds every room timed through real HTTP against the
// 2 s goal, beside the same report computed from the raw settlements and the rows each reads. The money
// invariants are checked at the end.
//   npx tsx bench/growth.ts             (reuses BENCH_DB when it already holds that many readings)
//   npx tsx bench/growth.ts --fresh
// Env: BENCH_PG_ADMIN_URL, BENCH_DB (meter_bench_growth), BENCH_READINGS (10000000), BENCH_METERS
// (10000; readings spread evenly over the last BENCH_DAYS = 40 days, ending now), BENCH_CHUNK (500000
// rows a COPY statement), BENCH_TIMES (5 timed calls an endpoint after one cold call).
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { hashPassword } from '../apps/server/src/modules/auth/crypto.ts';
import { businessDate } from '@meter/contracts';
import { ADMIN_URL, migratedDatabase, ownerUrl } from './db-common.ts';
import { forkAppChild, isAppChild, serveAppChild } from './app-child.ts';

const DB = process.env.BENCH_DB ?? 'meter_bench_growth';
const READINGS = Number(process.env.BENCH_READINGS ?? 10_000_000);
const METERS = Math.min(Number(process.env.BENCH_METERS ?? 10_000), READINGS);
const DAYS = Number(process.env.BENCH_DAYS ?? 40);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 500_000);
const TIMES = Number(process.env.BENCH_TIMES ?? 5);
const GOAL_MS = 2000;
const USER = { username: 'growth', password: 'growth123' };
const PRICE_FEN = 68; // 0.68 元/kWh, 1 kWh a reading
const sec = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

// ---- data -----------------------------------------------------------------------------------

async function copy(o: pg.Client, text: string, rows: Iterable<string>) {
  function* batches() {
    let buf: string[] = [];
    for (const r of rows) {
      buf.push(r);
      if (buf.length === 2000) {
        yield buf.join('');
        buf = [];
      }
    }
    if (buf.length) yield buf.join('');
  }
  await pipeline(Readable.from(batches()), o.query(copyFrom(text)));
}

async function generate(o: pg.Client) {
  const t0 = performance.now();
  const c = Number((await o.query(`INSERT INTO companies (name) VALUES ('增长压测单位') RETURNING id`)).rows[0].id);
  const role = (await o.query(`INSERT INTO roles (company_id, name, routes, operations) VALUES ($1, '财务', $2, '{}') RETURNING id`,
    [c, ['energy', 'reportDeduct', 'reportCheck']])).rows[0].id;
  await o.query(`INSERT INTO admin_users (company_id, username, password_hash, role_id, real_name) VALUES ($1, $2, $3, $4, '压测')`,
    [c, USER.username, await hashPassword(USER.password), role]);
  const area = (await o.query(`INSERT INTO areas (company_id, name, deep) VALUES ($1, '增长园区', 0) RETURNING id`, [c])).rows[0].id;
  await o.query(`INSERT INTO rooms (company_id, area_id, name) SELECT $1, $2, 'R' || k FROM generate_series(1, $3::int) k`, [c, area, METERS]);
  await o.query(`INSERT INTO owners (company_id, room_id, name, phone, status, moved_in_at)
    SELECT $1, r.id, '业主' || r.id, '13800000000', 1, now() FROM rooms r WHERE r.company_id = $1`, [c]);
  await o.query(`INSERT INTO meters (company_id, room_id, area_id, name, kind, plan, address, multiplier, initial_reading, valve_state)
    SELECT $1, r.id, $2, '电表' || r.id, 1, 0, '97' || lpad(r.id::text, 10, '0'), 1, 0, 1 FROM rooms r WHERE r.company_id = $1`, [c, area]);
  await o.query(`INSERT INTO accounts (company_id, owner_id, room_id, wallet) SELECT $1, o.id, o.room_id, 'electric' FROM owners o WHERE o.company_id = $1`, [c]);
  const meters = (await o.query(`SELECT m.id AS meter, a.id AS account, o.id AS owner, m.room_id AS room FROM meters m
    JOIN owners o ON o.room_id = m.room_id JOIN accounts a ON a.owner_id = o.id WHERE m.company_id = $1 ORDER BY m.id`, [c])).rows
    .map((x) => ({ meter: Number(x.meter), account: Number(x.account), owner: Number(x.owner), room: Number(x.room) }));
  console.log(`# 单位、${METERS.toLocaleString()} 个房间/业主/电表/账户：${sec(t0)} s`);

  const perMeter = Math.floor(READINGS / METERS);
  const end = Date.now() - 60_000;
  const step = Math.floor((DAYS * 86400_000) / perMeter);
  const start = end - perMeter * step;
  // every account starts with a cash prepay that covers all its deductions; then readings, settlements
  // and deductions, CHUNK readings at a time in time order (step k of every meter).
  // The bulk load runs without triggers (session_replication_role = replica: no per-row foreign-key
  // checks, no business-day trigger — business_day is written — and no statement triggers); the keys
  // and rollups are then built set-based, as migrations 0054–0055, 0058 and 0061–0062 build them from existing rows.
  await o.query(`SET session_replication_role = replica`);
  const opening = perMeter * PRICE_FEN + 10_000;
  const balance = new Map(meters.map((m) => [m.account, opening]));
  let id = Number((await o.query(`SELECT nextval('journal_id_seq') AS id`)).rows[0].id);
  const openAt = new Date(start - 3600_000);
  await copy(o, `COPY journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, ref_type, created_at, business_day) FROM STDIN`,
    (function* () {
      for (const m of meters) yield `${id++}\t${c}\t${m.account}\t${m.owner}\t${m.room}\telectric\tprepay\t${opening}\t${opening}\tgrowth:open:${m.account}\tcash\t\t${openAt.toISOString()}\t${businessDate(openAt)}\n`;
    })());

  const t1 = performance.now();
  let done = 0;
  for (let k0 = 0; k0 < perMeter;) {
    const k1 = Math.min(perMeter, k0 + Math.max(1, Math.floor(CHUNK / METERS)));
    const from = id;
    const at = (k: number) => new Date(start + (k + 1) * step).toISOString();
    const day = (k: number) => businessDate(start + (k + 1) * step);
    await o.query('BEGIN');
    await copy(o, `COPY readings (company_id, meter_id, read_at, source, total) FROM STDIN`, (function* () {
      for (let k = k0; k < k1; k++) for (const m of meters) yield `${c}\t${m.meter}\t${at(k)}\t1\t${k + 1}\n`;
    })());
    let sid = from;
    await copy(o, `COPY settlements (id, company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity, amount_fen, period_key, journal_id, meter_kind) FROM STDIN`,
      (function* () {
        for (let k = k0; k < k1; k++) {
          for (const m of meters) {
            const period = at(k).slice(0, 7);
            yield `${sid}\t${c}\t${m.meter}\t${m.owner}\t${m.room}\t${at(k)}\t${k === 0 ? '\\N' : at(k - 1)}\t${k}\t${k + 1}\t1\t${PRICE_FEN}\t${period}\t${sid}\t1\n`;
            sid++;
          }
        }
      })());
    let jid = from;
    await copy(o, `COPY journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, ref_type, ref_id, created_at, business_day) FROM STDIN`,
      (function* () {
        for (let k = k0; k < k1; k++) {
          for (const m of meters) {
            const b = balance.get(m.account)! - PRICE_FEN;
            balance.set(m.account, b);
            yield `${jid}\t${c}\t${m.account}\t${m.owner}\t${m.room}\telectric\tdeduction\t${-PRICE_FEN}\t${b}\tsettle:${m.meter}:${at(k)}\tsystem\tsettlement\t${jid}\t${at(k)}\t${day(k)}\n`;
            jid++;
          }
        }
      })());
    await o.query('COMMIT');
    id = jid;
    done += (k1 - k0) * METERS;
    k0 = k1;
    console.log(`# 已写入 ${done.toLocaleString()} / ${(perMeter * METERS).toLocaleString()} 条读数（及其结算、扣费流水），${sec(t1)} s`);
  }
  await o.query(`SET session_replication_role = origin`);
  const tk = performance.now();
  await o.query(`INSERT INTO journal_keys (company_id, idempotency_key, journal_id, created_at) SELECT company_id, idempotency_key, id, created_at FROM journal`);
  await o.query(`INSERT INTO usage_daily (meter_id, day, meter_kind, company_id, settlements, quantity, amount_fen, charged_fen, vacant_fen)
    SELECT s.meter_id, (s.read_at AT TIME ZONE 'Asia/Shanghai')::date, s.meter_kind, min(s.company_id), count(*), sum(s.quantity), sum(s.amount_fen),
      coalesce(sum(s.amount_fen) FILTER (WHERE s.journal_id IS NOT NULL OR s.note = 'shared'), 0), coalesce(sum(s.amount_fen) FILTER (WHERE s.note = 'vacant'), 0)
    FROM settlements s GROUP BY 1, 2, 3`);
  await o.query(`INSERT INTO usage_hourly (meter_id, hour, company_id, settlements, quantity, amount_fen)
    SELECT s.meter_id, date_trunc('hour', s.read_at, 'Asia/Shanghai'), min(s.company_id), count(*), sum(s.quantity), sum(s.amount_fen) FROM settlements s GROUP BY 1, 2`);
  await o.query(`INSERT INTO journal_daily (company_id, day, room_id, kind, pay_method, entries, amount_fen)
    SELECT j.company_id, (j.created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(j.room_id, 0), j.kind, j.pay_method, count(*), sum(j.amount_fen) FROM journal j GROUP BY 1, 2, 3, 4, 5`);
  await o.query(`INSERT INTO journal_company_daily (company_id, day, kind, pay_method, entries, amount_fen)
    SELECT company_id, day, kind, pay_method, sum(entries), sum(amount_fen) FROM journal_daily GROUP BY 1, 2, 3, 4`);
  await o.query(`INSERT INTO usage_company_daily (company_id, day, meter_kind, settlements, meters, quantity, amount_fen, charged_fen, vacant_fen)
    SELECT company_id, day, meter_kind, sum(settlements), count(*) FILTER (WHERE settlements > 0), sum(quantity), sum(amount_fen), sum(charged_fen), sum(vacant_fen)
    FROM usage_daily GROUP BY 1, 2, 3`);
  await o.query(`INSERT INTO journal_area_daily (company_id, day, area_id, kind, pay_method, entries, amount_fen)
    SELECT d.company_id, d.day, r.area_id, d.kind, d.pay_method, sum(d.entries), sum(d.amount_fen) FROM journal_daily d JOIN rooms r ON r.id = d.room_id GROUP BY 1, 2, 3, 4, 5`);
  console.log(`# journal_keys 与汇总表（usage_daily/usage_hourly/journal_daily/journal_company_daily/usage_company_daily/journal_area_daily）集合式重建：${sec(tk)} s`);
  await o.query(`SELECT setval('journal_id_seq', $1), setval('settlements_id_seq', $1)`, [id]);
  await o.query(`UPDATE accounts a SET balance_fen = v.b FROM unnest($1::bigint[], $2::bigint[]) v(id, b) WHERE a.id = v.id`,
    [[...balance.keys()], [...balance.values()]]);
  await o.query(`INSERT INTO settle_cursors (meter_id, company_id, read_at, total) SELECT m.id, m.company_id, $2, $3 FROM meters m WHERE m.company_id = $1`,
    [c, new Date(start + perMeter * step).toISOString(), perMeter]);
  const t2 = performance.now();
  await o.query(`ANALYZE`);
  console.log(`# 生成：${(perMeter * METERS).toLocaleString()} 条读数，每表每 ${(step / 60_000).toFixed(1)} 分钟一条，跨 ${DAYS} 天；写入 ${sec(t1)} s（ANALYZE ${sec(t2)} s）`);
}

async function prepare(fresh: boolean) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [DB])).rowCount! > 0;
  await admin.end();
  let o = new pg.Client({ connectionString: ownerUrl(DB) });
  if (exists && !fresh) {
    await o.connect();
    const n = await o.query(`SELECT sum(settlements)::bigint AS n FROM usage_daily`).catch(() => ({ rows: [{ n: 0 }] }));
    if (Number(n.rows[0].n) === Math.floor(READINGS / METERS) * METERS) {
      console.log(`# 复用已有数据：${DB}（${Number(n.rows[0].n).toLocaleString()} 条读数；--fresh 重新生成）`);
      return o;
    }
    await o.end();
    o = new pg.Client({ connectionString: ownerUrl(DB) });
  }
  await migratedDatabase(DB);
  await o.connect();
  await o.query(`SET app.all_companies = 'on'`);
  await generate(o);
  return o;
}

// ---- timing ---------------------------------------------------------------------------------

async function timed(port: number, token: string, path: string) {
  const call = async () => {
    const t0 = performance.now();
    const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: token } });
    const body = await r.text();
    if (r.status !== 200 || !body.startsWith('{"code":"SUCCESS"')) throw new Error(`${path}: ${r.status} ${body.slice(0, 200)}`);
    return performance.now() - t0;
  };
  const cold = await call();
  const xs: number[] = [];
  for (let i = 0; i < TIMES; i++) xs.push(await call());
  xs.sort((a, b) => a - b);
  return { cold, median: xs[Math.floor(xs.length / 2)], max: xs[xs.length - 1] };
}

async function main() {
  const o = await prepare(process.argv.includes('--fresh'));
  const os = await import('node:os');
  const { port, stop } = await forkAppChild(fileURLToPath(import.meta.url));
  try {
    const login = await fetch(`http://127.0.0.1:${port}/yonghu/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER) });
    const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
    if (!token) throw new Error('登录失败');
    const [size] = (await o.query(`SELECT (SELECT count(*) FROM usage_daily) AS daily, (SELECT sum(settlements) FROM usage_daily)::bigint AS readings,
      pg_size_pretty(pg_database_size(current_database())) AS db`)).rows;
    console.log(`# ${Number(size.readings).toLocaleString()} 条读数（已结算），usage_daily ${Number(size.daily).toLocaleString()} 行，数据库 ${size.db}；负载 ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const report = await timed(port, token, '/yewu/api/Report/Deduct');
    const home = await timed(port, token, '/yewu/api/Home/BillingSummary');
    // the same figures searched by the park that holds every room: read from the per-area rows (journal_area_daily,
    // 0062; before it, /home picked the rooms of the park out of journal_daily, a row a room a day)
    const [park] = (await o.query(`SELECT id FROM areas WHERE name = '增长园区' ORDER BY id DESC LIMIT 1`)).rows;
    const byPark = await timed(port, token, `/yewu/api/Home/BillingSummary?searchArea=${park.id}`);
    // the rows this month's figures are summed from: the rollups read against the per-meter/per-room ones
    const month0 = `date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai')::date`;
    const [read] = (await o.query(`SELECT
      (SELECT count(*) FROM usage_company_daily WHERE day >= ${month0}) + (SELECT count(*) FROM usage_company_delta WHERE day >= ${month0}) AS report_rows,
      (SELECT count(*) FROM usage_daily WHERE day >= ${month0}) AS usage_daily_rows,
      (SELECT count(*) FROM journal_area_daily WHERE day >= ${month0}) + (SELECT count(*) FROM journal_area_delta WHERE day >= ${month0}) AS area_rows,
      (SELECT count(*) FROM journal_daily WHERE day >= ${month0}) AS journal_daily_rows`)).rows;
    // the same report from the raw settlements of this China month (what the rollup saves)
    const t0 = performance.now();
    await o.query(`SELECT to_char(s.read_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD'), s.meter_kind, count(*), count(DISTINCT s.meter_id), sum(s.quantity), sum(s.amount_fen)
      FROM settlements s JOIN meters m ON m.id = s.meter_id
      WHERE s.read_at >= date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai' GROUP BY 1, 2`);
    const rawMs = performance.now() - t0;
    console.log(`扣费报表（本月）HTTP: 冷 ${report.cold.toFixed(0)} ms，中位数 ${report.median.toFixed(0)} ms，最慢 ${report.max.toFixed(0)} ms`);
    console.log(`首页 /home BillingSummary HTTP: 冷 ${home.cold.toFixed(0)} ms，中位数 ${home.median.toFixed(0)} ms，最慢 ${home.max.toFixed(0)} ms`);
    console.log(`首页按园区查询（区域汇总 journal_area_daily）HTTP: 冷 ${byPark.cold.toFixed(0)} ms，中位数 ${byPark.median.toFixed(0)} ms，最慢 ${byPark.max.toFixed(0)} ms`);
    console.log(`本月汇总行数：扣费报表读 ${Number(read.report_rows).toLocaleString()} 行（逐表 usage_daily ${Number(read.usage_daily_rows).toLocaleString()} 行），`
      + `按园区首页读 ${Number(read.area_rows).toLocaleString()} 行（逐房间 journal_daily ${Number(read.journal_daily_rows).toLocaleString()} 行）`);
    console.log(`参考：同一报表直接汇总结算明细（SQL，一次）: ${rawMs.toFixed(0)} ms`);
    console.log(`BENCH growth readings=${Number(size.readings)} report_ms=${report.median.toFixed(0)} report_ratio=${(report.median / GOAL_MS).toFixed(3)} home_ms=${home.median.toFixed(0)} home_ratio=${(home.median / GOAL_MS).toFixed(3)} park_ms=${byPark.median.toFixed(0)} park_ratio=${(byPark.median / GOAL_MS).toFixed(3)} raw_report_ms=${rawMs.toFixed(0)}（比值 = 中位数 / 2 s 目标，≤ 1 达标）`);
    // the money invariants: balance = Σ journal for every account, each reading settled once
    const [inv] = (await o.query(`SELECT
      (SELECT count(*) FROM accounts a LEFT JOIN (SELECT account_id, sum(amount_fen) AS s FROM journal GROUP BY 1) j ON j.account_id = a.id
        WHERE a.balance_fen <> coalesce(j.s, 0))::int AS unbalanced,
      (SELECT count(*) FROM (SELECT 1 FROM settlements GROUP BY meter_id, read_at HAVING count(*) > 1) x)::int AS twice`)).rows;
    console.log(`growth invariants=${inv.unbalanced === 0 && inv.twice === 0 ? 'ok' : 'FAILED'} (余额≠Σ流水 的账户 ${inv.unbalanced}，重复结算的读数 ${inv.twice})`);
    if (inv.unbalanced !== 0 || inv.twice !== 0) process.exitCode = 1;
  } finally {
    await o.end();
    await stop();
  }
}

if (isAppChild) {
  await serveAppChild(DB, 10);
} else {
  await main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
  process.exit();
}
