// Shared set-up of the device benchmarks (bench/ingest.ts, bench/connections.ts): a fresh database,
// the app's migrations, one company whose collectors/meters are the load generator's devices, and
// the gateway in this process with its event bus on an embedded MQTT broker, as `npm start` runs it
// (every device event the gateway publishes goes through the broker; devices speak TCP).
import pg from 'pg';
import pino from 'pino';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { spawnLoadGenerator, type FleetDefinition, type LoadDefinitionOptions, type LoadGeneratorOptions } from '@meter/simulator';
import { appUrlFrom, openDb, type Db } from '../apps/server/src/db/client.ts';
import { Gateway } from '../apps/server/src/gateway/gateway.ts';
import { Worker, type WorkerSettings } from '../apps/server/src/jobs/worker.ts';
import { hashPassword } from '../apps/server/src/modules/auth/crypto.ts';
import { connectMqtt, startBroker } from '../apps/server/src/gateway/mqtt.ts';
import { DeviceSecrets, Sealer } from '../apps/server/src/gateway/security.ts';
import { EventBus } from '../apps/server/src/modules/realtime/bus.ts';
import { APP_PASSWORD, migratedDatabase, ownerUrl } from './db-common.ts';

export { ownerUrl };

/** the benchmark deployment's device secret: collectors register with their archive's secret, 4G meters with a derived one */
export const BENCH_DEVICE_SECRET = 'benchmark-device-secret-0123456789abcdef';
export const BENCH_SECRETS = new DeviceSecrets(BENCH_DEVICE_SECRET);

export async function freshDatabase(name: string) {
  await migratedDatabase(name);
  return { owner: new pg.Pool({ connectionString: ownerUrl(name), max: 4 }), db: openDb(appUrlFrom(ownerUrl(name), APP_PASSWORD), 20) };
}

/** One company; each load connection a collector (or a 4G meter when it carries one meter). */
export async function seedFleet(owner: pg.Pool, def: FleetDefinition): Promise<{ companyId: number; meterIds: Map<string, number> }> {
  const { rows } = await owner.query(`INSERT INTO companies (name) VALUES ('压测单位') RETURNING id`);
  const companyId = Number(rows[0].id);
  const collectors = def.collectors.filter((c) => c.meters.length > 1);
  const fourG = def.collectors.filter((c) => c.meters.length === 1);
  // the load generator (given BENCH_DEVICE_SECRET) registers every connection with the platform's 4G
  // derivation of its IMEI: collectors keep that secret in their archive, 4G meters need none stored
  for (const c of collectors) c.secret = BENCH_SECRETS.fourG(c.imei);
  for (const c of fourG) c.secret = BENCH_SECRETS.fourG(c.imei);
  const ids = new Map<string, number>();
  if (collectors.length) {
    const r = await owner.query(
      `INSERT INTO collectors (company_id, name, imei, plan, reg_secret) SELECT $1, n, i, 0, s FROM unnest($2::text[], $3::text[], $4::text[]) AS x(n, i, s) RETURNING id, imei`,
      [companyId, collectors.map((c) => c.name ?? c.imei), collectors.map((c) => c.imei), collectors.map((c) => c.secret)],
    );
    for (const x of r.rows) ids.set(String(x.imei), Number(x.id));
  }
  const meters: { address: string; kind: number; collectorId: number | null; imei: string }[] = [];
  for (const c of collectors) for (const m of c.meters) meters.push({ address: m.address, kind: m.kind === 'water' ? 2 : 1, collectorId: ids.get(c.imei)!, imei: '' });
  for (const c of fourG) meters.push({ address: c.meters[0].address, kind: c.meters[0].kind === 'water' ? 2 : 1, collectorId: null, imei: c.imei });
  const r = await owner.query(
    `INSERT INTO meters (company_id, name, kind, plan, address, collector_id, imei, protocol_id)
     SELECT $1, a, k, CASE WHEN k = 2 THEN 100 ELSE 0 END, a, c, i, CASE WHEN k = 2 THEN 13 ELSE 11 END
     FROM unnest($2::text[], $3::int[], $4::bigint[], $5::text[]) AS x(a, k, c, i) RETURNING id, address`,
    [companyId, meters.map((m) => m.address), meters.map((m) => m.kind), meters.map((m) => m.collectorId), meters.map((m) => m.imei)],
  );
  const meterIds = new Map<string, number>(r.rows.map((x) => [String(x.address), Number(x.id)]));
  await owner.query('ANALYZE collectors, meters');
  return { companyId, meterIds };
}

/** The company's back-office user bench / bench123, allowed every page and operation (for the HTTP API). */
export async function seedBenchUser(owner: pg.Pool, companyId: number) {
  const role = await owner.query(`INSERT INTO roles (company_id, name, routes, operations) VALUES ($1, '压测', $2, $3) RETURNING id`, [
    companyId,
    ROUTES.filter((r) => r.access === undefined).map((r) => r.key),
    OPERATION_KEYS,
  ]);
  await owner.query(`INSERT INTO admin_users (company_id, username, password_hash, role_id, access, real_name) VALUES ($1, 'bench', $2, $3, 1, '压测')`, [
    companyId,
    await hashPassword('bench123'),
    role.rows[0].id,
  ]);
}

/**
 * The command worker with the WORKER_* and COMMAND_* defaults of apps/server/src/config.ts and no
 * scheduled reading rounds; `settings` overrides them. Not started.
 */
export function benchWorker(d: { db: Db; bus: EventBus; gateway: Gateway }, settings: Partial<WorkerSettings> = {}) {
  return new Worker({
    ...d,
    log: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'warn' }),
    settings: {
      auth: { password: '02000000', operator: '00000000' },
      clockDriftSeconds: 300,
      retryDelayMs: 5000,
      commandTtlMinutes: 10,
      maxAttempts: 3,
      clockEveryHours: 24,
      concurrency: 800,
      pollMs: 1000,
      readIntervalMinutes: 0,
      offlineWarnMinutes: 60,
      heartbeatSeconds: 60,
      replyTimeoutMs: 3000,
      retries: 1,
      reportRetentionDays: 90,
      ...settings,
    },
  });
}

/**
 * The load generator (a child process) for `fleet`, the options its definition was seeded from:
 * registering with the benchmark's device secret at `gateway`; `o` adds the run's own options.
 */
export function spawnFleet(fleet: LoadDefinitionOptions, gateway: Gateway, o: Omit<LoadGeneratorOptions, keyof LoadDefinitionOptions | 'gateway' | 'logger'>) {
  return spawnLoadGenerator({ ...fleet, deviceSecret: BENCH_DEVICE_SECRET, gateway: { host: '127.0.0.1', port: gateway.port }, ...o });
}

export async function startGateway(db: Db, opts: { heartbeatSeconds?: number; replyTimeoutMs?: number } = {}) {
  const log = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'warn' });
  const broker = await startBroker({ port: 0, secrets: BENCH_SECRETS, log });
  const busClient = await connectMqtt(broker.url, 'bench-bus', BENCH_SECRETS.service('worker'));
  const bus = new EventBus();
  await bus.attach(busClient, new Sealer(BENCH_SECRETS.signingKey, log));
  const gateway = new Gateway({
    db,
    bus,
    log,
    settings: { host: '127.0.0.1', port: 0, heartbeatSeconds: opts.heartbeatSeconds ?? 60, replyTimeoutMs: opts.replyTimeoutMs ?? 3000, retries: 1, mqttMeters: false },
    security: { secrets: BENCH_SECRETS, sealer: new Sealer(BENCH_SECRETS.signingKey, log) },
  });
  await gateway.start();
  const stop = async () => {
    await gateway.stop();
    bus.detach();
    await busClient.endAsync(true).catch(() => {});
    await broker.close();
  };
  return { gateway, bus, stop };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Stops the benchmark whatever happens after `ms`. */
export function hardLimit(ms: number) {
  setTimeout(() => {
    console.error(`# 超过 ${ms / 1000} s 的时限，强制结束`);
    process.exit(3);
  }, ms).unref();
}

/** Runs a benchmark: exit 0 when it is done, 1 (with the error) when the run itself failed. */
export function runBench(main: () => Promise<void>) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error('压测失败:', e);
      process.exit(1);
    },
  );
}
