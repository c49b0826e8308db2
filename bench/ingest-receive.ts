// The receive side of reading ingest alone: the real splitter (FrameSplitter.feed) and Dialogue (the
// routine-report fast path) fed encoded chunks of 50 frames a connection (half DL/T 645 正向有功总电能,
// half CJ/T 188 901F, 10,000 meters on 200 collectors), each report queued as the gateway queues it into
// a queue that holds 40,000–50,000 readings (what waits for the database under load, and what the young
// generation's collector has to copy); a stub meter cache, no sockets, no database. Prints the CPU a
// report. For A/B of receive-side changes: alternate runs of two checkouts, same machine.
//   npx tsx bench/ingest-receive.ts [reports = 2000000]
import { CJT188_DI, CJT188_UNIT, DLT645_DI, FrameSplitter, cjt188, dlt645, type SplitterSink } from '@meter/protocol';
import type { GatewayParts } from '../apps/server/src/gateway/context.ts';
import { Dialogue } from '../apps/server/src/gateway/dialogue.ts';
import type { Connection } from '../apps/server/src/gateway/listener.ts';
import type { MeterRef } from '../apps/server/src/gateway/repo.ts';
import type { IngestItem } from '../apps/server/src/modules/control/index.ts';

const N = Number(process.argv[2] ?? 2_000_000);
/** A test double: only what the receive path reads of it is there. */
const stub = <T>(x: unknown): T => x as T;
const METERS = 10_000, PER = 50;
const refs = new Map<string, MeterRef>();
const conns: Connection[] = [];
for (let c = 0; c < METERS / PER; c++) {
  conns.push(stub<Connection>({ device: { type: 'collector', id: c + 1, companyId: 1 }, lastRx: Date.now(), imei: 'x', splitter: new FrameSplitter({ minTextLength: 2 }) }));
}
function encode(i: number, cents: number): Uint8Array {
  if (i % 2 === 0) {
    const address = String(700000000000 + i).padStart(12, '0');
    refs.set(address, stub<MeterRef>({ id: i + 1, companyId: 1, areaId: null, collectorId: Math.floor(i / PER) + 1, online: true, address }));
    return dlt645.encode({ kind: 'read', direction: 'response', address, dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL, values: { value: cents / 100 } });
  }
  const address = String(70000000000000 + i).padStart(14, '0');
  refs.set(address, stub<MeterRef>({ id: i + 1, companyId: 1, areaId: null, collectorId: Math.floor(i / PER) + 1, online: true, address }));
  return cjt188.encode({ kind: 'readData', direction: 'response', meterType: 0x10, address, ser: 0, dataId: CJT188_DI.METER_DATA,
    values: { kind: 'flow', currentFlow: cents / 100, currentFlowUnit: CJT188_UNIT.m3, settlementFlow: 10, settlementFlowUnit: CJT188_UNIT.m3, realTime: '2026-12-07 10:00:00', status: { valve: 'open', batteryLow: false } } });
}
const ROUNDS = 4;
const chunks: Uint8Array[][] = [];
for (let r = 0; r < ROUNDS; r++) {
  const per: Uint8Array[] = [];
  for (let c = 0; c < METERS / PER; c++) {
    const fs = [];
    for (let k = 0; k < PER; k++) fs.push(encode(c * PER + k, 10000 + r * 10 + k));
    per.push(Buffer.concat(fs));
  }
  chunks.push(per);
}
let queued: IngestItem[] = [];
let taken = 0;
const since = Date.now();
const lastRead = new Map<number, number>(), seen = new Map<number, number>();
const g = stub<GatewayParts>({
  log: { warn() {}, error() {}, info() {}, debug() {} },
  deps: { settings: { frameLog: 'errors' } },
  meters: { fresh: (a: string) => refs.get(a), get: async (a: string) => refs.get(a) ?? null, peek: (a: string) => refs.get(a) ?? null },
  health: {
    meterSeen: (m: MeterRef, now = Date.now()) => { seen.set(m.id, now - since); },
    readMs: (id: number, at = Date.now()) => { const now = at - since; const last = lastRead.get(id) ?? -1; const t = now > last ? now : last + 1; lastRead.set(id, t); return since + t; },
    lowBattery: async () => {},
  },
  buffer: {
    full: false, drop() {}, checkHigh() {}, report() {},
    add(_id: number, item: IngestItem) { queued.push(item); if (queued.length >= 50_000) { taken += 10_000; queued = queued.slice(10_000); } },
  },
  listener: { badInput() { throw new Error('bad input'); } },
});
const d = new Dialogue(g);
let cur = conns[0];
const sink: SplitterSink = { frame: (p, input, s, e) => d.frameAt(cur, p, input, s, e), text() {} };
function receive(conn: Connection, chunk: Uint8Array) {
  conn.lastRx = Date.now();
  cur = conn;
  conn.splitter.feed(chunk, sink);
}
// warm-up, then measured
let n = 0;
const run = (limit: number) => { for (let r = 0; n < limit; r = (r + 1) % ROUNDS) for (let c = 0; c < conns.length && n < limit; c++) { receive(conns[c], chunks[r][c]); n += PER; } };
run(200_000);
const c0 = process.cpuUsage(); n = 0; const t0 = performance.now();
run(N);
const cpu = process.cpuUsage(c0);
if (taken + queued.length < N) throw new Error(`only ${taken + queued.length} of ${N} reports queued`);
console.log(`接收侧（切帧→快速路径→排队）: 每帧 CPU ${((cpu.user + cpu.system) / N).toFixed(3)} µs（${N} 帧，${(performance.now() - t0).toFixed(0)} ms）`);
