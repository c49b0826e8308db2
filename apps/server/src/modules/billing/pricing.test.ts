import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { EMPTY_STATE, apportion, minimumChargeTopUp, priceConsumption, priceConsumptionDecimal, priceFixed, splitAt, type PeriodState, type PriceVersion } from './pricing.ts';
import { fixed, fmt, roundHalfUp } from './fixed.ts';

const T0 = new Date('2026-01-01T00:00:00+08:00');
const day = (d: number) => new Date(T0.getTime() + d * 86400_000);
const flat = (price: string, from = T0): PriceVersion => ({
  effectiveFrom: from, mode: 'flat', unitPrice: price, tiers: [], tou: { periods: [] }, monthlyFeeFen: 0, minimumChargeFen: 0,
});
const tiered: PriceVersion = {
  ...flat('0'),
  mode: 'tiered',
  tiers: [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }],
};
const tou: PriceVersion = {
  ...flat('0.6'),
  mode: 'tou',
  tou: {
    periods: [
      { name: '尖', price: '1.2', ranges: ['19:00-21:00'] },
      { name: '峰', price: '0.9', ranges: ['08:00-11:00', '17:00-19:00'] },
      { name: '平', price: '0.6', ranges: ['11:00-17:00', '21:00-23:00'] },
      { name: '谷', price: '0.3', ranges: ['23:00-08:00'] },
    ],
  },
};
const use = (quantity: string, from = day(1), to = day(2), touRegs?: Record<string, string>) => ({ from, to, quantity, ...(touRegs && { tou: touRegs }) });

describe('priceConsumption', () => {
  it('flat: quantity × unit price', () => {
    const r = priceConsumption([flat('0.68')], EMPTY_STATE, use('100'));
    expect(r.totalFen).toBe(6800);
    expect(r.lines).toEqual([expect.objectContaining({ item: '单价', quantity: '100', unitPrice: '0.68', amountFen: 6800 })]);
  });

  it('tiered: a reading crossing a tier boundary is split at the threshold', () => {
    const state: PeriodState = { quantity: '150', exact: '79.245', chargedFen: 7925 };
    const r = priceConsumption([tiered], state, use('100'));
    // 50 × 0.5283 = 26.415, 50 × 0.5783 = 28.915; exact cumulative 79.245 + 55.33 = 134.575 → 13458
    expect(r.lines.map((l) => [l.item, l.quantity])).toEqual([['第1阶梯', '50'], ['第2阶梯', '50']]);
    expect(r.totalFen).toBe(13458 - 7925);
    expect(r.lines.reduce((s, l) => s + l.amountFen, 0)).toBe(r.totalFen);
    expect(r.state).toEqual({ quantity: '250', exact: '134.575', chargedFen: 13458 });
  });

  it('tiered: one reading crossing two boundaries', () => {
    const r = priceConsumption([tiered], EMPTY_STATE, use('500'));
    // 200×0.5283 + 200×0.5783 + 100×0.8283 = 105.66 + 115.66 + 82.83 = 304.15
    expect(r.lines.map((l) => l.quantity)).toEqual(['200', '200', '100']);
    expect(r.totalFen).toBe(30415);
  });

  it('a price change inside the interval splits consumption at the change, by time', () => {
    const versions = [flat('0.5'), flat('0.6', day(15))];
    const r = priceConsumption(versions, EMPTY_STATE, use('100', day(10), day(20)));
    expect(r.lines.map((l) => [l.quantity, l.unitPrice])).toEqual([['50', '0.5'], ['50', '0.6']]);
    expect(r.totalFen).toBe(5500);
  });

  it('time-of-use from 尖峰平谷 registers', () => {
    const r = priceConsumption([tou], EMPTY_STATE, use('100', day(1), day(2), { 尖: '10', 峰: '20', 平: '30', 谷: '40' }));
    expect(r.lines.map((l) => [l.item, l.amountFen])).toEqual([['尖', 1200], ['峰', 1800], ['平', 1800], ['谷', 1200]]);
    expect(r.totalFen).toBe(6000);
  });

  it('TOU without registers prices everything at 平', () => {
    expect(priceConsumption([tou], EMPTY_STATE, use('10')).totalFen).toBe(600);
  });

  it('rounds half-up to 分 once, carrying the exact remainder forward', () => {
    const a = priceConsumption([flat('0.5')], EMPTY_STATE, use('0.01')); // 0.005 → 1 fen
    expect(a.totalFen).toBe(1);
    const b = priceConsumption([flat('0.5')], a.state, use('0.01')); // cumulative 0.01 → 1 fen: nothing more
    expect(b.totalFen).toBe(0);
    const c = priceConsumption([flat('0.5')], b.state, use('0.01')); // 0.015 → 2 fen
    expect(c.totalFen).toBe(1);
  });

  it('refuses negative consumption', () => {
    expect(() => priceConsumption([flat('1')], EMPTY_STATE, use('-1'))).toThrow('用量不能为负');
  });
});

describe('properties', () => {
  const qty = fc.integer({ min: 0, max: 50_000 }).map((n) => new Decimal(n).div(100).toFixed());
  const versionArb = fc.constantFrom(flat('0.68'), flat('0.5283'), tiered, flat('4.2'), flat('1.0001'));

  it('lines always sum to the total', () => {
    fc.assert(fc.property(versionArb, qty, qty, (v, before, q) => {
      const first = priceConsumption([v], EMPTY_STATE, use(before));
      const r = priceConsumption([v], first.state, use(q));
      expect(r.lines.reduce((s, l) => s + l.amountFen, 0)).toBe(r.totalFen);
    }));
  });

  it('the charge does not depend on how readings are batched', () => {
    fc.assert(fc.property(versionArb, fc.array(qty, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 11 }), (v, qs, cut) => {
      // all readings one by one
      let s: PeriodState = EMPTY_STATE;
      let oneByOne = 0;
      for (const q of qs) {
        const r = priceConsumption([v], s, use(q));
        oneByOne += r.totalFen;
        s = r.state;
      }
      // the same consumption in two batches
      const k = Math.min(cut, qs.length);
      const sum = (a: string[]) => a.reduce((x, y) => x.plus(y), new Decimal(0)).toFixed();
      const r1 = priceConsumption([v], EMPTY_STATE, use(sum(qs.slice(0, k))));
      const r2 = priceConsumption([v], r1.state, use(sum(qs.slice(k))));
      // and all at once
      const all = priceConsumption([v], EMPTY_STATE, use(sum(qs)));
      expect(r1.totalFen + r2.totalFen).toBe(all.totalFen);
      expect(oneByOne).toBe(all.totalFen);
    }));
  });

  it('TOU batching invariance over registers', () => {
    const regs = fc.record({ 尖: qty, 峰: qty, 平: qty, 谷: qty });
    fc.assert(fc.property(fc.array(regs, { minLength: 1, maxLength: 6 }), (rs) => {
      let s: PeriodState = EMPTY_STATE;
      let total = 0;
      const acc: Record<string, Decimal> = { 尖: new Decimal(0), 峰: new Decimal(0), 平: new Decimal(0), 谷: new Decimal(0) };
      for (const r of rs) {
        const q = Object.values(r).reduce((x, y) => x.plus(y), new Decimal(0)).toFixed();
        const p = priceConsumption([tou], s, use(q, day(1), day(2), r));
        total += p.totalFen;
        s = p.state;
        for (const k of Object.keys(acc)) acc[k] = acc[k].plus(r[k as keyof typeof r]);
      }
      const sumQ = Object.values(acc).reduce((x, y) => x.plus(y), new Decimal(0)).toFixed();
      const once = priceConsumption([tou], EMPTY_STATE, use(sumQ, day(1), day(2), Object.fromEntries(Object.entries(acc).map(([k, v]) => [k, v.toFixed()]))));
      expect(total).toBe(once.totalFen);
    }));
  });
});

describe('splitAt, minimum charge and apportionment', () => {
  it('splits consumption and registers at a period boundary by time', () => {
    const [a, b] = splitAt(use('30', day(0), day(3), { 峰: '9', 谷: '21' }), day(1));
    expect([a.quantity, b.quantity]).toEqual(['10', '20']);
    expect([a.tou!.峰, b.tou!.峰]).toEqual(['3', '6']);
  });
  it('tops up to the minimum charge', () => {
    expect(minimumChargeTopUp({ ...flat('1'), minimumChargeFen: 1000 }, 700)).toBe(300);
    expect(minimumChargeTopUp({ ...flat('1'), minimumChargeFen: 1000 }, 1200)).toBe(0);
  });
  it('apportions exactly by weight with the largest remainder', () => {
    expect(apportion(100, [{ id: 1, weight: '1' }, { id: 2, weight: '1' }, { id: 3, weight: '1' }])).toEqual([
      { id: 1, fen: 34 }, { id: 2, fen: 33 }, { id: 3, fen: 33 },
    ]);
    expect(apportion(1000, [{ id: 1, weight: '50.5' }, { id: 2, weight: '49.5' }]).map((x) => x.fen)).toEqual([505, 495]);
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 30 }), (total, ws) => {
      const r = apportion(total, ws.map((w, i) => ({ id: i + 1, weight: String(w) })));
      expect(r.reduce((s, x) => s + x.fen, 0)).toBe(total);
      expect(r.every((x) => x.fen >= 0)).toBe(true);
    }));
  });
});

describe('fixed point (the fast path) against decimal.js', () => {
  /** a plain decimal string with at most `dp` decimals, sometimes padded with zeros as PostgreSQL writes numerics */
  const decimalArb = (maxInt: number, dp: number) =>
    fc.tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 10 ** dp - 1 }), fc.integer({ min: 0, max: dp }), fc.boolean()).map(([i, f, keep, pad]) => {
      const frac = String(f).padStart(dp, '0').slice(0, keep);
      const s = frac ? `${i}.${frac}` : String(i);
      return pad ? new Decimal(s).toFixed(dp) : new Decimal(s).toFixed();
    });
  const price = decimalArb(20, 4);
  const flatArb = price.map((p) => flat(p));
  const tieredArb = fc.tuple(fc.array(fc.tuple(decimalArb(300, 4), price), { minLength: 1, maxLength: 3 }), price).map(([ts, last]) => {
    const ups = [...new Set(ts.map(([u]) => new Decimal(u).toFixed()))].sort((a, b) => new Decimal(a).comparedTo(b)).filter((u) => u !== '0');
    return { ...flat('0'), mode: 'tiered' as const, tiers: [...ups.map((u, i) => ({ upTo: u, price: ts[i]?.[1] ?? last })), { upTo: null, price: last }] };
  });
  const touArb = fc.tuple(price, price, price, price, fc.boolean()).map(([a, b, c, d, withFlat]) => ({
    ...flat('0.6'),
    mode: 'tou' as const,
    tou: { periods: [{ name: '尖', price: a, ranges: [] }, { name: '峰', price: b, ranges: [] }, ...(withFlat ? [{ name: '平', price: c, ranges: [] }] : []), { name: '谷', price: d, ranges: [] }] },
  }));
  const versionArb = fc.oneof(flatArb, tieredArb, touArb, fc.constant({ ...flat('0.68'), mode: 'tiered' as const }));
  const stateArb = fc.tuple(decimalArb(100_000, 4), decimalArb(100_000, 10), fc.integer({ min: 0, max: 10_000_000 })).map(([quantity, exact, chargedFen]) => ({ quantity, exact, chargedFen }));
  const touRegs = fc.option(fc.record({ 尖: decimalArb(500, 6), 峰: decimalArb(500, 6), 平: decimalArb(500, 6), 谷: decimalArb(500, 6) }, { requiredKeys: [] }), { nil: undefined });

  it('parses and writes decimals as decimal.js does', () => {
    fc.assert(fc.property(decimalArb(1_000_000, 8), (s) => {
      const n = fixed(s, 8);
      expect(n).toBeDefined();
      expect(fmt(n!, 8)).toBe(new Decimal(s).toFixed());
      expect(roundHalfUp(n!, 6)).toBe(new Decimal(s).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).mul(100).toNumber());
    }), { numRuns: 2000 });
    expect(fixed('0.12345', 4)).toBeUndefined();
    expect(fixed('0.12340', 4)).toBe(1234);
    expect(fixed('-1', 4)).toBeUndefined();
    expect(fixed('1e3', 4)).toBeUndefined();
    expect(fixed('99999999999999999', 0)).toBeUndefined();
    expect(fmt(0, 4)).toBe('0');
    expect(fmt(5, 4)).toBe('0.0005');
    expect(fmt(120000, 4)).toBe('12');
  });

  it('prices exactly as decimal.js: lines, total and period state', () => {
    fc.assert(fc.property(versionArb, stateArb, decimalArb(5_000, 6), touRegs, (v, state, quantity, tou) => {
      const c = { ...use(quantity), ...(tou && { tou }) };
      const fast = priceFixed([v], state, c);
      expect(fast).toBeDefined();
      expect(fast).toEqual(priceConsumptionDecimal([v], state, c));
      expect(priceConsumption([v], state, c)).toEqual(fast);
    }), { numRuns: 3000 });
  });

  it('leaves to decimal.js what does not fit: a price change inside the piece, many decimals, huge amounts', () => {
    const v2 = [flat('0.5', T0), flat('0.7', day(1.5))];
    expect(priceFixed(v2, EMPTY_STATE, use('10'))).toBeUndefined();
    expect(priceConsumption(v2, EMPTY_STATE, use('10'))).toEqual(priceConsumptionDecimal(v2, EMPTY_STATE, use('10')));
    const thin = use('1.1234567');
    expect(priceFixed([flat('0.68')], EMPTY_STATE, thin)).toBeUndefined();
    expect(priceConsumption([flat('0.68')], EMPTY_STATE, thin)).toEqual(priceConsumptionDecimal([flat('0.68')], EMPTY_STATE, thin));
    const huge = use('900000000');
    expect(priceFixed([flat('9999.9999')], EMPTY_STATE, huge)).toBeUndefined();
    expect(priceConsumption([flat('9999.9999')], EMPTY_STATE, huge)).toEqual(priceConsumptionDecimal([flat('9999.9999')], EMPTY_STATE, huge));
    expect(priceConsumption([flat('9999.9999')], EMPTY_STATE, huge).totalFen).toBe(899999991000000);
    // a register delta that is not a number fails as with decimal.js, even for a period the price lacks
    expect(() => priceConsumption([tou], EMPTY_STATE, use('1', day(1), day(2), { 峰: '1', 其他: 'x' }))).toThrow();
    expect(priceConsumption([tou], EMPTY_STATE, use('3', day(1), day(2), { 峰: '1', 其他: '5' }))).toEqual(priceConsumptionDecimal([tou], EMPTY_STATE, use('3', day(1), day(2), { 峰: '1', 其他: '5' })));
  });
});
