import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY_STATE, type PeriodState, type PriceVersion } from './pricing.ts';
import { monthKey, monthRange, nextBoundary, periodKey, periodKeysBetween, previousMonth, rangeOf } from './period.ts';
import { Decimal } from 'decimal.js';
import { deltaTimes, deltaTimesDecimal, settleMeter, splitByPeriod, touRegisters, type Cursor, type NewReading } from './settle.ts';

// The pure part of settlement: periods in China time, and one meter's readings priced against its
// period states.

const at = (s: string) => new Date(`${s}+08:00`);
const flat = (price: string): PriceVersion => ({
  effectiveFrom: at('2020-01-01T00:00:00'), mode: 'flat', unitPrice: price, tiers: [], tou: { periods: [] }, monthlyFeeFen: 0, minimumChargeFen: 0,
});
const tiered: PriceVersion = { ...flat('0'), mode: 'tiered', tiers: [{ upTo: '100', price: '0.5' }, { upTo: null, price: '1' }] };
const reading = (s: string, total: string, registers: Record<string, unknown> = {}): NewReading => ({ at: at(s).toISOString(), readAt: at(s), total, registers });
const start: Cursor = { at: null, readAt: null, total: '0', registers: {} };

describe('periods (Asia/Shanghai)', () => {
  it('keys and boundaries follow China time', () => {
    expect(periodKey(new Date('2025-12-31T16:30:00Z'), 1)).toBe('2026-01'); // 00:30 on 1 Jan in China
    expect(periodKey(new Date('2025-12-31T16:30:00Z'), 2)).toBe('2026');
    expect(periodKey(new Date('2025-12-31T15:30:00Z'), null)).toBe('2025-12');
    expect(nextBoundary(at('2025-02-10T12:00:00'), 1)).toEqual(at('2025-03-01T00:00:00'));
    expect(nextBoundary(at('2025-02-10T12:00:00'), 2)).toEqual(at('2026-01-01T00:00:00'));
    expect(periodKeysBetween(at('2025-11-20T00:00:00'), at('2026-01-02T00:00:00'), 1)).toEqual(['2025-11', '2025-12', '2026-01']);
    expect(monthRange('2025-02')).toEqual({ start: at('2025-02-01T00:00:00'), end: at('2025-03-01T00:00:00') });
    expect(previousMonth('2025-01')).toBe('2024-12');
  });
  it('a date-only end of a search range covers the whole day', () => {
    expect(rangeOf('2025-03-01', '2025-03-02')).toEqual({ from: at('2025-03-01T00:00:00'), to: at('2025-03-03T00:00:00') });
    expect(rangeOf(undefined, '2025-03-02 12:00:00').to).toEqual(at('2025-03-02T12:00:00'));
  });
  it('splits consumption at every month boundary, the pieces summing exactly', () => {
    const pieces = splitByPeriod({ from: at('2025-01-31T00:00:00'), to: at('2025-03-01T12:00:00'), quantity: '100' }, 1);
    expect(pieces.map((p) => monthKey(p.from))).toEqual(['2025-01', '2025-02', '2025-03']);
    expect(pieces.reduce((s, p) => s + Number(p.quantity), 0)).toBeCloseTo(100, 9);
  });
});

describe('settleMeter', () => {
  it('prices each reading from the cursor, × multiplier, and moves the cursor', () => {
    const r = settleMeter({ id: 1, kind: 1, multiplier: '2', monthType: 1, versions: [flat('0.68')] }, { ...start, total: '100' }, [
      reading('2025-03-01T10:00:00', '110'),
      reading('2025-03-01T11:00:00', '110.5'),
    ], new Map());
    expect(r.settled.map((s) => [s.quantity, s.amountFen, s.prevTotal])).toEqual([['20', 1360, '100'], ['1', 68, '110']]);
    expect(r.cursor).toMatchObject({ total: '110.5', readAt: at('2025-03-01T11:00:00') });
    expect(r.states.get('2025-03')).toEqual({ quantity: '21', exact: '14.28', chargedFen: 1428 });
  });

  it('tiers restart in a new month; the crossing reading is split by time', () => {
    const states = new Map<string, PeriodState>([['2025-01', { quantity: '90', exact: '45', chargedFen: 4500 }]]);
    const cursor: Cursor = { at: at('2025-01-31T00:00:00').toISOString(), readAt: at('2025-01-31T00:00:00'), total: '90', registers: {} };
    // 40 over two days: 20 in January (10 at 0.5, 10 at 1), 20 in February (all at 0.5)
    const r = settleMeter({ id: 1, kind: 1, multiplier: '1', monthType: 1, versions: [tiered] }, cursor, [reading('2025-02-02T00:00:00', '130')], states);
    expect(r.settled[0].lines.map((l) => [l.period, l.item, l.quantity])).toEqual([
      ['2025-01', '第1阶梯', '10'], ['2025-01', '第2阶梯', '10'], ['2025-02', '第1阶梯', '20'],
    ]);
    expect(r.settled[0].amountFen).toBe(500 + 1000 + 1000);
    expect(r.settled[0].periodKey).toBe('2025-02');
  });

  it('TOU registers priced by their deltas', () => {
    const tou: PriceVersion = {
      ...flat('0.6'), mode: 'tou',
      tou: { periods: [{ name: '峰', price: '1', ranges: ['08:00-20:00'] }, { name: '谷', price: '0.5', ranges: ['20:00-08:00'] }] },
    };
    const cursor: Cursor = { at: at('2025-03-01T00:00:00').toISOString(), readAt: at('2025-03-01T00:00:00'), total: '10', registers: { 峰: '4', 谷: '6' } };
    expect(touRegisters({ peak: 7, valley: '10', voltage: 220 })).toEqual({ 峰: '7', 谷: '10' });
    const r = settleMeter({ id: 1, kind: 1, multiplier: '1', monthType: null, versions: [tou] }, cursor, [reading('2025-03-02T00:00:00', '17', { peak: 7, valley: 10 })], new Map());
    expect(r.settled[0].amountFen).toBe(300 + 200);
  });

  it('batching does not change what is charged (fast-check)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 19 }), (steps, cut) => {
      let total = 0;
      const rs = steps.map((s, i) => {
        total += s;
        return reading(`2025-03-0${1 + Math.floor(i / 10)}T${String(i % 10 + 10)}:00:00`, (total / 100).toFixed(2));
      });
      const terms = { id: 1, kind: 1, multiplier: '1', monthType: 1, versions: [tiered] };
      const once = settleMeter(terms, start, rs, new Map());
      const k = Math.min(cut, rs.length);
      const a = settleMeter(terms, start, rs.slice(0, k), new Map());
      const b = settleMeter(terms, a.cursor, rs.slice(k), a.states);
      const sum = (x: { settled: { amountFen: number }[] }) => x.settled.reduce((s, y) => s + y.amountFen, 0);
      expect(sum(a) + sum(b)).toBe(sum(once));
      expect(sum(once)).toBe(once.states.get('2025-03')?.chargedFen ?? 0);
    }));
  });

  it('a replaced meter (a good lower reading) charges nothing and counts on from the new register', () => {
    const r = settleMeter({ id: 1, kind: 1, multiplier: '1', monthType: 1, versions: [flat('1')] }, { ...start, total: '500' }, [
      reading('2025-03-01T10:00:00', '3'),
      reading('2025-03-01T11:00:00', '5'),
    ], new Map([['2025-03', EMPTY_STATE]]));
    expect(r.settled.map((s) => [s.note, s.amountFen])).toEqual([['backwards', 0], ['', 200]]);
  });
});

describe('register deltas in fixed point', () => {
  const reg = (dp: number) =>
    fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10 ** dp - 1 }), fc.boolean()).map(([i, f, pad]) => {
      const d = new Decimal(i).plus(new Decimal(f).div(10 ** dp));
      return pad ? d.toFixed(dp) : d.toFixed();
    });
  it('(cur − prev) × multiplier exactly as decimal.js, null when the register went back', () => {
    fc.assert(fc.property(reg(4), reg(4), reg(2), (a, b, m) => {
      expect(deltaTimes(a, b, m)).toBe(deltaTimesDecimal(a, b, m));
    }), { numRuns: 3000 });
    // more decimals than the columns hold: decimal.js
    expect(deltaTimes('1.000001', '2', '1.5')).toBe(deltaTimesDecimal('1.000001', '2', '1.5'));
    expect(deltaTimes('2', '1', '1')).toBeNull();
  });
});
