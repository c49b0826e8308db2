// Connection benchmark (DESIGN §9, issue 16 item 7): up to 100,000 simulated 4G meters, each on its own
// TCP connection with heartbeats, held by one gateway process; then commands through the whole pipeline
// over real HTTP — HTTP API → commands row → worker (SKIP LOCKED) → gateway → meter → reply → reading
// stored → HTTP answer — sent by a client in its own process (bench/command-client.ts).
//   npx tsx --expose-gc bench/connections.ts
// Env: BENCH_PG_ADMIN_URL, BENCH_CONNECTIONS (100000), BENCH_COMMANDS (2000), BENCH_CONCURRENCY (1),
// BENCH_PER_GENERATOR (connections per load-generator process, 16000).
// The load is spread over child processes, each connecting from its own loopback source address
// (127.0.0.2, 127.0.0.3, …: one address has ~28k ephemeral ports toward one server port). This process
// (the gateway, API and worker) needs a file descriptor per connection: when its limit is too low it
// re-runs itself under `ulimit -n` (as far as the hard limit allows) and, still too low, holds what the
// limit allows and says so. Prints connections held, the gateway process's memory (RSS and heap above
// idle, per connection) and the median/p90/p99 command round trip. Stops by itself (hard limit).
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { loadDefinition, spawnLoadGenerator, type ConnectResult } from '@meter/simulator';
import { buildApp } from '../apps/server/src/app.ts';
import { BENCH_DEVICE_SECRET, benchWorker, fmt, freshDatabase, hardLimit, runBench, seedBenchUser, seedFleet, startGateway } from './device-common.ts';

const DB = process.env.BENCH_DB ?? 'meter_bench_conn';
const REQUESTED = Number(process.env.BENCH_CONNECTIONS ?? 100_000);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const PER_GENERATOR = Number(process.env.BENCH_PER_GENERATOR ?? 16_000);
/** descriptors this process needs besides the device connections (database pool, broker, HTTP, files) */
const RESERVED_FDS = 500;

/** this process's open-file limits (soft, hard) */
function fileLimits(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files')) ?? '';
  const [soft, hard] = line.split(/\s+/).slice(3, 5).map((x) => (x === 'unlimited' ? Infinity : Number(x)));
  return { soft: soft || 1024, hard: hard || 1024 };
}

/** Re-runs this bench under a raised `ulimit -n` when the soft limit is below what it needs; the exit code when it did. */
function rerunWithMoreFiles(need: number): number | null {
  const { soft, hard } = fileLimits();
  if (soft >= need || process.env.BENCH_ULIMIT_RAISED || soft >= hard) return null;
  const script = `ulimit -n ${need} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"`;
  const r = spawnSync('sh', ['-c', script, process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_ULIMIT_RAISED: '1' },
  });
  return r.status ?? 1;
}

const mb = (n: number) => n / 1024 / 1024;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const settle = async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 300));
  }
  return process.memoryUsage();
};

/** The commands sent by bench/command-client.ts in its own process: round trips (ms) and failures. */
function sendCommands(url: string, token: string, ids: number[]): Promise<{ times: number[]; failed: number; errors: string[] }> {
  const child = fork(fileURLToPath(new URL('./command-client.ts', import.meta.url)), [JSON.stringify({ url, token, ids, concurrency: CONCURRENCY })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as { times: number[]; failed: number; errors: string[] }));
    child.once('exit', (code) => code !== 0 && reject(new Error(`command client exited (${code})`)));
  });
}

async function main() {
  const limit = fileLimits().soft;
  const CONNECTIONS = Math.min(REQUESTED, limit - RESERVED_FDS);
  if (CONNECTIONS < REQUESTED) {
    console.log(
      `# 本进程可打开文件数上限 ${fmt(limit)}（硬上限 ${fmt(fileLimits().hard)}，无法再提高）：网关只能持有 ${fmt(CONNECTIONS)} 条连接，不是要求的 ${fmt(REQUESTED)}`,
    );
  }
  hardLimit(5 * 60_000 + Math.ceil(CONNECTIONS / 10_000) * 90_000 + COMMANDS * 1000);
  const def = loadDefinition({ connections: CONNECTIONS, metersPerConnection: 1, kind: 'electric', prefix: '8' });
  const { owner, db } = await freshDatabase(DB);
  const { companyId, meterIds } = await seedFleet(owner, def);
  await seedBenchUser(owner, companyId);

  const base = await settle();
  const { gateway, bus, stop: stopGateway } = await startGateway(db, { heartbeatSeconds: 30 });
  const worker = benchWorker({ db, bus, gateway }, { retryDelayMs: 1000, commandTtlMinutes: 5, maxAttempts: 2, concurrency: 200, heartbeatSeconds: 30 });
  worker.start();
  const app = await buildApp({ db, auth: { idleMinutes: 30, maxHours: 12 }, logLevel: 'silent', bus, control: { waitMs: 10_000 } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const afterStart = await settle();
  const snapshots = process.env.BENCH_HEAP_SNAPSHOT; // a directory: heap snapshots idle and with the connections (to compare)
  if (snapshots) v8.writeHeapSnapshot(`${snapshots}/idle.heapsnapshot`);

  // the load in processes of at most PER_GENERATOR connections, each from its own source address
  const generators = Math.ceil(CONNECTIONS / PER_GENERATOR);
  const loads = await Promise.all(
    Array.from({ length: generators }, (_, i) =>
      spawnLoadGenerator({
        deviceSecret: BENCH_DEVICE_SECRET,
        offset: i * PER_GENERATOR,
        connections: Math.min(PER_GENERATOR, CONNECTIONS - i * PER_GENERATOR),
        metersPerConnection: 1,
        kind: 'electric',
        prefix: '8',
        gateway: { host: '127.0.0.1', port: gateway.port, localAddress: `127.0.0.${2 + i}` },
        heartbeatMs: 30_000,
        registerTimeoutMs: 60_000,
        connectConcurrency: Math.max(50, Math.floor(500 / generators)),
      }),
    ),
  );
  try {
    const results: ConnectResult[] = await Promise.all(loads.map((l) => l.connect(60_000 + CONNECTIONS * 10)));
    const c = {
      registered: results.reduce((a, r) => a + r.registered, 0),
      pending: results.reduce((a, r) => a + r.pending, 0),
      rejects: results.reduce((a, r) => a + r.rejects, 0),
      elapsedMs: Math.max(...results.map((r) => r.elapsedMs)),
      p50: pct(results.map((r) => r.registerMs.p50), 50),
    };
    console.log(
      `# ${fmt(CONNECTIONS)} 块 4G 表（各自一条 TCP 连接，30 s 心跳；${generators} 个模拟进程，源地址 127.0.0.2–${2 + generators - 1}）；CPU ${os.cpus().length} 核，负载 ${os.loadavg()[0].toFixed(1)}；${(globalThis as { gc?: unknown }).gc ? '已启用 GC 测量' : '未启用 --expose-gc，内存含未回收对象'}`,
    );
    const held = gateway.stats().connections;
    const mem = await settle();
    if (snapshots) v8.writeHeapSnapshot(`${snapshots}/connected.heapsnapshot`);
    const perConn = (bytes: number) => (bytes / Math.max(1, held) / 1024).toFixed(1);
    console.log(`注册成功的连接: ${fmt(c.registered)}（网关持有 ${fmt(held)}，未注册 ${fmt(c.pending)}，拒绝 ${fmt(c.rejects)}；注册耗时 ${(c.elapsedMs / 1000).toFixed(1)} s，p50 ${c.p50.toFixed(0)} ms）`);
    console.log(`网关进程内存 RSS: ${mb(mem.rss).toFixed(0)} MB（空闲 ${mb(afterStart.rss).toFixed(0)} MB，启动网关前 ${mb(base.rss).toFixed(0)} MB）`);
    console.log(`网关进程堆内存: ${mb(mem.heapUsed).toFixed(0)} MB（空闲 ${mb(afterStart.heapUsed).toFixed(0)} MB）；堆外 ${mb(mem.external).toFixed(0)} MB（空闲 ${mb(afterStart.external).toFixed(0)} MB）`);
    console.log(`每连接内存（RSS 增量）: ${perConn(mem.rss - afterStart.rss)} KB`);
    console.log(`每连接堆内存（堆增量）: ${perConn(mem.heapUsed - afterStart.heapUsed)} KB；堆外 ${perConn(mem.external - afterStart.external)} KB`);
    const login = await fetch(`${url}/yonghu/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench123' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;

    // commands to meters picked across the fleet, through the HTTP API, each waiting for its result
    const ids = [...meterIds.values()];
    const sample = Array.from({ length: COMMANDS }, (_, i) => ids[Math.floor(((i + 0.5) * ids.length) / COMMANDS)]);
    const loadBefore = os.loadavg()[0];
    const { times, failed, errors } = await sendCommands(url, token, sample);
    const loadAfter = os.loadavg()[0];
    const gens = await Promise.all(loads.map((l) => l.stats()));
    console.log(`指令往返中位数（真实 HTTP→排队→执行→设备→入库→应答，${fmt(times.length)} 条，并发 ${CONCURRENCY}，负载 ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}）: ${pct(times, 50).toFixed(0)} ms（目标 < 100 ms）`);
    console.log(`指令往返 p90: ${pct(times, 90).toFixed(0)} ms`);
    console.log(`指令往返 p99: ${pct(times, 99).toFixed(0)} ms（目标 < 500 ms）`);
    console.log(`指令失败: ${failed} / ${times.length}${errors.length ? `（${errors.join('；')}）` : ''}`);
    console.log(
      `模拟端: 在线 ${fmt(gens.reduce((a, g) => a + g.online, 0))}，断开 ${fmt(gens.reduce((a, g) => a + g.disconnects, 0))}，内存 ${gens.reduce((a, g) => a + g.memory.rssMB, 0).toFixed(0)} MB（${generators} 个进程）`,
    );
  } finally {
    await Promise.all(loads.map((l) => l.stop().catch(() => {})));
    await worker.stop(2000);
    await stopGateway();
    await app.close();
    await db.close();
    await owner.end();
  }
}

const rerun = rerunWithMoreFiles(REQUESTED + RESERVED_FDS);
if (rerun === null) runBench(main);
else process.exit(rerun);
