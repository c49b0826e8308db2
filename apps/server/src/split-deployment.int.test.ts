import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { createFleet, type Fleet } from '@meter/simulator';
import { OWNER_URL } from '../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../test/factories.ts';
import { addr12, imei15, MQTT_URL, until } from './modules/control/harness.test-util.ts';

// The split deployment as an operator runs it: 2 API processes, 2 gateways and a worker, each its own
// `node src/main.ts` with its ROLES, against this run's PostgreSQL database and the real Mosquitto
// (under a topic prefix of its own). A simulated collector with one meter is connected to gateway B.
//   - a command asked at API A reaches the meter through the worker and gateway B;
//   - the worker is killed (SIGKILL) with a close on the wire, and started again;
//   - the database refuses every connection for 20 s (this run's database only: ALLOW_CONNECTIONS
//     false and its sessions terminated) while an open is under way;
// and every command ends succeeded, the meter having received each relay command exactly once.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = new URL(OWNER_URL()).pathname.slice(1);
const PREFIX = `split-${process.pid}-${Date.now().toString(36)}/`;
const V1 = '/device/api/v1';
// the deployment's device secret, shared by all its processes: they sign and check each other's MQTT messages
const DEVICE_SECRET = `split-deployment-test-secret-${process.pid}-0123456789abcdef`;

interface Proc {
  name: string;
  child: ChildProcess;
  log: string[];
}

const procs = new Map<string, Proc>();
let owner: pg.Pool;
let fleet: Fleet;
let ports: { apiA: number; apiB: number; gwA: number; gwB: number };
let token: string;
let meter: { id: number; address: string };
let regSecret: string;
const imei = imei15();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

function start(name: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: OWNER_URL(),
      APP_DB_PASSWORD: 'meter_app_test', // meter_app is cluster-wide: every test run uses this password
      MQTT_URL,
      MQTT_TOPIC_PREFIX: PREFIX,
      SEED_DEMO: '0',
      SIMULATOR: '0',
      HOST: '127.0.0.1',
      GATEWAY_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      READ_INTERVAL_MINUTES: '0',
      GATEWAY_REPLY_TIMEOUT_MS: '4000',
      GATEWAY_RETRIES: '1',
      COMMAND_RETRY_SECONDS: '1',
      COMMAND_MAX_ATTEMPTS: '5',
      COMMAND_ORPHAN_GRACE_SECONDS: '2',
      COMMAND_WAIT_SECONDS: '30',
      DEVICE_SECRET,
      // each process its own free ops (/metrics), payment-, SMS- and bank-emulator ports
      OPS_PORT: '0',
      PAY_EMULATOR_PORT: '0',
      SMS_ALIYUN_PORT: '0',
      SMS_TENCENT_PORT: '0',
      BANK_EMULATOR_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Proc = { name, child, log: [] };
  const keep = (b: Buffer) => {
    p.log.push(b.toString('utf8'));
    if (p.log.length > 400) p.log.splice(0, 100);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  procs.set(name, p);
  return p;
}

const logOf = (name: string) => procs.get(name)?.log.join('') ?? '';
const dumpLogs = () => {
  for (const [name, p] of procs) console.error(`---- ${name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'}) ----\n${logOf(name).slice(-4000)}`);
};

async function stopAll() {
  await Promise.all(
    [...procs.values()].map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
          p.child.once('exit', () => resolve());
          p.child.kill('SIGTERM');
          setTimeout(() => p.child.kill('SIGKILL'), 4000).unref();
        }),
    ),
  );
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * Waits for a process to be ready (`isReady`), failing at once if it exits first. Each process loads the
 * whole server through tsx; five starting together on a busy machine once took over 150 s (2026-12-07,
 * integration files sharing a process), so the limit is generous: a process still starting is no failure.
 */
async function ready(name: string, what: string, isReady: () => Promise<boolean>, limitMs = 300_000) {
  const p = procs.get(name)!;
  await until(
    async () => {
      if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`${name} exited (${p.child.exitCode ?? p.child.signalCode}) before ${what}`);
      return isReady();
    },
    limitMs,
    `${name}: ${what}`,
  );
}

const startWorker = () => start('worker', { ROLES: 'worker', WORKER_CONCURRENCY: '20' });
const workerUp = () => ready('worker', 'worker up', async () => logOf('worker').includes('指令执行器已启动') && logOf('worker').includes('已取得租约'));

async function post(port: number, url: string, body: unknown) {
  const r = await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
  return (await r.json()) as { code: string; message?: string; data: any };
}

const sim = () => fleet.meter(meter.address)!;
const q1 = async <T = Record<string, unknown>>(sql: string, args: unknown[] = []) => (await owner.query(sql, args)).rows[0] as T;
const final = async (id: number) => {
  const r = await q1<{ status: string; error: string; attempts: number }>('SELECT status, error, attempts FROM commands WHERE id = $1', [id]);
  return ['succeeded', 'failed', 'timed_out', 'expired'].includes(r.status) ? r : undefined;
};

beforeAll(async () => {
  const t0 = Date.now();
  owner = new pg.Pool({ connectionString: OWNER_URL(), max: 2 });
  owner.on('error', () => {});
  ports = { apiA: await freePort(), apiB: await freePort(), gwA: await freePort(), gwB: await freePort() };
  const companyId = await makeCompany(owner);
  const areaId = await makeArea(owner, companyId, uniq('园区'));
  const roomId = await makeRoom(owner, companyId, areaId, uniq('房'));
  const role = await makeRole(owner, companyId, ROUTES.filter((r) => r.access === undefined).map((r) => r.key), OPERATION_KEYS);
  const user = await makeUser(owner, { companyId, roleId: role });
  const c = await owner.query(`INSERT INTO collectors (company_id, name, imei, plan) VALUES ($1, $2, $3, 0) RETURNING id, reg_secret`, [companyId, uniq('采集器'), imei]);
  regSecret = String(c.rows[0].reg_secret);
  const address = addr12();
  const m = await owner.query(
    `INSERT INTO meters (company_id, room_id, collector_id, name, kind, plan, address, imei, protocol_id) VALUES ($1, $2, $3, $4, 1, 0, $5, '', 11) RETURNING id`,
    [companyId, roomId, Number(c.rows[0].id), uniq('电表'), address],
  );
  meter = { id: Number(m.rows[0].id), address };

  start('api-a', { ROLES: 'api', PORT: String(ports.apiA) });
  start('api-b', { ROLES: 'api', PORT: String(ports.apiB) });
  start('gw-a', { ROLES: 'gateway', GATEWAY_PORT: String(ports.gwA) });
  start('gw-b', { ROLES: 'gateway', GATEWAY_PORT: String(ports.gwB) });
  startWorker();
  try {
    const names = { apiA: 'api-a', apiB: 'api-b', gwA: 'gw-a', gwB: 'gw-b' } as const;
    await Promise.all([...Object.entries(ports).map(([k, port]) => ready(names[k as keyof typeof names], `listening on ${port}`, () => listening(port))), workerUp()]);
  } catch (e) {
    dumpLogs();
    throw e;
  }
  console.info(`split deployment: 5 processes up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const login = await fetch(`http://127.0.0.1:${ports.apiA}/yonghu/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  token = ((await login.json()) as { data: { token: string } }).data.token;

  fleet = createFleet({
    // the collector registers with its archive's secret (REG <imei> <secret>)
    collectors: [{ imei, secret: regSecret, meters: [{ address, kind: 'electric', initialTotal: 100 }] }],
    gateway: { host: '127.0.0.1', port: ports.gwB },
    mqttUrl: MQTT_URL,
    topicPrefix: PREFIX,
    heartbeatMs: 5000,
    reconnectMinMs: 200,
    reconnectMaxMs: 1000,
    seed: 5,
  });
  fleet.start();
  await fleet.whenOnline(15_000);
}, 420_000);

afterAll(async () => {
  // whatever happened, this run's database takes connections again
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(DB_NAME)} ALLOW_CONNECTIONS true`);
  await admin.end();
  await fleet?.stop().catch(() => {});
  await stopAll();
  await owner?.end();
}, 60_000);

describe('the split deployment (2 API, 2 gateways, a worker: separate processes)', () => {
  it('a command from API A reaches the meter on gateway B; a killed worker and a 20 s database outage lose nothing and actuate nothing twice', async () => {
    try {
      // 1. API A → commands → worker → gateway/exec → gateway B → meter
      const r = await post(ports.apiA, `${V1}/device/order/read`, { ids: [meter.id] });
      expect(r.data.commands[0]).toMatchObject({ status: 'succeeded' });
      expect(Number(r.data.commands[0].reply.total)).toBeGreaterThanOrEqual(100);

      // 2. a close with slow replies; the worker is killed once the relay command is on the wire
      sim().setFault('slowReplies', 1500);
      const acts0 = sim().counters.actuationCommands;
      void post(ports.apiB, `${V1}/device/order/open`, { id: meter.id, open: false }).catch(() => {});
      const close = await until(async () => q1<{ id: number }>(`SELECT id FROM commands WHERE meter_id = $1 AND kind = 'close' AND status = 'sent'`, [meter.id]), 20_000, 'close sent');
      await until(async () => sim().counters.actuationCommands > acts0, 20_000, 'trip on the wire');
      const killedAt = Date.now();
      procs.get('worker')!.child.kill('SIGKILL');
      await new Promise((res) => procs.get('worker')!.child.once('exit', res));
      startWorker();
      // finished by the worker started again: its start alone may take a minute on a busy machine
      const closed = await until(() => final(Number(close.id)), 180_000, 'close finished');
      const closeMs = Date.now() - killedAt;
      expect(closed.status).toBe('succeeded');
      expect(sim().supplyOn).toBe(false);
      expect(sim().counters.actuationCommands - acts0).toBe(1);

      // 3. an open under way when this run's database stops taking connections for 20 s
      await workerUp();
      const acts1 = sim().counters.actuationCommands;
      void post(ports.apiA, `${V1}/device/order/open`, { id: meter.id, open: true }).catch(() => {});
      const open = await until(async () => q1<{ id: number }>(`SELECT id FROM commands WHERE meter_id = $1 AND kind = 'open' AND status = 'sent'`, [meter.id]), 20_000, 'open sent');
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(DB_NAME)} ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [DB_NAME]);
      const downAt = Date.now();
      await new Promise((res) => setTimeout(res, 20_000));
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(DB_NAME)} ALLOW_CONNECTIONS true`);
      await admin.end();
      const opened = await until(() => final(Number(open.id)), 60_000, 'open finished');
      const openMs = Date.now() - downAt;
      expect(openMs).toBeLessThan(80_000);
      console.info(`split deployment: close finished ${(closeMs / 1000).toFixed(1)} s after the worker was killed; open finished ${(openMs / 1000).toFixed(1)} s after the database went away (20 s outage)`);
      expect(opened.status).toBe('succeeded');
      expect(sim().supplyOn).toBe(true);
      expect(sim().counters.actuationCommands - acts1).toBe(1);

      // nothing left behind: no command of this meter is still pending, every one asked succeeded
      const all = (await owner.query(`SELECT kind, status FROM commands WHERE meter_id = $1 ORDER BY id`, [meter.id])).rows;
      expect(all).toEqual([
        { kind: 'read', status: 'succeeded' },
        { kind: 'close', status: 'succeeded' },
        { kind: 'open', status: 'succeeded' },
      ]);
      // and it still works end to end, through the other API
      sim().setFault('slowReplies', 0);
      const again = await post(ports.apiB, `${V1}/device/order/read`, { ids: [meter.id] });
      expect(again.data.commands[0]).toMatchObject({ status: 'succeeded' });
    } catch (e) {
      dumpLogs();
      throw e;
    }
  }, 360_000);
});
