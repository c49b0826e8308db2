import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectAsync, type MqttClient } from 'mqtt';
import { CJT188_VALVE, DLT645_DI, cjt188, dlt645, fromHex, toHex } from '@meter/protocol';
import { ManualClock } from './clock.ts';
import { createFleet, type Fleet } from './fleet.ts';
import { registerValue } from './meter.ts';
import { eventually } from './tiny-gateway.test-util.ts';

// Real Mosquitto on 127.0.0.1:1883 (MQTT_TEST_URL overrides). Topics and addresses are unique per run.
const MQTT_URL = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
const RUN = randomBytes(4).toString('hex');
const PREFIX = `simtest/${RUN}/`;
const digits = String(parseInt(RUN, 16) % 1_000_000).padStart(6, '0');
const E = `31${digits}0001`; // 12 digits
const W = `32${digits}000001`; // 14 digits

interface UpMessage {
  topic: string;
  retain: boolean;
  body: { frame?: string; online?: boolean };
}

let observer: MqttClient;
const received: UpMessage[] = [];
let fleet: Fleet | null = null;

beforeAll(async () => {
  // MQTT 5 with retain-as-published, so live messages show whether they were published retained.
  observer = await connectAsync(MQTT_URL, { clientId: `sim-observer-${RUN}`, reconnectPeriod: 0, protocolVersion: 5 });
  observer.on('message', (topic, payload, packet) => {
    if (payload.length === 0) return;
    received.push({ topic, retain: packet.retain, body: JSON.parse(payload.toString()) as UpMessage['body'] });
  });
  await observer.subscribeAsync(`${PREFIX}meter/+/up`, { qos: 1, rap: true });
});

afterEach(async () => {
  await fleet?.stop();
  fleet = null;
});

afterAll(async () => {
  // Leave no retained junk on the shared broker.
  for (const a of [E, W]) await observer.publishAsync(`${PREFIX}meter/${a}/up`, '', { retain: true, qos: 1 });
  await observer.endAsync();
});

const up = (address: string) => `${PREFIX}meter/${address}/up`;
const down = (address: string) => `${PREFIX}meter/${address}/down`;

function nextUp(address: string, match: (m: UpMessage) => boolean, timeoutMs = 3000): Promise<UpMessage> {
  const start = received.length;
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = () => {
      const hit = received.slice(start).find((m) => m.topic === up(address) && match(m));
      if (hit) return resolve(hit);
      if (Date.now() > deadline) return reject(new Error(`no matching message on ${up(address)}`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

function startFleet(clock = new ManualClock(Date.UTC(2024, 6, 1, 0, 0, 0)), nbReportIntervalMs = 0): Fleet {
  fleet = createFleet({
    collectors: [],
    nbMeters: [
      { address: E, kind: 'electric', initialTotal: 88.8 },
      { address: W, kind: 'water', initialTotal: 3.21 },
    ],
    mqttUrl: MQTT_URL,
    topicPrefix: PREFIX,
    clock,
    nbReportIntervalMs,
    reconnectMinMs: 200,
  });
  return fleet.start();
}

describe('NB meters over MQTT (real broker)', () => {
  it('announce a retained {"online":true} and answer reads sent on …/down', async () => {
    const onlineE = nextUp(E, (m) => m.body.online === true);
    const onlineW = nextUp(W, (m) => m.body.online === true);
    const f = startFleet();
    await f.whenOnline(5000);
    await Promise.all([onlineE, onlineW]);

    // a late subscriber gets the retained state
    const late = await connectAsync(MQTT_URL, { clientId: `sim-late-${RUN}`, reconnectPeriod: 0 });
    const retained = new Promise<string>((resolve) => late.on('message', (_t, p, packet) => packet.retain && resolve(p.toString())));
    await late.subscribeAsync(up(E), { qos: 1 });
    expect(JSON.parse(await retained)).toEqual({ online: true });
    await late.endAsync();

    const replyE = nextUp(E, (m) => typeof m.body.frame === 'string');
    await observer.publishAsync(down(E), JSON.stringify({ id: 17, frame: toHex(dlt645.encode({ kind: 'read', direction: 'request', address: E, dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL }), '') }), { qos: 1 });
    const frameE = dlt645.decode(fromHex((await replyE).body.frame!));
    expect(frameE).toMatchObject({ kind: 'read', direction: 'response', address: E, preamble: 0, values: { value: registerValue(f.meter(E)!.total) } });
    expect(Object.keys((await replyE).body)).toEqual(['frame']);

    const replyW = nextUp(W, (m) => typeof m.body.frame === 'string');
    await observer.publishAsync(down(W), JSON.stringify({ id: 18, frame: toHex(cjt188.encode({ kind: 'readData', direction: 'request', meterType: 0x10, address: W }), '') }), { qos: 1 });
    expect(cjt188.decode(fromHex((await replyW).body.frame!))).toMatchObject({ values: { kind: 'flow', currentFlow: 3.21 } });
  });

  it('closes a valve on command; a duplicate close actuates once; bad payloads are ignored', async () => {
    const f = startFleet();
    await f.whenOnline(5000);
    const close = JSON.stringify({ id: 1, frame: toHex(cjt188.encode({ kind: 'valveControl', direction: 'request', meterType: 0x10, address: W, valve: CJT188_VALVE.CLOSE }), '') });
    for (let i = 0; i < 2; i++) {
      const reply = nextUp(W, (m) => typeof m.body.frame === 'string');
      await observer.publishAsync(down(W), close, { qos: 1 });
      expect(cjt188.decode(fromHex((await reply).body.frame!))).toMatchObject({ kind: 'valveControl', status: { valve: 'closed' } });
    }
    expect(f.meter(W)!.actuations).toBe(1);
    await observer.publishAsync(down(W), 'not json', { qos: 1 });
    await observer.publishAsync(down(W), JSON.stringify({ frame: 'zz' }), { qos: 1 });
    await eventually(() => f.nbMeter(W)!.stats.badFramesIn === 2, 3000, 'bad payloads counted');
  });

  it('offline fault drops the connection so the last will publishes {"online":false}; clearing reconnects', async () => {
    const f = startFleet();
    await f.whenOnline(5000);
    const will = nextUp(E, (m) => m.body.online === false, 5000);
    f.setFault(E, 'offline', true);
    expect((await will).retain).toBe(true);
    expect(f.nbMeter(E)!.state).toBe('offline');
    const back = nextUp(E, (m) => m.body.online === true, 5000);
    f.clearFaults(E);
    await back;
    await f.whenOnline(5000);
  });

  it('pushes periodic reports and says {"online":false} on stop()', async () => {
    const f = startFleet(undefined, 100);
    await f.whenOnline(5000);
    await nextUp(E, (m) => typeof m.body.frame === 'string', 4000);
    await nextUp(W, (m) => typeof m.body.frame === 'string', 4000);
    expect(f.status().traffic.reports).toBeGreaterThanOrEqual(2);
    const bye = nextUp(W, (m) => m.body.online === false, 3000);
    await f.stop();
    fleet = null;
    expect((await bye).retain).toBe(true);
  });
});
