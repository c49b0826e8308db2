import type { Logger } from 'pino';
import { createFleet, type CollectorDefinition, type Fleet, type MeterDefinition } from '@meter/simulator';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { routeOf } from '../modules/control/index.ts';
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

export async function startDemoFleet(o: DemoFleetOptions): Promise<Fleet | undefined> {
  const rows = await o.db.tx(SYSTEM_SCOPE, (tx) => repo.demoDevices(tx, o.demoUsernames));
  if (!rows.length) {
    o.log.info('演示模式：没有演示单位的设备，未启动模拟设备');
    return undefined;
  }
  const def = demoFleetDefinition(rows, o.secrets);
  const fleet = createFleet({
    ...def,
    gateway: { host: '127.0.0.1', port: o.gatewayPort },
    ...(o.mqttUrl ? { mqttUrl: o.mqttUrl, topicPrefix: o.topicPrefix, nbCredentials: (address: string) => o.secrets.meter(address) } : { nbMeters: [] }),
    heartbeatMs: 30_000,
    nbReportIntervalMs: 5 * 60_000,
    logger: (level, message) => (level === 'error' || level === 'warn' ? o.log.warn({ sim: true }, message) : undefined),
  });
  fleet.start();
  const nb = o.mqttUrl ? def.nbMeters.length : 0;
  o.log.info({ collectors: def.collectors.length, nbMeters: nb, meters: rows.length }, '演示模式：模拟设备已启动');
  return fleet;
}
