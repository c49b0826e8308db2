import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, type Fleet } from '@meter/simulator';
import { appUrlFrom, openDb, type Db } from '../db/client.ts';
import { harness, imei15, MQTT_URL, silent, testSealer, TEST_SECRETS, until, type Harness, type TestCompany } from '../modules/control/harness.test-util.ts';
import { OWNER_URL } from '../../test/helpers.ts';
import { TcpProxy } from '../../test/tcp-proxy.ts';
import { Gateway } from './gateway.ts';

// A database outage under load (issue 11, item 1): the gateway reaches PostgreSQL through a relay
// this test controls, and the relay is cut for 20 s while two collectors' meters keep reporting —
// the meters of one were looked up before the outage, those of the other report for the first
// time during it. After the relay is restored every report sent is stored exactly once, nothing is
// logged as an unregistered address and no reading is flagged.

const OUTAGE_MS = 20_000;
let h: Harness;
let c: TestCompany;
let proxy: TcpProxy;
let db: Db;
let gateway: Gateway;
const fleets: Fleet[] = [];

beforeAll(async () => {
  h = await harness({ worker_: false });
  c = await h.company();
  const owner = new URL(OWNER_URL());
  proxy = new TcpProxy({ host: owner.hostname, port: Number(owner.port || 5432) });
  const port = await proxy.start();
  const url = new URL(appUrlFrom(OWNER_URL(), 'meter_app_test'));
  url.hostname = '127.0.0.1';
  url.port = String(port);
  db = openDb(url.toString(), 8);
  gateway = new Gateway({ db, bus: h.bus, log: silent, settings: { host: '127.0.0.1', port: 0, heartbeatSeconds: 30, replyTimeoutMs: 800, retries: 1, mqttMeters: false },
    security: { secrets: TEST_SECRETS, sealer: testSealer() } });
  await gateway.start();
});

afterAll(async () => {
  for (const f of fleets) await f.stop().catch(() => {});
  await gateway?.stop();
  await db?.close();
  await proxy?.close();
  await h?.close();
});

async function collectorFleet(n: number) {
  const imei = imei15();
  const collectorId = await h.collector(c.companyId, imei);
  const meters = [];
  for (let i = 0; i < n; i++) meters.push(await h.meter(c, { kind: 1, collectorId }));
  const secret = String((await h.q1<{ reg_secret: string }>('SELECT reg_secret FROM collectors WHERE id = $1', [collectorId])).reg_secret);
  const fleet = createFleet({
    collectors: [{ imei, secret, meters: meters.map((m, i) => ({ address: m.address, kind: 'electric' as const, initialTotal: 100 + i })) }],
    gateway: { host: '127.0.0.1', port: gateway.port },
    mqttUrl: MQTT_URL,
    topicPrefix: h.prefix,
    heartbeatMs: 5_000,
    reconnectMinMs: 200,
    reconnectMaxMs: 1000,
    seed: 5,
  });
  fleets.push(fleet);
  fleet.start();
  await fleet.whenOnline(15_000);
  return { collectorId, ids: meters.map((m) => m.id) };
}

describe('a 20 s database outage under load', () => {
  it('loses no report, stores each once after recovery, and raises no false warning', async () => {
    const known = await collectorFleet(20);
    const fresh = await collectorFleet(20);
    const ids = [...known.ids, ...fresh.ids];
    const count = async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = ANY($1) AND source = 4', [ids])).n;

    // before: the first collector's meters report (and are looked up)
    let sent = (await fleets[0].pumpReports({ ratePerSecond: 200, count: 200 }).done).sent;
    await until(async () => (await count()) === sent, 10_000, 'reports before the outage stored');

    proxy.cut();
    const during = await Promise.all([
      fleets[0].pumpReports({ ratePerSecond: 50, durationMs: OUTAGE_MS }).done,
      fleets[1].pumpReports({ ratePerSecond: 50, durationMs: OUTAGE_MS }).done,
    ]);
    sent += during[0].sent + during[1].sent;
    expect(during[0].sent + during[1].sent).toBeGreaterThan(1500);
    // nothing got through while the relay was cut: everything sent is waiting in the gateway
    expect(gateway.stats().backlog).toBeGreaterThan(0);
    expect(gateway.stats().databaseDownMs).toBeGreaterThan(OUTAGE_MS / 2);
    const heldAtRestore = gateway.stats().backlog;
    proxy.restore();

    await until(async () => (await count()) >= sent, 30_000, 'reports of the outage stored');
    await gateway.flush();
    expect(await count()).toBe(sent);
    expect(gateway.stats().backlog).toBe(0);
    expect(gateway.stats().databaseDownMs).toBe(0);
    // each once: no (meter, read_at) twice, and no reading flagged as older or lower
    const dup = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT meter_id, read_at FROM readings WHERE meter_id = ANY($1) GROUP BY 1, 2 HAVING count(*) > 1) x`, [ids]);
    expect(dup.n).toBe(0);
    const flagged = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM readings WHERE meter_id = ANY($1) AND exception <> ''`, [ids]);
    expect(flagged.n).toBe(0);
    // no false warnings: no address logged as unregistered, no device warning
    const unregistered = await h.q1<{ n: number }>(
      `SELECT count(*)::int AS n FROM device_reports WHERE collector_id = ANY($1) AND error LIKE '未登记的表具地址%'`,
      [[known.collectorId, fresh.collectorId]],
    );
    expect(unregistered.n).toBe(0);
    const warnings = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = ANY($1)`, [ids]);
    expect(warnings.n).toBe(0);
    // meter_latest of every meter is its newest reading
    const latest = await h.q1<{ n: number }>(
      `SELECT count(*)::int AS n FROM meter_latest l WHERE l.meter_id = ANY($1)
         AND l.read_at = (SELECT max(read_at) FROM readings r WHERE r.meter_id = l.meter_id)`,
      [ids],
    );
    expect(latest.n).toBe(ids.length);
    // the drill's figures, for the record (issue 11: reports sent, stored, duplicated)
    console.log(`outage drill: database cut ${OUTAGE_MS / 1000} s under load; ${sent} reports sent, ${await count()} stored, ${dup.n} duplicated, ${flagged.n} flagged, ${unregistered.n} logged as unregistered; ${heldAtRestore} held in the gateway when the database came back`);
  }, 90_000);
});
