import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, ManualClock, type Fleet } from '@meter/simulator';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { DLT645_READS } from '../../gateway/frames.ts';
import type { GatewayClient } from '../../gateway/gateway.ts';
import { execute, type ControlSettings } from './executor.ts';
import { harness, imei15, MQTT_URL, TEST_CONTROL, until, type Harness, type TestCompany } from './harness.test-util.ts';
import { ingestReadings, SOURCE } from './ingest.ts';
import * as repo from './repo/index.ts';

// A command read is a dialogue of several frames. A report the meter sends while it goes on is
// newer than the total the meter answered at the start: the read's reading must carry the time of
// that answer, and a reading older than the latest is no "going backwards" alarm.

let h: Harness;
let c: TestCompany;
let fleet: Fleet;
const clock = new ManualClock(Date.now());
const settings: ControlSettings = TEST_CONTROL;

beforeAll(async () => {
  h = await harness({ worker_: false });
  c = await h.company();
});

afterAll(async () => {
  await fleet?.stop();
  await h?.close();
});

const warnings = async (meterId: number) =>
  (await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'backwards'`, [meterId])).n;

describe('a command read with a report in the middle of its dialogue', () => {
  it('is timestamped at the meter’s answer, before the report, and raises no 读数倒走 warning', async () => {
    const imei = imei15();
    const collectorId = await h.collector(c.companyId, imei);
    const m = await h.meter(c, { kind: 1, collectorId });
    const secret = String((await h.q1<{ reg_secret: string }>('SELECT reg_secret FROM collectors WHERE id = $1', [collectorId])).reg_secret);
    fleet = createFleet({
      collectors: [{ imei, secret, meters: [{ address: m.address, kind: 'electric', initialTotal: 500 }] }],
      gateway: { host: '127.0.0.1', port: h.gateway.port },
      mqttUrl: MQTT_URL,
      topicPrefix: h.prefix,
      heartbeatMs: 10_000,
      clock,
      seed: 3,
    });
    fleet.start();
    await fleet.whenOnline(15_000);

    // the gateway as the worker sees it; when the status register is asked for (after the total was
    // answered), an hour of consumption passes and the meter reports by itself, and that report is stored
    let reportedAt = 0;
    const gateway: GatewayClient = {
      async transact(route, req) {
        if (req.label === DLT645_READS.status.label && !reportedAt) {
          clock.advance(3600_000);
          await new Promise((r) => setTimeout(r, 5));
          reportedAt = Date.now();
          await fleet.pumpReports({ ratePerSecond: 100, count: 1 }).done;
          await until(async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = $1 AND source = 4', [m.id])).n === 1, 10_000, 'report stored');
        }
        return h.gateway.transact(route, req);
      },
    };
    const cmd = await h.db.tx(SYSTEM_SCOPE, (tx) =>
      repo.insertCommand(tx, {
        companyId: c.companyId, meterId: m.id, collectorId, kind: 'read', payload: { source: SOURCE.onDemand }, expiresAt: new Date(Date.now() + 600_000),
        maxAttempts: 2, requestedBy: null, requesterName: '测试', origin: 1, memo: '', overrideReason: '',
      }),
    );
    const out = await execute({ db: h.db, gateway, settings }, cmd!);
    if (!out.ok) throw new Error(out.error);
    const reply = out.reply as { readAt: string; exception: string };
    // the meter's answer came before the report
    expect(new Date(reply.readAt).getTime()).toBeLessThan(reportedAt);
    const rows = (await h.owner.query(`SELECT source, total, exception FROM readings WHERE meter_id = $1 ORDER BY read_at`, [m.id])).rows;
    expect(rows.map((r) => Number(r.source))).toEqual([SOURCE.onDemand, SOURCE.report]);
    // the report is higher (an hour of use) and newer: the read, stored after it, is older than the
    // latest (kept out of billing and meter_latest) and no alarm
    expect(Number(rows[1].total)).toBeGreaterThan(Number(rows[0].total));
    expect(rows.map((r) => r.exception)).toEqual(['older', '']);
    expect(reply.exception).toBe('older');
    expect(await warnings(m.id)).toBe(0);
  });

  it('a reading older and lower than the latest is kept out of meter_latest without a warning; older and higher is still one', async () => {
    const m = await h.meter(c, { kind: 1 });
    const ident = { id: m.id, companyId: c.companyId, areaId: c.areaId };
    const t = Date.now() - 60_000;
    const ingest = (at: number, total: string) =>
      h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(at), total, source: SOURCE.report }]));
    await ingest(t, '100.00');
    const older = await ingest(t - 10_000, '99.50');
    expect(older.results[0]).toMatchObject({ stored: true, exception: 'older' });
    expect(await warnings(m.id)).toBe(0);
    expect((await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [m.id])).total).toBe('100.00');
    const contradicts = await ingest(t - 5_000, '120.00');
    expect(contradicts.results[0]).toMatchObject({ stored: true, exception: 'older' });
    expect(await warnings(m.id)).toBe(1);
  });
});
