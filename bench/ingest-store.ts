// The storage step of reading ingest alone, A/B in one run: the same generated reports (10,000 meters,
// BENCH_READINGS_PER_METER each, as HeldReadings like the gateway queues them) stored through
// ingestReadings in batches of up to 10,000 per lane, with each lane count of BENCH_LANES (default
// "4,2,1,4,2,1": alternated, so that each count meets the same machine), the tables emptied between
// rounds. Prints per round the rows/s, this process's and PostgreSQL's CPU a row.
//   npx tsx bench/ingest-store.ts
// Env: BENCH_DB (meter_bench_ingest_store), BENCH_READINGS_PER_METER (30), BENCH_LANES.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { loadDefinition } from '@meter/simulator';
import { SYSTEM_SCOPE } from '../apps/server/src/db/client.ts';
import { HeldReading, ingestReadings, SOURCE, type IngestItem } from '../apps/server/src/modules/control/ingest.ts';
import { fmt, freshDatabase, hardLimit, runBench, seedFleet } from './device-common.ts';
import { processCpuSeconds } from './proc.ts';

hardLimit(10 * 60_000);
const DB = process.env.BENCH_DB ?? 'meter_bench_ingest_store';
const PER_METER = Number(process.env.BENCH_READINGS_PER_METER ?? 30);
const LANES = (process.env.BENCH_LANES ?? '4,2,1,4,2,1').split(',').map(Number);

const cpuOf = (pid: number): number => (processCpuSeconds(pid) ?? 0) * 1e6;

/** CPU µs so far of this database's backends and the WAL writer, checkpointer and background writer (see ingest.ts). */
async function postgresCpu(owner: pg.Pool, seen: Map<number, number>): Promise<number> {
  const r = await owner.query(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() OR backend_type IN ('walwriter', 'checkpointer', 'background writer')`,
  );
  for (const x of r.rows) seen.set(Number(x.pid), cpuOf(Number(x.pid)));
  let sum = 0;
  for (const c of seen.values()) sum += c;
  return sum;
}

async function main() {
  const def = loadDefinition({ connections: 200, metersPerConnection: 50, kind: 'mixed', prefix: '7' });
  const { owner, db } = await freshDatabase(DB);
  const { meterIds } = await seedFleet(owner, def);
  const { rows } = await owner.query(`SELECT id, company_id, kind FROM meters ORDER BY id`);
  const meters = rows.map((r) => ({ id: Number(r.id), companyId: Number(r.company_id), areaId: null, water: Number(r.kind) === 2 }));
  if (meters.length !== meterIds.size) throw new Error('meters not seeded');
  const t0 = Date.UTC(2026, 11, 7);
  // in the order the gateway takes them: round after round over the fleet, each meter's total growing
  const items: IngestItem[] = [];
  for (let k = 0; k < PER_METER; k++) {
    for (const m of meters) {
      const cents = 10_000 + k * 7 + (m.id % 13);
      const registers: Record<string, number | string | boolean> = m.water ? { statusST: 0, settlementFlow: '100.00', batteryLow: false, valve: 1 } : {};
      items.push(new HeldReading(m, t0 + k * 60_000 + (m.id % 1000), cents, registers, SOURCE.report, m.water ? 1 : undefined));
    }
  }
  console.log(`# ${fmt(meters.length)} 块表 × ${PER_METER} = ${fmt(items.length)} 条读数；每轮前清空 readings、meter_latest`);
  for (const lanes of LANES) {
    await owner.query('TRUNCATE readings, meter_latest');
    await owner.query('CHECKPOINT');
    const seen = new Map<number, number>();
    const pg0 = await postgresCpu(owner, seen);
    const c0 = process.cpuUsage();
    const s0 = performance.now();
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const mine = items.filter((x) => x.meter.id % lanes === lane);
        for (let i = 0; i < mine.length; i += 10_000) await db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, mine.slice(i, i + 10_000), { results: false }));
      }),
    );
    const seconds = (performance.now() - s0) / 1000;
    const cpu = process.cpuUsage(c0);
    const pg1 = await postgresCpu(owner, seen);
    const n = Number((await owner.query('SELECT count(*) AS n FROM readings')).rows[0].n);
    if (n !== items.length) throw new Error(`stored ${n} of ${items.length}`);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`lanes ${lanes}: ${fmt(n / seconds)} 行/秒，本进程 CPU 每行 ${((cpu.user + cpu.system) / n).toFixed(1)} µs，PostgreSQL CPU 每行 ${((pg1 - pg0) / n).toFixed(1)} µs（load ${load}）`);
  }
  await db.close();
  await owner.end();
}

runBench(main);
