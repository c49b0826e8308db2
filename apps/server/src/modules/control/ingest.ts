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
  /** readAt as epoch milliseconds, when the item holds it so (see {@link HeldReading}) */
  readonly time?: number;
  /** the total as exact hundredths, when the item holds it so (see {@link HeldReading}) */
  readonly cents?: number;
}

/** '00' … '99' */
const CENTS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** Exact hundredths (a non-negative integer) as a total with two decimals (`12.30`), one flat string. */
export function centsText(c: number): string {
  return String(Math.floor(c / 100)) + '.' + CENTS[c % 100];
}

/** Hundredths a total can have (numeric(14,2), not negative). */
const validCents = (c: number | undefined): c is number => c !== undefined && Number.isSafeInteger(c) && c >= 0 && c < 1e14;

/**
 * A reading held as numbers: its instant as epoch ms and its total as hundredths, its Date and its
 * total's text made only when asked for. The gateway queues tens of thousands of these at a time:
 * one object a reading (a Date and a text besides an item literal were three, most of them promoted
 * by the young-generation collector while they waited), and ingest reads `time` and `cents` directly.
 */
export class HeldReading implements IngestItem {
  constructor(
    readonly meter: MeterIdent,
    readonly time: number,
    readonly cents: number,
    readonly registers: Record<string, number | string | boolean> | undefined,
    readonly source: number,
    readonly valve: 0 | 1 | undefined,
  ) {
    if (!validCents(cents)) throw new RangeError(`cents must be hundredths of a total, got ${cents}`);
  }

  get readAt(): Date {
    return new Date(this.time);
  }

  get total(): string {
    return centsText(this.cents);
  }
}

const timeOf = (it: IngestItem) => it.time ?? it.readAt.getTime();

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
function byMeterAndTime(items: IngestItem[]): { order: number[]; meterIds: number[]; times: number[] } {
  const times = items.map(timeOf);
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
    for (let k = 1; k < g.length && sorted; k++) sorted = times[g[k - 1]] <= times[g[k]];
    if (!sorted) g.sort((a, b) => times[a] - times[b] || a - b);
    for (const i of g) order.push(i);
  }
  return { order, meterIds: Array.from(meterIds), times };
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

/** a < b for totals as text, exactly */
function lessText(a: string, b: string): boolean {
  const x = hundredths(a);
  const y = hundredths(b);
  return x !== null && y !== null ? x < y : new Decimal(a).lt(b);
}

/** A total: its text (made when asked for) and its exact hundredths (null: another form, see {@link hundredths}). */
interface Amount {
  readonly total: string;
  readonly cents: number | null;
}

/** a < b, exactly */
function less(a: Amount, b: Amount): boolean {
  return a.cents !== null && b.cents !== null ? a.cents < b.cents : new Decimal(a.total).lt(b.total);
}

/** a − b, exactly, as a decimal string */
function difference(a: Amount, b: Amount): string {
  if (a.cents !== null && b.cents !== null && a.cents >= b.cents) return centsText(a.cents - b.cents);
  return new Decimal(a.total).minus(b.total).toString();
}

/** a − b as a number of units (thresholds only, never money) */
function used(a: Amount, b: Amount): number {
  return a.cents !== null && b.cents !== null ? (a.cents - b.cents) / 100 : Number(a.total) - Number(b.total);
}

/**
 * A meter's latest good reading as this batch moves it (of its registers only the relay/valve
 * state): moved in place reading after reading, its total's text made only when asked for.
 */
class Mark implements Amount {
  constructor(
    public time: number,
    public cents: number | null,
    public text: string | undefined,
    public registers: Readonly<Record<string, number | string | boolean>>,
  ) {}

  get total(): string {
    return this.text ?? centsText(this.cents!);
  }
}

/** A reading of the batch to store: instant and total held as numbers (Date and text made when asked for). */
class Row implements repo.ReadingRow, Amount {
  exception = '';
  constructor(
    readonly idx: number,
    readonly companyId: number,
    readonly meterId: number,
    readonly time: number,
    readonly source: number,
    readonly cents: number | null,
    private readonly text: string | undefined,
    readonly registers: Record<string, number | string | boolean>,
    readonly commandId: number | null,
    readonly operatorId: number | null,
    readonly valve: 0 | 1 | undefined,
  ) {}

  get readAt(): Date {
    return new Date(this.time);
  }

  get total(): string {
    return this.text ?? centsText(this.cents!);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The usual use (units an hour) of the batch's meters whose consumption is large enough for the
 * usual-use rule to matter: one query, and only for those (rarely any in a batch of reports).
 */
async function usualUses(tx: Tx, items: IngestItem[], latest: Map<number, Mark>, rows: Map<number, repo.LatestRow>): Promise<Map<number, number>> {
  let ask: Map<number, repo.LatestRow> | undefined;
  for (const it of items) {
    const prev = latest.get(it.meter.id);
    if (!prev || it.source === SOURCE.manual || ask?.has(it.meter.id)) continue;
    const x = validCents(it.cents) ? it.cents : hundredths(it.total);
    let u: number;
    if (x !== null && prev.cents !== null) u = (x - prev.cents) / 100;
    else {
      const total = exact(it.total);
      u = used({ total, cents: hundredths(total) }, prev);
    }
    if (needsUsualUse(u)) (ask ??= new Map()).set(it.meter.id, rows.get(it.meter.id)!);
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
  const { order, meterIds, times } = byMeterAndTime(items);
  const locked = await repo.lockIngest(tx, meterIds);
  const { companyOf, terms } = locked;
  const latest = new Map<number, Mark>();
  for (const l of locked.latest.values()) latest.set(l.meterId, new Mark(l.readAt.getTime(), hundredths(l.total), l.total, l.registers));
  const usual = await usualUses(tx, items, latest, locked.latest);

  const rows: Row[] = [];
  const warnings: repo.WarningRow[] = [];
  const duplicateIdx = new Set<number>();
  // `order` is by meter, then time: a repeat of (meter, instant) inside the batch follows its first
  let lastMeter = NaN;
  let lastTime = NaN;
  for (const idx of order) {
    const it = items[idx];
    const time = times[idx];
    if (it.meter.id === lastMeter && time === lastTime) {
      duplicateIdx.add(idx);
      continue;
    }
    lastMeter = it.meter.id;
    lastTime = time;
    const prev = latest.get(it.meter.id);
    if (prev && time === prev.time) {
      duplicateIdx.add(idx);
      continue;
    }
    // the total as hundredths, its text kept only when it came as text (else made when asked for)
    let cents: number | null;
    let text: string | undefined;
    if (validCents(it.cents)) cents = it.cents;
    else {
      text = it.total;
      cents = hundredths(text);
      if (cents === null) {
        text = exact(text);
        cents = hundredths(text);
      }
    }
    // the item's registers as they are when they already say its valve state (the gateway's do)
    const given = it.registers ?? EMPTY;
    const registers = it.valve === undefined || given.valve === it.valve ? given : { ...given, valve: it.valve };
    const row = new Row(idx, it.meter.companyId, it.meter.id, time, it.source, cents, text, registers, it.commandId ?? null, it.operatorId ?? null, it.valve);
    rows.push(row);
    let held: Implausible | null = null;
    if (prev) {
      if (time < prev.time) row.exception = 'older';
      else if (less(row, prev)) row.exception = 'backwards';
      else if (it.source !== SOURCE.manual) {
        // a person's own reading is theirs to answer for; what devices say is checked
        const term = terms.get(it.meter.id);
        held = term ? implausible(used(row, prev), time - prev.time, ratedPerHour(term), usual.get(it.meter.id) ?? null) : null;
        if (held) row.exception = 'implausible';
      }
    }
    if (held) {
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'implausible',
        detail: {
          reason: held.reason,
          total: row.total,
          readAt: iso(time),
          lastTotal: prev!.total,
          lastReadAt: iso(prev!.time),
          used: difference(row, prev!),
          limit: held.limit,
        },
      });
      continue;
    }
    if (row.exception) {
      // an older reading is kept out of billing and meter_latest, but it is no alarm: a command's
      // reading reaches the database after a report that came in during its dialogue. Only one
      // higher than the newer reading contradicts it.
      if (row.exception === 'older' && !less(prev!, row)) continue;
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'backwards',
        detail: {
          reason: row.exception === 'older' ? '读数时间早于上次读数，读数却更大' : '读数小于上次读数',
          total: row.total,
          readAt: iso(time),
          lastTotal: prev!.total,
          lastReadAt: iso(prev!.time),
        },
      });
      continue;
    }
    if (prev && prev.registers.valve === 0 && (it.valve ?? 0) === 0 && lessText(CONSUMPTION_EPSILON, difference(row, prev))) {
      warnings.push({
        companyId: it.meter.companyId,
        meterId: it.meter.id,
        collectorId: null,
        areaId: it.meter.areaId,
        kind: 'consumption_closed',
        detail: { from: prev.total, to: row.total, since: iso(prev.time), readAt: iso(time) },
      });
    }
    // what the next reading of this meter is compared with (only the valve of the registers is read)
    const valve = 'valve' in registers ? registers.valve : prev?.registers.valve;
    const seen = valve === 1 ? VALVE_OPEN : valve === 0 ? VALVE_CLOSED : valve === undefined ? EMPTY : { valve };
    if (prev) {
      // the batch's own record of this meter: moved in place, not a new object a reading
      prev.time = time;
      prev.cents = cents;
      prev.text = text;
      prev.registers = seen;
    } else latest.set(it.meter.id, new Mark(time, cents, text, seen));
  }

  const inserted = await storeReadings(tx, rows, companyOf, opts.copyMinRows ?? COPY_MIN_ROWS);
  const isStored = (r: Row) => inserted === 'all' || inserted.has(`${r.meterId}@${r.time}`);
  const stored = inserted === 'all' ? rows : rows.filter(isStored);
  // meter_latest takes the newest good reading of each meter (one row per meter per statement)
  const newest = new Map<number, Row>();
  for (const r of stored) if (!r.exception) newest.set(r.meterId, r);

  // relay/valve state and liveness seen with the readings
  const state = new Map<number, { meterId: number; valve: number | null; at: number }>();
  for (const r of stored) {
    if (r.source === SOURCE.manual) continue;
    const s = state.get(r.meterId);
    const valve = r.exception ? undefined : r.valve;
    if (!s) state.set(r.meterId, { meterId: r.meterId, valve: valve ?? null, at: r.time });
    else {
      if (valve !== undefined) s.valve = valve;
      if (r.time > s.at) s.at = r.time;
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
          detail: { expected, actual: s.valve, commandedAt: c!.at.toISOString(), seenAt: iso(s.at) },
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
      body: { meterId: r.meterId, areaId: items[r.idx].meter.areaId ?? null, total: r.total, readAt: iso(r.time), source: r.source, valve: r.valve ?? null },
    });
  }

  if (opts.results === false) return { results: [], events, stored: stored.length };
  const rowOf: (Row | undefined)[] = new Array(items.length);
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
async function storeReadings(tx: Tx, rows: Row[], companyOf: Map<number, number>, copyMinRows: number): Promise<Set<string> | 'all'> {
  if (rows.length >= copyMinRows) {
    const copy: Row[] = [];
    const rest: Row[] = [];
    for (const r of rows) (companyOf.get(r.meterId) === r.companyId ? copy : rest).push(r);
    if (copy.length >= copyMinRows && (await repo.copyReadings(tx, copy))) {
      if (!rest.length) return 'all';
      const inserted = await repo.insertReadings(tx, rest);
      for (const r of copy) inserted.add(`${r.meterId}@${r.time}`);
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
