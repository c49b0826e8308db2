import pg from 'pg';
import { afterAll } from 'vitest';
import pino from 'pino';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { MqttClient } from 'mqtt';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { createFleet, type CollectorDefinition, type FaultPlanEntry, type Fleet, type MeterDefinition } from '@meter/simulator';
import { buildApp } from '../../app.ts';
import { appUrlFrom, openDb, type Db } from '../../db/client.ts';
import { Gateway, type GatewaySettings } from '../../gateway/gateway.ts';
import { connectMqtt } from '../../gateway/mqtt.ts';
import { DeviceSecrets, Sealer } from '../../gateway/security.ts';
import { Worker, type WorkerSettings } from '../../jobs/worker.ts';
import { EventBus } from '../realtime/bus.ts';
import type { ControlSettings } from './executor.ts';
import { injector, OWNER_URL, signer } from '../../../test/helpers.ts';
import { deviceNumbers, makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// The whole device side for integration tests: the real app, gateway (TCP on a free port, MQTT on
// the real Mosquitto at 127.0.0.1:1883 under a topic prefix of its own), worker and event bus, and
// simulated collectors/meters (@meter/simulator) talking to it over real sockets.

export const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

export const { addr12, addr14, imei15 } = deviceNumbers({ dlt645: '93', cjt188: '9400', imei: '37' });

export interface HarnessOptions {
  gateway?: Partial<GatewaySettings>;
  worker?: Partial<WorkerSettings>;
  waitMs?: number;
  /** start the worker (default true) */
  worker_?: boolean;
  /** the gateway's logger (default silent) */
  log?: pino.Logger;
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  owner: pg.Pool;
  bus: EventBus;
  gateway: Gateway;
  worker: Worker;
  prefix: string;
  mqtt: MqttClient[];
  fleets: Fleet[];
  call(token: string | null, opts: InjectOptions): Promise<{ status: number; body: any }>;
  login(username: string, password: string): Promise<string>;
  /** The first row of a query as the database owner (what the app wrote, past row-level security). */
  q1<T = Record<string, unknown>>(sql: string, args?: unknown[]): Promise<T>;
  /** a company with an area, rooms and a user holding every page and operation */
  company(ops?: string[], routes?: string[]): Promise<TestCompany>;
  collector(companyId: number, imei?: string): Promise<number>;
  /** the registration line a device with this IMEI sends (`REG <imei> <secret>\n`) */
  reg(imei: string): Promise<string>;
  meter(c: TestCompany, m: { kind: 1 | 2; address?: string; collectorId?: number | null; imei?: string; plan?: number; roomId?: number }): Promise<{ id: number; address: string }>;
  /** `nbReportIntervalMs`: the NB meters' periodic reports (default the simulator's 60 s; 0 = none) */
  fleet(collectors: CollectorDefinition[], nbMeters?: MeterDefinition[], options?: { heartbeatMs?: number; faults?: FaultPlanEntry[]; nbReportIntervalMs?: number }): Promise<Fleet>;
  /**
   * A collector of the company (IMEI `imei`) with these meters in its archive (their addresses new), and
   * its simulated fleet online: the meters in the order given.
   */
  station(c: TestCompany, meters: Omit<MeterDefinition, 'address'>[], imei?: string): Promise<{ collectorId: number; meters: { id: number; address: string }[]; fleet: Fleet }>;
  close(): Promise<void>;
}

export interface TestCompany {
  companyId: number;
  areaId: number;
  roomId: number;
  token: string;
  userId: number;
}

export const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** The device secrets of the integration tests (what DATA_DIR/device-secret is in production). */
export const TEST_SECRETS = new DeviceSecrets('integration-test-device-secret-0123456789abcdef');
/** A process's signer of internal MQTT messages (each simulated process has its own replay cache). */
export const testSealer = () => new Sealer(TEST_SECRETS.signingKey, silent);

/** The executor's settings of the tests: quick retries, two attempts, the meters' demo passwords. */
export const TEST_CONTROL: ControlSettings = {
  auth: { password: '02000000', operator: '00000000' },
  clockDriftSeconds: 300,
  retryDelayMs: 300,
  commandTtlMinutes: 10,
  maxAttempts: 2,
  clockEveryHours: 24,
};

export async function harness(o: HarnessOptions = {}): Promise<Harness> {
  const db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 20);
  const owner = new pg.Pool({ connectionString: OWNER_URL(), max: 3 });
  const prefix = `test-${process.pid}-${Date.now().toString(36)}/`;
  const bus = new EventBus(prefix);
  const busClient = await connectMqtt(MQTT_URL, 'test-bus');
  const gwClient = await connectMqtt(MQTT_URL, 'test-gw');
  const sealer = testSealer();
  await bus.attach(busClient, sealer);
  const gs: GatewaySettings = { host: '127.0.0.1', port: 0, heartbeatSeconds: 30, replyTimeoutMs: 800, retries: 1, mqttMeters: true, topicPrefix: prefix, ...o.gateway };
  const gateway = new Gateway({ db, bus, log: o.log ?? silent, mqtt: gwClient, settings: gs, security: { secrets: TEST_SECRETS, sealer: testSealer() } });
  await gateway.start();
  const ws: WorkerSettings = {
    ...TEST_CONTROL,
    concurrency: 50,
    pollMs: 200,
    readIntervalMinutes: 0,
    offlineWarnMinutes: 60,
    heartbeatSeconds: gs.heartbeatSeconds,
    replyTimeoutMs: gs.replyTimeoutMs,
    retries: gs.retries,
    reportRetentionDays: 90,
    ...o.worker,
  };
  const worker = new Worker({ db, bus, gateway, log: silent, settings: ws });
  if (o.worker_ !== false) worker.start();
  const app = await buildApp({
    db,
    auth: { idleMinutes: 30, maxHours: 12 },
    logLevel: 'silent',
    bus,
    control: { commandTtlMinutes: ws.commandTtlMinutes, maxAttempts: ws.maxAttempts, waitMs: o.waitMs ?? 10_000 },
  });
  await app.ready();
  const fleets: Fleet[] = [];

  const call: Harness['call'] = injector(app);
  const { login } = signer(call);

  const h: Harness = {
    app,
    db,
    owner,
    bus,
    gateway,
    worker,
    prefix,
    mqtt: [busClient, gwClient],
    fleets,
    call,
    login,
    async q1<T>(sql: string, args: unknown[] = []) {
      return (await owner.query(sql, args)).rows[0] as T;
    },
    async company(ops = OPERATION_KEYS, routes = ROUTES.filter((r) => r.access === undefined).map((r) => r.key)) {
      const companyId = await makeCompany(owner);
      const areaId = await makeArea(owner, companyId, uniq('园区'));
      const roomId = await makeRoom(owner, companyId, areaId, uniq('房'));
      const role = await makeRole(owner, companyId, routes, ops);
      const u = await makeUser(owner, { companyId, roleId: role });
      return { companyId, areaId, roomId, token: await login(u.username, u.password), userId: u.id };
    },
    async collector(companyId, imei = imei15()) {
      const { rows } = await owner.query(`INSERT INTO collectors (company_id, name, imei, plan) VALUES ($1, $2, $3, 0) RETURNING id`, [companyId, uniq('采集器'), imei]);
      return Number(rows[0].id);
    },
    async reg(imei) {
      const { rows } = await owner.query(`SELECT reg_secret FROM collectors WHERE imei = $1`, [imei]);
      return `REG ${imei} ${rows[0] ? String(rows[0].reg_secret) : TEST_SECRETS.fourG(imei)}\n`;
    },
    async meter(c, m) {
      const address = m.address ?? (m.kind === 1 ? addr12() : addr14());
      const { rows } = await owner.query(
        `INSERT INTO meters (company_id, room_id, collector_id, name, kind, plan, address, imei, protocol_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [c.companyId, m.roomId ?? c.roomId, m.collectorId ?? null, uniq(m.kind === 1 ? '电表' : '水表'), m.kind, m.plan ?? (m.kind === 1 ? 0 : 100), address, m.imei ?? '', m.kind === 1 ? 11 : 13],
      );
      return { id: Number(rows[0].id), address };
    },
    async fleet(collectors, nbMeters = [], options = {}) {
      // devices log in as real ones: a collector with its archive's secret, a 4G meter with its derived one
      const { rows } = await owner.query(`SELECT imei, reg_secret FROM collectors WHERE imei = ANY($1::text[])`, [collectors.map((c) => c.imei)]);
      const archived = new Map(rows.map((r) => [String(r.imei), String(r.reg_secret)]));
      const f = createFleet({
        collectors: collectors.map((c) => ({ ...c, secret: c.secret ?? archived.get(c.imei) ?? TEST_SECRETS.fourG(c.imei) })),
        nbMeters,
        nbCredentials: (address) => TEST_SECRETS.meter(address),
        gateway: { host: '127.0.0.1', port: gateway.port },
        mqttUrl: MQTT_URL,
        topicPrefix: prefix,
        heartbeatMs: options.heartbeatMs ?? 10_000,
        reconnectMinMs: 200,
        reconnectMaxMs: 1000,
        seed: 11,
        ...(options.faults ? { faults: options.faults } : {}),
        ...(options.nbReportIntervalMs !== undefined ? { nbReportIntervalMs: options.nbReportIntervalMs } : {}),
      });
      fleets.push(f);
      f.start();
      await f.whenOnline(15_000);
      return f;
    },
    async station(c, meters, imei = imei15()) {
      const collectorId = await h.collector(c.companyId, imei);
      const rows: { id: number; address: string }[] = [];
      for (const m of meters) rows.push(await h.meter(c, { kind: m.kind === 'water' ? 2 : 1, collectorId }));
      const fleet = await h.fleet([{ imei, meters: meters.map((m, i) => ({ ...m, address: rows[i].address })) }]);
      return { collectorId, meters: rows, fleet };
    },
    async close() {
      for (const f of fleets) await f.stop().catch(() => {});
      await worker.stop(2000);
      await gateway.stop();
      await app.close();
      bus.detach();
      await Promise.all([busClient, gwClient].map((c) => c.endAsync(true).catch(() => {})));
      await db.close();
      await owner.end();
    },
  };
  return h;
}

/** {@link harness} for a whole test file (`const h = await fileHarness();` at its top), closed after its last test. */
export async function fileHarness(o: HarnessOptions = {}): Promise<Harness> {
  const h = await harness(o);
  afterAll(() => h.close());
  return h;
}

/** Polls until fn returns a truthy value (or fails after timeoutMs). */
export async function until<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
