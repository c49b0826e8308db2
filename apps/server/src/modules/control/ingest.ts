import { Decimal } from 'decimal.js';
import { warningKindText } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import type { DeviceEvent } from '../realtime/index.ts';
import { implausible, needsUsualUse, ratedPerHour, type Implausible } from './plausible.ts';
import * as repo from './repo/index.ts';
import { usualUse } from './review-repo.ts';
import { CONSUMPTION_EPSILON } from './rules.ts';
import { warningsOpened } from './work-orders.ts';

// Readings into the database (DESIGN §5): every reading is stored, idempotently per (meter, read_at);
// one lower or older than the meter's last good reading is stored with `exception` set, never moves
// meter_latest and opens a warning; a reading that grows while the relay/valve was already off at
// the previous reading opens a "consumption while closed" warning. A reading that cannot be true
// (plausible.ts) is stored with exception 'implausible' and an 'implausible' warning: it moves
// nothing and is billed nothing until a person accepts it (review.ts); later readings compare with
// the last good one meanwhile. Set-based: one batch of any size
// costs a handful of statements, so the gateway can store reports at line rate.

export const SOURCE = { automatic: 1, onDemand: 2, manual: 3, report: 4 } as const;
export const SOURCE_TEXT: Record<number, string> = { 1: '自动抄表', 2: '随机抄表', 3: '人工抄表', 4: '设备上报' };

export interface MeterIdent {
  id: number;
  companyId: number;
  areaId: number | null;
}

export interface IngestItem {
  meter: MeterIdent;
  readAt: Date;
  /** exact decimal string */
  total: string;
  registers?: Record<string, number | string | boolean>;
  source: number;
  /** relay/valve state seen with this reading: 1 通, 0 断 */
  valve?: 0 | 1;
  commandId?: number | null;
  operatorId?: number | null;
}

export interface IngestResult {
  meterId: number;
  readAt: Date;
  /** false: a reading of this meter at this instant was already stored */
  stored: boolean;
  exception: string;
}

/**
 * Item indices ordered by meter id, then by time (ties in input order), and the distinct meter ids.
 * Without a general sort: a gateway batch is already in time order within each meter.
 */
function byMeterAndTime(items: IngestItem[]): { order: number[]; meterIds: number[] } {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const g = groups.get(items[i].meter.id);
    if (g) g.push(i);
    else groups.set(items[i].meter.id, [i]);
  }
  const meterIds = Float64Array.from(groups.keys()).sort();
  const order: number[] = [];
  for (const id of meterIds) {
    const g = groups.get(id)!;
    let sorted = true;
    for (let k = 1; k < g.length && sorted; k++) sorted = items[g[k - 1]].readAt.getTime() <= items[g[k]].readAt.getTime();
    if (!sorted) g.sort((a, b) => items[a].readAt.getTime() - items[b].readAt.getTime() || a - b);
    for (const i of g) order.push(i);
  }
  return { order, meterIds: Array.from(meterIds) };
}

/**
 * numeric(14,2) as PostgreSQL prints it (`0.50`, `1234.56`: no sign, no leading zero, at most 12
 * integer digits), as exact hundredths; null for any other form (those are compared with decimal.js).
 * Char by char, not a regular expression: it runs several times for every reading.
 */
export function hundredths(s: string): number | null {
  const n = s.length;
  if (n < 4 || n > 15 || s.charCodeAt(n - 3) !== 46 /* . */) return null;
  if (n > 4 && s.charCodeAt(0) === 48 /* leading 0 */) return null;
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (i === n - 3) continue;
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return null;
    v = v * 10 + c;
  }
  return v;
}

/** A total as stored: two decimals, exact. */
function exact(v: string): string {
  return hundredths(v) !== null ? v : new Decimal(v).toFixed(2);
}

/** a < b, exactly (x, y: their hundredths when known) */
function less(a: string, b: string, x = hundredths(a), y = hundredths(b)): boolean {
  return x !== null && y !== null ? x < y : new Decimal(a).lt(b);
}

/** a − b, exactly, as a decimal string */
function difference(a: string, b: string): string {
  const x = hundredths(a);
  const y = hundredths(b);
  if (x !== null && y !== null && x >= y) {
    const d = String(x - y).padStart(3, '0');
    return `${d.slice(0, -2)}.${d.slice(-2)}`;
  }
  return new Decimal(a).minus(b).toString();
}

/** a − b as a number of units (thresholds only, never money; x, y: their hundredths when known) */
function used(a: string, b: string, x = hundredths(a), y = hundredths(b)): number {
  return x !== null && y !== null ? (x - y) / 100 : Number(a) - Number(b);
}

/** A meter's latest good reading as this batch moves it, with its total's hundredths once parsed. */
type Latest = repo.LatestRow & { cents?: number | null };
const centsOf = (l: Latest) => (l.cents === undefined ? (l.cents = hundredths(l.total)) : l.cents);

/**
 * The usual use (units an hour) of the batch's meters whose consumption is large enough for the
 * usual-use rule to matter: one query, and only for those (rarely any in a batch of reports).
 */
async function usualUses(tx: Tx, items: IngestItem[], latest: Map<number, Latest>): Promise<Map<number, number>> {
  let ask: Map<number, repo.LatestRow> | undefined;
  for (const it of items) {
    const prev = latest.get(it.meter.id);
    if (!prev || it.source === SOURCE.manual || ask?.has(it.meter.id)) continue;
    const x = hundredths(it.total);
    const total = x !== null ? it.total : exact(it.total);
    if (needsUsualUse(used(total, prev.total, x ?? hundredths(total), centsOf(prev)))) (ask ??= new Map()).set(it.meter.id, prev);
  }
  return ask ? usualUse(tx, [...ask.values()]) : new Map();
}

const EMPTY: Readonly<Record<string, number | string | boolean>> = Object.freeze({});
const VALVE_OPEN = Object.freeze({ valve: 1 });
const VALVE_CLOSED = Object.freeze({ valve: 0 });

/** Batches of at least this many new readings are written with COPY (see {@link repo.copyReadings}). */
export const COPY_MIN_ROWS = 64;

export interface IngestOptions {
  /** write the new readings with COPY from this many rows on (default {@link COPY_MIN_ROWS}) */
  copyMinRows?: number;
  /** false: the caller needs only the events (the gateway); `results` comes back empty */
  results?: boolean;
}

/**
 * Stores a batch of readings in the caller's transaction. Returns one result per item (in input
 * order), the events to publish once the transaction has committed and how many readings were new.
 */
export async function ingestReadings(
  tx: Tx,
  items: IngestItem[],
  opts: IngestOptions = {},
): Promise<{ results: IngestResult[]; events: DeviceEvent[]; stored: number }> {
  const events: DeviceEvent[] = [];
  if (!items.length) return { results: [], events, stored: 0 };
  const { order, meterIds } = byMeterAndTime(items);
  const locked = await repo.lockIngest(tx, meterIds);
  const { companyOf, terms } = locked;
  const latest: Map<number, Latest> = locked.latest;
  const usual = await usualUses(tx, items, latest);

  const rows: (repo.ReadingRow & { idx: number; valve?: 0 | 1 })[] = [];
  const warnings: repo.WarningRow[] = [];
  const duplicateIdx = new Set<number>();
  // `order` is by meter, then time: a repeat of (meter, instant) inside the batch follows its first
  let lastMeter = NaN;
  let lastTime = NaN;
  for (const idx of order) {
    const it = items[idx];
    const time = it.readAt.getTime();
    if (it.meter.id === lastMeter && time === lastTime) {
      duplicateIdx.add(idx);
      continue;
    }
    lastMeter = it.meter.id;
    lastTime = time;
    const prev: Latest | undefined = latest.get(it.meter.id);
    let cents = hundredths(it.total);
    const total = cents !== null ? it.total : exact(it.total);
    if (cents === null) cents = hundredths(total);
    let exception = '';
    let held: Implausible | null = null;
    if (prev) {
      const p = prev.readAt.getTime();
      if (time === p) {
        duplicateIdx.add(idx);
        continue;
      }
      if (time < p) exception = 'older';
      else if (less(total, prev.total, cents, centsOf(prev))) exception = 'backwards';
      else if (it.source !== SOURCE.manual) {
        // a person's own reading is theirs to answer for; what devices say is checked
        const term = terms.get(it.meter.id);
        held = term ? implausible(used(total, prev.total, cents, centsOf(prev)), time - p, ratedPerHour(term), usual.get(it.meter.id) ?? null) : null;
        if (held) exception = 'implausible';
      }
    }
    // the item's registers as they are when they already say its valve state (the gateway's do)
    const given = it.registers ?? EMPTY;
    const registers = it.valve === undefined || given.valve === it.valve ? given : { ...given, valve: it.valve };
    rows.push({
      idx,
      companyId: it.meter.companyId,
      meterId: it.meter.id,
      readAt: it.readAt,
      source: it.source,
      total,
      registers,
      exception,
      commandId: it.commandId ?? null,
      operatorId: it.operatorId ?? null,
      valve: it.valve,
    });
    if (held) {
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'implausible',
        detail: {
          reason: held.reason,
          total,
          readAt: it.readAt.toISOString(),
          lastTotal: prev!.total,
          lastReadAt: prev!.readAt.toISOString(),
          used: difference(total, prev!.total),
          limit: held.limit,
        },
      });
      continue;
    }
    if (exception) {
      // an older reading is kept out of billing and meter_latest, but it is no alarm: a command's
      // reading reaches the database after a report that came in during its dialogue. Only one
      // higher than the newer reading contradicts it.
      if (exception === 'older' && !less(prev!.total, total, centsOf(prev!), cents)) continue;
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'backwards',
        detail: {
          reason: exception === 'older' ? '读数时间早于上次读数，读数却更大' : '读数小于上次读数',
          total,
          readAt: it.readAt.toISOString(),
          lastTotal: prev!.total,
          lastReadAt: prev!.readAt.toISOString(),
        },
      });
      continue;
    }
    if (prev && prev.registers.valve === 0 && (it.valve ?? 0) === 0 && less(CONSUMPTION_EPSILON, difference(total, prev.total))) {
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'consumption_closed',
        detail: { from: prev.total, to: total, since: prev.readAt.toISOString(), readAt: it.readAt.toISOString() },
      });
    }
    // what the next reading of this meter is compared with (only the valve of the registers is read)
    const valve = 'valve' in registers ? registers.valve : prev?.registers.valve;
    const seen = valve === 1 ? VALVE_OPEN : valve === 0 ? VALVE_CLOSED : valve === undefined ? EMPTY : { valve };
    if (prev) {
      // the batch's own record of this meter (read for this batch): moved in place, not a new object a reading
      prev.readAt = it.readAt;
      prev.total = total;
      prev.cents = cents;
      prev.registers = seen;
    } else latest.set(it.meter.id, { meterId: it.meter.id, readAt: it.readAt, total, cents, registers: seen });
  }

  const inserted = await storeReadings(tx, rows, companyOf, opts.copyMinRows ?? COPY_MIN_ROWS);
  const isStored = (r: repo.ReadingRow) => inserted === 'all' || inserted.has(`${r.meterId}@${r.readAt.getTime()}`);
  const stored = inserted === 'all' ? rows : rows.filter(isStored);
  // meter_latest takes the newest good reading of each meter (one row per meter per statement)
  const newest = new Map<number, (typeof rows)[number]>();
  for (const r of stored) if (!r.exception) newest.set(r.meterId, r);

  // relay/valve state and liveness seen with the readings
  const state = new Map<number, { meterId: number; valve: number | null; at: Date }>();
  for (const r of stored) {
    if (r.source === SOURCE.manual) continue;
    const s = state.get(r.meterId);
    const valve = r.exception ? undefined : r.valve;
    if (!s) state.set(r.meterId, { meterId: r.meterId, valve: valve ?? null, at: r.readAt });
    else {
      if (valve !== undefined) s.valve = valve;
      if (r.readAt.getTime() > s.at.getTime()) s.at = r.readAt;
    }
  }

  // one statement: meter_latest, the meters' relay/valve state, and the last valve command of each
  // meter with a state — one that differs from what that command left: not in the commanded state
  const withValve = [...state.values()].filter((s) => s.valve !== null);
  if (newest.size || withValve.length) {
    const commanded = await repo.afterReadings(tx, [...newest.values()], [...state.values()], withValve.map((s) => s.meterId));
    for (const s of withValve) {
      const c = commanded.get(s.meterId);
      const expected = c ? (c.kind === 'open' ? 1 : 0) : null;
      if (expected !== null && s.valve !== expected) {
        const it = items.find((i) => i.meter.id === s.meterId)!;
        warnings.push({
          companyId: it.meter.companyId,
          meterId: s.meterId,
          collectorId: null,
          areaId: it.meter.areaId,
          kind: 'valve_mismatch',
          detail: { expected, actual: s.valve, commandedAt: c!.at.toISOString(), seenAt: s.at.toISOString() },
        });
      }
    }
  }
  const opened = await repo.openWarnings(tx, warnings);
  await warningsOpened(tx, opened);
  for (const w of opened) events.push(warningEvent(w));

  for (const r of newest.values()) {
    events.push({
      companyId: r.companyId,
      kind: 'reading',
      body: { meterId: r.meterId, areaId: items[r.idx].meter.areaId ?? null, total: r.total, readAt: r.readAt.toISOString(), source: r.source, valve: r.valve ?? null },
    });
  }

  if (opts.results === false) return { results: [], events, stored: stored.length };
  const rowOf: ((typeof rows)[number] | undefined)[] = new Array(items.length);
  for (const r of rows) rowOf[r.idx] = r;
  const results = items.map((it, idx): IngestResult => {
    const r = rowOf[idx];
    const ok = !!r && !duplicateIdx.has(idx) && isStored(r);
    return { meterId: it.meter.id, readAt: it.readAt, stored: ok, exception: ok ? r!.exception : '' };
  });
  return { results, events, stored: stored.length };
}

/**
 * Writes the batch's new readings; returns the keys (`meter@ms`) stored. A large batch goes by COPY
 * (no ON CONFLICT: duplicates inside the batch were dropped above, and one already in the table makes
 * COPY fail as a whole, after which the batch takes the INSERT … ON CONFLICT path). Only rows whose
 * company is the one of their `meters` row, as this transaction's row-level security shows it, are
 * copied; any other row goes through the INSERT, where row-level security judges it.
 */
async function storeReadings(tx: Tx, rows: repo.ReadingRow[], companyOf: Map<number, number>, copyMinRows: number): Promise<Set<string> | 'all'> {
  if (rows.length >= copyMinRows) {
    const copy: repo.ReadingRow[] = [];
    const rest: repo.ReadingRow[] = [];
    for (const r of rows) (companyOf.get(r.meterId) === r.companyId ? copy : rest).push(r);
    if (copy.length >= copyMinRows && (await repo.copyReadings(tx, copy))) {
      if (!rest.length) return 'all';
      const inserted = await repo.insertReadings(tx, rest);
      for (const r of copy) inserted.add(`${r.meterId}@${r.readAt.getTime()}`);
      return inserted;
    }
  }
  return repo.insertReadings(tx, rows);
}

export function warningEvent(w: { id: number; companyId: number; meterId: number | null; collectorId: number | null; areaId: number | null; kind: string; detail: Record<string, unknown> }): DeviceEvent {
  return {
    companyId: w.companyId,
    kind: 'warning',
    body: { id: w.id, meterId: w.meterId, collectorId: w.collectorId, areaId: w.areaId, kind: w.kind, title: warningKindText(w.kind), detail: w.detail },
  };
}

/** Opens warnings (one open per device and kind) and their work orders, and returns their events. */
export async function raiseWarnings(tx: Tx, rows: repo.WarningRow[]): Promise<DeviceEvent[]> {
  const opened = await repo.openWarnings(tx, rows);
  await warningsOpened(tx, opened);
  return opened.map(warningEvent);
}
