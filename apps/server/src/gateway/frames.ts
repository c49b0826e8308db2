import { Decimal } from 'decimal.js';
import {
  CJT188_CONTROL,
  CJT188_DI,
  CJT188_METER_TYPE,
  CJT188_UNIT,
  CJT188_VALVE,
  DLT645_CONTROL,
  DLT645_DI,
  DLT645_PARAMS,
  DLT645_PARAM_ITEMS,
  DLT645_PARAM_KEYS,
  DLT645_REMOTE_COMMAND,
  FrameSplitter,
  cjt188,
  dlt645,
  fromHex,
  toMeterDateTime,
  type Cjt188Frame,
  type Dlt645Frame,
  type Dlt645Param,
  type MeterDateTime,
} from '@meter/protocol';
import { fromBeijingFields } from '../time.ts';

// What the platform says to meters and how it reads their answers: request builders, reply
// correlation and the interpretation of replies into facts (reading, relay/valve state, clock).
// Pure functions over @meter/protocol; no I/O.

export type Protocol = 'dlt645' | 'cjt188';

/** How a reply is recognised: the meter's address, the function answered and (if any) the data identifier. */
export interface Expect {
  protocol: Protocol;
  address: string;
  func: number;
  dataId?: number;
}

/** One frame to a meter and what answer to wait for (null: no answer expected, e.g. broadcast time). */
export interface DeviceRequest {
  /** the frame, hex without separators */
  frame: string;
  expect: Expect | null;
  /** for logs and device reports: 读电量, 拉闸 … */
  label: string;
  /** resend after a timeout this many times (0 for actuating frames: read back instead of resending) */
  retries?: number;
  timeoutMs?: number;
  /** the command this frame belongs to (carried in MQTT down payloads) */
  ref?: number;
  /** write the frame and its reply to device_reports (control frames) */
  log?: boolean;
  /**
   * epoch ms after which the frame must not be put on the wire (a request relayed from another
   * process carries its signed expiry here: a late or replayed request never actuates)
   */
  validUntil?: number;
}

/** A decoded frame and its bytes as hex (for logs and for forwarding to another process). */
export type Decoded = ({ protocol: 'dlt645'; frame: Dlt645Frame } | { protocol: 'cjt188'; frame: Cjt188Frame }) & { hex: string };

/** Bytes as upper-case hex without separators (Buffer's encoder: the codec's toHex is ~10× slower). */
export const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex').toUpperCase();

/** A decoded frame; `hex` is computed on demand (most reported frames are never logged). */
class DecodedFrame {
  constructor(
    readonly protocol: Protocol,
    readonly frame: Dlt645Frame | Cjt188Frame,
    private readonly bytes: Uint8Array,
  ) {}

  get hex(): string {
    return hex(this.bytes);
  }
}

/** Decode one complete frame of the given protocol. Throws ProtocolError. */
export function decodeFrame(protocol: Protocol, bytes: Uint8Array): Decoded {
  const frame = protocol === 'dlt645' ? dlt645.decode(bytes, DLT645_DECODE_OPTIONS) : cjt188.decode(bytes);
  return new DecodedFrame(protocol, frame, bytes) as Decoded;
}

/**
 * Cuts one payload (an MQTT message's frame) into exactly one checksum-valid frame, or throws.
 * The splitter decides the protocol by structure.
 */
export function singleFrame(bytes: Uint8Array): { protocol: Protocol; bytes: Uint8Array } {
  const s = new FrameSplitter({ emitText: false });
  const items = [...s.push(bytes), ...s.flush()].filter((i) => i.kind === 'frame');
  if (items.length !== 1 || items[0].kind !== 'frame') throw new Error(items.length ? '一条消息中包含多个报文' : '报文格式错误或校验失败');
  return { protocol: items[0].protocol, bytes: items[0].bytes };
}

/** The data identifier a CJ/T 188 frame the codec left raw carries (either byte order), if any. */
function rawCjtDi(data: Uint8Array): number[] {
  if (data.length < 2) return [];
  return [(data[0] << 8) | data[1], (data[1] << 8) | data[0]];
}

/** Does this decoded frame answer the request described by `e`? */
export function matches(e: Expect, d: Decoded): boolean {
  if (d.protocol !== e.protocol) return false;
  const f = d.frame;
  if (f.direction !== 'response') return false;
  if (f.address.toUpperCase() !== e.address.toUpperCase()) return false;
  if (f.func !== e.func) return false;
  if (e.dataId === undefined || f.abnormal) return true;
  if (d.protocol === 'dlt645') {
    const g = d.frame;
    if (g.kind === 'read') return g.dataId === e.dataId;
    if (g.kind === 'raw') return g.data.length >= 4 && ((g.data[0] | (g.data[1] << 8) | (g.data[2] << 16) | (g.data[3] << 24)) >>> 0) === e.dataId;
    return true;
  }
  const g = d.frame;
  if (g.kind === 'raw') return rawCjtDi(g.data).includes(e.dataId);
  return 'dataId' in g ? g.dataId === e.dataId : true;
}

// ---------------------------------------------------------------------------------------------
// DL/T 645-2007
// ---------------------------------------------------------------------------------------------

// The parameters (参变量) the platform reads and sets: one table in @meter/protocol, shared with the simulator.
export { DLT645_PARAMS, DLT645_PARAM_KEYS, DLT645_PARAM_ITEMS, type Dlt645Param };

/** How reported and answered DL/T 645 frames are decoded: the codec's table plus the parameters above. */
const DLT645_DECODE_OPTIONS = { dataItems: DLT645_PARAM_ITEMS };

/** Password and operator code for DL/T 645 control and write frames. */
export interface Dlt645Auth {
  /** PA + P2P1P0 as 8 hex digits, e.g. 02000000 (level 02, code 000000) */
  password: string;
  /** C3C2C1C0, 8 hex digits */
  operator: string;
}

const leHex = (text: string, bytes: number) => {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[bytes - 1 - i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
};

const diBytes = (dataId: number) => Uint8Array.of(dataId & 0xff, (dataId >>> 8) & 0xff, (dataId >>> 16) & 0xff, dataId >>> 24);

export const dlt = {
  read(address: string, dataId: number, label: string): DeviceRequest {
    return {
      frame: hex(dlt645.encode({ kind: 'read', direction: 'request', address, dataId })),
      expect: { protocol: 'dlt645', address, func: DLT645_CONTROL.READ, dataId },
      label,
    };
  },
  /** 拉闸 (trip: cut supply), 直接合闸 (restore), 保电, 保电解除. Valid for 10 minutes. */
  remote(address: string, command: number, auth: Dlt645Auth, now: Date, label: string): DeviceRequest {
    const expiry = toMeterDateTime(new Date(now.getTime() + 10 * 60_000));
    return {
      frame: hex(
        dlt645.encode({
          kind: 'remoteControl',
          direction: 'request',
          address,
          password: { level: parseInt(auth.password.slice(0, 2), 16), code: auth.password.slice(2) },
          operator: auth.operator,
          command,
          expiry,
        }),
      ),
      expect: { protocol: 'dlt645', address, func: DLT645_CONTROL.REMOTE_CONTROL },
      label,
      retries: 0,
      log: true,
    };
  },
  /** 写数据 (C = 0x14): DI, PA P0P1P2, C0..C3, value. */
  write(address: string, param: Dlt645Param, value: string, auth: Dlt645Auth): DeviceRequest {
    const p = DLT645_PARAMS[param];
    const item = DLT645_PARAM_ITEMS[p.dataId];
    const valueBytes = dlt645.encodeValues(item.format, item.format.type === 'address' ? { address: value } : { value: Number(value) });
    const data = new Uint8Array(12 + valueBytes.length);
    data.set(diBytes(p.dataId), 0);
    data[4] = parseInt(auth.password.slice(0, 2), 16);
    data.set(leHex(auth.password.slice(2), 3), 5);
    data.set(leHex(auth.operator, 4), 8);
    data.set(valueBytes, 12);
    return {
      frame: hex(dlt645.encode({ kind: 'raw', address, control: DLT645_CONTROL.WRITE, data })),
      expect: { protocol: 'dlt645', address, func: DLT645_CONTROL.WRITE },
      label: `设置${p.label}`,
      retries: 0,
      log: true,
    };
  },
  /** 广播校时: the meters on the bus set their clocks; none answers. */
  broadcastTime(now: Date): DeviceRequest {
    return {
      frame: hex(dlt645.encode({ kind: 'broadcastTime', direction: 'request', time: toMeterDateTime(now) })),
      expect: null,
      label: '广播校时',
      log: true,
    };
  },
};

export const DLT645_READS = {
  total: { dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL, label: '读正向有功总电能' },
  status: { dataId: DLT645_DI.STATUS_WORD_3, label: '读运行状态字3' },
  date: { dataId: DLT645_DI.DATE, label: '读日期' },
  time: { dataId: DLT645_DI.TIME, label: '读时间' },
  voltage: { dataId: DLT645_DI.VOLTAGE_A, label: '读A相电压' },
  current: { dataId: DLT645_DI.CURRENT_A, label: '读A相电流' },
  power: { dataId: DLT645_DI.ACTIVE_POWER_TOTAL, label: '读总有功功率' },
  balance: { dataId: DLT645_DI.REMAINING_MONEY, label: '读剩余金额' },
  address: { dataId: DLT645_DI.COMM_ADDRESS, label: '读通信地址' },
  meterNumber: { dataId: DLT645_DI.METER_NUMBER, label: '读表号' },
} as const;

export const DLT645_COMMANDS = {
  trip: { command: DLT645_REMOTE_COMMAND.TRIP, label: '拉闸' },
  close: { command: DLT645_REMOTE_COMMAND.CLOSE_DIRECT, label: '合闸' },
  hold: { command: DLT645_REMOTE_COMMAND.HOLD_POWER, label: '保电' },
  release: { command: DLT645_REMOTE_COMMAND.HOLD_POWER_RELEASE, label: '保电解除' },
} as const;

// ---------------------------------------------------------------------------------------------
// CJ/T 188-2004
// ---------------------------------------------------------------------------------------------

/** 写标准时间 and 写结算日 (not in the codec's table: written as raw frames). */
export const CJT188_WRITE_DI = { TIME: 0xa015, SETTLE_DAY: 0xa011 } as const;

const bcd = (n: number) => ((Math.floor(n / 10) % 10) << 4) | (n % 10);

export const cjt = {
  meterType: CJT188_METER_TYPE.COLD_WATER,
  read(address: string): DeviceRequest {
    return {
      frame: hex(cjt188.encode({ kind: 'readData', direction: 'request', meterType: cjt.meterType, address })),
      expect: { protocol: 'cjt188', address, func: CJT188_CONTROL.READ_DATA, dataId: CJT188_DI.METER_DATA },
      label: '读计量数据',
    };
  },
  valve(address: string, open: boolean): DeviceRequest {
    return {
      frame: hex(
        cjt188.encode({
          kind: 'valveControl',
          direction: 'request',
          meterType: cjt.meterType,
          address,
          valve: open ? CJT188_VALVE.OPEN : CJT188_VALVE.CLOSE,
        }),
      ),
      expect: { protocol: 'cjt188', address, func: CJT188_CONTROL.WRITE_DATA, dataId: CJT188_DI.VALVE_CONTROL },
      label: open ? '开阀' : '关阀',
      retries: 0,
      log: true,
    };
  },
  /** 写数据 with DI + SER + payload, e.g. standard time (ss mm hh DD MM YYYY as BCD, low byte first). */
  write(address: string, dataId: number, payload: number[], label: string): DeviceRequest {
    const data = Uint8Array.from([dataId >> 8, dataId & 0xff, 0, ...payload]);
    return {
      frame: hex(cjt188.encode({ kind: 'raw', meterType: cjt.meterType, address, control: CJT188_CONTROL.WRITE_DATA, data })),
      expect: { protocol: 'cjt188', address, func: CJT188_CONTROL.WRITE_DATA, dataId },
      label,
      retries: 0,
      log: true,
    };
  },
  writeTime(address: string, now: Date): DeviceRequest {
    const t = toMeterDateTime(now);
    return cjt.write(
      address,
      CJT188_WRITE_DI.TIME,
      [bcd(t.second), bcd(t.minute), bcd(t.hour), bcd(t.day), bcd(t.month), bcd(t.year % 100), bcd(Math.floor(t.year / 100))],
      '写标准时间',
    );
  },
  writeSettleDay(address: string, day: number): DeviceRequest {
    return cjt.write(address, CJT188_WRITE_DI.SETTLE_DAY, [bcd(day)], '写结算日');
  },
};

// ---------------------------------------------------------------------------------------------
// Replies → facts
// ---------------------------------------------------------------------------------------------

/** What a reply says about the meter. */
export interface Facts {
  /** register total (kWh or m³), as an exact decimal string with 2 places */
  total?: string;
  /** 1 通/open, 0 断/closed */
  valve?: 0 | 1;
  /** the valve reports a fault (CJ/T 188 ST 11) */
  valveFault?: boolean;
  powerHold?: boolean;
  batteryLow?: boolean;
  /** the meter's own clock */
  meterTime?: Date;
  /** any other registers: voltage, current, power, balance, parameters … */
  registers?: Record<string, number | string | boolean>;
}

/** Why a meter refused: the abnormal reply's error bits, in Chinese. */
const DLT645_ERROR_TEXT: Record<string, string> = {
  other: '其他错误',
  noRequestedData: '无请求数据',
  unauthorized: '密码错误或未授权',
  baudRateUnchangeable: '通信速率不能更改',
  yearZonesExceeded: '年时区数超',
  dailySlotsExceeded: '日时段数超',
  tariffsExceeded: '费率数超',
  reserved: '保留错误',
};

/** The device answered abnormally: the Chinese reason, or null if the reply was normal. */
export function refusal(d: Decoded): string | null {
  if (!d.frame.abnormal) return null;
  if (d.protocol === 'dlt645' && d.frame.kind === 'error') {
    const names = d.frame.errors ?? [];
    return `设备拒绝执行（${names.map((n) => DLT645_ERROR_TEXT[n] ?? n).join('、') || '异常应答'}）`;
  }
  return '设备返回异常应答';
}

/** A meter clock (wall time in China) as an instant. */
export function meterClock(dt: MeterDateTime): Date | undefined {
  const { year, month, day, hour, minute, second } = dt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  return fromBeijingFields(year, month, day, hour, minute, second);
}

/**
 * A register value with two decimals, exactly as decimal.js would print it. Meter registers are
 * BCD with at most two (DL/T 645 energy, money) or three decimals: when the value times 100 is an
 * integer to well within a double's precision, that integer is the exact answer.
 */
function two(v: number): string {
  const c = Math.round(v * 100);
  if (v >= 0 && !Object.is(v, -0) && c < 1e15 && Math.abs(v * 100 - c) < 1e-6) {
    const s = String(c).padStart(3, '0');
    return `${s.slice(0, -2)}.${s.slice(-2)}`;
  }
  return new Decimal(v).toFixed(2);
}

/** Facts of a DL/T 645 normal read reply. */
export function dltFacts(f: Dlt645Frame): Facts {
  if (f.kind !== 'read' || f.direction !== 'response' || !f.values) return {};
  const v = f.values;
  switch (f.dataId) {
    case DLT645_DI.FORWARD_ACTIVE_TOTAL:
    case DLT645_DI.COMBINED_ACTIVE_TOTAL:
      return { total: two(Number(v.value)) };
    case DLT645_DI.STATUS_WORD_3:
      return {
        valve: v.relayState === 'connected' ? 1 : 0,
        powerHold: v.powerHold === true,
        registers: { statusWord3: Number(v.raw), onBattery: v.powerSupply === 'battery' },
      };
    case DLT645_DI.VOLTAGE_A:
      return { registers: { voltageA: Number(v.value) } };
    case DLT645_DI.CURRENT_A:
      return { registers: { currentA: Number(v.value) } };
    case DLT645_DI.ACTIVE_POWER_TOTAL:
      return { registers: { activePower: Number(v.value) } };
    case DLT645_DI.REMAINING_MONEY:
      return { registers: { balance: two(Number(v.value)) } };
    default: {
      const item = DLT645_PARAM_ITEMS[f.dataId] ?? dlt645.getDataItem(f.dataId);
      if (!item) return {};
      const val = 'value' in v ? v.value : 'address' in v ? v.address : JSON.stringify(v);
      return { registers: { [item.key]: val as number | string } };
    }
  }
}

/** DATE and TIME replies together give the meter's clock. */
export function dltClock(date: Dlt645Frame, time: Dlt645Frame): Date | undefined {
  if (date.kind !== 'read' || time.kind !== 'read' || date.direction !== 'response' || time.direction !== 'response') return undefined;
  if (!date.values || !time.values) return undefined;
  const d = date.values;
  const t = time.values;
  return meterClock({
    year: Number(d.year),
    month: Number(d.month),
    day: Number(d.day),
    hour: Number(t.hour),
    minute: Number(t.minute),
    second: Number(t.second),
  });
}

/** m³ from a CJ/T 188 flow value and its unit (L or m³). */
function cubicMetres(value: number, unit: number): string {
  if (unit !== CJT188_UNIT.L) return two(value);
  return new Decimal(value).div(1000).toFixed(2);
}

/** The valve state of a CJ/T 188 ST into the facts (open, closed or a valve fault). */
function setValve(facts: Facts, valve: string) {
  if (valve === 'open') facts.valve = 1;
  else if (valve === 'closed') facts.valve = 0;
  else if (valve === 'abnormal') facts.valveFault = true;
}

const REAL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `clock` false: without the meter's clock (a report's reading does not need it; parsing it costs). */
export function cjtFacts(f: Cjt188Frame, clock = true): Facts {
  if (f.direction !== 'response' || f.abnormal) return {};
  if (f.kind === 'readData' && f.values?.kind === 'flow') {
    const v = f.values;
    // one object of one shape per report (no spreads: this runs for every reported frame)
    const registers: Record<string, number | string | boolean> = { statusST: v.status.raw };
    if (v.settlementFlow !== null) registers.settlementFlow = cubicMetres(v.settlementFlow, v.settlementFlowUnit);
    const facts: Facts = {
      total: v.currentFlow !== null ? cubicMetres(v.currentFlow, v.currentFlowUnit) : undefined,
      batteryLow: v.status.batteryLow,
      registers,
    };
    setValve(facts, v.status.valve);
    const m = clock && v.realTime && REAL_TIME.exec(v.realTime);
    if (m) {
      const t = meterClock({ year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5], second: +m[6] });
      if (t) facts.meterTime = t;
    }
    return facts;
  }
  if (f.kind === 'valveControl' && f.direction === 'response') {
    const facts: Facts = { batteryLow: f.status.batteryLow };
    setValve(facts, f.status.valve);
    return facts;
  }
  return {};
}

/** The facts a frame tells; `clock` false: without the meter's clock (see {@link cjtFacts}). */
export function factsOf(d: Decoded, clock = true): Facts {
  return d.protocol === 'dlt645' ? dltFacts(d.frame) : cjtFacts(d.frame, clock);
}

export const bytesOf = (frameHex: string) => fromHex(frameHex);
