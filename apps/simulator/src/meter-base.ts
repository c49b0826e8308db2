// Simulated meters, the common part: what a meter needs and tells, frame decoding, registers and the SimMeter base (consumption, supply, faults).
import { cjt188, dlt645, fromMeterDateTime, isProtocolError, type Cjt188Frame, type Dlt645Frame, type MeterDateTime } from '@meter/protocol';
import { HOUR_MS, chinaHourIndex, chinaHourStart, chinaMonthKey, type SimClock } from './clock.ts';
import { resolveProfile, type ResolvedProfile, type TouPeriod, type TouTable } from './profiles.ts';
import { hashString, unitNoise } from './random.ts';
import { slowRepliesMs, type MeterDefinition, type MeterFaultInput, type MeterFaults, type MeterKind, type MeterProtocol } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Shared types
// ---------------------------------------------------------------------------------------------

/** What a meter needs from its surroundings. */
export interface MeterEnvironment {
  clock: SimClock;
  /** Seed of all per-meter noise (usage, voltage …). */
  seed: number;
  /** 尖峰平谷 period of each hour (electric meters). */
  touTable: TouTable;
  /**
   * Refuse DL/T 645 remote-control commands whose expiry (N3..N8) is earlier than the meter's
   * clock, as real meters do. Default true.
   */
  checkCommandExpiry: boolean;
  /** Called on notable state changes (the fleet turns them into events). */
  onEvent?: (event: MeterEvent) => void;
}

export type MeterEvent =
  | { type: 'actuation'; address: string; supplyOn: boolean; command: string }
  | { type: 'commandIgnored'; address: string; command: string; reason: 'stuckValve' }
  | { type: 'refused'; address: string; command: string; reason: string }
  | { type: 'timeSync'; address: string; clockOffsetMs: number }
  | { type: 'write'; address: string; item: string; value: number | string }
  | { type: 'reversed'; address: string; amount: number }
  | { type: 'fault'; address: string; name: keyof MeterFaults | 'all'; value: unknown };

/** A reply frame and how long (real ms) the meter takes before sending it. */
export interface MeterReply {
  bytes: Uint8Array;
  delayMs: number;
}

/** A frame decoded by the codec of its protocol. */
export type DecodedFrame = { protocol: 'dlt645'; frame: Dlt645Frame } | { protocol: 'cjt188'; frame: Cjt188Frame };

/** Decode one frame of a known protocol; `null` when the codec rejects it. */
export function decodeFrame(protocol: MeterProtocol, bytes: Uint8Array): DecodedFrame | null {
  try {
    return protocol === 'dlt645' ? { protocol, frame: dlt645.decode(bytes) } : { protocol, frame: cjt188.decode(bytes) };
  } catch (e) {
    if (isProtocolError(e)) return null;
    throw e;
  }
}

/** A point-in-time view of a meter (for status lines, tests and the demo UI). */
export interface MeterSnapshot {
  address: string;
  kind: MeterKind;
  protocol: MeterProtocol;
  /** Total register (kWh or m³), full precision. */
  total: number;
  /** Relay closed (通电) / valve open. */
  supplyOn: boolean;
  actuations: number;
  /** Parameter writes accepted (DL/T 645 0x14; CJ/T 188 写结算日 / 写标准时间). */
  writes: number;
  /** The meter's own clock (true simulated time + drift/sync offset). */
  meterTime: Date;
  faults: MeterFaults;
  /** Electric only: 尖峰平谷 registers (kWh). */
  tou?: Record<TouPeriod, number>;
  /** Electric only. */
  remainingMoney?: number;
  overdraftMoney?: number;
  powerHold?: boolean;
  /** Electric only: the 参变量 the platform writes (see {@link DLT645_PARAM_REGISTERS}), by key. */
  params?: Record<string, number | string>;
  /** Water only: 结算日 (day of the month the settlement flow is taken, 00:00). */
  settleDay?: number;
  /** Water only: cumulative flow at the last settlement day (00:00 on {@link settleDay}). */
  settlementTotal?: number;
}

const NO_FAULTS: MeterFaults = Object.freeze({
  powerLoss: false,
  offline: false,
  reversed: 0,
  stuckValve: false,
  slowReplies: 0,
  clockDrift: 0,
  lowBattery: false,
  rateError: 0,
});

/** Units a reversed-once fault steps back by when set to `true`. */
export const DEFAULT_REVERSED_AMOUNT = 10;

/** Register capacity: XXXXXX.XX rolls over at one million like a real register. */
const REGISTER_MODULUS = 1_000_000;

/** Truncate to 0.01 (registers show whole hundredths, never rounded up) and roll over. */
export function registerValue(v: number): number {
  const hundredths = Math.floor(v * 100 + 1e-6);
  return (hundredths % (REGISTER_MODULUS * 100)) / 100;
}

/** Does a (possibly wildcarded, `AA` byte pairs) frame address select `own`? */
export function addressMatches(frameAddress: string, own: string): boolean {
  if (frameAddress.length !== own.length) return false;
  for (let i = 0; i < own.length; i += 2) {
    const pair = frameAddress.slice(i, i + 2);
    if (pair === 'AA') continue;
    if (pair !== own.slice(i, i + 2)) return false;
  }
  return true;
}

export function isWildcarded(address: string): boolean {
  for (let i = 0; i < address.length; i += 2) if (address.slice(i, i + 2) === 'AA') return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Base class
// ---------------------------------------------------------------------------------------------

export abstract class SimMeter {
  readonly address: string;
  readonly kind: MeterKind;
  readonly protocol: MeterProtocol;
  readonly definition: Readonly<MeterDefinition>;
  /** Relay/valve actuations: counted once per actual state change. */
  actuations = 0;
  /** Parameter writes accepted (DL/T 645 写数据; CJ/T 188 写结算日 / 写标准时间). */
  writes = 0;
  /** Request/reply counters. */
  /** actuationCommands: relay/valve commands received and accepted, whether they moved anything or not */
  readonly counters = { requests: 0, replies: 0, refused: 0, reports: 0, ignored: 0, actuationCommands: 0 };

  protected readonly env: MeterEnvironment;
  protected readonly usage: ResolvedProfile;
  protected readonly preamble: number;
  protected totalValue: number;
  protected supply: boolean;
  /** Offset of the meter's clock from true simulated time (drift fault, time sync). */
  protected clockOffsetMs = 0;
  protected faultState: Omit<MeterFaults, 'clockDrift'>;
  private readonly addressHash: number;
  private readonly scale: number;
  private lastT: number;
  /** Settlement period the meter is in (see {@link settlementKey}). */
  private monthKey: number;

  protected constructor(def: MeterDefinition, env: MeterEnvironment, protocol: MeterProtocol) {
    const digits = protocol === 'dlt645' ? 12 : 14;
    if (typeof def.address !== 'string' || !new RegExp(`^\\d{${digits}}$`).test(def.address)) {
      throw new RangeError(`${protocol} meter address must be ${digits} digits, got ${JSON.stringify(def.address)}`);
    }
    const initial = def.initialTotal ?? 0;
    if (!(Number.isFinite(initial) && initial >= 0 && initial < REGISTER_MODULUS)) {
      throw new RangeError(`initialTotal of ${def.address} must be in [0, ${REGISTER_MODULUS}), got ${initial}`);
    }
    this.address = def.address;
    this.kind = def.kind;
    this.protocol = protocol;
    this.definition = Object.freeze({ ...def });
    this.env = env;
    this.usage = resolveProfile(def.profile, def.kind, def.dailyUsage);
    this.preamble = def.preamble ?? (protocol === 'dlt645' ? 4 : 2);
    if (!(Number.isInteger(this.preamble) && this.preamble >= 0 && this.preamble <= 16)) {
      throw new RangeError(`preamble must be 0..16, got ${this.preamble}`);
    }
    this.totalValue = initial;
    this.supply = def.supplyOn ?? true;
    this.faultState = { ...NO_FAULTS };
    this.addressHash = hashString(def.address);
    // Per-meter usage level: 0.75–1.25 × the profile's average day.
    this.scale = 0.75 + 0.5 * unitNoise(env.seed, this.addressHash);
    this.lastT = env.clock.now();
    this.monthKey = this.settlementKey(this.lastT);
  }

  // --- state ------------------------------------------------------------------------------

  /** Relay closed (通电) / valve open. */
  get supplyOn(): boolean {
    return this.supply;
  }

  /** Total register now (kWh or m³), full precision. */
  get total(): number {
    this.advance();
    return this.totalValue;
  }

  /** The meter's clock (epoch ms): true simulated time plus drift/sync offset. */
  meterTime(): number {
    return this.env.clock.now() + this.clockOffsetMs;
  }

  get faults(): MeterFaults {
    return { ...this.faultState, clockDrift: this.clockOffsetMs / 1000 };
  }

  /** Switch a fault on or off (see {@link MeterFaults}). */
  setFault<K extends keyof MeterFaults>(name: K, value: MeterFaultInput[K]): void {
    this.advance(); // consumption up to now happened under the old faults
    this.applyFault(name, value);
    this.env.onEvent?.({ type: 'fault', address: this.address, name, value });
  }

  private applyFault<K extends keyof MeterFaults>(name: K, value: MeterFaultInput[K]): void {
    switch (name) {
      case 'clockDrift': {
        const s = Number(value);
        if (!Number.isFinite(s)) throw new RangeError(`clockDrift must be a number of seconds, got ${String(value)}`);
        this.clockOffsetMs = s * 1000;
        return;
      }
      case 'reversed': {
        const amount = value === true ? DEFAULT_REVERSED_AMOUNT : value === false ? 0 : Number(value);
        if (!(Number.isFinite(amount) && amount >= 0)) throw new RangeError(`reversed must be ≥ 0, got ${String(value)}`);
        this.faultState.reversed = amount;
        return;
      }
      case 'slowReplies':
        this.faultState.slowReplies = slowRepliesMs(value);
        return;
      case 'rateError': {
        const ratio = value === false ? 0 : Number(value);
        if (!(Number.isInteger(ratio) && ratio >= 0 && ratio <= 999999)) throw new RangeError(`rateError must be a CT ratio 0..999999, got ${String(value)}`);
        this.faultState.rateError = ratio;
        return;
      }
      case 'powerLoss':
      case 'offline':
      case 'stuckValve':
      case 'lowBattery': {
        if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean`);
        const flag: 'powerLoss' | 'offline' | 'stuckValve' | 'lowBattery' = name;
        this.faultState[flag] = value;
        return;
      }
      default:
        throw new RangeError(`unknown meter fault ${JSON.stringify(name)}`);
    }
  }

  /** Clear every fault (the clock offset returns to 0). */
  clearFaults(): void {
    this.advance();
    this.faultState = { ...NO_FAULTS };
    this.clockOffsetMs = 0;
    this.env.onEvent?.({ type: 'fault', address: this.address, name: 'all', value: false });
  }

  /** True when the meter answers frames at all (not dead, not cut off). */
  get reachable(): boolean {
    return !this.faultState.powerLoss && !this.faultState.offline;
  }

  /**
   * Force the relay/valve state without a command (e.g. the demo seeds a closed valve). Counts as
   * an actuation when it changes the state.
   */
  setSupply(on: boolean): void {
    this.advance();
    if (this.supply !== on) {
      this.supply = on;
      this.actuations++;
      this.env.onEvent?.({ type: 'actuation', address: this.address, supplyOn: on, command: 'manual' });
    }
  }

  // --- consumption ------------------------------------------------------------------------

  /** Usage (kWh or m³ per hour) in absolute China-time hour `hourIndex`. */
  rateAt(hourIndex: number): number {
    const hourOfDay = ((hourIndex % 24) + 24) % 24;
    const noise = 0.6 + 0.8 * unitNoise(this.env.seed, this.addressHash, hourIndex);
    return this.usage.hourly[hourOfDay] * this.scale * noise;
  }

  /** Integrate consumption from the last update to the clock's now. */
  advance(): void {
    const now = this.env.clock.now();
    if (now <= this.lastT) return;
    const consuming = this.supply && !this.faultState.powerLoss && this.usage.dailyUsage > 0;
    if (!consuming) {
      const key = this.settlementKey(now);
      if (key !== this.monthKey) {
        this.monthKey = key;
        this.onSettlementDay();
      }
      this.lastT = now;
      return;
    }
    let t = this.lastT;
    while (t < now) {
      const hourIndex = chinaHourIndex(t);
      const hourEnd = chinaHourStart(hourIndex + 1);
      const segEnd = Math.min(now, hourEnd);
      const amount = (this.rateAt(hourIndex) * (segEnd - t)) / HOUR_MS;
      if (amount > 0) this.accumulate(amount, ((hourIndex % 24) + 24) % 24);
      t = segEnd;
      if (t === hourEnd && (hourIndex + 1) % 24 === 0) {
        const key = this.settlementKey(t);
        if (key !== this.monthKey) {
          this.monthKey = key;
          this.onSettlementDay();
        }
      }
    }
    this.lastT = now;
  }

  /** Add `amount` consumed during hour-of-day `hourOfDay`. */
  protected accumulate(amount: number, _hourOfDay: number): void {
    this.totalValue += amount;
  }

  /** Called when the settlement period changes (by default 00:00 on the 1st, China time). */
  protected onSettlementDay(): void {}

  /**
   * The settlement period `epochMs` falls in; {@link onSettlementDay} runs when it changes (checked
   * at China midnights). Default: the calendar month (settlement at 00:00 on the 1st).
   */
  protected settlementKey(epochMs: number): number {
    return chinaMonthKey(epochMs);
  }

  /** Re-derive the current settlement period after {@link settlementKey} changed its rule. */
  protected resetSettlementPeriod(): void {
    this.advance();
    this.monthKey = this.settlementKey(this.lastT);
  }

  /** Count an accepted parameter write and tell the fleet. */
  protected wrote(item: string, value: number | string): void {
    this.writes++;
    this.env.onEvent?.({ type: 'write', address: this.address, item, value });
  }

  /** Consume a pending reversed-once fault: the amount the next total reading steps back by. */
  protected takeReversed(): number {
    const amount = this.faultState.reversed;
    if (amount > 0) {
      this.faultState.reversed = 0;
      this.env.onEvent?.({ type: 'reversed', address: this.address, amount });
    }
    return amount;
  }

  /** Instantaneous usage rate (per hour) with minute-level jitter; 0 without supply. */
  protected instantaneousRate(): number {
    if (!this.supply || this.faultState.powerLoss) return 0;
    const now = this.env.clock.now();
    const minute = Math.floor(now / 60_000);
    return this.rateAt(chinaHourIndex(now)) * (0.85 + 0.3 * unitNoise(this.env.seed, this.addressHash, minute, 7));
  }

  protected jitter(salt: number): number {
    return unitNoise(this.env.seed, this.addressHash, Math.floor(this.env.clock.now() / 60_000), salt);
  }

  protected reply(bytes: Uint8Array): MeterReply {
    this.counters.replies++;
    return { bytes, delayMs: this.faultState.slowReplies };
  }

  protected setClockTo(time: MeterDateTime): void {
    this.clockOffsetMs = fromMeterDateTime(time).getTime() - this.env.clock.now();
    this.env.onEvent?.({ type: 'timeSync', address: this.address, clockOffsetMs: this.clockOffsetMs });
  }

  /**
   * Apply a relay/valve command. Returns true when the state moved; a stuck valve acknowledges
   * but does not move; a repeated command does not actuate again.
   */
  protected actuate(on: boolean, command: string): boolean {
    this.advance();
    this.counters.actuationCommands++;
    if (this.faultState.stuckValve) {
      this.env.onEvent?.({ type: 'commandIgnored', address: this.address, command, reason: 'stuckValve' });
      return false;
    }
    if (this.supply === on) return false;
    this.supply = on;
    this.actuations++;
    this.env.onEvent?.({ type: 'actuation', address: this.address, supplyOn: on, command });
    return true;
  }

  // --- protocol ---------------------------------------------------------------------------

  /**
   * Answer one decoded frame seen on the bus. `null` when the frame is not for this meter, needs
   * no answer (broadcast time), or the meter cannot answer (power loss, cut off).
   */
  abstract handle(decoded: DecodedFrame): MeterReply | null;

  /** Decode `bytes` with this meter's codec and answer (convenience for tests). */
  handleBytes(bytes: Uint8Array): MeterReply | null {
    const decoded = decodeFrame(this.protocol, bytes);
    return decoded ? this.handle(decoded) : null;
  }

  /** An unsolicited report frame with the current reading (no preamble). */
  abstract reportFrame(): Uint8Array;

  /** A point-in-time view: the fields every meter has, then its kind's own ({@link kindSnapshot}). */
  snapshot(): MeterSnapshot {
    this.advance();
    return {
      address: this.address,
      kind: this.kind,
      protocol: this.protocol,
      total: this.totalValue,
      supplyOn: this.supply,
      actuations: this.actuations,
      meterTime: new Date(this.meterTime()),
      faults: this.faults,
      writes: this.writes,
      ...this.kindSnapshot(),
    };
  }

  /** The snapshot fields only this kind of meter has (called after `advance`). */
  protected abstract kindSnapshot(): Partial<MeterSnapshot>;
}
