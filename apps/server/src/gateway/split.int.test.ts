import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { DLT645_DI } from '@meter/protocol';
import { fileHarness, imei15, MQTT_URL, silent, testSealer, TEST_SECRETS, until } from '../modules/control/harness.test-util.ts';
import type { Route } from '../modules/control/index.ts';
import { LEASE, leaseKeyOf } from '../db/lease.ts';
import { DeviceError } from './channel.ts';
import { dlt } from './frames.ts';
import { Gateway } from './gateway.ts';
import { connectMqtt } from './mqtt.ts';
import { RemoteGateway } from './remote.ts';

// Split roles, in one test process: a worker reaching a slow collector through gateway/exec, a worker
// that dies with requests queued, a dead worker's commands, and two gateways that may serve MQTT meters.

// These tests count the frames a meter receives for the requests they send, so their reads carry
// `retries: 0`: the gateway sends each exactly once. With the gateway's own retry (reads: 1), a 300 ms
// reply handled late on a loaded machine — beyond the gateway's wait, 2.5 s here — is legitimately sent
// again (26 frames for 25 answered reads, 2 for one request): one request, one result, but a second frame.
// Actuating frames never carry a retry (frames.ts); the queue waits tested here (7.5 s, 1 s) stay far beyond
// the 2.5 s.
const h = await fileHarness({ worker: { orphanGraceSeconds: 1 }, gateway: { replyTimeoutMs: 2500, mqttMeters: false } });
const c = await h.company();
const imei = imei15();
const {
  meters: [slow, off, on],
  fleet,
} = await h.station(c, [10, 11, 12].map((initialTotal, i) => ({ kind: 'electric' as const, initialTotal, supplyOn: i !== 1 })), imei);
const nb = await h.meter(c, { kind: 1, plan: 3, imei: imei15() });
// no periodic reports (every 60 s by default): the NB test counts the reports it pumps, and under load a
// periodic one fell inside its window (11 rows stored for 10 pumped)
const nbFleet = await h.fleet([], [{ address: nb.address, kind: 'electric', initialTotal: 50 }], { nbReportIntervalMs: 0 });
fleet.setFault(slow.address, 'slowReplies', 300);
const route: Route = { address: slow.address, protocol: 'dlt645', imei, mqtt: false };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** a read sent once (see above); `timeoutMs`: how long the gateway (and the worker, after `sent`) wait for its reply */
const read = (timeoutMs?: number) => ({ ...dlt.read(slow.address, DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量'), retries: 0, ...(timeoutMs ? { timeoutMs } : {}) });
const requestsAt = (address: string) => fleet.meter(address)!.counters.requests;


describe('a worker reaching a slow collector through another process (gateway/exec)', () => {
  it('waits for its turn in the connection’s queue: the deadline counts from when the frame is on the wire', async () => {
    const client = await connectMqtt(MQTT_URL, 'test-remote');
    const remote = await RemoteGateway.connect(client, { replyTimeoutMs: 800, retries: 0, prefix: h.prefix, sealer: testSealer() });
    const before = requestsAt(slow.address);
    // 25 reads of 300 ms each queue for ≈ 7.5 s on the collector's one line, far beyond one timeout
    const results = await Promise.all(Array.from({ length: 25 }, () => remote.transact(route, read()).then((d) => d?.frame.address, (e: DeviceError) => e.code)));
    expect(results).toEqual(Array(25).fill(slow.address));
    expect(requestsAt(slow.address) - before).toBe(25);
    await client.endAsync();
  });

  it('a request it gives up is never sent: what the meter receives is exactly what was answered', async () => {
    const client = await connectMqtt(MQTT_URL, 'test-remote');
    const remote = await RemoteGateway.connect(client, { replyTimeoutMs: 800, retries: 0, prefix: h.prefix, queueMs: 1000, sealer: testSealer() });
    const before = requestsAt(slow.address);
    // what is tested is the queue's 1 s; once on the wire a read may take long on a loaded machine
    const results = await Promise.all(Array.from({ length: 12 }, () => remote.transact(route, read(10_000)).then(() => 'ok', (e: DeviceError) => e.code)));
    await sleep(1500); // anything still queued at the gateway would have gone out by now
    const ok = results.filter((r) => r === 'ok').length;
    expect(ok).toBeGreaterThan(0);
    expect(results.filter((r) => r !== 'ok')).toEqual(Array(12 - ok).fill('busy'));
    expect(requestsAt(slow.address) - before).toBe(ok);
    await client.endAsync();
  });

  it('a request delivered twice (QoS 1 redelivery) is carried out once', async () => {
    const client = await connectMqtt(MQTT_URL, 'test-dup');
    const sealer = testSealer();
    const replyTo = `${h.prefix}gateway/reply/dup-${process.pid}`;
    const states: string[] = [];
    client.on('message', (topic, payload) => {
      const opened = topic === replyTo ? sealer.open(topic, payload) : null;
      if (opened) states.push(String(JSON.parse(opened.body).state));
    });
    await client.subscribeAsync(replyTo, { qos: 1 });
    const before = requestsAt(slow.address);
    const topic = `${h.prefix}gateway/exec`;
    const msg = JSON.stringify({ reqId: `dup-${Date.now()}`, replyTo, route, req: read(10_000), queueMs: 10_000 });
    const sealed = sealer.seal(topic, msg, 20_000);
    await client.publishAsync(topic, sealed, { qos: 1 });
    await client.publishAsync(topic, sealed, { qos: 1 }); // the same message again (dropped as a replay)
    await client.publishAsync(topic, sealer.seal(topic, msg, 20_000), { qos: 1 }); // the same request, signed anew
    await until(async () => states.includes('done'), 15_000, 'reply');
    await sleep(800);
    expect(requestsAt(slow.address) - before).toBe(1);
    expect(states).toEqual(['queued', 'sent', 'done']);
    await client.endAsync();
  });
});

describe('a worker that dies', () => {
  it('its requests still queued at the gateway are dropped (MQTT will); the reply to the one on the wire is recorded on its command', async () => {
    const { rows } = await h.owner.query(
      `INSERT INTO commands (company_id, meter_id, kind, status, attempts, expires_at, sent_at, claimed_by)
       VALUES ($1, $2, 'read', 'sent', 1, now() + interval '10 minutes', now(), 7) RETURNING id`,
      [c.companyId, slow.id],
    );
    const commandId = Number(rows[0].id);
    const id = RemoteGateway.identity(h.prefix, testSealer());
    const client = await mqtt.connectAsync(MQTT_URL, { clientId: `test-dying-${process.pid}`, reconnectPeriod: 0, will: id.will });
    client.on('error', () => {});
    const remote = await RemoteGateway.connect(client, { replyTimeoutMs: 2000, retries: 0, prefix: h.prefix, replyTo: id.replyTo, sealer: testSealer() });
    const before = requestsAt(slow.address);
    for (let i = 0; i < 8; i++) void remote.transact(route, { ...read(), ref: commandId }).catch(() => {});
    await until(async () => requestsAt(slow.address) > before, 5000, 'first request on the wire');
    client.stream.destroy(); // as kill -9: no DISCONNECT, the broker sends the will
    await sleep(3500); // 8 × 300 ms: had they been kept, all would have gone out
    expect(requestsAt(slow.address) - before).toBeLessThanOrEqual(2);
    const reply = await until(async () => (await h.q1<{ reply: { gateway?: { answered: boolean }[] } | null }>('SELECT reply FROM commands WHERE id = $1', [commandId])).reply?.gateway, 5000, 'outcome recorded by the gateway');
    expect(reply[0].answered).toBe(true);
    await h.owner.query(`UPDATE commands SET status = 'failed', finished_at = now() WHERE id = $1`, [commandId]);
  });

  it('its commands are recovered within seconds and carried on after reading the device back', async () => {
    // attempts left: queued again; the meter is read first, then switched once
    // no attempt left: read back only — what the meter says is the outcome, nothing is sent again
    const insert = async (meterId: number, attempts: number) =>
      Number(
        (
          await h.owner.query(
            `INSERT INTO commands (company_id, meter_id, kind, status, attempts, max_attempts, expires_at, sent_at, claimed_by, override_reason, requester_name)
             VALUES ($1, $2, 'close', 'sent', $3, 2, now() + interval '10 minutes', now(), 99991, '测试', '测试') RETURNING id`,
            [c.companyId, meterId, attempts],
          )
        ).rows[0].id,
      );
    const retry = await insert(on.id, 1);
    const verifyOff = await insert(off.id, 2);
    const t0 = Date.now();
    const final = async (id: number) => {
      const r = await h.q1<{ status: string; error: string; reply: Record<string, unknown> | null }>('SELECT status, error, reply FROM commands WHERE id = $1', [id]);
      return r.status === 'succeeded' || r.status === 'failed' || r.status === 'timed_out' ? r : undefined;
    };
    const a = await until(() => final(retry), 30_000, 'retry');
    const b = await until(() => final(verifyOff), 30_000, 'verify');
    expect(Date.now() - t0).toBeLessThan(30_000); // was 60 s and more: the stuck-attempt timeout
    expect(a.status).toBe('succeeded');
    expect(fleet.meter(on.address)!.supplyOn).toBe(false);
    expect(b).toMatchObject({ status: 'succeeded', reply: { already: true } });

    // a third: the meter is on and no attempt is left: failed after the read-back, the meter untouched
    fleet.meter(on.address)!.setSupply(true);
    const before = requestsAt(on.address);
    const acts0 = fleet.meter(on.address)!.counters.actuationCommands;
    const verifyOn = await insert(on.id, 2);
    const v = await until(() => final(verifyOn), 30_000, 'verify on');
    expect(v.status).toBe('failed');
    expect(v.error).toContain('未再下发');
    expect(fleet.meter(on.address)!.supplyOn).toBe(true);
    // read back (a late-handled reply may make the gateway send the read once more), nothing actuating sent
    expect(requestsAt(on.address) - before).toBeGreaterThanOrEqual(1);
    expect(fleet.meter(on.address)!.counters.actuationCommands - acts0).toBe(0);
  });
});

describe('two gateways that may serve MQTT meters', () => {
  it('only the lease holder serves them: each NB report is stored once; when it dies the other takes over', async () => {
    // a holds the lease (it starts first), b stands by trying every 300 ms. The harness's own gateway does not serve MQTT meters here.
    const start = async (name: string, mqttLeaseRetryMs: number) => {
      const client = await connectMqtt(MQTT_URL, name);
      const g = new Gateway({ db: h.db, bus: h.bus, log: silent, mqtt: client, settings: { host: '127.0.0.1', port: 0, heartbeatSeconds: 30, replyTimeoutMs: 800, retries: 1, mqttMeters: true, topicPrefix: h.prefix, mqttLeaseRetryMs }, security: { secrets: TEST_SECRETS, sealer: testSealer() } });
      await g.start();
      return { g, client };
    };
    const a = await start('test-gw-a', 5000);
    const b = await start('test-gw-b', 300);
    let both = false;
    const watch = setInterval(() => (both ||= a.g.servesMqttMeters && b.g.servesMqttMeters), 20);
    try {
      expect(h.gateway.servesMqttMeters).toBe(false);
      expect(a.g.servesMqttMeters).toBe(true);
      expect(b.g.servesMqttMeters).toBe(false);
      const count = async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = $1 AND source = 4', [nb.id])).n;
      const n0 = await count();
      const nbSim = nbFleet.nbMeter(nb.address)!;
      const reports0 = nbSim.stats.reports;
      const sent = (await nbFleet.pumpReports({ ratePerSecond: 20, count: 10 }).done).sent;
      expect(sent).toBe(10);
      expect(nbSim.stats.reports - reports0).toBe(sent); // what the meter sent: these 10, nothing else
      await a.g.flush();
      await b.g.flush();
      await until(async () => (await count()) - n0 >= sent, 10_000, 'reports stored');
      await sleep(500);
      expect((await count()) - n0).toBe(sent);

      // the holder's database session dies: it notices at once and stops serving
      const { rows } = await h.owner.query(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [LEASE.mqttMeters, leaseKeyOf(h.prefix)],
      );
      expect(rows).toHaveLength(1);
      const killed = await h.owner.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [rows[0].pid]);
      expect(killed.rows[0].ok).toBe(true);
      await until(async () => !a.g.servesMqttMeters, 3000, 'the holder stops serving');
      // Alive, it would take the lease back on its next try if b had not by then (under load b's tries can miss
      // that window: either holding is right, one at a time). As a dead process it neither holds nor tries again:
      const t0 = Date.now();
      await a.g.stop();
      await until(async () => b.g.servesMqttMeters, 10_000, 'the other takes over');
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(both).toBe(false);
      // a worker elsewhere reaches the NB meter through the new holder
      const wc = await connectMqtt(MQTT_URL, 'test-remote');
      const remote = await RemoteGateway.connect(wc, { replyTimeoutMs: 2000, retries: 1, prefix: h.prefix, sealer: testSealer() });
      const reply = await remote.transact({ address: nb.address, protocol: 'dlt645', imei: null, mqtt: true }, dlt.read(nb.address, DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量'));
      expect(reply?.frame.address).toBe(nb.address);
      await wc.endAsync();
    } finally {
      clearInterval(watch);
      await a.g.stop().catch(() => {});
      await b.g.stop();
      await a.client.endAsync(true);
      await b.client.endAsync(true);
    }
  });
});
