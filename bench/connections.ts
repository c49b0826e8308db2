// Connection benchmark (DESIGN §9): 10,000 simulated 4G meters, each on its own TCP connection with
// heartbeats, held by one gateway; then commands through the whole pipeline — HTTP API → commands
// row → worker (SKIP LOCKED) → gateway → meter → reply → reading stored → HTTP answer.
//   npx tsx bench/connections.ts
// Env: BENCH_PG_ADMIN_URL, BENCH_CONNECTIONS (10000), BENCH_COMMANDS (200), BENCH_CONCURRENCY (1).
// The load generator runs in a child process. Prints one line per figure: connections held, the
// gateway process's memory (total and per connection), and the median (p90, p99) command round trip
// (goal < 1 s). Stops by itself (hard limit 5 minutes).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadDefinition } from '@meter/simulator';
import { buildApp } from '../apps/server/src/app.ts';
import { benchWorker, fmt, freshDatabase, hardLimit, runBench, seedBenchUser, seedFleet, spawnFleet, startGateway } from './device-common.ts';

hardLimit(5 * 60_000);
const DB = process.env.BENCH_DB ?? 'meter_bench_conn';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10_000);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);

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

async function main() {
  const fleet = { connections: CONNECTIONS, metersPerConnection: 1, kind: 'electric', prefix: '8' } as const;
  const def = loadDefinition(fleet);
  const { owner, db } = await freshDatabase(DB);
  const { companyId, meterIds } = await seedFleet(owner, def);
  await seedBenchUser(owner, companyId);

  const base = await settle();
  const { gateway, bus, stop: stopGateway } = await startGateway(db, { heartbeatSeconds: 30 });
  const worker = benchWorker({ db, bus, gateway }, { retryDelayMs: 1000, commandTtlMinutes: 5, maxAttempts: 2, concurrency: 200, heartbeatSeconds: 30 });
  worker.start();
  const app = await buildApp({ db, auth: { idleMinutes: 30, maxHours: 12 }, logLevel: 'silent', bus, control: { waitMs: 10_000 } });
  await app.ready();
  const afterStart = await settle();

  const load = await spawnFleet(fleet, gateway, { heartbeatMs: 30_000, connectConcurrency: 500 });
  try {
    const c = await load.connect(120_000);
    console.log(`# ${fmt(CONNECTIONS)} 块 4G 表（各自一条 TCP 连接，30 s 心跳）；CPU ${os.cpus().length} 核，负载 ${os.loadavg()[0].toFixed(1)}；${(globalThis as { gc?: unknown }).gc ? '已启用 GC 测量' : '未启用 --expose-gc，内存含未回收对象'}`);
    const held = gateway.stats().connections;
    const mem = await settle();
    const login = await app.inject({ method: 'POST', url: '/yonghu/api/admin/login', payload: { username: 'bench', password: 'bench123' } });
    const token = login.json().data.token as string;

    // commands to meters picked across the fleet, through the HTTP API, waiting for each result
    const ids = [...meterIds.values()];
    const sample = Array.from({ length: COMMANDS }, (_, i) => ids[Math.floor(((i + 0.5) * ids.length) / COMMANDS)]);
    const times: number[] = [];
    let failed = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < sample.length) {
          const id = sample[next++];
          const t = performance.now();
          const r = await app.inject({ method: 'POST', url: '/device/api/v1/device/order/read', headers: { authorization: token }, payload: { ids: [id] } });
          times.push(performance.now() - t);
          if (r.json().data?.commands?.[0]?.status !== 'succeeded') failed++;
        }
      }),
    );
    const gen = await load.stats();

    console.log(`注册成功的连接: ${fmt(c.registered)}（网关持有 ${fmt(held)}，未注册 ${fmt(c.pending)}，拒绝 ${fmt(c.rejects)}；注册耗时 ${(c.elapsedMs / 1000).toFixed(1)} s，p50 ${c.registerMs.p50.toFixed(0)} ms）`);
    console.log(`网关进程内存 RSS: ${mb(mem.rss).toFixed(0)} MB（启动后 ${mb(afterStart.rss).toFixed(0)} MB，连接前基线 ${mb(base.rss).toFixed(0)} MB）`);
    console.log(`网关进程堆内存: ${mb(mem.heapUsed).toFixed(0)} MB（启动后 ${mb(afterStart.heapUsed).toFixed(0)} MB）`);
    console.log(`每连接内存（RSS 增量）: ${((mem.rss - afterStart.rss) / Math.max(1, held) / 1024).toFixed(1)} KB`);
    console.log(`指令往返中位数（HTTP→排队→执行→设备→入库→应答，并发 ${CONCURRENCY}）: ${pct(times, 50).toFixed(0)} ms（目标 < 1000 ms）`);
    console.log(`指令往返 p90: ${pct(times, 90).toFixed(0)} ms`);
    console.log(`指令往返 p99: ${pct(times, 99).toFixed(0)} ms`);
    console.log(`指令失败: ${failed} / ${times.length}`);
    console.log(`模拟端: 在线 ${fmt(gen.online)}，断开 ${fmt(gen.disconnects)}，内存 ${gen.memory.rssMB.toFixed(0)} MB`);
  } finally {
    await load.stop().catch(() => {});
    await worker.stop(2000);
    await stopGateway();
    await app.close();
    await db.close();
    await owner.end();
  }
}

runBench(main);
