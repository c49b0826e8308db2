/**
 * Simulated meters: the state of one electricity meter (DL/T 645-2007) or water meter
 * (CJ/T 188-2004) and how it answers the frames addressed to it. No I/O here — a collector or an
 * NB connection feeds decoded frames in and writes the replies out, so everything in this file is
 * unit-testable against a {@link ManualClock}.
 */
import {
  CJT188_CONTROL,
  CJT188_DI,
  CJT188_METER_TYPE,
  CJT188_UNIT,
  CJT188_VALVE,
  DLT645_BROADCAST_ADDRESS,
  DLT645_CONTROL,
  DLT645_CONTROL_BITS,
  DLT645_DI,
  DLT645_PARAMS,
  DLT645_PARAM_ITEMS,
  DLT645_PARAM_KEYS,
  DLT645_REMOTE_COMMAND,
  cjt188,
  dlt645,
  encodeBcdDecimal,
  fromMeterDateTime,
  isProtocolError,
  toMeterDateTime,
  type Cjt188DiOrder,
  type Cjt188Frame,
  type Cjt188Message,
  type Dlt645DataItem,
  type Dlt645Frame,
  type Dlt645Message,
  type Dlt645Values,
  type MeterDateTime,
  type Dlt645Param,
} from '@meter/protocol';
import { CHINA_OFFSET_MS, DAY_MS, HOUR_MS, chinaHourIndex, chinaMonthKey, type SimClock } from './clock.ts';
import { DEFAULT_TOU_TABLE, TOU_PERIODS, resolveProfile, type ResolvedProfile, type TouPeriod, type TouTable } from './profiles.ts';
import { hashString, unitNoise } from './random.ts';
import type { MeterDefinition, MeterFaultInput, MeterFaults, MeterKind, MeterProtocol } from './types.ts';

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

function isWildcarded(address: string): boolean {
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
      case 'slowReplies': {
        const ms = Number(value);
        if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`slowReplies must be ≥ 0 ms, got ${String(value)}`);
        this.faultState.slowReplies = ms;
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
      const hourIndex = Math.floor((t + CHINA_OFFSET_MS) / HOUR_MS);
      const hourEnd = (hourIndex + 1) * HOUR_MS - CHINA_OFFSET_MS;
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

  abstract snapshot(): MeterSnapshot;
}

// ---------------------------------------------------------------------------------------------
// DL/T 645-2007 electricity meter
// ---------------------------------------------------------------------------------------------

/** DL/T 645 block items (总 + 4 rates, 5 × XXXXXX.XX) that the codec table does not list. */
export const DLT645_BLOCK_DI = {
  /** 组合有功电能数据块 */
  COMBINED_ACTIVE_BLOCK: 0x0000ff00,
  /** 正向有功电能数据块 */
  FORWARD_ACTIVE_BLOCK: 0x0001ff00,
} as const;

/** 错误信息字 ERR bits (DL/T 645-2007 table): bit 0 其他错误, bit 1 无请求数据, bit 2 密码错/未授权. */
const ERR_OTHER = 0x01;
const ERR_NO_DATA = 0x02;
const ERR_UNAUTHORIZED = 0x04;

/**
 * 参变量 the meter accepts 写数据 (0x14) for and answers reads of: the items the platform sets
 * (the server's `DLT645_PARAMS`), with their BCD layouts and the values a new meter holds.
 */
/** What a new simulated meter holds in each parameter register (the table itself is @meter/protocol's). */
const PARAM_INITIAL: Readonly<Record<Dlt645Param, number | null>> = {
  alarm1Money: 20,
  alarm2Money: 10,
  overdraftLimit: 0,
  hoardLimit: 999999.99,
  closeAllowMoney: 0,
  ctRatio: 1,
  ptRatio: 1,
  /** 表号: 12 digits; a new meter's number is its address. */
  meterNumber: null,
};

export const DLT645_PARAM_REGISTERS: Readonly<Record<number, Dlt645DataItem & { initial: number | null }>> = Object.freeze(
  Object.fromEntries(
    DLT645_PARAM_KEYS.map((key) => {
      const { dataId } = DLT645_PARAMS[key];
      return [dataId, { ...DLT645_PARAM_ITEMS[dataId], initial: PARAM_INITIAL[key] }];
    }),
  ),
);

const PARAM_BY_KEY: ReadonlyMap<string, number> = new Map(Object.entries(DLT645_PARAM_REGISTERS).map(([di, item]) => [item.key, Number(di)]));

const hex2 = (b: number) => b.toString(16).toUpperCase().padStart(2, '0');

const RATE_DI: ReadonlyArray<[number, TouPeriod]> = [
  [1, 'sharp'],
  [2, 'peak'],
  [3, 'flat'],
  [4, 'valley'],
];

const COMMAND_NAME: Readonly<Record<number, string>> = {
  [DLT645_REMOTE_COMMAND.TRIP]: 'trip',
  [DLT645_REMOTE_COMMAND.ALLOW_CLOSE]: 'allowClose',
  [DLT645_REMOTE_COMMAND.CLOSE_DIRECT]: 'closeDirect',
  [DLT645_REMOTE_COMMAND.ALARM]: 'alarm',
  [DLT645_REMOTE_COMMAND.ALARM_RELEASE]: 'alarmRelease',
  [DLT645_REMOTE_COMMAND.HOLD_POWER]: 'holdPower',
  [DLT645_REMOTE_COMMAND.HOLD_POWER_RELEASE]: 'holdPowerRelease',
};

function weekday(dt: MeterDateTime): number {
  return new Date(Date.UTC(dt.year, dt.month - 1, dt.day)).getUTCDay();
}

export class ElectricMeter extends SimMeter {
  /** 保电: while on, 拉闸 is refused. */
  powerHold = false;
  /** 报警 (shown as 预跳闸报警 in status word 3). */
  alarm = false;
  readonly phases: 1 | 3;
  readonly unitPrice: number;
  private readonly tou: Record<TouPeriod, number>;
  private readonly balance: number;
  private consumed = 0;
  /** Last commanded relay state (status word 3 bit 6); differs from the relay when stuck. */
  private relayCommand: 'connect' | 'disconnect';
  private readonly password: string | undefined;
  /** Stored 参变量 values by DI (see {@link DLT645_PARAM_REGISTERS}). */
  private readonly params = new Map<number, Dlt645Values>();

  constructor(def: MeterDefinition, env: MeterEnvironment) {
    if (def.kind !== 'electric') throw new RangeError(`ElectricMeter needs kind 'electric', got ${def.kind}`);
    if ((def.protocol ?? 'dlt645') !== 'dlt645') throw new RangeError(`electric meters speak dlt645, got ${def.protocol}`);
    super(def, env, 'dlt645');
    this.phases = def.phases ?? 1;
    if (this.phases !== 1 && this.phases !== 3) throw new RangeError(`phases must be 1 or 3, got ${String(def.phases)}`);
    this.unitPrice = def.unitPrice ?? 0.6;
    this.balance = def.balance ?? 100;
    if (!(this.unitPrice > 0)) throw new RangeError('unitPrice must be > 0');
    if (def.password !== undefined && !/^[0-9a-fA-F]{6}$/.test(def.password)) {
      throw new RangeError('password must be 6 hex digits');
    }
    this.password = def.password?.toUpperCase();
    this.relayCommand = this.supply ? 'connect' : 'disconnect';
    for (const [di, item] of Object.entries(DLT645_PARAM_REGISTERS)) {
      const given = def.params?.[item.key];
      const v = given ?? item.initial ?? this.address;
      const values: Dlt645Values = item.format.type === 'address' ? { address: String(v) } : { value: Number(v) };
      try {
        // validate by encoding: the value must fit the item's BCD layout
        this.params.set(Number(di), dlt645.decodeValues(item.format, dlt645.encodeValues(item.format, values)));
      } catch (e) {
        if (isProtocolError(e)) throw new RangeError(`params.${item.key} ${JSON.stringify(v)} does not fit the meter's register: ${e.message}`, { cause: e });
        throw e;
      }
    }
    for (const k of Object.keys(def.params ?? {})) if (!PARAM_BY_KEY.has(k)) throw new RangeError(`unknown meter parameter ${JSON.stringify(k)}`);
    // Split the initial register over the rates by the number of hours each has in the table.
    const table = env.touTable;
    const initial = this.totalValue;
    this.tou = { sharp: 0, peak: 0, flat: 0, valley: 0 };
    for (const p of TOU_PERIODS) this.tou[p] = (initial * table.filter((x) => x === p).length) / 24;
  }

  protected override accumulate(amount: number, hourOfDay: number): void {
    this.totalValue += amount;
    this.tou[this.env.touTable[hourOfDay] ?? DEFAULT_TOU_TABLE[hourOfDay]] += amount;
    this.consumed += amount;
  }

  /** 尖峰平谷 registers now (kWh, full precision). */
  get touRegisters(): Record<TouPeriod, number> {
    this.advance();
    return { ...this.tou };
  }

  /** The meter's local remaining money (元, ≥ 0) and overdraft. */
  get money(): { remaining: number; overdraft: number } {
    this.advance();
    const m = this.balance - this.consumed * this.unitPrice;
    return { remaining: Math.max(0, m), overdraft: Math.max(0, -m) };
  }

  /** The stored 参变量 by key (alarm1Money … meterNumber), as a read would answer them. */
  get parameters(): Record<string, number | string> {
    const out: Record<string, number | string> = {};
    for (const [di, v] of this.params) out[DLT645_PARAM_REGISTERS[di].key] = (v.address ?? v.value) as number | string;
    return out;
  }

  /** 继电器状态. */
  get relay(): 'connected' | 'disconnected' {
    return this.supply ? 'connected' : 'disconnected';
  }

  /** 电表运行状态字3 as a 16-bit word. */
  statusWord3(): number {
    return dlt645.encodeStatusWord3({
      powerSupply: 'main',
      relayState: this.supply ? 'connected' : 'disconnected',
      relayCommand: this.relayCommand,
      preTripAlarm: this.alarm,
      meterType: 'moneyPrepaid',
      powerHold: this.powerHold,
      remoteAccountOpened: true,
    });
  }

  override setSupply(on: boolean): void {
    super.setSupply(on);
    this.relayCommand = on ? 'connect' : 'disconnect';
  }

  override snapshot(): MeterSnapshot {
    this.advance();
    const money = this.money;
    return {
      address: this.address,
      kind: this.kind,
      protocol: this.protocol,
      total: this.totalValue,
      supplyOn: this.supply,
      actuations: this.actuations,
      meterTime: new Date(this.meterTime()),
      faults: this.faults,
      tou: { ...this.tou },
      remainingMoney: money.remaining,
      overdraftMoney: money.overdraft,
      powerHold: this.powerHold,
      params: this.parameters,
      writes: this.writes,
    };
  }

  override reportFrame(): Uint8Array {
    this.advance();
    this.counters.reports++;
    const value = registerValue(Math.max(0, this.totalValue - this.takeReversed()));
    return dlt645.encode({
      kind: 'read',
      direction: 'response',
      address: this.address,
      dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL,
      values: { value },
    });
  }

  private encode(message: Dlt645Message): Uint8Array {
    return dlt645.encode(message, { preamble: this.preamble, dataItems: DLT645_PARAM_REGISTERS });
  }

  private error(func: number, errorCode: number, command: string, reason: string): MeterReply {
    this.counters.refused++;
    this.env.onEvent?.({ type: 'refused', address: this.address, command, reason });
    return this.reply(this.encode({ kind: 'error', direction: 'response', address: this.address, func, errorCode }));
  }

  override handle(decoded: DecodedFrame): MeterReply | null {
    if (decoded.protocol !== 'dlt645') return null;
    const f = decoded.frame;
    if (f.direction !== 'request') return null;
    const target = f.address;
    const broadcast = target === DLT645_BROADCAST_ADDRESS;
    if (!broadcast && !addressMatches(target, this.address)) return null;
    if (!this.reachable) {
      this.counters.ignored++;
      return null;
    }
    this.counters.requests++;
    this.advance();
    switch (f.kind) {
      case 'broadcastTime':
        this.setClockTo(f.time);
        return null; // 广播校时 is never answered
      case 'readAddress':
        if (broadcast) return null;
        return this.reply(this.encode({ kind: 'readAddress', direction: 'response', address: this.address, meterAddress: this.address }));
      case 'read': {
        if (broadcast) return null;
        const answer = this.readItem(f.dataId);
        if (answer === null) return this.error(DLT645_CONTROL.READ, ERR_NO_DATA, `read ${f.dataIdHex}`, 'no such data item');
        return this.reply(
          this.encode(
            answer instanceof Uint8Array
              ? { kind: 'read', direction: 'response', address: this.address, dataId: f.dataId, payload: answer }
              : { kind: 'read', direction: 'response', address: this.address, dataId: f.dataId, values: answer },
          ),
        );
      }
      case 'remoteControl': {
        if (broadcast || isWildcarded(target)) return null; // control is point-to-point only
        return this.remoteControl(f.command, f.password.code, f.expiry);
      }
      case 'raw':
        if (broadcast || isWildcarded(target)) return null; // writes and the rest are point-to-point only
        if (f.control === DLT645_CONTROL.WRITE) return this.write(f.data);
        // Other functions (freeze, change password, …) addressed to this meter: "other error".
        return this.error(f.func, ERR_OTHER, `function 0x${f.func.toString(16)}`, 'unsupported function');
      default:
        return null;
    }
  }

  private passwordAccepted(code: string): boolean {
    return this.password === undefined || code.toUpperCase() === this.password;
  }

  /**
   * 写数据 (C = 0x14), plain-text layout: DI (4), PA (1) + P0P1P2 (3), C0..C3 (4), value in the DI's
   * format. Wrong password → 未授权; a DI the meter has no writable register for → 无请求数据; a value
   * of the wrong length or not BCD → 其他错误. Normal reply: 0x94 without data.
   */
  private write(data: Uint8Array): MeterReply {
    const func = DLT645_CONTROL.WRITE;
    if (data.length < 12) return this.error(func, ERR_OTHER, 'write', 'frame too short');
    const dataId = (data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)) >>> 0;
    const name = `write ${dlt645.formatDataId(dataId)}`;
    const code = hex2(data[7]) + hex2(data[6]) + hex2(data[5]);
    if (!this.passwordAccepted(code)) return this.error(func, ERR_UNAUTHORIZED, name, 'wrong password');
    const item = DLT645_PARAM_REGISTERS[dataId];
    if (!item) return this.error(func, ERR_NO_DATA, name, 'no such writable data item');
    let values: Dlt645Values;
    try {
      values = dlt645.decodeValues(item.format, data.subarray(12));
    } catch (e) {
      if (isProtocolError(e)) return this.error(func, ERR_OTHER, name, `bad value: ${e.message}`);
      throw e;
    }
    this.params.set(dataId, values);
    this.wrote(item.key, (values.address ?? values.value) as number | string);
    return this.reply(this.encode({ kind: 'raw', address: this.address, control: DLT645_CONTROL.WRITE | DLT645_CONTROL_BITS.DIRECTION, data: new Uint8Array(0) }));
  }

  private remoteControl(command: number, password: string, expiry: MeterDateTime): MeterReply {
    const name = COMMAND_NAME[command] ?? `0x${command.toString(16)}`;
    const func = DLT645_CONTROL.REMOTE_CONTROL;
    if (!this.passwordAccepted(password)) {
      return this.error(func, ERR_UNAUTHORIZED, name, 'wrong password');
    }
    if (this.env.checkCommandExpiry && fromMeterDateTime(expiry).getTime() < this.meterTime()) {
      return this.error(func, ERR_OTHER, name, 'command expired');
    }
    switch (command) {
      case DLT645_REMOTE_COMMAND.TRIP:
        if (this.powerHold) return this.error(func, ERR_OTHER, name, 'power hold (保电) is on');
        this.relayCommand = 'disconnect';
        this.actuate(false, name);
        break;
      case DLT645_REMOTE_COMMAND.ALLOW_CLOSE:
      case DLT645_REMOTE_COMMAND.CLOSE_DIRECT:
        this.relayCommand = 'connect';
        this.actuate(true, name);
        break;
      case DLT645_REMOTE_COMMAND.HOLD_POWER:
        this.powerHold = true;
        break;
      case DLT645_REMOTE_COMMAND.HOLD_POWER_RELEASE:
        this.powerHold = false;
        break;
      case DLT645_REMOTE_COMMAND.ALARM:
        this.alarm = true;
        break;
      case DLT645_REMOTE_COMMAND.ALARM_RELEASE:
        this.alarm = false;
        break;
      default:
        return this.error(func, ERR_OTHER, name, 'unknown control command');
    }
    return this.reply(this.encode({ kind: 'remoteControl', direction: 'response', address: this.address }));
  }

  /** Values (or raw payload for block items) of a data item; `null` when the meter has none. */
  readItem(dataId: number): Dlt645Values | Uint8Array | null {
    const DI = DLT645_DI;
    const param = this.params.get(dataId);
    if (param) return { ...param };
    if (dataId === DLT645_BLOCK_DI.COMBINED_ACTIVE_BLOCK || dataId === DLT645_BLOCK_DI.FORWARD_ACTIVE_BLOCK) {
      const out = new Uint8Array(20);
      const total = registerValue(Math.max(0, this.totalValue - this.takeReversed()));
      out.set(encodeBcdDecimal(total, 4, 2), 0);
      RATE_DI.forEach(([n, p]) => out.set(encodeBcdDecimal(registerValue(this.tou[p]), 4, 2), n * 4));
      return out;
    }
    // Energy: combined (00 00 xx 00) equals forward (00 01 xx 00): these meters never export.
    const energyGroup = (dataId & 0xffff00ff) >>> 0;
    if (energyGroup === 0 || energyGroup === 0x00010000) {
      const rate = (dataId >>> 8) & 0xff;
      if (rate === 0) return { value: registerValue(Math.max(0, this.totalValue - this.takeReversed())) };
      const period = RATE_DI.find(([n]) => n === rate)?.[1];
      return period ? { value: registerValue(this.tou[period]) } : null;
    }
    const threePhase = this.phases === 3;
    const rate = this.instantaneousRate(); // kW
    const voltage = () => Math.round((220 + (this.jitter(1) - 0.5) * 12) * 10) / 10;
    const pf = 0.92 + 0.07 * this.jitter(2);
    const phasePower = threePhase ? rate / 3 : rate;
    const current = () => Math.min(799.999, Math.round(((phasePower * 1000) / (voltage() * pf)) * 1000) / 1000);
    const power = (p: number) => Math.min(79.9999, Math.round(p * 10000) / 10000);
    switch (dataId) {
      case DI.REVERSE_ACTIVE_TOTAL:
        return { value: 0 };
      case DI.REMAINING_MONEY:
        return { value: Math.floor(this.money.remaining * 100) / 100 };
      case DI.OVERDRAFT_MONEY:
        return { value: Math.ceil(this.money.overdraft * 100 - 1e-6) / 100 };
      case DI.REMAINING_ENERGY:
        return { value: Math.floor((this.money.remaining / this.unitPrice) * 100) / 100 };
      case DI.OVERDRAFT_ENERGY:
        return { value: Math.ceil((this.money.overdraft / this.unitPrice) * 100 - 1e-6) / 100 };
      case DI.VOLTAGE_A:
        return { value: voltage() };
      case DI.VOLTAGE_B:
      case DI.VOLTAGE_C:
        return threePhase ? { value: voltage() } : null;
      case DI.CURRENT_A:
        return { value: current() };
      case DI.CURRENT_B:
      case DI.CURRENT_C:
        return threePhase ? { value: current() } : null;
      case DI.ACTIVE_POWER_TOTAL:
        return { value: power(rate) };
      case DI.ACTIVE_POWER_A:
        return { value: power(phasePower) };
      case DI.ACTIVE_POWER_B:
      case DI.ACTIVE_POWER_C:
        return threePhase ? { value: power(phasePower) } : null;
      case DI.POWER_FACTOR_TOTAL:
        return { value: Math.round(pf * 1000) / 1000 };
      case DI.FREQUENCY:
        return { value: Math.round((49.95 + 0.1 * this.jitter(3)) * 100) / 100 };
      case DI.DATE: {
        const dt = toMeterDateTime(new Date(this.meterTime()));
        return { year: dt.year, month: dt.month, day: dt.day, weekday: weekday(dt) };
      }
      case DI.TIME: {
        const dt = toMeterDateTime(new Date(this.meterTime()));
        return { hour: dt.hour, minute: dt.minute, second: dt.second };
      }
      case DI.COMM_ADDRESS:
      case DI.METER_NUMBER:
        return { address: this.address };
      case DI.STATUS_WORD_3:
        return { raw: this.statusWord3() };
      default:
        return null;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// CJ/T 188-2004 water meter
// ---------------------------------------------------------------------------------------------

/** 写标准时间 (C = 0x04): 7 bytes in the 901F real-time layout (ss mm hh DD MM YY YY). */
export const CJT188_WRITE_TIME_DI = 0xa015;
/** 写结算日 (C = 0x04): 1 BCD byte, the day of the month (1..28) the settlement flow is taken. */
export const CJT188_WRITE_SETTLE_DAY_DI = 0xa011;

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function cjtRealTime(epochMs: number): string {
  const dt = toMeterDateTime(new Date(epochMs));
  return `${dt.year}-${pad2(dt.month)}-${pad2(dt.day)} ${pad2(dt.hour)}:${pad2(dt.minute)}:${pad2(dt.second)}`;
}

function bcd(b: number): number | null {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi > 9 || lo > 9 ? null : hi * 10 + lo;
}

export class WaterMeter extends SimMeter {
  readonly meterType: number;
  readonly statusProfile: 'standard' | 'msbFirst';
  private settlement: number;
  /** 结算日: the settlement flow is taken at 00:00 on this day of each month (China time). */
  private settleDayValue: number | undefined;

  constructor(def: MeterDefinition, env: MeterEnvironment) {
    if (def.kind !== 'water') throw new RangeError(`WaterMeter needs kind 'water', got ${def.kind}`);
    if ((def.protocol ?? 'cjt188') !== 'cjt188') throw new RangeError(`water meters speak cjt188, got ${def.protocol}`);
    super(def, env, 'cjt188');
    this.meterType = def.meterType ?? CJT188_METER_TYPE.COLD_WATER;
    if (!(Number.isInteger(this.meterType) && this.meterType >= 0x10 && this.meterType <= 0x1f)) {
      throw new RangeError(`water meter type must be 0x10..0x1F, got ${this.meterType}`);
    }
    this.statusProfile = def.statusProfile ?? 'standard';
    this.settlement = this.totalValue;
    const day = def.settleDay ?? 1;
    if (!(Number.isInteger(day) && day >= 1 && day <= 28)) throw new RangeError(`settleDay must be 1..28, got ${String(def.settleDay)}`);
    this.settleDayValue = day;
    this.resetSettlementPeriod();
  }

  protected override onSettlementDay(): void {
    this.settlement = this.totalValue;
  }

  /** 结算日 (1..28). */
  get settleDay(): number {
    return this.settleDayValue ?? 1;
  }

  /** Periods run from 00:00 on the settle day to the next month's: day D minus D−1 days is the 1st. */
  protected override settlementKey(epochMs: number): number {
    return chinaMonthKey(epochMs - (this.settleDay - 1) * DAY_MS);
  }

  /** 阀门状态. */
  get valve(): 'open' | 'closed' {
    return this.supply ? 'open' : 'closed';
  }

  /** The ST word as this meter's status profile encodes it. */
  statusWord(): number {
    return cjt188.profiles[this.statusProfile].encode({ valve: this.valve, batteryLow: this.faultState.lowBattery });
  }

  override snapshot(): MeterSnapshot {
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
      settleDay: this.settleDay,
      settlementTotal: this.settlement,
    };
  }

  private encode(message: Cjt188Message, preamble = this.preamble): Uint8Array {
    return cjt188.encode(message, { preamble, profile: this.statusProfile });
  }

  private meterData(ser: number, diOrder: Cjt188DiOrder): Cjt188Message {
    return {
      kind: 'readData',
      direction: 'response',
      meterType: this.meterType,
      address: this.address,
      ser,
      diOrder,
      dataId: CJT188_DI.METER_DATA,
      values: {
        kind: 'flow',
        currentFlow: registerValue(Math.max(0, this.totalValue - this.takeReversed())),
        currentFlowUnit: CJT188_UNIT.m3,
        settlementFlow: registerValue(this.settlement),
        settlementFlowUnit: CJT188_UNIT.m3,
        realTime: cjtRealTime(this.meterTime()),
        status: { valve: this.valve, batteryLow: this.faultState.lowBattery },
      },
    };
  }

  override reportFrame(): Uint8Array {
    this.advance();
    this.counters.reports++;
    return this.encode(this.meterData(0, 'be'), 0);
  }

  private abnormal(func: number, data: Uint8Array, command: string, reason: string): MeterReply {
    this.counters.refused++;
    this.env.onEvent?.({ type: 'refused', address: this.address, command, reason });
    const st = this.statusWord();
    const body = new Uint8Array(data.length + 2);
    body.set(data);
    body[data.length] = st & 0xff;
    body[data.length + 1] = st >> 8;
    return this.reply(
      this.encode({ kind: 'raw', meterType: this.meterType, address: this.address, control: 0xc0 | func, data: body }),
    );
  }

  override handle(decoded: DecodedFrame): MeterReply | null {
    if (decoded.protocol !== 'cjt188') return null;
    const f = decoded.frame;
    if (f.direction !== 'request') return null;
    if (f.meterType !== this.meterType && f.meterType !== CJT188_METER_TYPE.WILDCARD) return null;
    if (!addressMatches(f.address, this.address)) return null;
    if (!this.reachable) {
      this.counters.ignored++;
      return null;
    }
    this.counters.requests++;
    this.advance();
    const pointToPoint = !isWildcarded(f.address);
    switch (f.kind) {
      case 'readData':
        if (f.dataId !== CJT188_DI.METER_DATA) {
          return this.abnormal(f.func, f.data.slice(0, 3), `read ${f.dataIdHex}`, 'no such data item');
        }
        return this.reply(this.encode(this.meterData(f.ser, f.diOrder)));
      case 'readAddress':
        return this.reply(
          this.encode({
            kind: 'readAddress',
            direction: 'response',
            meterType: this.meterType,
            address: this.address,
            ser: f.ser,
            diOrder: f.diOrder,
          }),
        );
      case 'valveControl': {
        if (!pointToPoint) return null;
        if (f.valve !== CJT188_VALVE.OPEN && f.valve !== CJT188_VALVE.CLOSE) {
          return this.abnormal(f.func, f.data.slice(0, 3), `valve 0x${f.valve.toString(16)}`, 'unknown valve command');
        }
        const open = f.valve === CJT188_VALVE.OPEN;
        this.actuate(open, open ? 'openValve' : 'closeValve');
        return this.reply(
          this.encode({
            kind: 'valveControl',
            direction: 'response',
            meterType: this.meterType,
            address: this.address,
            ser: f.ser,
            diOrder: f.diOrder,
            status: { valve: this.valve, batteryLow: this.faultState.lowBattery },
          }),
        );
      }
      case 'raw':
        if (!pointToPoint) return null;
        return this.rawRequest(f.control, f.func, f.data);
      default:
        return null;
    }
  }

  /** Requests the codec leaves raw: 写标准时间 (A015), 写结算日 (A011); anything else gets an abnormal reply. */
  private rawRequest(control: number, func: number, data: Uint8Array): MeterReply | null {
    if (data.length < 3) return null;
    const be = (data[0] << 8) | data[1];
    const le = (data[1] << 8) | data[0];
    const is = (di: number) => control === CJT188_CONTROL.WRITE_DATA && (be === di || le === di);
    const head = data.slice(0, 3);
    if (is(CJT188_WRITE_TIME_DI)) {
      if (data.length !== 10) return this.abnormal(func, head, 'writeTime', 'bad length');
      const d = Array.from(data.subarray(3, 10), bcd);
      if (d.some((x) => x === null)) return this.abnormal(func, head, 'writeTime', 'not BCD');
      const [second, minute, hour, day, month, yearLo, yearHi] = d as number[];
      this.setClockTo({ year: yearHi * 100 + yearLo, month, day, hour, minute, second });
      this.wrote('time', cjtRealTime(this.meterTime()));
      return this.writeAck(head);
    }
    if (is(CJT188_WRITE_SETTLE_DAY_DI)) {
      if (data.length !== 4) return this.abnormal(func, head, 'writeSettleDay', 'bad length');
      const day = bcd(data[3]);
      if (day === null || day < 1 || day > 28) return this.abnormal(func, head, 'writeSettleDay', 'settle day must be 1..28');
      this.advance(); // the flow so far settles under the old day
      this.settleDayValue = day;
      this.resetSettlementPeriod();
      this.wrote('settleDay', day);
      return this.writeAck(head);
    }
    return this.abnormal(func, head, `control 0x${control.toString(16)}`, 'unsupported function');
  }

  /** 写数据 normal reply (C = 0x84): the request's DI and SER. */
  private writeAck(head: Uint8Array): MeterReply {
    return this.reply(
      this.encode({ kind: 'raw', meterType: this.meterType, address: this.address, control: CJT188_CONTROL.WRITE_DATA_RESPONSE, data: head }),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Factory
// ---------------------------------------------------------------------------------------------

/** Build the right meter class for a definition. */
export function createMeter(def: MeterDefinition, env: MeterEnvironment): ElectricMeter | WaterMeter {
  if (def.kind === 'electric') return new ElectricMeter(def, env);
  if (def.kind === 'water') return new WaterMeter(def, env);
  throw new RangeError(`meter kind must be 'electric' or 'water', got ${JSON.stringify((def as { kind?: unknown }).kind)}`);
}

export type AnyMeter = ElectricMeter | WaterMeter;
