import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Fleet } from '@meter/simulator';
import { dlt645 } from '@meter/protocol';
import { harness, imei15, testSealer, TEST_SECRETS, until, type Harness, type TestCompany } from '../modules/control/harness.test-util.ts';
import { EventBus, type DeviceEvent } from '../modules/realtime/bus.ts';
import { DLT645_COMMANDS, dlt, hex } from './frames.ts';
import { connectMqtt } from './mqtt.ts';
import { RemoteGateway } from './remote.ts';
import { DeviceSecrets, Sealer } from './security.ts';

// The device side against an attacker on the network (issue 12, items 1–2), with the real Mosquitto
// of the tests (no broker login there: what protects the devices is what the platform checks itself).
// A TCP registration needs the collector's secret and never evicts the real collector without it;
// a collector reports only for its own meters; unsigned, forged, expired and replayed internal
// messages (gateway/exec, events) are dropped; a captured down message replayed does not actuate;
// refused registrations are logged at a throttled rate.

const V1 = '/device/api/v1';
let h: Harness;
let c: TestCompany;
let fleet: Fleet;
const warnings: string[] = [];
const imei = imei15();
let collectorId: number;
let own: { id: number; address: string };
let elsewhere: { id: number; address: string };
let nbWater: { id: number; address: string };
const clients: MqttClient[] = [];

const auth = { password: '02000000', operator: '00000000' };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const post = (url: string, payload: unknown) => h.call(c.token, { method: 'POST', url: `${V1}/${url}`, payload: payload as object });
const mqttClient = async (name: string) => {
  const m = await connectMqtt('mqtt://127.0.0.1:1883', name);
  clients.push(m);
  return m;
};
/** what the gateway answers a registration line, and whether it then closed the socket */
const register = (line: string) =>
  new Promise<string>((resolve) => {
    const s = net.connect(h.gateway.port, '127.0.0.1', () => s.write(line));
    let got = '';
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => {});
    s.on('close', () => resolve(got));
  });

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line.includes('"level":40')) warnings.push(JSON.parse(line).msg);
      done();
    },
  });
  h = await harness({ log: pino({ level: 'warn' }, sink) });
  c = await h.company();
  collectorId = await h.collector(c.companyId, imei);
  own = await h.meter(c, { kind: 1, collectorId });
  elsewhere = await h.meter(c, { kind: 1, collectorId: await h.collector(c.companyId) });
  nbWater = await h.meter(c, { kind: 2, plan: 151, imei: imei15() });
  fleet = await h.fleet([{ imei, meters: [{ address: own.address, kind: 'electric', initialTotal: 50 }] }], [{ address: nbWater.address, kind: 'water', initialTotal: 3 }], { heartbeatMs: 1000 });
});

afterAll(async () => {
  await Promise.all(clients.map((m) => m.endAsync(true).catch(() => {})));
  await h?.close();
});

describe('TCP registration', () => {
  it('a known IMEI without its secret, or with a wrong one, is refused and does not evict the real collector', async () => {
    const connects = fleet.collector(imei)!.stats.connects;
    expect(await register(`REG ${imei}\n`)).toBe('ERR unknown\n');
    expect(await register(`REG ${imei} 0123456789abcdef0123456789abcdef\n`)).toBe('ERR unknown\n');
    // a secret of another collector does not open this one
    const other = imei15();
    await h.collector(c.companyId, other);
    expect(await register(`REG ${imei} ${(await h.reg(other)).trim().split(' ')[2]}\n`)).toBe('ERR unknown\n');
    await pause(200);
    expect(fleet.collector(imei)!.online).toBe(true);
    expect(fleet.collector(imei)!.stats.connects).toBe(connects);
    const r = await post('device/order/read', { ids: [own.id] });
    expect(r.body.data.commands[0].status).toBe('succeeded');
  });

  it('a collector’s report of a meter that is not behind it is not stored; its own meter’s is', async () => {
    const s = net.connect(h.gateway.port, '127.0.0.1');
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    const got: string[] = [];
    s.on('data', (d) => got.push(d.toString('latin1')));
    const report = (address: string, value: number) => Buffer.from(dlt645.encode({ kind: 'read', direction: 'response', address, dataId: 0x00010000, values: { value } }));
    // a second collector of the same company, authenticated, reporting a meter of another collector
    const thief = imei15();
    const thiefId = await h.collector(c.companyId, thief);
    const mine = await h.meter(c, { kind: 1, collectorId: thiefId });
    s.write(await h.reg(thief));
    await until(async () => got.join('').includes('OK\n'), 5000, 'registered');
    s.write(Buffer.concat([report(elsewhere.address, 102000), report(mine.address, 7.5)]));
    const count = async (id: number) => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = $1', [id])).n;
    await until(async () => (await count(mine.id)) === 1, 5000, 'own meter stored');
    await h.gateway.flush();
    expect(await count(elsewhere.id)).toBe(0);
    const errs = await h.owner.query(`SELECT error FROM device_reports WHERE collector_id = $1 AND error <> ''`, [thiefId]);
    expect(errs.rows.map((x) => x.error)).toEqual([`表具 ${elsewhere.address} 不属于该采集器，已丢弃`]);
    s.destroy();
  });

  it('1,000 refused connections write a handful of WARN lines, not 1,000', async () => {
    const before = warnings.filter((w) => w.startsWith('设备注册被拒绝')).length;
    const firstMinute = Math.floor(Date.now() / 60_000);
    let refused = 0;
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => register(i % 2 ? `REG ${imei}\n` : 'GET / HTTP/1.1\n')));
      refused += answers.filter((a) => a.startsWith('ERR')).length;
    }
    expect(refused).toBe(1000);
    const lines = warnings.filter((w) => w.startsWith('设备注册被拒绝')).length - before;
    expect(lines).toBeGreaterThan(0);
    // 5 a minute, and one summary line when a minute turns (a slow machine may take the 1,000 into a second minute)
    const minutes = Math.floor(Date.now() / 60_000) - firstMinute + 1;
    expect(lines).toBeLessThanOrEqual(6 * minutes);
    expect(fleet.collector(imei)!.online).toBe(true);
  });
});

describe('internal messages over MQTT', () => {
  it('an unsigned, forged, expired or replayed gateway/exec never puts a frame on the wire', async () => {
    const route = { address: own.address, protocol: 'dlt645' as const, imei, mqtt: false };
    const trip = () => dlt.remote(own.address, DLT645_COMMANDS.trip.command, auth, new Date(), '拉闸');
    const topic = `${h.prefix}gateway/exec`;
    const replyTo = `${h.prefix}gateway/reply/attacker`;
    const attacker = await mqttClient('test-attacker');
    const replies: string[] = [];
    attacker.on('message', (t, p) => t === replyTo && replies.push(p.toString()));
    await attacker.subscribeAsync(replyTo);
    const downRows = async () => (await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE collector_id = $1 AND direction = 'down'`, [collectorId])).n;
    await h.gateway.flush();
    const rowsBefore = await downRows();
    const body = (reqId: string) => JSON.stringify({ reqId, replyTo, route, req: trip() });
    const foreign = new Sealer(new DeviceSecrets('some-other-deployment-secret-0123456789ab').signingKey, { warn: () => {} });
    await attacker.publishAsync(topic, body('unsigned'));
    await attacker.publishAsync(topic, foreign.seal(topic, body('foreign')));
    await attacker.publishAsync(topic, testSealer().seal(topic, body('expired'), -1000));
    // a real worker's request, captured on the wire and played again
    const spy = await mqttClient('test-spy');
    const captured: Buffer[] = [];
    spy.on('message', (t, p) => t === topic && captured.push(Buffer.from(p)));
    await spy.subscribeAsync(topic);
    const worker = await RemoteGateway.connect(await mqttClient('test-worker'), { replyTimeoutMs: 800, retries: 1, prefix: h.prefix, sealer: testSealer() });
    await worker.transact(route, trip());
    await until(async () => !fleet.meter(own.address)!.supplyOn, 3000, 'tripped by the real request');
    await worker.transact(route, dlt.remote(own.address, DLT645_COMMANDS.close.command, auth, new Date(), '合闸'));
    await until(async () => fleet.meter(own.address)!.supplyOn, 3000, 'closed again');
    await until(async () => captured.length === 2, 3000, 'both requests seen on the wire');
    await attacker.publishAsync(topic, captured[0]);
    await pause(800);
    expect(fleet.meter(own.address)!.supplyOn).toBe(true);
    expect(replies).toEqual([]);
    await h.gateway.flush();
    expect((await downRows()) - rowsBefore).toBe(2); // the real trip and close, nothing else
  });

  it('an unsigned or foreign event does not reach the bus (nor the websockets behind it); a signed one does', async () => {
    const got: DeviceEvent[] = [];
    const off = h.bus.on((e) => got.push(e));
    const attacker = await mqttClient('test-attacker-events');
    const topic = `${h.prefix}events/${c.companyId}/warning`;
    await attacker.publishAsync(topic, JSON.stringify({ id: 1, kind: 'fake' }));
    const foreign = new Sealer(new DeviceSecrets('some-other-deployment-secret-0123456789ab').signingKey, { warn: () => {} });
    await attacker.publishAsync(topic, foreign.seal(topic, JSON.stringify({ id: 2, kind: 'fake' })));
    await attacker.publishAsync(`${h.prefix}events/${c.companyId}/online`, JSON.stringify({ meterId: own.id, online: false }));
    const other = new EventBus(h.prefix);
    await other.attach(await mqttClient('test-other-process'), testSealer());
    other.emit({ companyId: c.companyId, kind: 'warning', body: { id: 3, kind: 'real' } });
    await until(async () => got.find((e) => e.body.id === 3), 3000, 'signed event');
    await pause(200);
    off();
    // the gateway's own events (devices coming online) pass as they should; none of the attacker's does
    expect(got.filter((e) => e.kind === 'warning').map((e) => e.body.kind)).toEqual(['real']);
    expect(got.filter((e) => e.kind === 'online' && e.body.meterId === own.id && e.body.online === false)).toEqual([]);
  });
});

describe('junk on an NB meter’s up topic', () => {
  it('2,001 malformed messages write a bounded number of log lines and frame-log rows', async () => {
    const junk = await mqttClient('test-junk');
    const topic = `${h.prefix}meter/${nbWater.address}/up`;
    const before = warnings.filter((w) => w.startsWith('MQTT 上报异常')).length;
    for (let i = 0; i < 2001; i++) junk.publish(topic, `junk ${i}`);
    await junk.endAsync();
    await pause(1000);
    await h.gateway.flush();
    const lines = warnings.filter((w) => w.startsWith('MQTT 上报异常')).length - before;
    expect(lines).toBeGreaterThan(0);
    expect(lines).toBeLessThanOrEqual(11); // 5 a minute, twice if the minute turned, + a summary
    const rows = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE meter_id = $1 AND error <> ''`, [nbWater.id]);
    expect(rows.n).toBeGreaterThan(0);
    expect(rows.n).toBeLessThanOrEqual(200); // 100 a minute
  });
});

describe('NB down messages', () => {
  it('a captured 关阀 message played again after the valve was reopened does not close it; an unsigned one neither', async () => {
    const topic = `${h.prefix}meter/${nbWater.address}/down`;
    const spy = await mqttClient('test-down-spy');
    const captured: Buffer[] = [];
    spy.on('message', (t, p) => t === topic && captured.push(Buffer.from(p)));
    await spy.subscribeAsync(topic);
    const close = await post('device/order/open', { id: nbWater.id, open: false });
    expect(close.body.data.status).toBe('succeeded');
    const open = await post('device/order/open', { id: nbWater.id, open: true });
    expect(open.body.data.status).toBe('succeeded');
    const meter = fleet.meter(nbWater.address)!;
    expect(meter.supplyOn).toBe(true);
    const closeFrame = hex(Buffer.from(JSON.parse(captured[0].toString()).frame, 'hex'));
    const nb = fleet.nbMeter(nbWater.address)!;
    const refusedBefore = nb.stats.refusedDown;
    const attacker = await mqttClient('test-down-attacker');
    const replayed = [...captured];
    for (const m of replayed) await attacker.publishAsync(topic, m);
    await attacker.publishAsync(topic, JSON.stringify({ id: 1, frame: closeFrame }));
    const { id, exp, nonce } = JSON.parse(captured[0].toString());
    await attacker.publishAsync(topic, JSON.stringify({ id, frame: closeFrame, exp: exp + 60_000, nonce: `${nonce}x`, sig: '00'.repeat(32) }));
    // every one of them reaches the meter and is refused (not a fixed wait: the last refusal is the event)
    await until(async () => nb.stats.refusedDown - refusedBefore >= replayed.length + 2, 5000, 'the forged frames refused');
    expect(meter.supplyOn).toBe(true);
    expect(nb.stats.refusedDown - refusedBefore).toBe(replayed.length + 2);
    // the meter's own credentials are what the platform derives: the simulator logged in with them
    expect(TEST_SECRETS.meter(nbWater.address).username).toBe(nbWater.address);
  });
});
