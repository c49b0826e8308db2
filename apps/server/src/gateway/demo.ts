import type { Logger } from 'pino';
import { createFleet, type CollectorDefinition, type FaultPlanEntry, type Fleet, type MeterDefinition } from '@meter/simulator';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { ORIGIN, requestSystemCommand, routeOf } from '../modules/control/index.ts';
import * as repo from './repo.ts';
import type { DeviceSecrets } from './security.ts';

// Demo mode (SIMULATOR=1, DESIGN §2): a simulator fleet built from the demo companies' collectors
// and meters, connected to this process's gateway over real TCP and MQTT, so a fresh start shows
// live readings, valve control and warnings within a minute. Only the demo companies' devices are
// simulated: a production database has none, so the simulator cannot impersonate a real device.
// The simulated devices log in as real ones do: collectors with their archive's secret, 4G meters
// and NB meters with credentials derived from the server secret.

export interface DemoFleetOptions {
  db: Db;
  log: Logger;
  gatewayPort: number;
  mqttUrl: string;
  topicPrefix: string;
  demoUsernames: string[];
  secrets: DeviceSecrets;
}

export function demoFleetDefinition(rows: repo.DemoDeviceRow[], secrets: Pick<DeviceSecrets, 'fourG'>): { collectors: CollectorDefinition[]; nbMeters: MeterDefinition[] } {
  const collectors = new Map<string, CollectorDefinition>();
  const nbMeters: MeterDefinition[] = [];
  for (const r of rows) {
    const route = routeOf({ ...r, collectorId: r.collectorId }, r.collectorImei);
    const def: MeterDefinition = {
      address: r.address,
      kind: r.kind === 2 ? 'water' : 'electric',
      protocol: route.protocol,
      initialTotal: Number(r.total) || 0,
      supplyOn: r.valveState !== 0,
      ...(r.imei ? { imei: r.imei } : {}),
    };
    if (route.imei) {
      const secret = r.collectorId ? (r.collectorSecret ?? '') : secrets.fourG(route.imei);
      const c = collectors.get(route.imei) ?? { imei: route.imei, name: r.collectorName ?? `4G-${r.address}`, meters: [], secret };
      c.meters.push(def);
      collectors.set(route.imei, c);
    } else {
      nbMeters.push(def);
    }
  }
  return { collectors: [...collectors.values()].filter((c) => /^\d{15}$/.test(c.imei)), nbMeters };
}

const MIN = 60_000;

/**
 * The demo fleet's faults (issue 15: the warning pages and 设备工单 fill from device behaviour), all in
 * the demo company (the first seeded): its first collector — the one the seed marks offline — stays
 * away for 75 minutes from the start and every 6 hours (past OFFLINE_WARN_MINUTES, so a warning and a
 * work order open, and close when it returns); among the electric meters behind its other collectors,
 * the last one's relay is stuck (a close is acknowledged, the read-back still shows supply: 阀门状态与
 * 指令不符), the one before answers a CT ratio of 80 (倍率异常), and the one before that steps its
 * register back 2 kWh every 4 hours (读数倒走). Deterministic: the same devices on every start.
 */
export function demoFaultPlan(rows: repo.DemoDeviceRow[]): { plan: FaultPlanEntry[]; stuckMeterId: number | null } {
  if (!rows.length) return { plan: [], stuckMeterId: null };
  const companyId = Math.min(...rows.map((r) => r.companyId));
  const own = rows.filter((r) => r.companyId === companyId && r.collectorId != null && /^\d{15}$/.test(r.collectorImei ?? ''));
  const firstCollector = own.reduce<repo.DemoDeviceRow | undefined>((a, r) => (!a || r.collectorId! < a.collectorId! ? r : a), undefined);
  const electric = own
    .filter((r) => r.collectorId !== firstCollector?.collectorId && r.kind === 1 && routeOf({ ...r, collectorId: r.collectorId }, r.collectorImei).protocol === 'dlt645')
    .sort((a, b) => a.meterId - b.meterId);
  const [stuck, rate, reversed] = electric.slice(-3).reverse();
  const plan: FaultPlanEntry[] = [];
  if (firstCollector) plan.push({ target: firstCollector.collectorImei!, fault: 'offline', afterMs: 0, forMs: 75 * MIN, everyMs: 360 * MIN });
  if (stuck) plan.push({ target: stuck.address, fault: 'stuckValve' });
  if (rate) plan.push({ target: rate.address, fault: 'rateError', value: 80 });
  if (reversed) plan.push({ target: reversed.address, fault: 'reversed', value: 2, afterMs: 10 * MIN, everyMs: 240 * MIN });
  return { plan, stuckMeterId: stuck?.meterId ?? null };
}

export async function startDemoFleet(o: DemoFleetOptions): Promise<Fleet | undefined> {
  const rows = await o.db.tx(SYSTEM_SCOPE, (tx) => repo.demoDevices(tx, o.demoUsernames));
  if (!rows.length) {
    o.log.info('演示模式：没有演示单位的设备，未启动模拟设备');
    return undefined;
  }
  const def = demoFleetDefinition(rows, o.secrets);
  const faults = demoFaultPlan(rows);
  const fleet = createFleet({
    ...def,
    faults: faults.plan,
    gateway: { host: '127.0.0.1', port: o.gatewayPort },
    ...(o.mqttUrl ? { mqttUrl: o.mqttUrl, topicPrefix: o.topicPrefix, nbCredentials: (address: string) => o.secrets.meter(address) } : { nbMeters: [] }),
    heartbeatMs: 30_000,
    nbReportIntervalMs: 5 * 60_000,
    logger: (level, message) => (level === 'error' || level === 'warn' ? o.log.warn({ sim: true }, message) : undefined),
  });
  fleet.start();
  // the stuck relay shows only when the platform switches it: a close, once for the demo's life
  if (faults.stuckMeterId != null) {
    const meterId = faults.stuckMeterId;
    await o.db.tx(SYSTEM_SCOPE, async (tx) => {
      if (await repo.hasValveCommand(tx, meterId)) return;
      await requestSystemCommand(tx, { meterId, kind: 'close', origin: ORIGIN.automatic, memo: '演示：继电器卡滞的电表，拉闸后回读仍为合闸', requesterName: '系统' });
    });
  }
  const nb = o.mqttUrl ? def.nbMeters.length : 0;
  o.log.info({ collectors: def.collectors.length, nbMeters: nb, meters: rows.length, faults: faults.plan.length }, '演示模式：模拟设备已启动');
  return fleet;
}
