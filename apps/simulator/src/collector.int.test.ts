import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CJT188_VALVE,
  DLT645_DI,
  DLT645_REMOTE_COMMAND,
  FrameSplitter,
  cjt188,
  dlt645,
  toMeterDateTime,
  type Dlt645Frame,
} from '@meter/protocol';
import { HOUR_MS, ManualClock } from './clock.ts';
import { createFleet, type Fleet, type FleetEvent } from './fleet.ts';
import { registerValue, type ElectricMeter, type WaterMeter } from './meter.ts';
import { TinyGateway, eventually, type GatewayConnection, type ReceivedFrame } from './tiny-gateway.test-util.ts';

const IMEI = '860000000000101';
const E1 = '100000000101';
const E2 = '100000000102';
const W1 = '20000000000101';

let gw: TinyGateway;
let fleet: Fleet | null = null;
let clock: ManualClock;

beforeEach(async () => {
  gw = new TinyGateway();
  await gw.listen();
  clock = new ManualClock(Date.UTC(2024, 2, 1, 2, 0, 0));
});

afterEach(async () => {
  await fleet?.stop();
  fleet = null;
  await gw.close();
});

function start(extra: Partial<Parameters<typeof createFleet>[0]> = {}): Fleet {
  fleet = createFleet({
    collectors: [
      {
        imei: IMEI,
        meters: [
          { address: E1, kind: 'electric', protocol: 'dlt645', initialTotal: 1234.5, profile: 'residential' },
          { address: E2, kind: 'electric', protocol: 'dlt645', initialTotal: 10, supplyOn: false },
          { address: W1, kind: 'water', protocol: 'cjt188', initialTotal: 56.78 },
        ],
      },
    ],
    gateway: { host: '127.0.0.1', port: gw.port },
    clock,
    reconnectMinMs: 50,
    reconnectMaxMs: 400,
    heartbeatMs: 60_000,
    ...extra,
  });
  return fleet.start();
}

const isDlt = (address: string) => (f: ReceivedFrame) => f.protocol === 'dlt645' && dlt645.decode(f.bytes).address === address;
const isCjt = (address: string) => (f: ReceivedFrame) => f.protocol === 'cjt188' && cjt188.decode(f.bytes).address === address;

async function readDlt(conn: GatewayConnection, address: string, dataId: number, timeoutMs = 3000): Promise<Dlt645Frame> {
  const reply = await conn.request(dlt645.encode({ kind: 'read', direction: 'request', address, dataId }), isDlt(address), timeoutMs);
  return dlt645.decode(reply.bytes);
}

function control(address: string, command: number): Uint8Array {
  return dlt645.encode({
    kind: 'remoteControl',
    direction: 'request',
    address,
    password: { level: 2, code: '000000' },
    operator: '00000001',
    command,
    expiry: toMeterDateTime(new Date(clock.now() + 10 * 60_000)),
  });
}

describe('collector over TCP (DEVICE-WIRE.md)', () => {
  it('registers with REG <imei>, goes online and exchanges heartbeats', async () => {
    const f = start({ heartbeatMs: 100 });
    const conn = await gw.waitForRegistration(IMEI);
    expect(conn.texts[0]).toBe(`REG ${IMEI}`);
    await f.whenOnline(2000);
    expect(f.collector(IMEI)!.state).toBe('online');
    await eventually(() => gw.counters.heartbeats >= 3, 5000, 'three heartbeats');
    expect(f.collector(IMEI)!.stats.heartbeats).toBeGreaterThanOrEqual(3);
    expect(conn.texts.slice(1).every((t) => t === 'HB')).toBe(true);
  });

  it('reads an electric meter and a water meter through the collector', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    clock.advance(3 * HOUR_MS);
    const meter = f.meter(E1) as ElectricMeter;
    const total = await readDlt(conn, E1, DLT645_DI.FORWARD_ACTIVE_TOTAL);
    expect(total).toMatchObject({ kind: 'read', direction: 'response', address: E1, preamble: 0 });
    if (total.kind !== 'read' || total.direction !== 'response') throw new Error('narrowing');
    expect(total.values?.value).toBe(registerValue(meter.total));
    expect(total.values?.value).toBeGreaterThan(1234.5);
    const valley = await readDlt(conn, E1, DLT645_DI.FORWARD_ACTIVE_VALLEY);
    expect(valley).toMatchObject({ values: { value: registerValue(meter.touRegisters.valley) } });

    const water = f.meter(W1) as WaterMeter;
    const reply = await conn.request(cjt188.encode({ kind: 'readData', direction: 'request', meterType: 0x10, address: W1, ser: 9 }), isCjt(W1));
    expect(cjt188.decode(reply.bytes)).toMatchObject({
      kind: 'readData',
      ser: 9,
      values: { kind: 'flow', currentFlow: registerValue(water.total), status: { valve: 'open', batteryLow: false } },
    });
    // read-address of the water meter, wildcard address
    const addr = await conn.request(cjt188.encode({ kind: 'readAddress', direction: 'request', meterType: 0xaa, address: 'AAAAAAAAAAAAAA' }), (x) => x.protocol === 'cjt188');
    expect(cjt188.decode(addr.bytes)).toMatchObject({ kind: 'readAddress', address: W1 });
  });

  it('closes a relay, reads back status word 3, and a duplicate close actuates once', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    const meter = f.meter(E2) as ElectricMeter;
    expect(await readDlt(conn, E2, DLT645_DI.STATUS_WORD_3)).toMatchObject({ values: { relayState: 'disconnected' } });

    const first = await conn.request(control(E2, DLT645_REMOTE_COMMAND.CLOSE_DIRECT), isDlt(E2));
    expect(dlt645.decode(first.bytes)).toMatchObject({ kind: 'remoteControl', direction: 'response', control: 0x9c });
    expect(await readDlt(conn, E2, DLT645_DI.STATUS_WORD_3)).toMatchObject({ values: { relayState: 'connected', relayCommand: 'connect' } });

    const again = await conn.request(control(E2, DLT645_REMOTE_COMMAND.CLOSE_DIRECT), isDlt(E2));
    expect(dlt645.decode(again.bytes)).toMatchObject({ control: 0x9c });
    expect(meter.actuations).toBe(1);

    // 拉闸 under 保电 is refused with an abnormal reply
    await conn.request(control(E2, DLT645_REMOTE_COMMAND.HOLD_POWER), isDlt(E2));
    const refused = await conn.request(control(E2, DLT645_REMOTE_COMMAND.TRIP), isDlt(E2));
    expect(dlt645.decode(refused.bytes)).toMatchObject({ kind: 'error', control: 0xdc });
    expect(meter.relay).toBe('connected');

    // water valve close twice → one actuation
    const water = f.meter(W1) as WaterMeter;
    for (let i = 0; i < 2; i++) {
      const r = await conn.request(cjt188.encode({ kind: 'valveControl', direction: 'request', meterType: 0x10, address: W1, valve: CJT188_VALVE.CLOSE }), isCjt(W1));
      expect(cjt188.decode(r.bytes)).toMatchObject({ kind: 'valveControl', status: { valve: 'closed' } });
    }
    expect(water.actuations).toBe(1);
  });

  it('injects garbage between frames and FrameSplitter still cuts every reply', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    f.setFault(IMEI, 'garbage', 40);
    const splitterBefore = conn.splitter.stats.droppedBytes;
    for (let i = 0; i < 30; i++) {
      clock.advance(60_000);
      const frame = await readDlt(conn, E1, DLT645_DI.FORWARD_ACTIVE_TOTAL);
      expect(frame).toMatchObject({ kind: 'read', direction: 'response', address: E1 });
    }
    const collector = f.collector(IMEI)!;
    expect(collector.stats.garbageBytes).toBeGreaterThan(30);
    expect(conn.splitter.stats.droppedBytes - splitterBefore).toBeGreaterThan(0);
    expect(conn.texts.filter((t) => t !== `REG ${IMEI}`)).toEqual([]); // garbage never reads as a text line

    // The raw byte stream itself: a fresh splitter over a recorded burst finds every frame.
    const offline = new FrameSplitter({ minTextLength: 2 });
    const chunks: Uint8Array[] = [];
    conn.socket.on('data', (c: Buffer) => chunks.push(new Uint8Array(c)));
    for (let i = 0; i < 10; i++) await readDlt(conn, E1, DLT645_DI.VOLTAGE_A);
    const items = chunks.flatMap((c) => offline.push(c));
    expect(items.filter((x) => x.kind === 'frame')).toHaveLength(10);
  });

  it('reconnects with backoff after the gateway drops the socket', async () => {
    const f = start();
    const events: FleetEvent[] = [];
    f.on('event', (e) => events.push(e));
    const first = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    first.socket.destroy();
    const second = await gw.waitForRegistration(IMEI, 1, 3000);
    expect(second).not.toBe(first);
    await f.whenOnline();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['offline', 'reconnecting', 'online']));
    expect(f.collector(IMEI)!.stats.registrations).toBe(2);
    // and it still answers on the new connection
    expect(await readDlt(second, E1, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toMatchObject({ kind: 'read', address: E1 });
  });

  it('keeps retrying after ERR unknown and comes online once the IMEI is known', async () => {
    gw.known = new Set();
    const f = start();
    await eventually(() => gw.rejected.length >= 3, 5000, 'three rejected registrations');
    // the gateway counts a rejection when it sends ERR; the collector when the ERR has arrived
    await eventually(() => f.collector(IMEI)!.stats.rejects >= 3, 5000, 'three rejections seen by the collector');
    expect(f.collector(IMEI)!.online).toBe(false);
    gw.known.add(IMEI);
    await f.whenOnline(5000);
  });

  it('offline fault: the collector disconnects and stays away until cleared', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    f.setFault(IMEI, 'offline', true);
    await eventually(() => conn.closed, 2000, 'socket closed');
    await new Promise((r) => setTimeout(r, 300)); // longer than the backoff
    expect(gw.registrations).toHaveLength(1);
    expect(f.collector(IMEI)!.state).toBe('offline');
    f.clearFaults(IMEI);
    await gw.waitForRegistration(IMEI, 1);
    await f.whenOnline();
  });

  it('a fault plan takes the collector off the line and brings it back by itself, every period', async () => {
    const f = start({ faults: [{ target: IMEI, fault: 'offline', afterMs: 300, forMs: 300, everyMs: 900 }] });
    const first = await gw.waitForRegistration(IMEI);
    await eventually(() => first.closed, 2000, 'the planned outage');
    expect(f.collector(IMEI)!.state).toBe('offline');
    const back = await gw.waitForRegistration(IMEI, 1);
    await f.whenOnline();
    await eventually(() => back.closed, 2000, 'the next outage');
    await gw.waitForRegistration(IMEI, 2);
    expect(gw.registrations).toEqual([IMEI, IMEI, IMEI]);
  });

  it('an offline fault set before start() holds the collector back until cleared', async () => {
    fleet = createFleet({
      collectors: [{ imei: IMEI, meters: [{ address: E1, kind: 'electric' }] }],
      gateway: { host: '127.0.0.1', port: gw.port },
      clock,
      reconnectMinMs: 50,
    });
    fleet.setFault(IMEI, 'offline', true);
    fleet.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(gw.registrations).toHaveLength(0);
    fleet.clearFaults(IMEI);
    await gw.waitForRegistration(IMEI);
    await fleet.whenOnline();
  });

  it('a meter with powerLoss stays silent while its neighbours answer; slowReplies delays replies', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    f.setFault(E1, 'powerLoss', true);
    await expect(readDlt(conn, E1, DLT645_DI.FORWARD_ACTIVE_TOTAL, 500).then(() => 'answered', (e: Error) => e.message)).resolves.toMatch(/no matching frame/);
    expect(await readDlt(conn, E2, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toMatchObject({ address: E2 });
    f.setFault(IMEI, 'slowReplies', 250);
    const t0 = performance.now();
    await readDlt(conn, E2, DLT645_DI.FORWARD_ACTIVE_TOTAL);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240);
  });

  it('applies a broadcast time sync to every DL/T 645 meter on the bus without answering', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    f.setFault(E1, 'clockDrift', 600);
    f.setFault(E2, 'clockDrift', -90);
    conn.socket.write(dlt645.encode({ kind: 'broadcastTime', direction: 'request', time: toMeterDateTime(new Date(clock.now())) }));
    await eventually(() => f.meter(E1)!.faults.clockDrift === 0 && f.meter(E2)!.faults.clockDrift === 0, 2000, 'clocks synced');
    const time = await readDlt(conn, E1, DLT645_DI.TIME);
    const now = toMeterDateTime(new Date(clock.now()));
    expect(time).toMatchObject({ values: { hour: now.hour, minute: now.minute, second: now.second } });
    expect(conn.frames).toHaveLength(0); // nothing unsolicited arrived (no reply to 0x08)
  });

  it('sends unsolicited reports when asked to', async () => {
    const f = start({ reportIntervalMs: 150 });
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    await eventually(() => conn.frames.length >= 3, 3000, 'three reports');
    const decoded = conn.frames.map((x) => (x.protocol === 'dlt645' ? dlt645.decode(x.bytes).address : cjt188.decode(x.bytes).address));
    expect(new Set(decoded)).toEqual(new Set([E1, E2, W1]));
  });

  it('stop() closes the connection and does not reconnect', async () => {
    const f = start();
    const conn = await gw.waitForRegistration(IMEI);
    await f.whenOnline();
    await f.stop();
    fleet = null;
    await eventually(() => conn.closed, 2000, 'closed');
    await new Promise((r) => setTimeout(r, 200));
    expect(gw.registrations).toHaveLength(1);
    expect(f.collector(IMEI)!.state).toBe('stopped');
  });
});
