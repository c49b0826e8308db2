import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CJT188_DI, CJT188_UNIT, DLT645_DI, checksum, cjt188, dlt645, type Cjt188Message } from '@meter/protocol';
import { DLT645_PARAM_ITEMS, decodeFrame, factsOf, type Protocol } from './frames.ts';
import { centsText, quickReport, type QuickReport } from './quick-report.ts';

/** What the general path queues for a frame (dialogue.report1): null where it queues nothing or refuses the frame. */
function general(protocol: Protocol, bytes: Uint8Array) {
  let d;
  try {
    d = decodeFrame(protocol, bytes);
  } catch {
    return null;
  }
  if (d.frame.direction !== 'response') return null;
  const facts = factsOf(d, false);
  if (facts.total === undefined) return null;
  const registers = facts.registers ?? {};
  if (facts.batteryLow !== undefined) registers.batteryLow = facts.batteryLow;
  if (facts.valve !== undefined) registers.valve = facts.valve;
  return { address: d.frame.address, total: facts.total, registers, valve: facts.valve, batteryLow: facts.batteryLow };
}

/** A quick report as the facts the general path gives (its total as text) */
const asFacts = (q: QuickReport | null) => q && { address: q.address, total: centsText(q.cents), registers: q.registers, valve: q.valve, batteryLow: q.batteryLow };

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));
/** hundredths of a register total (4 BCD bytes, two decimals) */
const hundredths = fc.oneof(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(0, 1, 99, 100, 99_999_999));
const dltReport = fc.record({ address: digits(12), cents: hundredths }).map(({ address, cents }) =>
  dlt645.encode({ kind: 'read', direction: 'response', address, dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL, values: { value: cents / 100 } }, { dataItems: DLT645_PARAM_ITEMS }),
);
const realTime = fc.oneof(
  fc.constant(null),
  fc.record({ y: fc.integer({ min: 2000, max: 2099 }), mo: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }), h: fc.integer({ min: 0, max: 23 }), mi: fc.integer({ min: 0, max: 59 }) })
    .map((t) => `${t.y}-${String(t.mo).padStart(2, '0')}-${String(t.d).padStart(2, '0')} ${String(t.h).padStart(2, '0')}:${String(t.mi).padStart(2, '0')}:00`),
);
const unit = fc.oneof(fc.constant(CJT188_UNIT.m3), fc.constant(CJT188_UNIT.m3), fc.constant(CJT188_UNIT.L));
const cjtReport = fc
  .record({
    meterType: fc.oneof(fc.integer({ min: 0x10, max: 0x1f }), fc.integer({ min: 0x30, max: 0x4f })),
    address: digits(14),
    current: fc.oneof(hundredths, hundredths, fc.constant(null)),
    currentUnit: unit,
    settlement: fc.oneof(hundredths, fc.constant(null)),
    settlementUnit: unit,
    realTime,
    raw: fc.integer({ min: 0, max: 0xffff }),
    diOrder: fc.constantFrom('be' as const, 'be' as const, 'le' as const),
  })
  .map((r) => {
    const m: Cjt188Message = {
      kind: 'readData',
      direction: 'response',
      meterType: r.meterType,
      address: r.address,
      ser: 0,
      diOrder: r.diOrder,
      dataId: CJT188_DI.METER_DATA,
      values: {
        kind: 'flow',
        currentFlow: r.current === null ? null : r.current / 100,
        currentFlowUnit: r.currentUnit,
        settlementFlow: r.settlement === null ? null : r.settlement / 100,
        settlementFlowUnit: r.settlementUnit,
        realTime: r.realTime,
        status: { raw: r.raw },
      },
    };
    return cjt188.encode(m);
  });
const report = fc.oneof(
  dltReport.map((bytes) => ({ protocol: 'dlt645' as const, bytes })),
  cjtReport.map((bytes) => ({ protocol: 'cjt188' as const, bytes })),
);

describe('quickReport', () => {
  it('reads routine reports as the general path does (and takes the usual ones)', () => {
    let taken = 0;
    fc.assert(
      fc.property(report, ({ protocol, bytes }) => {
        const q = quickReport(protocol, bytes);
        if (q) {
          taken++;
          expect(asFacts(q)).toEqual(general(protocol, bytes));
        }
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(1000);
  });

  it('the two usual forms are taken', () => {
    const dlt = dlt645.encode({ kind: 'read', direction: 'response', address: '000000001234', dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL, values: { value: 1234.56 } });
    expect(quickReport('dlt645', dlt)).toEqual({ address: '000000001234', cents: 123456, registers: {} });
    const cjt = cjt188.encode({
      kind: 'readData', direction: 'response', meterType: 0x10, address: '00000000004321', ser: 0, dataId: CJT188_DI.METER_DATA,
      values: { kind: 'flow', currentFlow: 12.3, currentFlowUnit: CJT188_UNIT.m3, settlementFlow: 10, settlementFlowUnit: CJT188_UNIT.m3, realTime: '2026-12-07 10:00:00', status: { valve: 'closed', batteryLow: true } },
    });
    const q = quickReport('cjt188', cjt);
    expect(q).toEqual({ address: '00000000004321', cents: 1230, registers: { statusST: 5, settlementFlow: '10.00', batteryLow: true, valve: 0 }, valve: 0, batteryLow: true });
    expect(asFacts(q)).toEqual(general('cjt188', cjt));
  });

  it('never takes a frame the codec refuses or reads otherwise: damaged bytes, with and without a fixed checksum', () => {
    fc.assert(
      fc.property(report, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), ({ protocol, bytes }, at, value, fixSum) => {
        const b = Uint8Array.from(bytes);
        b[at % b.length] = value;
        if (fixSum) b[b.length - 2] = checksum(b, 0, b.length - 2);
        const q = quickReport(protocol, b);
        if (q) expect(asFacts(q)).toEqual(general(protocol, b));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads a frame where it lies in a larger buffer as it reads the frame alone', () => {
    fc.assert(
      fc.property(report, fc.uint8Array({ maxLength: 30 }), fc.uint8Array({ maxLength: 30 }), ({ protocol, bytes }, before, after) => {
        const input = Uint8Array.from([...before, ...bytes, ...after]);
        expect(quickReport(protocol, input, before.length, before.length + bytes.length)).toEqual(quickReport(protocol, bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes totals as the general path does', () => {
    for (const c of [0, 1, 9, 10, 99, 100, 101, 12345, 99_999_999]) {
      const s = String(c).padStart(3, '0');
      expect(centsText(c)).toBe(`${s.slice(0, -2)}.${s.slice(-2)}`);
    }
  });
});
