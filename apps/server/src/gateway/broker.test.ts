import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { startBroker, type Broker } from './broker.ts';
import { DeviceSecrets } from './security.ts';

// The embedded broker lets in only who logs in, and each only where its role may go.

const secrets = new DeviceSecrets('test-secret-for-the-embedded-broker-0123456789');
const prefix = 'p1/';
const A = '930000000001';
const B = '930000000002';
const lines: string[] = [];
const log = { warn: (_o: unknown, m?: string) => lines.push(String(m)), info: () => {} };
let broker: Broker;
const clients: MqttClient[] = [];

const connect = async (username?: string, password?: string) => {
  const c = await mqtt.connectAsync(broker.url, { username, password, reconnectPeriod: 0, connectTimeout: 3000 });
  clients.push(c);
  return c;
};
/** a service role (gateway, worker, api) signed in with its own login */
const asService = (role: Parameters<typeof secrets.service>[0]) => connect(secrets.service(role).username, secrets.service(role).password);
/** a meter signed in with its own address and password */
const asMeter = (address: string) => connect(address, secrets.meter(address).password);
/** the gateway subscribed to every meter's up topic, and what it receives */
const gatewayOnUp = async () => {
  const gw = await asService('gateway');
  const got = received(gw);
  await gw.subscribeAsync(`${prefix}meter/+/up`);
  return { gw, got };
};
const refused = async (username?: string, password?: string) => {
  const err = await connect(username, password).then(
    () => null,
    (e: Error & { code?: number }) => e,
  );
  return err;
};
const received = (c: MqttClient) => {
  const got: { topic: string; payload: string }[] = [];
  c.on('message', (topic, payload) => got.push({ topic, payload: payload.toString() }));
  return got;
};
/** the SUBACK code of one subscription (128 = refused) */
const grant = (c: MqttClient, topic: string) =>
  c.subscribeAsync(topic).then(
    (g) => g[0].qos,
    (e: Error) => (/Unspecified error|128/.test(e.message) ? 128 : -1),
  );
const closed = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  broker = await startBroker({ port: 0, secrets, prefix, log, maxPacketBytes: 4096, meterRate: 5 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
  await broker.close();
});

describe('embedded MQTT broker', () => {
  it('binds to loopback by default', () => {
    expect(broker.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses anonymous clients and wrong credentials', async () => {
    expect((await refused())?.message).toMatch(/Bad username or password|Not authorized/i);
    expect(await refused(A, 'wrong')).not.toBeNull();
    expect(await refused('svc-gateway', secrets.meter(A).password)).not.toBeNull();
    expect(await refused(B, secrets.meter(A).password)).not.toBeNull();
    expect(lines.filter((l) => l.includes('登录被拒绝')).length).toBeGreaterThan(0);
  });

  it('a meter publishes only its own up topic and reads only its own down topic; nobody reads #', async () => {
    const { gw, got: gwGot } = await gatewayOnUp();
    const a = await asMeter(A);
    const aGot = received(a);
    const granted = [];
    for (const t of [`${prefix}meter/${A}/down`, `${prefix}meter/${B}/down`, '#', `${prefix}#`, `${prefix}events/+/+`]) granted.push(await grant(a, t));
    expect(granted).toEqual([0, 128, 128, 128, 128]);
    expect([await grant(gw, '#'), await grant(gw, `${prefix}meter/${B}/down`)]).toEqual([128, 128]);

    await a.publishAsync(`${prefix}meter/${A}/up`, '{"frame":"68"}');
    await pause(100);
    expect(gwGot.map((m) => m.topic)).toEqual([`${prefix}meter/${A}/up`]);

    // another meter's up topic: refused, the client is disconnected, nothing delivered
    const wasClosed = closed(a);
    a.publish(`${prefix}meter/${B}/up`, '{"frame":"68"}');
    await wasClosed;
    await pause(100);
    expect(gwGot).toHaveLength(1);

    // down to A from the gateway arrives; a meter may not publish down
    const a2 = await asMeter(A);
    const a2Got = received(a2);
    await a2.subscribeAsync(`${prefix}meter/${A}/down`);
    await gw.publishAsync(`${prefix}meter/${A}/down`, '{"id":1}');
    await pause(100);
    expect(a2Got.map((m) => m.topic)).toEqual([`${prefix}meter/${A}/down`]);
    const b = await asMeter(B);
    const bClosed = closed(b);
    b.publish(`${prefix}meter/${A}/down`, '{"id":2}');
    await bClosed;
    await pause(100);
    expect(a2Got).toHaveLength(1);
    expect(aGot).toHaveLength(0);
  });

  it('only the worker publishes gateway/exec and only service roles publish events', async () => {
    const gw = await asService('gateway');
    const got = received(gw);
    await gw.subscribeAsync([`${prefix}gateway/exec`, `${prefix}events/+/+`]);
    const worker = await asService('worker');
    await worker.publishAsync(`${prefix}gateway/exec`, 'x');
    const api = await asService('api');
    await api.publishAsync(`${prefix}events/1/warning`, 'y');
    const apiClosed = closed(api);
    api.publish(`${prefix}gateway/exec`, 'z');
    await apiClosed;
    const m = await asMeter(A);
    const mClosed = closed(m);
    m.publish(`${prefix}events/1/warning`, 'w');
    await mClosed;
    await pause(100);
    expect(got.map((x) => x.payload)).toEqual(['x', 'y']);
  });

  it("a worker's cancel and its will (gateway/cancel) reach the gateway; the api role may not cancel", async () => {
    const gw = await asService('gateway');
    const got = received(gw);
    expect(await grant(gw, `${prefix}gateway/cancel`)).not.toBe(128);
    const login = secrets.service('worker');
    const worker = await mqtt.connectAsync(broker.url, {
      username: login.username,
      password: login.password,
      reconnectPeriod: 0,
      will: { topic: `${prefix}gateway/cancel`, payload: Buffer.from('gone'), qos: 1, retain: false },
    });
    clients.push(worker);
    await worker.publishAsync(`${prefix}gateway/cancel`, 'one', { qos: 1 });
    const api = await asService('api');
    const apiClosed = closed(api);
    api.publish(`${prefix}gateway/cancel`, 'forged');
    await apiClosed;
    // the worker dies without a DISCONNECT: the broker publishes its will
    worker.stream.destroy();
    for (let i = 0; i < 50 && got.length < 2; i++) await pause(50);
    expect(got.map((x) => x.payload)).toEqual(['one', 'gone']);
  });

  it('an oversize packet ends the connection before it is buffered', async () => {
    const { got } = await gatewayOnUp();
    const a = await asMeter(A);
    const wasClosed = closed(a);
    a.publish(`${prefix}meter/${A}/up`, Buffer.alloc(10_000, 0x41));
    await wasClosed;
    // a raw socket announcing 50 MB is cut as soon as the header is read
    const raw = net.connect(Number(new URL(broker.url).port), '127.0.0.1');
    await new Promise((r) => raw.once('connect', r));
    const rawClosed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.write(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x19])); // PUBLISH, remaining length 50 MiB
    await rawClosed;
    await pause(100);
    expect(got).toHaveLength(0);
    expect(lines.some((l) => l.includes('超过大小上限'))).toBe(true);
  });

  it('a meter flooding messages is cut off at its rate limit', async () => {
    const { got } = await gatewayOnUp();
    const b = await asMeter(B);
    const wasClosed = closed(b);
    for (let i = 0; i < 2000; i++) b.publish(`${prefix}meter/${B}/up`, `{"n":${i}}`);
    await wasClosed;
    await pause(200);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThanOrEqual(26); // a burst of 5 s at 5/s, and a little refill
    expect(lines.filter((l) => l.includes('发送过快')).length).toBeLessThanOrEqual(6);
  });
});
