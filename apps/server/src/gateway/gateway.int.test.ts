import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '@meter/simulator';
import { harness, imei15, silent, testSealer, until, type Harness, type TestCompany } from '../modules/control/harness.test-util.ts';
import { RemoteGateway } from './remote.ts';
import { connectMqtt } from './mqtt.ts';
import { dlt, type DeviceRequest } from './frames.ts';
import { DLT645_DI } from '@meter/protocol';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { makeArea, makeRole, makeUser, uniq } from '../../test/factories.ts';

// Channels other than collectors: NB meters over MQTT, 4G meters on their own TCP connection,
// heartbeat timeouts, the browser websocket, and a worker in another process reaching the gateway
// over MQTT.

const V1 = '/device/api/v1';
let h: Harness;
let c: TestCompany;
let fleet: Fleet;
let nb: { id: number; address: string };
let nbWater: { id: number; address: string };
let fourG: { id: number; address: string };
const fourGImei = imei15();

const post = (url: string, payload: unknown) => h.call(c.token, { method: 'POST', url: `${V1}/${url}`, payload: payload as object });

beforeAll(async () => {
  h = await harness({ gateway: { heartbeatSeconds: 1 } });
  c = await h.company();
  nb = await h.meter(c, { kind: 1, plan: 3, imei: imei15() });
  nbWater = await h.meter(c, { kind: 2, plan: 151, imei: imei15() });
  fourG = await h.meter(c, { kind: 1, plan: 0, imei: fourGImei });
  fleet = await h.fleet(
    [{ imei: fourGImei, meters: [{ address: fourG.address, kind: 'electric', initialTotal: 42 }] }],
    [
      { address: nb.address, kind: 'electric', initialTotal: 300 },
      { address: nbWater.address, kind: 'water', initialTotal: 7 },
    ],
    { heartbeatMs: 300 },
  );
});

afterAll(async () => {
  await h?.close();
});

describe('NB meters over MQTT', () => {
  it('are read and switched through meter/<address>/down|up', async () => {
    const r = await post('device/order/read', { ids: [nb.id, nbWater.id] });
    expect(r.body.data.commands.map((x: { status: string }) => x.status)).toEqual(['succeeded', 'succeeded']);
    const latest = await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [nbWater.id]);
    expect(Number(latest.total)).toBeCloseTo(fleet.meter(nbWater.address)!.snapshot().total, 1);
    const close = await post('device/order/open', { id: nbWater.id, open: false });
    expect(close.body.data.status).toBe('succeeded');
    expect(fleet.meter(nbWater.address)!.supplyOn).toBe(false);
    const open = await post('device/order/open', { id: nbWater.id, open: true });
    expect(open.body.data.status).toBe('succeeded');
  });

  it('an NB meter that goes away (last will) is offline and commands to it fail fast', async () => {
    fleet.setFault(nb.address, 'offline', true);
    await until(async () => (await h.q1<{ online: boolean }>('SELECT online FROM meters WHERE id = $1', [nb.id])).online === false, 10_000, 'NB offline');
    const r = await post('device/order/read', { ids: [nb.id] });
    expect(r.body.data.commands[0]).toMatchObject({ status: 'timed_out', error: '设备离线' });
    fleet.clearFaults(nb.address);
    await until(async () => (await h.q1<{ online: boolean }>('SELECT online FROM meters WHERE id = $1', [nb.id])).online === true, 10_000, 'NB online');
  });

  it('an answer the meter sends again after a reconnect (same nonce) is stored once; another nonce is another message', async () => {
    const count = async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = $1', [nbWater.id])).n;
    // before the report pump below: nothing else reaches this meter meanwhile
    await h.gateway.flush();
    const before = await count();
    const client = await connectMqtt('mqtt://127.0.0.1:1883', 'test-repeat');
    const topic = `${h.prefix}meter/${nbWater.address}/up`;
    const frame = Buffer.from(fleet.meter(nbWater.address)!.reportFrame()).toString('hex');
    // the same QoS 1 message twice, as mqtt.js sends an unacknowledged one again after reconnecting
    await client.publishAsync(topic, JSON.stringify({ frame, nonce: `n-${nbWater.id}-1` }), { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ frame, nonce: `n-${nbWater.id}-1` }), { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ frame, nonce: `n-${nbWater.id}-2` }), { qos: 1 });
    await client.endAsync();
    await until(async () => (await count()) >= before + 2, 10_000, 'answers stored');
    await h.gateway.flush();
    expect(await count()).toBe(before + 2);
  });

  it('unsolicited reports are stored as readings (source 4)', async () => {
    const pump = fleet.pumpReports({ ratePerSecond: 50, count: 20 });
    await pump.done;
    await until(async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = ANY($1) AND source = 4', [[nb.id, nbWater.id, fourG.id]])).n > 0, 10_000, 'reports stored');
  });

  it('a malformed MQTT message is logged and dropped', async () => {
    const client = await connectMqtt('mqtt://127.0.0.1:1883', 'test-bad');
    await client.publishAsync(`${h.prefix}meter/${nb.address}/up`, '{"frame":"6811"}');
    await client.publishAsync(`${h.prefix}meter/${nb.address}/up`, 'not json');
    await client.endAsync();
    await until(async () => (await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE meter_id = $1 AND channel = 'mqtt' AND error <> ''`, [nb.id])).n >= 2, 5000, 'mqtt errors');
  });
});

describe('4G meters on their own connection', () => {
  it('register with the meter’s IMEI and answer commands', async () => {
    await until(async () => (await h.q1<{ online: boolean }>('SELECT online FROM meters WHERE id = $1', [fourG.id])).online, 5000, '4G online');
    const r = await post('device/order/read', { ids: [fourG.id] });
    expect(r.body.data.commands[0].status).toBe('succeeded');
    expect(Number(r.body.data.commands[0].reply.total)).toBeGreaterThanOrEqual(42);
  });
});

describe('reported readings at line rate', () => {
  it('are all stored, each meter’s in the order they came, across the concurrent ingest lanes', async () => {
    const imei = imei15();
    const collectorId = await h.collector(c.companyId, imei);
    const meters = [];
    for (let i = 0; i < 24; i++) meters.push(await h.meter(c, { kind: i % 3 === 2 ? 2 : 1, collectorId }));
    const burst = await h.fleet([
      { imei, meters: meters.map((m, i) => ({ address: m.address, kind: i % 3 === 2 ? ('water' as const) : ('electric' as const), initialTotal: 100 + i })) },
    ]);
    await burst.whenOnline(10_000);
    const ids = meters.map((m) => m.id);
    const storedBefore = h.gateway.stats().readingsStored;
    // 12,000 reports: every lane passes its start threshold (2,500) while others are being written
    const sent = await burst.pumpReports({ ratePerSecond: 8000, count: 12_000 }).done;
    expect(sent.sent).toBe(12_000);
    await h.gateway.flush();
    const count = async () => (await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = ANY($1) AND source = 4', [ids])).n;
    await until(async () => (await count()) >= 12_000, 20_000, 'all reports stored');
    expect(await count()).toBe(12_000);
    expect(h.gateway.stats().readingsStored - storedBefore).toBeGreaterThanOrEqual(12_000);
    // in order: no reading was seen as older or lower than the one before it, and per meter the
    // stored totals never go down as time goes on
    const flagged = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM readings WHERE meter_id = ANY($1) AND exception <> ''`, [ids]);
    expect(flagged.n).toBe(0);
    const disorder = await h.q1<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT total < lag(total) OVER (PARTITION BY meter_id ORDER BY read_at) AS down FROM readings WHERE meter_id = ANY($1)) x
       WHERE down`,
      [ids],
    );
    expect(disorder.n).toBe(0);
    const latest = await h.owner.query(
      `SELECT l.meter_id, l.read_at = max(r.read_at) AS newest FROM meter_latest l JOIN readings r ON r.meter_id = l.meter_id
       WHERE l.meter_id = ANY($1) GROUP BY l.meter_id, l.read_at`,
      [ids],
    );
    expect(latest.rows).toHaveLength(24);
    expect(latest.rows.every((r) => r.newest)).toBe(true);
    await burst.stop();
  });
});

describe('heartbeat', () => {
  it('a connection silent for three heartbeat intervals is closed and its device goes offline', async () => {
    const imei = imei15();
    const id = await h.collector(c.companyId, imei);
    const line = await h.reg(imei);
    const s = net.connect(h.gateway.port, '127.0.0.1', () => s.write(line));
    const answers: string[] = [];
    s.on('data', (d) => answers.push(d.toString()));
    await until(async () => (await h.q1<{ online: boolean }>('SELECT online FROM collectors WHERE id = $1', [id])).online, 5000, 'collector online');
    s.write('HB\n');
    await until(async () => answers.join('').includes('HB\n'), 2000, 'HB answer');
    const closed = new Promise<number>((resolve) => s.once('close', () => resolve(Date.now())));
    const silentFrom = Date.now();
    const at = await closed;
    expect(at - silentFrom).toBeGreaterThanOrEqual(2500);
    await until(async () => (await h.q1<{ online: boolean }>('SELECT online FROM collectors WHERE id = $1', [id])).online === false, 5000, 'collector offline');
  });
});

describe('realtime websocket', () => {
  it('after {auth} the browser receives its company’s events, and nothing before', async () => {
    const ws = await h.app.injectWS('/ws');
    const got: { type: string; data: Record<string, unknown> }[] = [];
    ws.on('message', (m: Buffer) => got.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ auth: 'not-a-token' }));
    await until(async () => got.find((x) => x.type === 'error'), 3000, 'auth error');
    const ws2 = await h.app.injectWS('/ws');
    const got2: { type: string; companyId?: number; data: Record<string, unknown> }[] = [];
    ws2.on('message', (m: Buffer) => got2.push(JSON.parse(m.toString())));
    ws2.send(JSON.stringify({ auth: c.token }));
    await until(async () => got2.find((x) => x.type === 'ready'), 3000, 'ready');
    // another company's event is not forwarded
    h.bus.emit({ companyId: c.companyId + 1000, kind: 'reading', body: { meterId: 1 } });
    await post('device/order/read', { ids: [fourG.id] });
    const reading = await until(async () => got2.find((x) => x.type === 'reading' && x.data.meterId === fourG.id), 5000, 'reading event');
    expect(reading.companyId).toBe(c.companyId);
    await until(async () => got2.find((x) => x.type === 'command' && x.data.status === 'succeeded'), 5000, 'command event');
    expect(got2.every((x) => x.companyId === undefined || x.companyId === c.companyId)).toBe(true);
    ws.terminate();
    ws2.terminate();
  });

  it('with an IMEI the browser gets only that device’s events', async () => {
    const ws = await h.app.injectWS('/ws');
    const got: { type: string; data: Record<string, unknown> }[] = [];
    ws.on('message', (m: Buffer) => got.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ auth: c.token, imei: fourGImei }));
    await until(async () => got.find((x) => x.type === 'ready'), 3000, 'ready');
    await post('device/order/read', { ids: [nbWater.id, fourG.id] });
    await until(async () => got.find((x) => x.type === 'reading'), 5000, 'reading');
    expect(got.filter((x) => x.type === 'reading').every((x) => x.data.meterId === fourG.id)).toBe(true);
    ws.terminate();
  });
});

describe('realtime websocket, area-bound users', () => {
  it('a command event reaches a user bound to the meter\u2019s area and no one bound elsewhere', async () => {
    const role = await makeRole(h.owner, c.companyId, ROUTES.filter((r) => r.access === undefined).map((r) => r.key), OPERATION_KEYS);
    const other = await makeArea(h.owner, c.companyId, uniq('别的园区'));
    const bound = async (areaId: number) => {
      const u = await makeUser(h.owner, { companyId: c.companyId, roleId: role });
      await h.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, areaId, c.companyId]);
      const ws = await h.app.injectWS('/ws');
      const got: { type: string; data: Record<string, unknown> }[] = [];
      ws.on('message', (m: Buffer) => got.push(JSON.parse(m.toString())));
      ws.send(JSON.stringify({ auth: await h.login(u.username, u.password) }));
      await until(async () => got.find((x) => x.type === 'ready'), 3000, 'ready');
      return { ws, got };
    };
    const inside = await bound(c.areaId);
    const outside = await bound(other);
    const r = await post('device/order/read', { ids: [fourG.id] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await until(async () => inside.got.find((x) => x.type === 'command' && x.data.meterId === fourG.id && x.data.status === 'succeeded'), 5000, 'command event');
    expect(done.data.areaId).toBe(c.areaId);
    expect(outside.got.filter((x) => x.type === 'command' || x.type === 'reading')).toEqual([]);
    inside.ws.terminate();
    outside.ws.terminate();
  });
});

describe('a worker in another process', () => {
  it('reaches the device through the gateway that holds its connection (gateway/exec over MQTT)', async () => {
    const client = await connectMqtt('mqtt://127.0.0.1:1883', 'test-remote');
    const remote = await RemoteGateway.connect(client, { replyTimeoutMs: 800, retries: 1, prefix: h.prefix, sealer: testSealer() });
    const req: DeviceRequest = dlt.read(fourG.address, DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量');
    const reply = await remote.transact({ address: fourG.address, protocol: 'dlt645', imei: fourGImei, mqtt: true }, req);
    expect(reply?.frame.address).toBe(fourG.address);
    // nobody holds this IMEI: no gateway answers and the request fails as offline
    await expect(remote.transact({ address: '000000000099', protocol: 'dlt645', imei: '111111111111111', mqtt: false }, { ...req, timeoutMs: 200, retries: 0 })).rejects.toMatchObject({ code: 'offline' });
    await client.endAsync();
    silent.info('remote ok');
  });
});
