// The simulated DL/T 645-2007 electricity meter: registers, rates, money, relay, parameters and its answers.
import { DLT645_BROADCAST_ADDRESS, DLT645_CONTROL, DLT645_CONTROL_BITS, DLT645_DI, DLT645_PARAMS, DLT645_PARAM_ITEMS, DLT645_PARAM_KEYS, DLT645_REMOTE_COMMAND, dlt645, encodeBcdDecimal, fromMeterDateTime, isProtocolError, toMeterDateTime, type Dlt645DataItem, type Dlt645Message, type Dlt645Values, type MeterDateTime, type Dlt645Param } from '@meter/protocol';
import { DEFAULT_TOU_TABLE, TOU_PERIODS, type TouPeriod } from './profiles.ts';
import type { MeterDefinition } from './types.ts';
import { SimMeter, type DecodedFrame, type MeterEnvironment, type MeterReply, type MeterSnapshot, addressMatches, isWildcarded, registerValue } from './meter-base.ts';

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

  protected override kindSnapshot(): Partial<MeterSnapshot> {
    const money = this.money;
    return {
      tou: { ...this.tou },
      remainingMoney: money.remaining,
      overdraftMoney: money.overdraft,
      powerHold: this.powerHold,
      params: this.parameters,
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
    // 倍率异常: the CT ratio register answers the fault's ratio, not what was written
    if (param && dataId === DLT645_PARAMS.ctRatio.dataId && this.faultState.rateError > 0) return { value: this.faultState.rateError };
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
