import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DLT645_DI, cjt188, dlt645 } from '@meter/protocol';
import { loadGenerator, spawnLoadGenerator, type LoadRunner } from './load.ts';
import { TinyGateway, eventually } from './tiny-gateway.test-util.ts';

let gw: TinyGateway;
let runner: LoadRunner | null = null;

beforeEach(async () => {
  gw = new TinyGateway();
  gw.counters.keepFrames = false;
  await gw.listen();
});

afterEach(async () => {
  await runner?.stop();
  runner = null;
  await gw.close();
});

describe('load generator', () => {
  it('opens 500 TCP connections (4G meters) from one process and pushes reports at a fixed rate', async () => {
    const load = loadGenerator({ gateway: { host: '127.0.0.1', port: gw.port }, connections: 500, connectConcurrency: 100, prefix: '61' });
    runner = load;
    const connected = await load.connect(30_000);
    expect(connected).toMatchObject({ registered: 500, pending: 0, rejects: 0 });
    expect(gw.connections.size).toBe(500);
    expect(connected.registerMs.p99).toBeGreaterThan(0);
    expect(new Set(gw.registrations)).toEqual(new Set(load.definition.collectors.map((c) => c.imei)));

    const result = await load.pushReports({ ratePerSecond: 5000, durationMs: 1000 });
    // rate × duration frames, unless sockets pushed back (none should against this gateway); the rate it
    // reaches is a speed, measured by the benches (bench/ingest.ts), not asserted here (it fell under a
    // margin of 2,500/s at load 15)
    expect(result.sent + result.busy).toBe(5000);
    expect(result.offline).toBe(0);
    expect(result.sent).toBeGreaterThan(4500);
    await eventually(() => gw.counters.frames === result.sent, 5000, 'all reports received');

    // every connection reported, and each report decodes as a forward-active-total reply
    const conn = gw.connections.get(load.definition.collectors[0].imei)!;
    const address = load.definition.collectors[0].meters[0].address;
    gw.counters.keepFrames = true;
    const reply = await conn.request(dlt645.encode({ kind: 'read', direction: 'request', address, dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL }));
    expect(dlt645.decode(reply.bytes)).toMatchObject({ kind: 'read', direction: 'response', address });
    const stats = await load.stats();
    expect(stats).toMatchObject({ connections: 500, online: 500 });
    expect(stats.reports).toBe(result.sent);
  });

  it('stops after `count` reports; collectors with many meters report round-robin', async () => {
    const load = loadGenerator({ gateway: { host: '127.0.0.1', port: gw.port }, connections: 5, metersPerConnection: 20, kind: 'mixed', prefix: '62' });
    runner = load;
    await load.connect(10_000);
    gw.counters.keepFrames = true;
    const result = await load.pushReports({ ratePerSecond: 2000, count: 100 });
    expect(result.sent).toBe(100);
    await eventually(() => gw.counters.frames === 100, 5000, '100 frames');
    const addresses = new Set<string>();
    for (const conn of gw.connections.values()) {
      for (const f of conn.frames) addresses.add(f.protocol === 'dlt645' ? dlt645.decode(f.bytes).address : cjt188.decode(f.bytes).address);
    }
    expect(addresses.size).toBe(100); // every meter exactly once
  });

  it('sends report frames prepared ahead, in round-robin order, then encodes as usual', async () => {
    const load = await spawnLoadGenerator({ gateway: { host: '127.0.0.1', port: gw.port }, connections: 4, metersPerConnection: 5, kind: 'mixed', prefix: '64' });
    runner = load;
    await load.connect(10_000);
    expect(await load.prepareReports(40)).toBe(40);
    gw.counters.keepFrames = true;
    const result = await load.pushReports({ ratePerSecond: 5000, count: 50 });
    expect(result.sent).toBe(50);
    await eventually(() => gw.counters.frames === 50, 5000, '50 frames');
    const seen = new Map<string, number[]>();
    for (const conn of gw.connections.values()) {
      for (const f of conn.frames) {
        const d = f.protocol === 'dlt645' ? dlt645.decode(f.bytes) : cjt188.decode(f.bytes);
        expect(d.direction).toBe('response');
        let v = NaN;
        if (d.kind === 'read' && d.direction === 'response') v = Number(d.values?.value);
        else if (d.kind === 'readData' && d.direction === 'response' && d.values?.kind === 'flow') v = Number(d.values.currentFlow);
        expect(v).not.toBeNaN();
        seen.set(d.address, [...(seen.get(d.address) ?? []), v]);
      }
    }
    // 20 meters: 40 prepared frames (2 each) and 10 encoded on the spot (the first 10 meters' 3rd)
    expect(seen.size).toBe(20);
    expect([...seen.values()].map((v) => v.length).sort()).toEqual([...Array(10).fill(2), ...Array(10).fill(3)].sort());
    for (const values of seen.values()) expect(values).toEqual([...values].sort((a, b) => a - b)); // totals never go back
    const stats = await load.stats();
    expect(stats.reports).toBe(50);
  });

  it('runs in a child process with spawnLoadGenerator', async () => {
    const load = await spawnLoadGenerator({ gateway: { host: '127.0.0.1', port: gw.port }, connections: 200, prefix: '63' });
    runner = load;
    expect(load.pid).toBeGreaterThan(0);
    expect(load.pid).not.toBe(process.pid);
    const connected = await load.connect(30_000);
    expect(connected.registered).toBe(200);
    const result = await load.pushReports({ ratePerSecond: 2000, durationMs: 500 });
    expect(result.sent + result.busy).toBe(1000);
    expect(result.sent).toBeGreaterThan(900);
    await eventually(() => gw.counters.frames === result.sent, 5000, 'reports received');
    const stats = await load.stats();
    expect(stats.memory.rssMB).toBeGreaterThan(0);
    await load.stop();
    runner = null;
    expect(load.child.exitCode).toBe(0);
    await eventually(() => gw.connections.size === 0, 5000, 'connections closed');
  });
});
