// Bulk close benchmark (issue 16 item 8): 10,000 meters behind collectors (25 a collector, as in the
// demo park: 20 collectors, ~600 meters) switched off by /longRange's bulk close — one request with the
// confirmation's valve password (POST device/order/close/bulk), a task of 10,000 close commands, the
// worker carrying each out (status read, 拉闸/关阀 frame, read-back) through the gateway to the
// simulator (apps/simulator in a child process, 200 ms bus latency on every meter answer) — timed
// from the request to the last read-back confirmed (the task done). Progress (done/total) is read from
// the task list /task and /longRange poll while it runs.
// The baseline of the same run is the physical floor: the same number of frames (three a meter, each
// answered after 200 ms) sent straight through the gateway, every collector at once and one frame at a
// time on each collector's bus (its channel), without the database.
//   npx tsx bench/bulk-close.ts
// Env: BENCH_PG_ADMIN_URL, BENCH_DB (meter_bench_close), BENCH_METERS (10000), BENCH_PER_COLLECTOR (25),
// BENCH_LATENCY_MS (200), BENCH_WORKER_CONCURRENCY (800, WORKER_CONCURRENCY's default).
// Prints the time against the 60 s goal, the ratio to the floor, and checks every meter was closed
// exactly once (one close command a meter, one actuating frame received by each simulated meter, every
// relay/valve off, every command succeeded): exits 1 when not.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadDefinition } from '@meter/simulator';
import { SYSTEM_SCOPE } from '../apps/server/src/db/client.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { hashPassword } from '../apps/server/src/modules/auth/crypto.ts';
import { controlRepo, routeOf } from '../apps/server/src/modules/control/index.ts';
import { cjt, dlt, DLT645_READS } from '../apps/server/src/gateway/frames.ts';
import { benchWorker, fmt, freshDatabase, hardLimit, runBench, seedBenchUser, seedFleet, spawnFleet, startGateway } from './device-common.ts';

hardLimit(10 * 60_000);
const DB = process.env.BENCH_DB ?? 'meter_bench_close';
const METERS = Number(process.env.BENCH_METERS ?? 10_000);
const PER_COLLECTOR = Number(process.env.BENCH_PER_COLLECTOR ?? 25);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 800);
const GOAL_S = 60;
const VALVE_PASSWORD = 'close2026';
const FRAMES_PER_CLOSE = 3;
const PROGRESS_EVERY_S = Number(process.env.BENCH_PROGRESS_EVERY_S ?? 10);

const load1 = () => os.loadavg()[0].toFixed(1);

async function main() {
  const collectors = Math.ceil(METERS / PER_COLLECTOR);
  const fleet = { connections: collectors, metersPerConnection: PER_COLLECTOR, kind: 'mixed', prefix: '5' } as const;
  const def = loadDefinition(fleet);
  const { owner, db } = await freshDatabase(DB);
  const { companyId, meterIds } = await seedFleet(owner, def);
  // every tenth meter single-phase (phaseId 1): the bulk close asks the valve password once
  const phase = await owner.query(`SELECT id FROM device_lookups WHERE id = 1`);
  if (phase.rowCount) await owner.query(`UPDATE meters SET phase_id = 1 WHERE company_id = $1 AND id % 10 = 0`, [companyId]);
  await owner.query(`UPDATE companies SET valve_control_pwd = $2 WHERE id = $1`, [companyId, await hashPassword(VALVE_PASSWORD)]);
  await seedBenchUser(owner, companyId);

  const { gateway, bus, stop: stopGateway } = await startGateway(db, { heartbeatSeconds: 60, replyTimeoutMs: 3000 });
  const worker = benchWorker({ db, bus, gateway }, { concurrency: CONCURRENCY, queueWaitMs: 60_000 });
  const app = await buildApp({ db, auth: { idleMinutes: 30, maxHours: 12 }, logLevel: 'silent', bus, control: { waitMs: 15_000 } });
  await app.ready();
  const sim = await spawnFleet(fleet, gateway, {
    heartbeatMs: 60_000,
    replyLatencyMs: LATENCY_MS,
    // meter clocks at real speed: a remote-control frame's validity is checked against them
    speed: 1,
    connectConcurrency: 200,
  });
  let failed: boolean;
  try {
    const c = await sim.connect(120_000);
    if (c.registered !== collectors) throw new Error(`只有 ${c.registered} / ${collectors} 个采集器注册成功`);
    console.log(`# ${fmt(METERS)} 块表（${fmt(collectors)} 个采集器 × ${PER_COLLECTOR}，电表/水表各半），模拟器应答延迟 ${LATENCY_MS} ms；worker 并发 ${CONCURRENCY}；CPU ${os.cpus().length} 核，负载 ${load1()}`);

    // ---- the floor: three frames a meter, each collector's frames one after another, all collectors at once
    const ids = [...meterIds.values()];
    const meters = await db.tx(SYSTEM_SCOPE, (tx) => controlRepo.controlMeters(tx, ids));
    const byCollector = new Map<string, typeof meters>();
    for (const m of meters) {
      const key = m.collectorImei ?? `m${m.id}`;
      byCollector.set(key, [...(byCollector.get(key) ?? []), m]);
    }
    const loadFloor = load1();
    const f0 = performance.now();
    let floorFrames = 0;
    await Promise.all(
      [...byCollector.values()].map(async (list) => {
        for (const m of list) {
          const route = routeOf(m, m.collectorImei);
          const req = route.protocol === 'dlt645' ? dlt.read(route.address, DLT645_READS.status.dataId, DLT645_READS.status.label) : cjt.read(route.address);
          for (let i = 0; i < FRAMES_PER_CLOSE; i++) {
            if (!(await gateway.transact(route, { ...req, ref: 0 }))) throw new Error(`表 ${m.address} 未应答`);
            floorFrames++;
          }
        }
      }),
    );
    const floorMs = performance.now() - f0;
    console.log(`物理下限（${fmt(floorFrames)} 帧直接经网关，各采集器串行、全部采集器并行，无数据库）: ${(floorMs / 1000).toFixed(2)} s（理论 ${((PER_COLLECTOR * FRAMES_PER_CLOSE * LATENCY_MS) / 1000).toFixed(1)} s；负载 ${loadFloor}）`);

    // ---- the real path: /longRange's bulk close with its password, the worker, the read-backs
    worker.start();
    const login = await app.inject({ method: 'POST', url: '/yonghu/api/admin/login', payload: { username: 'bench', password: 'bench123' } });
    const token = login.json().data.token as string;
    const loadReal = load1();
    // BENCH_SAMPLE=1: statements of this database running longer than a second, sampled each second
    const sampler = process.env.BENCH_SAMPLE
      ? setInterval(() => {
          void owner
            .query(
              `SELECT pid, state, wait_event_type || ':' || wait_event AS wait, round(extract(epoch FROM now() - query_start)::numeric, 1) AS s, left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS q
               FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND now() - query_start > interval '1 second'`,
            )
            .then((r) => r.rows.length && console.log(`# ${((performance.now() - t0) / 1000).toFixed(0)} s 慢语句: ${JSON.stringify(r.rows)}`), () => {});
        }, 1000)
      : undefined;
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/device/api/v1/device/order/close/bulk',
      headers: { authorization: token },
      payload: { ids, memo: '压测：批量拉闸/关阀', password: VALVE_PASSWORD },
    });
    const body = res.json();
    const requestMs = performance.now() - t0;
    if (body.code !== 'SUCCESS') throw new Error(`批量拉闸/关阀被拒绝: ${JSON.stringify(body).slice(0, 400)}`);
    const taskId = Number(body.data.taskId);
    console.log(`请求应答: ${(requestMs / 1000).toFixed(2)} s（排队 ${fmt(body.data.queued)}，已有同类指令 ${body.data.joined}，拒绝 ${body.data.refused.length}；任务 ${taskId}）`);
    // progress as /task and /longRange read it (device/read/task/list?id=), twice a second
    const progress: string[] = [];
    let lastDone = -1;
    let rising = 0;
    for (;;) {
      const r = await app.inject({ method: 'GET', url: `/device/api/v1/device/read/task/list?id=${taskId}&index=1&size=1`, headers: { authorization: token } });
      const t = r.json().data?.[0];
      if (!t) throw new Error(`任务 ${taskId} 未出现在任务列表中`);
      const done = Number(t.succeeded) + Number(t.failed);
      if (done > lastDone && lastDone >= 0 && done < t.total) rising++;
      lastDone = done;
      const at = (performance.now() - t0) / 1000;
      if (progress.length === 0 || at - Number(progress[progress.length - 1].split(' ')[0]) >= PROGRESS_EVERY_S || t.status === 'done') progress.push(`${at.toFixed(1)} s: ${done}/${t.total}（成功 ${t.succeeded}，失败 ${t.failed}）`);
      if (t.status === 'done') break;
      if (at > 480) throw new Error(`480 s 后任务仍未完成: ${done}/${t.total}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const realMs = performance.now() - t0;
    clearInterval(sampler);
    const lastFinish = await owner.query(`SELECT extract(epoch FROM max(finished_at) - min(created_at)) AS s FROM commands WHERE read_task_id = $1`, [taskId]);
    console.log(`进度（任务列表 /task 与 /longRange 读取的 已完成/总数）: ${progress.join('；')}；运行中进度上升 ${rising} 次`);
    console.log(`批量拉闸/关阀 ${fmt(METERS)} 块（请求 → 最后一块回读确认）: ${(realMs / 1000).toFixed(2)} s（目标 ≤ ${GOAL_S} s；数据库内 ${Number(lastFinish.rows[0].s).toFixed(2)} s；负载 ${loadReal} → ${load1()}）`);
    console.log(`BENCH bulk-close seconds=${(realMs / 1000).toFixed(2)} floor=${(floorMs / 1000).toFixed(2)} ratio=${(realMs / floorMs).toFixed(2)}`);
    console.log(`比值 批量拉闸/物理下限: ${(realMs / floorMs).toFixed(2)}×；目标 ${GOAL_S} s: ${realMs <= GOAL_S * 1000 ? '达到' : '未达到'}`);

    // ---- exactly once: one close command a meter, all succeeded; one actuating frame received by each meter, all off
    const cmds = await owner.query(
      `SELECT count(*) FILTER (WHERE n <> 1) AS bad, count(*) AS meters, sum(ok) AS ok FROM (
         SELECT m.id, count(c.id) AS n, count(c.id) FILTER (WHERE c.status = 'succeeded') AS ok
         FROM meters m LEFT JOIN commands c ON c.meter_id = m.id AND c.kind = 'close' WHERE m.company_id = $1 GROUP BY m.id) x`,
      [companyId],
    );
    const states = await sim.meterStates();
    const notOff = states.filter((s) => s.supplyOn).length;
    const twice = states.filter((s) => s.actuationCommands > 1).length;
    const never = states.filter((s) => s.actuationCommands === 0).length;
    const bad = Number(cmds.rows[0].bad);
    const ok = Number(cmds.rows[0].ok);
    console.log(
      `检查: 每块表一条拉闸/关阀指令 ${bad === 0 ? '是' : `否（${bad} 块不是）`}，成功 ${fmt(ok)} / ${fmt(METERS)}；模拟表收到动作指令两次以上 ${twice} 块、未收到 ${never} 块、仍通电/开阀 ${notOff} 块`,
    );
    failed = bad !== 0 || ok !== METERS || twice !== 0 || never !== 0 || notOff !== 0 || states.length !== METERS || rising === 0;
    console.log(`bulk-close check=${failed ? 'FAILED' : 'ok'}`);
  } finally {
    await sim.stop().catch(() => {});
    await worker.stop(2000);
    await stopGateway();
    await app.close();
    await db.close();
    await owner.end();
  }
  if (failed) throw new Error('批量拉闸/关阀的检查未通过');
}

runBench(main);
