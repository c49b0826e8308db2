import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, imei15, type Harness, type TestCompany } from '../modules/control/harness.test-util.ts';

// Offline follows each directly connected meter's own reporting interval (issue 11 item 7): an NB
// meter reports every 5 minutes and is silent in between, so it is offline only after 3 missed
// reports, not after the 2 minutes of a TCP connection's heartbeats; a meter with its own 上报周期
// follows that; and a scheduled read of an NB meter waits for its next report window.

let h: Harness;
let c: TestCompany;

beforeAll(async () => {
  h = await harness({ worker_: false, worker: { heartbeatSeconds: 30, nbReportIntervalMinutes: 5, readIntervalMinutes: 15 } });
  c = await h.company();
});

afterAll(async () => {
  await h?.close();
});

const MIN = 60_000;
const seen = (id: number, msAgo: number) => h.owner.query('UPDATE meters SET online = true, last_seen_at = $2 WHERE id = $1', [id, new Date(Date.now() - msAgo)]);
const online = async (id: number) => (await h.q1<{ online: boolean }>('SELECT online FROM meters WHERE id = $1', [id])).online;

describe('offline by the meter’s own reporting interval', () => {
  it('an NB meter silent for 3 minutes between reports stays online; after 3 missed reports it is offline', async () => {
    const nb = await h.meter(c, { kind: 1, plan: 3, imei: imei15() });
    const nbWater = await h.meter(c, { kind: 2, plan: 151, imei: imei15() });
    const fourG = await h.meter(c, { kind: 1, plan: 0, imei: imei15() });
    await seen(nb.id, 3 * MIN);
    await seen(nbWater.id, 12 * MIN);
    await seen(fourG.id, 3 * MIN);
    await h.worker.offlineSweep();
    expect(await online(nb.id)).toBe(true);
    expect(await online(nbWater.id)).toBe(true);
    // a 4G meter on its own TCP connection: 3 heartbeats (+30 s) without contact
    expect(await online(fourG.id)).toBe(false);

    await seen(nb.id, 16 * MIN);
    await h.worker.offlineSweep();
    expect(await online(nb.id)).toBe(false);
    expect(await online(nbWater.id)).toBe(true);
  });

  it('a meter with its own 上报周期 follows it', async () => {
    const hourly = await h.meter(c, { kind: 1, plan: 0, imei: imei15() });
    await h.owner.query('UPDATE meters SET report_interval_minutes = 60 WHERE id = $1', [hourly.id]);
    await seen(hourly.id, 2 * 60 * MIN);
    await h.worker.offlineSweep();
    expect(await online(hourly.id)).toBe(true);
    await seen(hourly.id, 3 * 60 * MIN + MIN);
    await h.worker.offlineSweep();
    expect(await online(hourly.id)).toBe(false);
  });
});

describe('scheduled reads of NB meters', () => {
  it('wait for the meter’s next report window; others are due at once', async () => {
    const nb = await h.meter(c, { kind: 1, plan: 3, imei: imei15() });
    const fresh = await h.meter(c, { kind: 1, plan: 3, imei: imei15() });
    const collectorId = await h.collector(c.companyId);
    await h.owner.query('UPDATE collectors SET online = true, last_seen_at = now() WHERE id = $1', [collectorId]);
    const wired = await h.meter(c, { kind: 1, collectorId });
    await seen(nb.id, 2 * MIN);
    await seen(fresh.id, 5_000);
    const t0 = Date.now();
    await h.worker.scheduleReads(true);
    const cmd = async (id: number) =>
      h.q1<{ next: Date; expires: Date }>(`SELECT next_attempt_at AS next, expires_at AS expires FROM commands WHERE meter_id = $1 AND kind = 'read' AND status = 'queued'`, [id]);
    // last heard 2 minutes ago, reports every 5: the next window opens in about 3 minutes
    const a = await cmd(nb.id);
    expect(a.next.getTime() - t0).toBeGreaterThan(2.5 * MIN);
    expect(a.next.getTime() - t0).toBeLessThan(3.5 * MIN);
    expect(a.expires.getTime()).toBeGreaterThan(a.next.getTime());
    // heard 5 s ago: awake now
    expect((await cmd(fresh.id)).next.getTime() - t0).toBeLessThan(10_000);
    // behind a collector: at once
    expect((await cmd(wired.id)).next.getTime() - t0).toBeLessThan(10_000);
  });
});
