import { Decimal } from 'decimal.js';
import { EMPTY_STATE, priceConsumption, splitAt, type Consumption, type PeriodState, type PriceVersion } from './pricing.ts';
import { nextBoundary, periodKey, periodKeysBetween } from './period.ts';
import { fixed, fmt, times } from './fixed.ts';

// The settlement of one meter's new readings, as a pure function (issue 5): each good reading after
// the cursor becomes one settlement — (total − previous total) × multiplier, split at accumulation
// period boundaries, priced against each period's running state. The caller loads the cursor, the
// readings and the period states, and writes back what this returns, in one transaction.

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export interface MeterTerms {
  id: number;
  /** 1 电, 2 水 */
  kind: number;
  /** CT/PT multiplier (倍率) */
  multiplier: string;
  /** 1 / null monthly accumulation, 2 yearly */
  monthType: number | null;
  versions: PriceVersion[];
}

export interface Cursor {
  /** the reading's instant exactly as stored (ISO, microseconds); null before the first settled reading */
  at: string | null;
  /** null before the first settled reading (the meter's initial reading is the start) */
  readAt: Date | null;
  total: string;
  registers: Record<string, string>;
}

export interface NewReading {
  /** exactly as stored (ISO, microseconds): the settlement row and the journal key use it */
  at: string;
  readAt: Date;
  total: string;
  registers: Record<string, unknown>;
}

export interface SettleLine {
  /** the accumulation period the line was priced in */
  period: string;
  item: string;
  quantity: string;
  unitPrice: string;
  amountFen: number;
}

export interface Settled {
  at: string;
  prevAt: string | null;
  readAt: Date;
  prevReadAt: Date | null;
  prevTotal: string;
  total: string;
  quantity: string;
  amountFen: number;
  lines: SettleLine[];
  periodKey: string;
  /** '' priced; 'backwards' the register went back (nothing charged) */
  note: '' | 'backwards';
}

/** 尖峰平谷 registers as meters and the gateway name them. */
const TOU_NAMES: Record<string, string> = { sharp: '尖', peak: '峰', flat: '平', valley: '谷', 尖: '尖', 峰: '峰', 平: '平', 谷: '谷' };

/** The 尖峰平谷 registers of a reading, by Chinese period name, as plain decimal strings. */
export function touRegisters(registers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(registers ?? {})) {
    const name = TOU_NAMES[k];
    if (!name) continue;
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
    if (/^\d+(\.\d+)?$/.test(s)) out[name] = s;
  }
  return out;
}

/**
 * (cur − prev) × multiplier as a plain decimal string, or null when cur < prev. In fixed point when
 * the readings have at most 4 decimals and the multiplier 2 (numeric(14,2) and numeric(10,2)),
 * else with decimal.js: the same result either way.
 */
export function deltaTimes(prev: string, cur: string, multiplier: string): string | null {
  const a = fixed(prev, 4);
  const b = fixed(cur, 4);
  const m = fixed(multiplier, 2);
  if (a !== undefined && b !== undefined && m !== undefined) {
    if (b < a) return null;
    const q = times(b - a, m);
    if (q !== undefined) return fmt(q, 6);
  }
  return deltaTimesDecimal(prev, cur, multiplier);
}

/** deltaTimes with decimal.js. */
export function deltaTimesDecimal(prev: string, cur: string, multiplier: string): string | null {
  const d = new D(cur).minus(prev);
  return d.isNeg() ? null : d.mul(multiplier).toFixed();
}

/** The register deltas since the cursor, × multiplier; undefined when either side lacks them or one went back. */
function touDeltas(prev: Record<string, string>, cur: Record<string, string>, multiplier: string): Record<string, string> | undefined {
  const keys = Object.keys(cur);
  if (!keys.length || keys.some((k) => prev[k] === undefined)) return undefined;
  const out: Record<string, string> = {};
  for (const k of keys) {
    const d = deltaTimes(prev[k], cur[k], multiplier);
    if (d === null) return undefined;
    out[k] = d;
  }
  return out;
}

/** The pieces of a consumption interval, split where a new accumulation period begins. */
export function splitByPeriod(c: Consumption, monthType: number | null): Consumption[] {
  const pieces: Consumption[] = [];
  let cur = c;
  for (let b = nextBoundary(cur.from, monthType); b.getTime() < cur.to.getTime(); b = nextBoundary(b, monthType)) {
    const [a, rest] = splitAt(cur, b);
    pieces.push(a);
    cur = rest;
  }
  pieces.push(cur);
  return pieces;
}

/** The period keys the settlement of these readings will read and write. */
export function periodsTouched(m: Pick<MeterTerms, 'monthType'>, cursor: Cursor, readings: NewReading[]): string[] {
  if (!readings.length) return [];
  const from = cursor.readAt ?? readings[0].readAt;
  return periodKeysBetween(from, readings[readings.length - 1].readAt, m.monthType);
}

/**
 * Settles readings (ascending by time, all after the cursor) of one meter. `states` holds the period
 * states the readings touch (missing = empty); the returned map has every state that changed.
 */
export function settleMeter(
  m: MeterTerms,
  cursor: Cursor,
  readings: NewReading[],
  states: Map<string, PeriodState>,
): { settled: Settled[]; cursor: Cursor; states: Map<string, PeriodState> } {
  const multiplier = m.multiplier;
  // register deltas matter only to a time-of-use price (a flat or tiered price never reads them)
  const usesTou = m.versions.some((v) => v.mode === 'tou');
  const changed = new Map<string, PeriodState>();
  const settled: Settled[] = [];
  let cur = cursor;
  let curTotal = cursor.total;
  for (const r of readings) {
    const regs = touRegisters(r.registers);
    const key = periodKey(r.readAt, m.monthType);
    const quantity = deltaTimes(curTotal, r.total, multiplier);
    curTotal = r.total;
    if (quantity === null) {
      // a good reading lower than the last one is a replaced meter (换表: the ingest marks a faulty
      // one as an exception and it never comes here): the drop is charged nothing, and the following
      // readings count from the new register
      settled.push({ at: r.at, prevAt: cur.at, readAt: r.readAt, prevReadAt: cur.readAt, prevTotal: cur.total, total: r.total, quantity: '0', amountFen: 0, lines: [], periodKey: key, note: 'backwards' });
      cur = { at: r.at, readAt: r.readAt, total: r.total, registers: regs };
      continue;
    }
    const tou = cur.readAt && usesTou ? touDeltas(cur.registers, regs, multiplier) : undefined;
    const c: Consumption = { from: cur.readAt ?? r.readAt, to: r.readAt, quantity, ...(tou && { tou }) };
    const lines: SettleLine[] = [];
    let amountFen = 0;
    for (const piece of splitByPeriod(c, m.monthType)) {
      const pk = periodKey(piece.from, m.monthType);
      const before = changed.get(pk) ?? states.get(pk) ?? EMPTY_STATE;
      const priced = priceConsumption(m.versions, before, piece);
      changed.set(pk, priced.state);
      amountFen += priced.totalFen;
      for (const l of priced.lines) lines.push({ period: pk, item: l.item, quantity: l.quantity, unitPrice: l.unitPrice, amountFen: l.amountFen });
    }
    settled.push({
      at: r.at,
      prevAt: cur.at,
      readAt: r.readAt,
      prevReadAt: cur.readAt,
      prevTotal: cur.total,
      total: r.total,
      quantity,
      amountFen,
      lines,
      periodKey: key,
      note: '',
    });
    cur = { at: r.at, readAt: r.readAt, total: r.total, registers: regs };
  }
  return { settled, cursor: cur, states: changed };
}
