import { Decimal as D0 } from 'decimal.js';
import { fixed, fmt, plus, roundHalfUp, times } from './fixed.ts';

// The pricing engine (issue 5): pure functions, no I/O, never a float.
//
// Batching invariance: within an accumulation period (month or year) we keep the EXACT cumulative
// amount (unrounded) and the fen already charged. A new piece of consumption extends the exact
// amount; its charge is round(exactAfter) − chargedBefore. However readings are batched, the fen
// charged in a period add up to round(exact amount of the period's consumption): nothing is lost
// or gained to rounding. Each line is a difference of rounded cumulative values, so lines sum to the
// charge and every amount is rounded half-up to 分 exactly once, where it is posted.

const D = D0.clone({ precision: 50, rounding: D0.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;

export interface TouPeriod {
  /** 尖 | 峰 | 平 | 谷 */
  name: string;
  /** 元 per unit, ≤ 4 decimals */
  price: string;
  /** 'HH:mm-HH:mm' local ranges (may wrap midnight) */
  ranges: string[];
}

export interface PriceVersion {
  effectiveFrom: Date;
  mode: 'flat' | 'tiered' | 'tou';
  unitPrice: string;
  /** ascending thresholds of cumulative consumption in the period; the last one open (null) */
  tiers: { upTo: string | null; price: string }[];
  tou: { periods: TouPeriod[] };
  monthlyFeeFen: number;
  minimumChargeFen: number;
}

/** Consumption over [from, to): the total, and per TOU period when the meter has registers. */
export interface Consumption {
  from: Date;
  to: Date;
  quantity: string;
  /** register deltas by period name (尖峰平谷), for TOU pricing */
  tou?: Record<string, string>;
}

/** What a meter has consumed and been charged so far in the current accumulation period. */
export interface PeriodState {
  quantity: string;
  /** exact (unrounded) amount in 元 */
  exact: string;
  chargedFen: number;
}

export const EMPTY_STATE: PeriodState = { quantity: '0', exact: '0', chargedFen: 0 };

export interface Line {
  /** e.g. 第1阶梯, 峰, 单价 */
  item: string;
  quantity: string;
  unitPrice: string;
  /** the version the price came from */
  effectiveFrom: Date;
  amountFen: number;
}

export interface Priced {
  lines: Line[];
  totalFen: number;
  state: PeriodState;
}

/** Prices and thresholds are a handful of strings: each is parsed once (a Decimal is immutable). */
const parsed = new Map<string, Dec>();
const dec = (s: string): Dec => {
  let d = parsed.get(s);
  if (!d) {
    d = new D(s);
    if (parsed.size < 10_000) parsed.set(s, d);
  }
  return d;
};

const ZERO = new D(0);
const HUNDRED = new D(100);
/** x > 0 and x ≤ 0 without building a Decimal for the 0 (as gt(0) and lte(0) do) */
const positive = (x: Dec) => !x.isZero() && x.isPositive();
const notPositive = (x: Dec) => !positive(x);

const toFen = (yuan: Dec) => yuan.mul(HUNDRED).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();

/** The versions in force over [from, to), each with its share of the interval. */
export function versionsOver(versions: PriceVersion[], from: Date, to: Date): { v: PriceVersion; from: Date; to: Date }[] {
  if (versions.length === 1) return [{ v: versions[0], from, to }]; // the common case: one price
  const sorted = [...versions].sort((a, b) => a.effectiveFrom.getTime() - b.effectiveFrom.getTime());
  if (!sorted.length) throw new Error('收费方案没有价格版本');
  const out: { v: PriceVersion; from: Date; to: Date }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = i === 0 ? new Date(-8.64e15) : sorted[i].effectiveFrom;
    const end = i + 1 < sorted.length ? sorted[i + 1].effectiveFrom : new Date(8.64e15);
    const a = Math.max(start.getTime(), from.getTime());
    const b = Math.min(end.getTime(), to.getTime());
    if (b > a || (from.getTime() === to.getTime() && a === from.getTime() && from.getTime() < end.getTime())) {
      out.push({ v: sorted[i], from: new Date(a), to: new Date(Math.max(a, b)) });
    }
  }
  if (!out.length) out.push({ v: sorted[0], from, to }); // before the first version: its price applies
  return out;
}

/**
 * Splits a quantity over sub-intervals in proportion to their length; the last piece takes the
 * remainder so the pieces sum exactly. Quantities keep full precision (no rounding here).
 */
export function splitByTime(quantity: string, pieces: { from: Date; to: Date }[]): Dec[] {
  const q = new D(quantity);
  const total = pieces.reduce((s, p) => s + (p.to.getTime() - p.from.getTime()), 0);
  if (pieces.length === 1 || total === 0) return pieces.map((_, i) => (i === 0 ? q : ZERO));
  const out: Dec[] = [];
  let used = ZERO;
  pieces.forEach((p, i) => {
    if (i === pieces.length - 1) out.push(q.minus(used));
    else {
      const part = q.mul(p.to.getTime() - p.from.getTime()).div(total);
      out.push(part);
      used = used.plus(part);
    }
  });
  return out;
}

interface RawLine {
  item: string;
  quantity: Dec;
  unitPrice: string;
  effectiveFrom: Date;
  exact: Dec;
}

function tierLines(v: PriceVersion, cumBefore: Dec, q: Dec): RawLine[] {
  const lines: RawLine[] = [];
  let cum = cumBefore;
  let left = q;
  let lower = ZERO;
  for (let i = 0; i < v.tiers.length && positive(left); i++) {
    const t = v.tiers[i];
    const upper = t.upTo == null ? null : dec(t.upTo);
    if (upper && cum.gte(upper)) {
      lower = upper;
      continue;
    }
    const room = upper ? upper.minus(D.max(cum, lower)) : left; // cum ≥ lower: the tiers below are full
    const take = D.min(room, left);
    if (positive(take)) {
      lines.push({ item: `第${i + 1}阶梯`, quantity: take, unitPrice: t.price, effectiveFrom: v.effectiveFrom, exact: take.mul(dec(t.price)) });
      cum = cum.plus(take);
      left = left.minus(take);
    }
    if (upper) lower = upper;
  }
  if (positive(left)) {
    // thresholds exhausted (validation keeps the last tier open): price the rest at the last tier
    const last = v.tiers[v.tiers.length - 1];
    lines.push({ item: `第${v.tiers.length}阶梯`, quantity: left, unitPrice: last.price, effectiveFrom: v.effectiveFrom, exact: left.mul(dec(last.price)) });
  }
  return lines;
}

function touLines(v: PriceVersion, q: Dec, tou: Record<string, Dec> | undefined): RawLine[] {
  const periods = v.tou.periods;
  const flat = periods.find((p) => p.name === '平') ?? periods[0];
  if (!tou) {
    // no registers: everything at the 平 price
    return [{ item: flat?.name ?? '平', quantity: q, unitPrice: flat?.price ?? v.unitPrice, effectiveFrom: v.effectiveFrom, exact: q.mul(dec(flat?.price ?? v.unitPrice)) }];
  }
  const lines: RawLine[] = [];
  let covered = ZERO;
  for (const p of periods) {
    const pq = tou[p.name];
    if (!pq || notPositive(pq)) continue;
    lines.push({ item: p.name, quantity: pq, unitPrice: p.price, effectiveFrom: v.effectiveFrom, exact: pq.mul(dec(p.price)) });
    covered = covered.plus(pq);
  }
  const rest = q.minus(covered);
  if (positive(rest)) {
    lines.push({ item: flat?.name ?? '平', quantity: rest, unitPrice: flat?.price ?? v.unitPrice, effectiveFrom: v.effectiveFrom, exact: rest.mul(dec(flat?.price ?? v.unitPrice)) });
  }
  return lines;
}

/**
 * Prices one piece of consumption within one accumulation period. The caller splits consumption
 * that crosses a period boundary (see splitAt) and passes each period's state. The common case (one
 * price version, quantities to 6 decimals, prices to 4, amounts within safe integers) is computed in
 * fixed point (priceFixed); anything else with decimal.js — the results are the same.
 */
export function priceConsumption(versions: PriceVersion[], state: PeriodState, c: Consumption): Priced {
  return priceFixed(versions, state, c) ?? priceConsumptionDecimal(versions, state, c);
}

// fixed point: quantities in 10^-6, prices in 10^-4, exact amounts in 10^-10 元 (numeric(24,10))
const QS = 6;
const PS = 4;
const ES = QS + PS;

interface FixedLine {
  item: string;
  quantity: number;
  unitPrice: string;
  price: number;
}

/**
 * priceConsumptionDecimal in plain integers, line for line the same computation, for one price
 * version; undefined when a value does not fit (more decimals, beyond a safe integer, a second
 * version over the piece), and the caller prices it with decimal.js.
 */
export function priceFixed(versions: PriceVersion[], state: PeriodState, c: Consumption): Priced | undefined {
  if (versions.length !== 1) return undefined;
  const v = versions[0];
  const q = fixed(c.quantity, QS);
  const quantityBefore = fixed(state.quantity, QS);
  const exactBefore = fixed(state.exact, ES);
  if (q === undefined || quantityBefore === undefined || exactBefore === undefined) return undefined;
  // every register delta parses (decimal.js parses them all, also those of periods the price lacks)
  let tou: Map<string, number> | undefined;
  if (c.tou) {
    tou = new Map();
    for (const [k, v] of Object.entries(c.tou)) {
      const x = fixed(v, QS);
      if (x === undefined) return undefined;
      tou.set(k, x);
    }
  }
  const raw: FixedLine[] = [];
  const line = (item: string, quantity: number, unitPrice: string) => {
    const price = fixed(unitPrice, PS);
    if (price === undefined) return false;
    raw.push({ item, quantity, unitPrice, price });
    return true;
  };
  if (q > 0 || c.tou) {
    if (v.mode === 'tiered' && v.tiers.length) {
      let cum = quantityBefore;
      let left = q;
      let lower = 0;
      for (let i = 0; i < v.tiers.length && left > 0; i++) {
        const t = v.tiers[i];
        const upper = t.upTo == null ? null : fixed(t.upTo, QS);
        if (upper === undefined) return undefined;
        if (upper !== null && cum >= upper) {
          lower = upper;
          continue;
        }
        const room = upper !== null ? upper - Math.max(cum, lower) : left;
        const take = Math.min(room, left);
        if (take > 0) {
          if (!line(`第${i + 1}阶梯`, take, t.price)) return undefined;
          cum += take;
          left -= take;
        }
        if (upper !== null) lower = upper;
      }
      if (left > 0) {
        const last = v.tiers[v.tiers.length - 1];
        if (!line(`第${v.tiers.length}阶梯`, left, last.price)) return undefined;
      }
    } else if (v.mode === 'tou') {
      const periods = v.tou.periods;
      const flat = periods.find((p) => p.name === '平') ?? periods[0];
      if (!tou) {
        if (!line(flat?.name ?? '平', q, flat?.price ?? v.unitPrice)) return undefined;
      } else {
        let covered = 0;
        for (const p of periods) {
          const pq = tou.get(p.name);
          if (pq === undefined || pq <= 0) continue;
          if (!line(p.name, pq, p.price)) return undefined;
          covered += pq;
        }
        const rest = q - covered;
        if (rest > 0 && !line(flat?.name ?? '平', rest, flat?.price ?? v.unitPrice)) return undefined;
      }
    } else if (q > 0) {
      if (!line('单价', q, v.unitPrice)) return undefined;
    }
  }
  let exact: number | undefined = exactBefore;
  let charged = state.chargedFen;
  const lines: Line[] = [];
  for (const l of raw) {
    const add = times(l.quantity, l.price);
    exact = add === undefined ? undefined : plus(exact, add);
    if (exact === undefined) return undefined;
    const fen = roundHalfUp(exact, ES - 2) - charged;
    charged += fen;
    lines.push({ item: l.item, quantity: fmt(l.quantity, QS), unitPrice: l.unitPrice, effectiveFrom: v.effectiveFrom, amountFen: fen });
  }
  const quantityAfter = plus(quantityBefore, q);
  if (quantityAfter === undefined) return undefined;
  return { lines, totalFen: charged - state.chargedFen, state: { quantity: fmt(quantityAfter, QS), exact: fmt(exact, ES), chargedFen: charged } };
}

/** priceConsumption with decimal.js: any number of versions, any precision. */
export function priceConsumptionDecimal(versions: PriceVersion[], state: PeriodState, c: Consumption): Priced {
  const q = new D(c.quantity);
  if (q.isNeg()) throw new Error('用量不能为负');
  const spans = versionsOver(versions, c.from, c.to);
  // one version over the whole piece (the common case): nothing to split
  const qs = spans.length === 1 ? [q] : splitByTime(c.quantity, spans);
  const touShares: Record<string, Dec[]> = {};
  if (c.tou) for (const [k, v] of Object.entries(c.tou)) touShares[k] = spans.length === 1 ? [new D(v)] : splitByTime(v, spans);

  const raw: RawLine[] = [];
  const quantityBefore = new D(state.quantity);
  let cum = quantityBefore;
  spans.forEach((s, i) => {
    const part = qs[i];
    if (notPositive(part) && !c.tou) return;
    const v = s.v;
    if (v.mode === 'tiered' && v.tiers.length) raw.push(...tierLines(v, cum, part));
    else if (v.mode === 'tou') {
      const tou = c.tou ? Object.fromEntries(Object.entries(touShares).map(([k, arr]) => [k, arr[i]])) : undefined;
      raw.push(...touLines(v, part, tou));
    } else if (positive(part)) {
      raw.push({ item: '单价', quantity: part, unitPrice: v.unitPrice, effectiveFrom: v.effectiveFrom, exact: part.mul(dec(v.unitPrice)) });
    }
    cum = cum.plus(part);
  });

  // each line = round(exact so far) − round(exact before it): lines sum to the charge
  let exact = new D(state.exact);
  let charged = state.chargedFen;
  const lines: Line[] = raw.map((l) => {
    exact = exact.plus(l.exact);
    const fen = toFen(exact) - charged;
    charged += fen;
    return { item: l.item, quantity: l.quantity.toFixed(), unitPrice: l.unitPrice, effectiveFrom: l.effectiveFrom, amountFen: fen };
  });
  return {
    lines,
    totalFen: charged - state.chargedFen,
    state: { quantity: quantityBefore.plus(q).toFixed(), exact: exact.toFixed(), chargedFen: charged },
  };
}

/** Splits consumption at a moment (a period boundary), in proportion to time, registers too. */
export function splitAt(c: Consumption, at: Date): [Consumption, Consumption] {
  const pieces = [{ from: c.from, to: at }, { from: at, to: c.to }];
  const [q1, q2] = splitByTime(c.quantity, pieces);
  const tou1: Record<string, string> = {};
  const tou2: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.tou ?? {})) {
    const [a, b] = splitByTime(v, pieces);
    tou1[k] = a.toFixed();
    tou2[k] = b.toFixed();
  }
  return [
    { from: c.from, to: at, quantity: q1.toFixed(), ...(c.tou && { tou: tou1 }) },
    { from: at, to: c.to, quantity: q2.toFixed(), ...(c.tou && { tou: tou2 }) },
  ];
}

/** The minimum-charge top-up for a closed period: what is missing up to the minimum, else 0. */
export function minimumChargeTopUp(v: Pick<PriceVersion, 'minimumChargeFen'>, chargedFen: number): number {
  return Math.max(0, v.minimumChargeFen - chargedFen);
}

/**
 * 公摊: apportions an amount in 分 over rooms by weight (area in m², or 1 each for equal shares),
 * by the largest-remainder method, so the shares sum to the amount exactly.
 */
export function apportion(totalFen: number, weights: { id: number; weight: string }[]): { id: number; fen: number }[] {
  if (!weights.length) return [];
  const ws = weights.map((w) => ({ id: w.id, w: new D(w.weight) }));
  const sum = ws.reduce((s, x) => s.plus(x.w), new D(0));
  if (sum.lte(0)) return apportion(totalFen, weights.map((w) => ({ id: w.id, weight: '1' })));
  const exact = ws.map((x) => ({ id: x.id, e: new D(totalFen).mul(x.w).div(sum) }));
  const floors = exact.map((x) => ({ id: x.id, fen: x.e.floor().toNumber(), rem: x.e.minus(x.e.floor()) }));
  let left = totalFen - floors.reduce((s, x) => s + x.fen, 0);
  const order = [...floors].sort((a, b) => b.rem.comparedTo(a.rem) || a.id - b.id);
  for (const x of order) {
    if (left <= 0) break;
    x.fen += 1;
    left -= 1;
  }
  return floors.map((x) => ({ id: x.id, fen: x.fen }));
}
