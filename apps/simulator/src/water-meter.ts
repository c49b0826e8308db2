// The simulated CJ/T 188-2004 water meter: settlement day, valve, status word and its answers.
import { CJT188_CONTROL, CJT188_DI, CJT188_METER_TYPE, CJT188_UNIT, CJT188_VALVE, cjt188, toMeterDateTime, type Cjt188DiOrder, type Cjt188Message } from '@meter/protocol';
import { DAY_MS, chinaMonthKey } from './clock.ts';
import type { MeterDefinition } from './types.ts';
import { SimMeter, type DecodedFrame, type MeterEnvironment, type MeterReply, type MeterSnapshot, addressMatches, isWildcarded, registerValue } from './meter-base.ts';

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

  protected override kindSnapshot(): Partial<MeterSnapshot> {
    return { settleDay: this.settleDay, settlementTotal: this.settlement };
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
