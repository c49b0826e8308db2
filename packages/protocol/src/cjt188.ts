/**
 * CJ/T 188-2004 codec (户用计量仪表数据传输技术条件) for water, gas and heat meters.
 *
 * Wire format of one frame (no +0x33 offset, unlike DL/T 645):
 *
 * ```
 * [FE × 0..n] 68 T A0 A1 A2 A3 A4 A5 A6 C L DATA(L bytes) CS 16
 * ```
 *
 * - T: meter type (0x10 cold water, 0x11 hot water, 0x20 heat, 0x30 gas, …);
 * - A0..A6: 7-byte BCD address, lowest byte first (0xAA = wildcard);
 * - C: control — D7 direction (1 = meter → master), D6 abnormal, D5 more frames, D4..D0 function;
 * - DATA starts with the 2-byte data identifier and the 1-byte sequence number SER;
 * - CS: sum of every byte from 0x68 through the end of DATA, modulo 256.
 *
 * Data identifier byte order: the standard writes identifiers as DI0 DI1 (e.g. 90H 1FH for
 * "901F") and sends DI0 first, so 901F appears on the wire as `90 1F` — which is what every
 * published example shows. Some vendors send `1F 90` instead. `decode()` recognises either order
 * for the identifiers it knows and reports which one it saw in `diOrder`; `encode()` uses
 * `diOrder` (default `'be'`, i.e. `90 1F`).
 *
 * The meaning of the status word ST beyond the valve and battery bits, and even the position of
 * those bits, differs between vendors: pick a status profile (`decode(bytes, { profile })`).
 */
import { bcdToByte, copyBytes, decodeAddress, decodeBcdDecimal, encodeAddress, encodeBcdDecimal, hex2 } from './bcd.ts';
import { ProtocolError } from './errors.ts';
import { checkFrameEnd, endFrame, expectBytes, frameStart, startFrame, type FrameMeta } from './frame.ts';

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** Meter type byte T. */
export const CJT188_METER_TYPE = {
  /** 冷水水表 */
  COLD_WATER: 0x10,
  /** 生活热水水表 */
  HOT_WATER: 0x11,
  /** 直饮水水表 */
  DRINKING_WATER: 0x12,
  /** 中水水表 */
  RECLAIMED_WATER: 0x13,
  /** 热量表 (计热量) */
  HEAT: 0x20,
  /** 热量表 (计冷量) */
  COOLING: 0x21,
  /** 燃气表 */
  GAS: 0x30,
  /** 电度表 */
  ELECTRICITY: 0x40,
  /** Wildcard used by some masters when the type is unknown. */
  WILDCARD: 0xaa,
} as const;

/** Control codes. */
export const CJT188_CONTROL = {
  /** 读数据 */
  READ_DATA: 0x01,
  /** 读地址 */
  READ_ADDRESS: 0x03,
  /** 写数据 (e.g. valve control) */
  WRITE_DATA: 0x04,
  /** 读密钥版本号 */
  READ_KEY_VERSION: 0x09,
  /** 写地址 */
  WRITE_ADDRESS: 0x15,
  /** 写机电同步数据 */
  WRITE_SYNC_DATA: 0x16,
  READ_DATA_RESPONSE: 0x81,
  READ_ADDRESS_RESPONSE: 0x83,
  WRITE_DATA_RESPONSE: 0x84,
  READ_KEY_VERSION_RESPONSE: 0x89,
  WRITE_ADDRESS_RESPONSE: 0x95,
  WRITE_SYNC_DATA_RESPONSE: 0x96,
} as const;

export const CJT188_CONTROL_BITS = {
  DIRECTION: 0x80,
  ABNORMAL: 0x40,
  FOLLOWING: 0x20,
  FUNCTION: 0x1f,
} as const;

/** Data identifiers (DI0 DI1 as one 16-bit number, DI0 in the high byte: 0x901F). */
export const CJT188_DI = {
  /** 计量数据 — current reading (read with C = 0x01). */
  METER_DATA: 0x901f,
  /** 读地址 (C = 0x03). */
  READ_ADDRESS: 0x810a,
  /** 阀门控制 (write with C = 0x04). */
  VALVE_CONTROL: 0xa017,
} as const;

/** Valve control command byte (data of DI A017). Vendors add their own codes. */
export const CJT188_VALVE = {
  /** 开阀 */
  OPEN: 0x55,
  /** 关阀 */
  CLOSE: 0x99,
} as const;

/** Unit codes that follow each quantity in the 901F reply. */
export const CJT188_UNIT = {
  J: 0x01,
  Wh: 0x02,
  kWh: 0x05,
  MWh: 0x08,
  /** MWh × 100 */
  MWh100: 0x0a,
  kJ: 0x0b,
  MJ: 0x0e,
  GJ: 0x11,
  /** GJ × 100 */
  GJ100: 0x13,
  W: 0x14,
  kW: 0x17,
  MW: 0x1a,
  L: 0x29,
  m3: 0x2c,
  L_per_h: 0x32,
  m3_per_h: 0x35,
} as const;

/** Printable symbol for a unit code, e.g. 0x2C → "m³". */
export const CJT188_UNIT_SYMBOL: Readonly<Record<number, string>> = Object.freeze({
  0x01: 'J',
  0x02: 'Wh',
  0x05: 'kWh',
  0x08: 'MWh',
  0x0a: 'MWh×100',
  0x0b: 'kJ',
  0x0e: 'MJ',
  0x11: 'GJ',
  0x13: 'GJ×100',
  0x14: 'W',
  0x17: 'kW',
  0x1a: 'MW',
  0x29: 'L',
  0x2c: 'm³',
  0x32: 'L/h',
  0x35: 'm³/h',
});

export const CJT188_WILDCARD_ADDRESS = 'AAAAAAAAAAAAAA';

const FRAME_OVERHEAD = 13; // 68 T A×7 C L CS 16
const KNOWN_DI = new Set<number>(Object.values(CJT188_DI));
const FLOW_PAYLOAD = 19; // 5 + 5 + 7 + 2
const HEAT_PAYLOAD = 43; // 5×5 + 3 + 3 + 3 + 7 + 2

// ---------------------------------------------------------------------------------------------
// Status word profiles
// ---------------------------------------------------------------------------------------------

/** Decoded status word ST (2 bytes, ST1 first on the wire). */
export interface Cjt188Status {
  /** ST1 | ST2 << 8. */
  raw: number;
  valve: 'open' | 'closed' | 'abnormal' | 'unknown';
  batteryLow: boolean;
}

/** How a vendor lays out the valve and battery bits of ST. */
export interface Cjt188StatusProfile {
  name: string;
  description: string;
  decode(raw: number): Cjt188Status;
  /** Start from `status.raw` (default 0) and apply `valve` / `batteryLow` if present. */
  encode(status: Partial<Cjt188Status>): number;
}

const VALVE_STATES = ['open', 'closed', 'unknown', 'abnormal'] as const; // index = 2-bit code

function bitProfile(name: string, description: string, valveShift: number, batteryBit: number): Cjt188StatusProfile {
  return Object.freeze({
    name,
    description,
    decode(raw: number): Cjt188Status {
      return {
        raw: raw & 0xffff,
        valve: VALVE_STATES[(raw >> valveShift) & 3],
        batteryLow: ((raw >> batteryBit) & 1) === 1,
      };
    },
    encode(status: Partial<Cjt188Status>): number {
      let raw = status.raw ?? 0;
      if (!Number.isInteger(raw) || raw < 0 || raw > 0xffff) {
        throw new ProtocolError('RANGE', `status raw ${raw} not in 0..0xFFFF`);
      }
      if (status.valve !== undefined) {
        const code = VALVE_STATES.indexOf(status.valve);
        if (code < 0) throw new ProtocolError('INVALID_ARGUMENT', `unknown valve state ${JSON.stringify(status.valve)}`);
        raw = (raw & ~(3 << valveShift)) | (code << valveShift);
      }
      if (status.batteryLow !== undefined) {
        raw = status.batteryLow ? raw | (1 << batteryBit) : raw & ~(1 << batteryBit);
      }
      return raw & 0xffff;
    },
  });
}

/**
 * Built-in status profiles.
 *
 * - `standard` — CJ/T 188-2004: ST1 D1D0 valve (00 open, 01 closed, 11 abnormal), D2 battery low
 *   (1 = low); the other bits are vendor-defined and kept in `raw`.
 * - `msbFirst` — vendors that pack the flags from the most significant end of ST1: the 2-bit
 *   valve code in bits 7..6 (0x00 open, 0x40 closed, 0xC0 abnormal) and battery low in bit 5
 *   (0x20); ST2 and the low bits are vendor-defined and kept in `raw`. This layout is
 *   used, for example, by the public `sdqr_energy_node` concentrator firmware (`cj188.h`:
 *   `FAMEN_MASK 0xc0`, `FAMEN_CLOSE_MASK 0x40`, `BATTERY_LOW_MASK 0x20`).
 */
export const CJT188_PROFILES: Readonly<Record<string, Cjt188StatusProfile>> = Object.freeze({
  standard: bitProfile('standard', 'CJ/T 188-2004: ST1 bit0-1 valve (00 open, 01 closed, 11 abnormal), bit2 battery low', 0, 2),
  msbFirst: bitProfile('msbFirst', 'MSB-first vendors: ST1 bit7-6 valve (00 open, 01 closed, 11 abnormal), bit5 battery low', 6, 5),
});

function resolveProfile(profile: string | Cjt188StatusProfile | undefined): Cjt188StatusProfile {
  if (profile === undefined) return CJT188_PROFILES.standard;
  if (typeof profile === 'string') {
    const p = CJT188_PROFILES[profile];
    if (!p) {
      throw new ProtocolError('INVALID_ARGUMENT', `unknown status profile ${JSON.stringify(profile)}; known: ${Object.keys(CJT188_PROFILES).join(', ')}`);
    }
    return p;
  }
  return profile;
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** Byte order of the 2-byte data identifier on the wire: `be` = `90 1F` (standard), `le` = `1F 90`. */
export type Cjt188DiOrder = 'be' | 'le';

/**
 * 901F reply of water and gas meters. Numbers that the meter filled with 0xFF ("not supported")
 * decode as `null`; `realTime` is `"YYYY-MM-DD hh:mm:ss"` (digits as sent, calendar not checked).
 */
export interface Cjt188FlowData {
  kind: 'flow';
  /** 当前累积流量, XXXXXX.XX in `currentFlowUnit`. */
  currentFlow: number | null;
  currentFlowUnit: number;
  /** 结算日累积流量, XXXXXX.XX in `settlementFlowUnit`. */
  settlementFlow: number | null;
  settlementFlowUnit: number;
  /** 实时时间. */
  realTime: string | null;
  status: Cjt188Status;
}

/** 901F reply of heat meters (same conventions as {@link Cjt188FlowData}). */
export interface Cjt188HeatData {
  kind: 'heat';
  /** 结算日热量 XXXXXX.XX */
  settlementHeat: number | null;
  settlementHeatUnit: number;
  /** 当前热量 XXXXXX.XX */
  currentHeat: number | null;
  currentHeatUnit: number;
  /** 热功率 XXXXXX.XX */
  heatPower: number | null;
  heatPowerUnit: number;
  /** 流量 XXXX.XXXX */
  flowRate: number | null;
  flowRateUnit: number;
  /** 累积流量 XXXXXX.XX */
  cumulativeFlow: number | null;
  cumulativeFlowUnit: number;
  /** 供水温度 XXXX.XX °C */
  supplyTemperature: number | null;
  /** 回水温度 XXXX.XX °C */
  returnTemperature: number | null;
  /** 累计工作时间 XXXXXX h */
  workingHours: number | null;
  realTime: string | null;
  status: Cjt188Status;
}

export type Cjt188MeterData = Cjt188FlowData | Cjt188HeatData;

/** On input the status may be partial: `raw`, or `valve`/`batteryLow`, or both. */
type StatusInput = Partial<Cjt188Status>;
type FlowDataInput = Omit<Cjt188FlowData, 'status'> & { status: StatusInput };
type HeatDataInput = Omit<Cjt188HeatData, 'status'> & { status: StatusInput };
export type Cjt188MeterDataInput = FlowDataInput | HeatDataInput;

interface Cjt188Addressing {
  meterType: number;
  /** 14 characters, human order; wildcard bytes as "AA". */
  address: string;
  /** Sequence number SER (default 0). */
  ser?: number;
  diOrder?: Cjt188DiOrder;
}

/** 读数据 request (C = 0x01), DI 901F by default. */
export interface Cjt188ReadDataRequest extends Cjt188Addressing {
  kind: 'readData';
  direction: 'request';
  dataId?: number;
}

/** 读数据 reply (C = 0x81). */
export interface Cjt188ReadDataResponse extends Cjt188Addressing {
  kind: 'readData';
  direction: 'response';
  abnormal?: false;
  dataId?: number;
  /** Parsed 901F reply; `encode` prefers it over `payload`. */
  values?: Cjt188MeterDataInput;
  /** Bytes after DI and SER. Always set by `decode`. */
  payload?: Uint8Array;
}

/** 读地址 request (C = 0x03, DI 810A). */
export interface Cjt188ReadAddressRequest extends Cjt188Addressing {
  kind: 'readAddress';
  direction: 'request';
}

/** 读地址 reply (C = 0x83, DI 810A); the meter's address is the header address. */
export interface Cjt188ReadAddressResponse extends Cjt188Addressing {
  kind: 'readAddress';
  direction: 'response';
  abnormal?: false;
}

/** 阀门控制 (C = 0x04, DI A017, one command byte). */
export interface Cjt188ValveControlRequest extends Cjt188Addressing {
  kind: 'valveControl';
  direction: 'request';
  /** {@link CJT188_VALVE}.OPEN (0x55), .CLOSE (0x99), or a vendor code. */
  valve: number;
  /** Set by `decode`: `open` / `close` for 0x55 / 0x99, otherwise `other`. */
  action?: 'open' | 'close' | 'other';
}

/** 阀门控制 reply (C = 0x84, DI A017, SER, ST). */
export interface Cjt188ValveControlResponse extends Cjt188Addressing {
  kind: 'valveControl';
  direction: 'response';
  abnormal?: false;
  status: StatusInput;
}

/** Any frame this codec does not interpret. */
export interface Cjt188RawFrame {
  kind: 'raw';
  meterType: number;
  address: string;
  control: number;
  data: Uint8Array;
}

export type Cjt188Message =
  | Cjt188ReadDataRequest
  | Cjt188ReadDataResponse
  | Cjt188ReadAddressRequest
  | Cjt188ReadAddressResponse
  | Cjt188ValveControlRequest
  | Cjt188ValveControlResponse
  | Cjt188RawFrame;

export interface Cjt188FrameMeta extends FrameMeta {
  meterType: number;
}

/** Fields `decode` always fills for frames that carry a data identifier. */
interface DiMeta {
  dataId: number;
  dataIdHex: string;
  ser: number;
  diOrder: Cjt188DiOrder;
}

type Decoded<T> = T extends Cjt188RawFrame
  ? T & Cjt188FrameMeta
  : T extends Cjt188ReadDataResponse
    ? Omit<T, 'values'> & Cjt188FrameMeta & DiMeta & { values?: Cjt188MeterData; payload: Uint8Array }
    : T extends Cjt188ValveControlResponse
      ? Omit<T, 'status'> & Cjt188FrameMeta & DiMeta & { status: Cjt188Status }
      : T & Cjt188FrameMeta & DiMeta;

/** What `decode()` returns. */
export type Cjt188Frame = Decoded<Cjt188Message>;

export interface Cjt188EncodeOptions {
  /** 0xFE bytes to prepend. Default: the message's `preamble` if any, else 0. */
  preamble?: number;
  /** DI byte order when the message has no `diOrder`. Default `be` (`90 1F`). */
  diOrder?: Cjt188DiOrder;
  /** Status profile for `status` fields. Default `standard`. */
  profile?: string | Cjt188StatusProfile;
}

export interface Cjt188DecodeOptions {
  /** Status profile (name in {@link CJT188_PROFILES} or a custom one). Default `standard`. */
  profile?: string | Cjt188StatusProfile;
  /** Throw `UNKNOWN_DI` for a read reply whose DI has no known layout. */
  strict?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Field helpers
// ---------------------------------------------------------------------------------------------

function allFF(bytes: Uint8Array, offset: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[offset + i] !== 0xff) return false;
  return true;
}

function readNumber(bytes: Uint8Array, offset: number, length: number, decimals: number): number | null {
  return allFF(bytes, offset, length) ? null : decodeBcdDecimal(bytes, offset, length, decimals);
}

function writeNumber(out: Uint8Array, offset: number, value: number | null, length: number, decimals: number, what: string): void {
  if (value === null) {
    out.fill(0xff, offset, offset + length);
    return;
  }
  if (typeof value !== 'number') throw new ProtocolError('INVALID_ARGUMENT', `${what} must be a number or null`);
  out.set(encodeBcdDecimal(value, length, decimals), offset);
}

function writeUnit(out: Uint8Array, offset: number, unit: number, what: string): void {
  if (typeof unit !== 'number' || !Number.isInteger(unit) || unit < 0 || unit > 0xff) {
    throw new ProtocolError('RANGE', `${what} must be a unit code 0..255`);
  }
  out[offset] = unit;
}

/** 7 bytes ss mm hh DD MM YY(lo) YY(hi) → "YYYY-MM-DD hh:mm:ss"; all 0xFF → null. */
function readRealTime(bytes: Uint8Array, offset: number): string | null {
  if (allFF(bytes, offset, 7)) return null;
  // each byte two BCD digits: as hex they are the digits themselves
  for (let i = 0; i < 7; i++) bcdToByte(bytes[offset + i], offset + i);
  const o = offset;
  return `${hex2(bytes[o + 6])}${hex2(bytes[o + 5])}-${hex2(bytes[o + 4])}-${hex2(bytes[o + 3])} ${hex2(bytes[o + 2])}:${hex2(bytes[o + 1])}:${hex2(bytes[o])}`;
}

const REAL_TIME = /^(\d{2})(\d{2})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function writeRealTime(out: Uint8Array, offset: number, value: string | null): void {
  if (value === null) {
    out.fill(0xff, offset, offset + 7);
    return;
  }
  const m = typeof value === 'string' ? REAL_TIME.exec(value) : null;
  if (!m) throw new ProtocolError('INVALID_ARGUMENT', `realTime must be "YYYY-MM-DD hh:mm:ss" or null, got ${JSON.stringify(value)}`);
  // m[1..7] = YY(hi) YY(lo) MM DD hh mm ss
  for (let i = 0; i < 7; i++) out[offset + i] = parseInt(m[7 - i], 16);
}

function u8(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xff) {
    throw new ProtocolError('RANGE', `${what} must be an integer 0..255, got ${String(v)}`);
  }
  return v;
}

/** Which 901F layout a meter type uses; for non water/gas/heat types, decided by payload size. */
function layoutFor(meterType: number, payloadLength: number): 'flow' | 'heat' | null {
  if (meterType >= 0x20 && meterType <= 0x2f) return 'heat';
  if ((meterType >= 0x10 && meterType <= 0x1f) || (meterType >= 0x30 && meterType <= 0x3f)) return 'flow';
  if (payloadLength === FLOW_PAYLOAD) return 'flow';
  if (payloadLength === HEAT_PAYLOAD) return 'heat';
  return null;
}

/** Parse the bytes after DI+SER of a 901F reply. */
export function decodeMeterData(layout: 'flow' | 'heat', payload: Uint8Array, profile?: string | Cjt188StatusProfile): Cjt188MeterData {
  const prof = resolveProfile(profile);
  const expected = layout === 'flow' ? FLOW_PAYLOAD : HEAT_PAYLOAD;
  if (payload.length !== expected) {
    throw new ProtocolError('LENGTH', `901F ${layout} reply needs ${expected} data bytes after DI+SER, got ${payload.length}`);
  }
  if (layout === 'flow') {
    return {
      kind: 'flow',
      currentFlow: readNumber(payload, 0, 4, 2),
      currentFlowUnit: payload[4],
      settlementFlow: readNumber(payload, 5, 4, 2),
      settlementFlowUnit: payload[9],
      realTime: readRealTime(payload, 10),
      status: prof.decode(payload[17] | (payload[18] << 8)),
    };
  }
  return {
    kind: 'heat',
    settlementHeat: readNumber(payload, 0, 4, 2),
    settlementHeatUnit: payload[4],
    currentHeat: readNumber(payload, 5, 4, 2),
    currentHeatUnit: payload[9],
    heatPower: readNumber(payload, 10, 4, 2),
    heatPowerUnit: payload[14],
    flowRate: readNumber(payload, 15, 4, 4),
    flowRateUnit: payload[19],
    cumulativeFlow: readNumber(payload, 20, 4, 2),
    cumulativeFlowUnit: payload[24],
    supplyTemperature: readNumber(payload, 25, 3, 2),
    returnTemperature: readNumber(payload, 28, 3, 2),
    workingHours: readNumber(payload, 31, 3, 0),
    realTime: readRealTime(payload, 34),
    status: prof.decode(payload[41] | (payload[42] << 8)),
  };
}

/** Inverse of {@link decodeMeterData}. */
export function encodeMeterData(values: Cjt188MeterDataInput, profile?: string | Cjt188StatusProfile): Uint8Array {
  const prof = resolveProfile(profile);
  if (!values || typeof values !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'values must be an object');
  const writeStatus = (out: Uint8Array, o: number) => {
    if (!values.status || typeof values.status !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'values.status is required');
    const st = prof.encode(values.status);
    out[o] = st & 0xff;
    out[o + 1] = st >> 8;
  };
  if (values.kind === 'flow') {
    const out = new Uint8Array(FLOW_PAYLOAD);
    writeNumber(out, 0, values.currentFlow, 4, 2, 'currentFlow');
    writeUnit(out, 4, values.currentFlowUnit, 'currentFlowUnit');
    writeNumber(out, 5, values.settlementFlow, 4, 2, 'settlementFlow');
    writeUnit(out, 9, values.settlementFlowUnit, 'settlementFlowUnit');
    writeRealTime(out, 10, values.realTime);
    writeStatus(out, 17);
    return out;
  }
  if (values.kind === 'heat') {
    const out = new Uint8Array(HEAT_PAYLOAD);
    writeNumber(out, 0, values.settlementHeat, 4, 2, 'settlementHeat');
    writeUnit(out, 4, values.settlementHeatUnit, 'settlementHeatUnit');
    writeNumber(out, 5, values.currentHeat, 4, 2, 'currentHeat');
    writeUnit(out, 9, values.currentHeatUnit, 'currentHeatUnit');
    writeNumber(out, 10, values.heatPower, 4, 2, 'heatPower');
    writeUnit(out, 14, values.heatPowerUnit, 'heatPowerUnit');
    writeNumber(out, 15, values.flowRate, 4, 4, 'flowRate');
    writeUnit(out, 19, values.flowRateUnit, 'flowRateUnit');
    writeNumber(out, 20, values.cumulativeFlow, 4, 2, 'cumulativeFlow');
    writeUnit(out, 24, values.cumulativeFlowUnit, 'cumulativeFlowUnit');
    writeNumber(out, 25, values.supplyTemperature, 3, 2, 'supplyTemperature');
    writeNumber(out, 28, values.returnTemperature, 3, 2, 'returnTemperature');
    writeNumber(out, 31, values.workingHours, 3, 0, 'workingHours');
    writeRealTime(out, 34, values.realTime);
    writeStatus(out, 41);
    return out;
  }
  throw new ProtocolError('INVALID_ARGUMENT', `values.kind must be 'flow' or 'heat'`);
}

function diBytes(dataId: number, order: Cjt188DiOrder): Uint8Array {
  if (typeof dataId !== 'number' || !Number.isInteger(dataId) || dataId < 0 || dataId > 0xffff) {
    throw new ProtocolError('INVALID_ARGUMENT', `dataId must be a 16-bit unsigned integer, got ${String(dataId)}`);
  }
  if (order !== 'be' && order !== 'le') throw new ProtocolError('INVALID_ARGUMENT', `diOrder must be 'be' or 'le'`);
  const hi = dataId >> 8;
  const lo = dataId & 0xff;
  return order === 'be' ? Uint8Array.of(hi, lo) : Uint8Array.of(lo, hi);
}

/** `0x901F` → `"901F"`. */
export function formatDataId(dataId: number): string {
  return (dataId & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

// ---------------------------------------------------------------------------------------------
// encode
// ---------------------------------------------------------------------------------------------

function body(message: Cjt188Message, options: Cjt188EncodeOptions): { control: number; data: Uint8Array } {
  if (message.kind === 'raw') {
    return { control: u8(message.control, 'control'), data: message.data };
  }
  const order = message.diOrder ?? options.diOrder ?? 'be';
  const ser = u8(message.ser ?? 0, 'ser');
  const head = (di: number) => {
    const d = diBytes(di, order);
    return [d[0], d[1], ser];
  };
  switch (message.kind) {
    case 'readData': {
      const dataId = message.dataId ?? CJT188_DI.METER_DATA;
      if (message.direction === 'request') {
        return { control: CJT188_CONTROL.READ_DATA, data: Uint8Array.from(head(dataId)) };
      }
      let payload: Uint8Array;
      if (message.values !== undefined) {
        if (dataId !== CJT188_DI.METER_DATA) {
          throw new ProtocolError('UNKNOWN_DI', `no value layout known for DI ${formatDataId(dataId)}; pass payload bytes instead`);
        }
        payload = encodeMeterData(message.values, options.profile);
        const layout = layoutFor(message.meterType, payload.length);
        if (layout !== message.values.kind) {
          throw new ProtocolError(
            'INVALID_ARGUMENT',
            `meter type 0x${hex2(message.meterType)} uses the ${layout ?? 'unknown'} layout, values are ${message.values.kind}`,
          );
        }
      } else if (message.payload !== undefined) {
        payload = message.payload;
      } else {
        throw new ProtocolError('INVALID_ARGUMENT', 'read-data reply needs values or payload');
      }
      const data = new Uint8Array(3 + payload.length);
      data.set(head(dataId));
      data.set(payload, 3);
      return { control: CJT188_CONTROL.READ_DATA_RESPONSE, data };
    }
    case 'readAddress':
      return {
        control: message.direction === 'request' ? CJT188_CONTROL.READ_ADDRESS : CJT188_CONTROL.READ_ADDRESS_RESPONSE,
        data: Uint8Array.from(head(CJT188_DI.READ_ADDRESS)),
      };
    case 'valveControl': {
      if (message.direction === 'request') {
        return {
          control: CJT188_CONTROL.WRITE_DATA,
          data: Uint8Array.from([...head(CJT188_DI.VALVE_CONTROL), u8(message.valve, 'valve')]),
        };
      }
      if (!message.status || typeof message.status !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'status is required');
      const st = resolveProfile(options.profile).encode(message.status);
      return {
        control: CJT188_CONTROL.WRITE_DATA_RESPONSE,
        data: Uint8Array.from([...head(CJT188_DI.VALVE_CONTROL), st & 0xff, st >> 8]),
      };
    }
    default:
      throw new ProtocolError('INVALID_ARGUMENT', `unknown message kind ${JSON.stringify((message as { kind?: unknown }).kind)}`);
  }
}

/**
 * Encode a message to wire bytes. Throws {@link ProtocolError} (`INVALID_ARGUMENT`, `RANGE`,
 * `UNKNOWN_DI`, `LENGTH`).
 */
export function encode(message: Cjt188Message, options: Cjt188EncodeOptions = {}): Uint8Array {
  if (!message || typeof message !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'message must be an object');
  const { control, data } = body(message, options);
  const preamble = options.preamble ?? (message as { preamble?: number }).preamble ?? 0;
  const { out, p } = startFrame(data.length, preamble, FRAME_OVERHEAD);
  out[p + 1] = u8(message.meterType, 'meterType');
  out.set(encodeAddress(message.address, 7), p + 2);
  out[p + 9] = control;
  out[p + 10] = data.length;
  out.set(data, p + 11);
  return endFrame(out, p, p + 11 + data.length);
}

// ---------------------------------------------------------------------------------------------
// decode
// ---------------------------------------------------------------------------------------------

function rawFrame(meta: Cjt188FrameMeta): Cjt188Frame {
  return { kind: 'raw', ...meta };
}

function needLength(length: number, n: number, what: string, offset: number): void {
  if (length !== n) throw new ProtocolError('LENGTH', `${what} carries ${n} data bytes, L=${length}`, offset);
}

function detectDi(data: Uint8Array): { dataId: number; diOrder: Cjt188DiOrder } {
  const be = (data[0] << 8) | data[1];
  const le = (data[1] << 8) | data[0];
  if (KNOWN_DI.has(be)) return { dataId: be, diOrder: 'be' };
  if (KNOWN_DI.has(le)) return { dataId: le, diOrder: 'le' };
  return { dataId: be, diOrder: 'be' };
}

/**
 * Decode exactly one frame (optionally preceded by 0xFE bytes). Framing errors are reported as
 * `START`, `LENGTH`, `TERMINATOR`, `CHECKSUM` (checked in that order), content errors as
 * `BCD`/`LENGTH`/`UNKNOWN_DI`.
 */
export function decode(bytes: Uint8Array, options: Cjt188DecodeOptions = {}): Cjt188Frame {
  expectBytes(bytes);
  const profile = resolveProfile(options.profile);
  const p = frameStart(bytes, FRAME_OVERHEAD);
  const preamble = p;
  const length = bytes[p + 10];
  checkFrameEnd(bytes, p, FRAME_OVERHEAD, length);

  const meterType = bytes[p + 1];
  const address = decodeAddress(bytes, p + 2, 7);
  const control = bytes[p + 9];
  const data = copyBytes(bytes, p + 11, p + 11 + length);
  const meta: Cjt188FrameMeta = {
    meterType,
    address,
    control,
    func: control & CJT188_CONTROL_BITS.FUNCTION,
    direction: control & CJT188_CONTROL_BITS.DIRECTION ? 'response' : 'request',
    abnormal: (control & CJT188_CONTROL_BITS.ABNORMAL) !== 0,
    hasFollowing: (control & CJT188_CONTROL_BITS.FOLLOWING) !== 0,
    data,
    preamble,
  };
  const dataOffset = p + 11;

  const known =
    control === CJT188_CONTROL.READ_DATA ||
    control === CJT188_CONTROL.READ_DATA_RESPONSE ||
    control === CJT188_CONTROL.READ_ADDRESS ||
    control === CJT188_CONTROL.READ_ADDRESS_RESPONSE ||
    control === CJT188_CONTROL.WRITE_DATA ||
    control === CJT188_CONTROL.WRITE_DATA_RESPONSE;
  if (!known) return rawFrame(meta);
  if (length < 3) throw new ProtocolError('LENGTH', `control 0x${hex2(control)} needs DI and SER (3 bytes), L=${length}`, p + 10);
  const { dataId, diOrder } = detectDi(data);
  const di: DiMeta = { dataId, dataIdHex: formatDataId(dataId), ser: data[2], diOrder };

  switch (control) {
    case CJT188_CONTROL.READ_DATA:
      needLength(length, 3, 'read-data request', p + 10);
      return { kind: 'readData', ...meta, ...di, direction: 'request' };
    case CJT188_CONTROL.READ_DATA_RESPONSE: {
      const payload = data.slice(3);
      // the reply every meter report is: built field by field (no spreads; the same keys in the same order)
      const frame: Decoded<Cjt188ReadDataResponse> = {
        kind: 'readData',
        meterType,
        address,
        control,
        func: meta.func,
        direction: 'response',
        abnormal: false,
        hasFollowing: meta.hasFollowing,
        data,
        preamble,
        dataId,
        dataIdHex: di.dataIdHex,
        ser: di.ser,
        diOrder,
        payload,
      };
      if (dataId === CJT188_DI.METER_DATA) {
        const layout = layoutFor(meterType, payload.length);
        if (layout === null) {
          if (options.strict) {
            throw new ProtocolError('UNKNOWN_DI', `no 901F layout for meter type 0x${hex2(meterType)} with ${payload.length} bytes`, dataOffset);
          }
        } else {
          try {
            frame.values = decodeMeterData(layout, payload, profile);
          } catch (e) {
            if (e instanceof ProtocolError) throw e.withContext('DI 901F', dataOffset + 3);
            throw e;
          }
        }
      } else if (options.strict) {
        throw new ProtocolError('UNKNOWN_DI', `no value layout known for DI ${formatDataId(dataId)}`, dataOffset);
      }
      return frame;
    }
    case CJT188_CONTROL.READ_ADDRESS:
    case CJT188_CONTROL.READ_ADDRESS_RESPONSE:
      if (dataId !== CJT188_DI.READ_ADDRESS) return rawFrame(meta);
      needLength(length, 3, 'read-address frame', p + 10);
      return { kind: 'readAddress', ...meta, ...di, direction: control === CJT188_CONTROL.READ_ADDRESS ? 'request' : 'response', abnormal: false };
    case CJT188_CONTROL.WRITE_DATA: {
      if (dataId !== CJT188_DI.VALVE_CONTROL) return rawFrame(meta);
      needLength(length, 4, 'valve control request', p + 10);
      const valve = data[3];
      const action = valve === CJT188_VALVE.OPEN ? 'open' : valve === CJT188_VALVE.CLOSE ? 'close' : 'other';
      return { kind: 'valveControl', ...meta, ...di, direction: 'request', valve, action };
    }
    case CJT188_CONTROL.WRITE_DATA_RESPONSE:
    default: {
      if (dataId !== CJT188_DI.VALVE_CONTROL) return rawFrame(meta);
      needLength(length, 5, 'valve control reply', p + 10);
      return {
        kind: 'valveControl',
        ...meta,
        ...di,
        direction: 'response',
        abnormal: false,
        status: profile.decode(data[3] | (data[4] << 8)),
      };
    }
  }
}

/** Everything CJ/T 188 in one object: `cjt188.encode(...)`, `cjt188.DI.METER_DATA`, … */
export const cjt188 = Object.freeze({
  encode,
  decode,
  encodeMeterData,
  decodeMeterData,
  formatDataId,
  METER_TYPE: CJT188_METER_TYPE,
  CONTROL: CJT188_CONTROL,
  CONTROL_BITS: CJT188_CONTROL_BITS,
  DI: CJT188_DI,
  VALVE: CJT188_VALVE,
  UNIT: CJT188_UNIT,
  UNIT_SYMBOL: CJT188_UNIT_SYMBOL,
  profiles: CJT188_PROFILES,
  WILDCARD_ADDRESS: CJT188_WILDCARD_ADDRESS,
});
