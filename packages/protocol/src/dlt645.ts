/**
 * DL/T 645-2007 codec (多功能电能表通信协议).
 *
 * Wire format of one frame:
 *
 * ```
 * [FE × 0..n] 68 A0 A1 A2 A3 A4 A5 68 C L DATA(L bytes, each +0x33) CS 16
 * ```
 *
 * - A0..A5: 6-byte BCD address, lowest byte first (0xAA bytes are wildcards);
 * - C: control code — D7 direction (1 = meter → master), D6 abnormal reply, D5 more frames follow,
 *   D4..D0 function;
 * - CS: sum of every byte from the first 0x68 through the end of DATA, modulo 256.
 *
 * `decode()` turns bytes into a {@link Dlt645Frame} (a discriminated union on `kind`,
 * `direction` and `abnormal`), `encode()` turns a {@link Dlt645Message} into bytes. Every decoded
 * frame can be passed back to `encode()` and yields the exact input bytes.
 */
import {
  byteToBcd,
  bcdToByte,
  concatBytes,
  decodeAddress,
  decodeBcdDecimal,
  encodeAddress,
  encodeBcdDecimal,
  hex2,
  type MeterDateTime,
} from './bcd.ts';
import { ProtocolError } from './errors.ts';
import { checkFrameEnd, endFrame, expectBytes, frameStart, startFrame, type FrameMeta } from './frame.ts';

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** Control codes (C byte). Responses are the request code with D7 (and D6 for errors) set. */
export const DLT645_CONTROL = {
  /** 广播校时 — broadcast time sync; the meter does not answer. */
  BROADCAST_TIME: 0x08,
  /** 读数据 */
  READ: 0x11,
  /** 读后续数据 */
  READ_FOLLOWING: 0x12,
  /** 读通信地址 */
  READ_ADDRESS: 0x13,
  /** 写数据 */
  WRITE: 0x14,
  /** 写通信地址 */
  WRITE_ADDRESS: 0x15,
  /** 冻结命令 */
  FREEZE: 0x16,
  /** 更改通信速率 */
  CHANGE_BAUD_RATE: 0x17,
  /** 修改密码 */
  CHANGE_PASSWORD: 0x18,
  /** 最大需量清零 */
  CLEAR_DEMAND: 0x19,
  /** 电表清零 */
  CLEAR_METER: 0x1a,
  /** 事件清零 */
  CLEAR_EVENTS: 0x1b,
  /** 跳合闸、报警、保电 — remote relay control */
  REMOTE_CONTROL: 0x1c,
  /** 读数据正常应答 (no following frame) */
  READ_RESPONSE: 0x91,
  /** 读数据正常应答, more frames follow */
  READ_RESPONSE_FOLLOWING: 0xb1,
  /** 读数据异常应答 */
  READ_ERROR: 0xd1,
  /** 读通信地址应答 */
  READ_ADDRESS_RESPONSE: 0x93,
  /** 控制命令正常应答 */
  REMOTE_CONTROL_RESPONSE: 0x9c,
  /** 控制命令异常应答 */
  REMOTE_CONTROL_ERROR: 0xdc,
} as const;

/** Bit masks inside the control byte. */
export const DLT645_CONTROL_BITS = {
  /** D7: 0 = master → meter, 1 = meter → master. */
  DIRECTION: 0x80,
  /** D6: abnormal (error) reply. */
  ABNORMAL: 0x40,
  /** D5: more frames follow. */
  FOLLOWING: 0x20,
  /** D4..D0: function code. */
  FUNCTION: 0x1f,
} as const;

/** Data identifiers (DI3 DI2 DI1 DI0 as one 32-bit number; sent DI0 first). */
export const DLT645_DI = {
  /** (当前)组合有功总电能 */
  COMBINED_ACTIVE_TOTAL: 0x00000000,
  /** (当前)组合有功费率1电能 — 尖 */
  COMBINED_ACTIVE_SHARP: 0x00000100,
  /** (当前)组合有功费率2电能 — 峰 */
  COMBINED_ACTIVE_PEAK: 0x00000200,
  /** (当前)组合有功费率3电能 — 平 */
  COMBINED_ACTIVE_FLAT: 0x00000300,
  /** (当前)组合有功费率4电能 — 谷 */
  COMBINED_ACTIVE_VALLEY: 0x00000400,
  /** (当前)正向有功总电能 */
  FORWARD_ACTIVE_TOTAL: 0x00010000,
  /** (当前)正向有功费率1电能 — 尖 */
  FORWARD_ACTIVE_SHARP: 0x00010100,
  /** (当前)正向有功费率2电能 — 峰 */
  FORWARD_ACTIVE_PEAK: 0x00010200,
  /** (当前)正向有功费率3电能 — 平 */
  FORWARD_ACTIVE_FLAT: 0x00010300,
  /** (当前)正向有功费率4电能 — 谷 */
  FORWARD_ACTIVE_VALLEY: 0x00010400,
  /** (当前)反向有功总电能 */
  REVERSE_ACTIVE_TOTAL: 0x00020000,
  /** (当前)剩余电量 */
  REMAINING_ENERGY: 0x00900100,
  /** (当前)透支电量 */
  OVERDRAFT_ENERGY: 0x00900101,
  /** (当前)剩余金额 */
  REMAINING_MONEY: 0x00900200,
  /** (当前)透支金额 */
  OVERDRAFT_MONEY: 0x00900201,
  /** A相电压 */
  VOLTAGE_A: 0x02010100,
  /** B相电压 */
  VOLTAGE_B: 0x02010200,
  /** C相电压 */
  VOLTAGE_C: 0x02010300,
  /** A相电流 */
  CURRENT_A: 0x02020100,
  /** B相电流 */
  CURRENT_B: 0x02020200,
  /** C相电流 */
  CURRENT_C: 0x02020300,
  /** 瞬时总有功功率 */
  ACTIVE_POWER_TOTAL: 0x02030000,
  /** 瞬时A相有功功率 */
  ACTIVE_POWER_A: 0x02030100,
  /** 瞬时B相有功功率 */
  ACTIVE_POWER_B: 0x02030200,
  /** 瞬时C相有功功率 */
  ACTIVE_POWER_C: 0x02030300,
  /** 总功率因数 */
  POWER_FACTOR_TOTAL: 0x02060000,
  /** 电网频率 */
  FREQUENCY: 0x02800002,
  /** 日期及星期 (YYMMDDWW) */
  DATE: 0x04000101,
  /** 时间 (hhmmss) */
  TIME: 0x04000102,
  /** 通信地址 */
  COMM_ADDRESS: 0x04000401,
  /** 表号 */
  METER_NUMBER: 0x04000402,
  /** 电表运行状态字3 */
  STATUS_WORD_3: 0x04000503,
} as const;

/** N1 command byte of the remote control (0x1C) frame. */
export const DLT645_REMOTE_COMMAND = {
  /** 拉闸 — open the relay (cut supply) */
  TRIP: 0x1a,
  /** 合闸允许 — allow the customer to close the relay */
  ALLOW_CLOSE: 0x1b,
  /** 直接合闸 — close the relay now */
  CLOSE_DIRECT: 0x1c,
  /** 报警 */
  ALARM: 0x2a,
  /** 报警解除 */
  ALARM_RELEASE: 0x2b,
  /** 保电 — keep supply on regardless of balance */
  HOLD_POWER: 0x3a,
  /** 保电解除 */
  HOLD_POWER_RELEASE: 0x3b,
} as const;

/** Names of the bits of the error byte (错误信息字 ERR) in abnormal replies, bit 0 first. */
export const DLT645_ERROR_BITS = [
  'other', // 其他错误
  'noRequestedData', // 无请求数据
  'unauthorized', // 密码错/未授权
  'baudRateUnchangeable', // 通信速率不能更改
  'yearZonesExceeded', // 年时区数超
  'dailySlotsExceeded', // 日时段数超
  'tariffsExceeded', // 费率数超
  'reserved',
] as const;

/** Address that every meter accepts for broadcast commands. */
export const DLT645_BROADCAST_ADDRESS = '999999999999';
/** Wildcard address used by "read address" (every meter on the bus answers). */
export const DLT645_WILDCARD_ADDRESS = 'AAAAAAAAAAAA';

/** Offset added to each DATA byte on the wire. */
const DATA_OFFSET = 0x33;
/** Bytes outside DATA: 68 + 6 address + 68 + C + L + CS + 16. */
const FRAME_OVERHEAD = 12;

// ---------------------------------------------------------------------------------------------
// Data item table
// ---------------------------------------------------------------------------------------------

/** How the value bytes of a data item are laid out (after removing the 0x33 offset). */
export type Dlt645ValueFormat =
  /** Fixed-point BCD, lowest byte first; `signed` = top bit of the last byte is the sign. Values: `{ value }`. */
  | { type: 'bcd'; bytes: number; decimals: number; signed: boolean }
  /** YYMMDDWW (4 bytes, sent WW DD MM YY). Values: `{ year, month, day, weekday }` (weekday 0 = Sunday). */
  | { type: 'date' }
  /** hhmmss (3 bytes, sent ss mm hh). Values: `{ hour, minute, second }`. */
  | { type: 'time' }
  /** 12 BCD digits (6 bytes). Values: `{ address }`. */
  | { type: 'address' }
  /** 电表运行状态字3, 16-bit binary word. Values: see {@link Dlt645StatusWord3}. */
  | { type: 'statusWord3' };

export interface Dlt645DataItem {
  /** Programmatic name, e.g. `forwardActiveTotal`. */
  key: string;
  /** Name as printed in the standard. */
  label: string;
  /** Unit of `values.value` for BCD items. */
  unit?: string;
  format: Dlt645ValueFormat;
}

const energy = (key: string, label: string): Dlt645DataItem => ({
  key,
  label,
  unit: 'kWh',
  format: { type: 'bcd', bytes: 4, decimals: 2, signed: false },
});
const combinedEnergy = (key: string, label: string): Dlt645DataItem => ({
  key,
  label,
  unit: 'kWh',
  // Combined active energy = forward ± reverse; the standard marks its top bit as the sign.
  format: { type: 'bcd', bytes: 4, decimals: 2, signed: true },
});

/**
 * Known data identifiers and their formats (DL/T 645-2007 appendix A). Pass extra items through
 * `options.dataItems` of `encode`/`decode` to extend it.
 */
export const DLT645_DATA_ITEMS: Readonly<Record<number, Dlt645DataItem>> = Object.freeze({
  [DLT645_DI.COMBINED_ACTIVE_TOTAL]: combinedEnergy('combinedActiveTotal', '(当前)组合有功总电能'),
  [DLT645_DI.COMBINED_ACTIVE_SHARP]: combinedEnergy('combinedActiveSharp', '(当前)组合有功尖电能'),
  [DLT645_DI.COMBINED_ACTIVE_PEAK]: combinedEnergy('combinedActivePeak', '(当前)组合有功峰电能'),
  [DLT645_DI.COMBINED_ACTIVE_FLAT]: combinedEnergy('combinedActiveFlat', '(当前)组合有功平电能'),
  [DLT645_DI.COMBINED_ACTIVE_VALLEY]: combinedEnergy('combinedActiveValley', '(当前)组合有功谷电能'),
  [DLT645_DI.FORWARD_ACTIVE_TOTAL]: energy('forwardActiveTotal', '(当前)正向有功总电能'),
  [DLT645_DI.FORWARD_ACTIVE_SHARP]: energy('forwardActiveSharp', '(当前)正向有功尖电能'),
  [DLT645_DI.FORWARD_ACTIVE_PEAK]: energy('forwardActivePeak', '(当前)正向有功峰电能'),
  [DLT645_DI.FORWARD_ACTIVE_FLAT]: energy('forwardActiveFlat', '(当前)正向有功平电能'),
  [DLT645_DI.FORWARD_ACTIVE_VALLEY]: energy('forwardActiveValley', '(当前)正向有功谷电能'),
  [DLT645_DI.REVERSE_ACTIVE_TOTAL]: energy('reverseActiveTotal', '(当前)反向有功总电能'),
  [DLT645_DI.REMAINING_ENERGY]: energy('remainingEnergy', '(当前)剩余电量'),
  [DLT645_DI.OVERDRAFT_ENERGY]: energy('overdraftEnergy', '(当前)透支电量'),
  [DLT645_DI.REMAINING_MONEY]: {
    key: 'remainingMoney',
    label: '(当前)剩余金额',
    unit: 'CNY',
    format: { type: 'bcd', bytes: 4, decimals: 2, signed: false },
  },
  [DLT645_DI.OVERDRAFT_MONEY]: {
    key: 'overdraftMoney',
    label: '(当前)透支金额',
    unit: 'CNY',
    format: { type: 'bcd', bytes: 4, decimals: 2, signed: false },
  },
  [DLT645_DI.VOLTAGE_A]: { key: 'voltageA', label: 'A相电压', unit: 'V', format: { type: 'bcd', bytes: 2, decimals: 1, signed: false } },
  [DLT645_DI.VOLTAGE_B]: { key: 'voltageB', label: 'B相电压', unit: 'V', format: { type: 'bcd', bytes: 2, decimals: 1, signed: false } },
  [DLT645_DI.VOLTAGE_C]: { key: 'voltageC', label: 'C相电压', unit: 'V', format: { type: 'bcd', bytes: 2, decimals: 1, signed: false } },
  [DLT645_DI.CURRENT_A]: { key: 'currentA', label: 'A相电流', unit: 'A', format: { type: 'bcd', bytes: 3, decimals: 3, signed: true } },
  [DLT645_DI.CURRENT_B]: { key: 'currentB', label: 'B相电流', unit: 'A', format: { type: 'bcd', bytes: 3, decimals: 3, signed: true } },
  [DLT645_DI.CURRENT_C]: { key: 'currentC', label: 'C相电流', unit: 'A', format: { type: 'bcd', bytes: 3, decimals: 3, signed: true } },
  [DLT645_DI.ACTIVE_POWER_TOTAL]: { key: 'activePowerTotal', label: '瞬时总有功功率', unit: 'kW', format: { type: 'bcd', bytes: 3, decimals: 4, signed: true } },
  [DLT645_DI.ACTIVE_POWER_A]: { key: 'activePowerA', label: '瞬时A相有功功率', unit: 'kW', format: { type: 'bcd', bytes: 3, decimals: 4, signed: true } },
  [DLT645_DI.ACTIVE_POWER_B]: { key: 'activePowerB', label: '瞬时B相有功功率', unit: 'kW', format: { type: 'bcd', bytes: 3, decimals: 4, signed: true } },
  [DLT645_DI.ACTIVE_POWER_C]: { key: 'activePowerC', label: '瞬时C相有功功率', unit: 'kW', format: { type: 'bcd', bytes: 3, decimals: 4, signed: true } },
  [DLT645_DI.POWER_FACTOR_TOTAL]: { key: 'powerFactorTotal', label: '总功率因数', format: { type: 'bcd', bytes: 2, decimals: 3, signed: true } },
  [DLT645_DI.FREQUENCY]: { key: 'frequency', label: '电网频率', unit: 'Hz', format: { type: 'bcd', bytes: 2, decimals: 2, signed: false } },
  [DLT645_DI.DATE]: { key: 'date', label: '日期及星期', format: { type: 'date' } },
  [DLT645_DI.TIME]: { key: 'time', label: '时间', format: { type: 'time' } },
  [DLT645_DI.COMM_ADDRESS]: { key: 'commAddress', label: '通信地址', format: { type: 'address' } },
  [DLT645_DI.METER_NUMBER]: { key: 'meterNumber', label: '表号', format: { type: 'address' } },
  [DLT645_DI.STATUS_WORD_3]: { key: 'statusWord3', label: '电表运行状态字3', format: { type: 'statusWord3' } },
});

/** Byte length of the value field for a format. */
export function valueLength(format: Dlt645ValueFormat): number {
  switch (format.type) {
    case 'bcd':
      return format.bytes;
    case 'date':
      return 4;
    case 'time':
      return 3;
    case 'address':
      return 6;
    case 'statusWord3':
      return 2;
  }
}

/** `0x00010000` → `"00010000"`. */
export function formatDataId(dataId: number): string {
  return (dataId >>> 0).toString(16).toUpperCase().padStart(8, '0');
}

/** `"00010000"` (or `"0x00010000"`) → `0x00010000`. Throws `INVALID_ARGUMENT`. */
export function parseDataId(text: string): number {
  const clean = text.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{8}$/.test(clean)) {
    throw new ProtocolError('INVALID_ARGUMENT', `data identifier must be 8 hex digits, got ${JSON.stringify(text)}`);
  }
  return parseInt(clean, 16) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Status word 3
// ---------------------------------------------------------------------------------------------

/** 电表运行状态字3 (DI 04000503), bit by bit. */
export interface Dlt645StatusWord3 {
  /** The whole 16-bit word. */
  raw: number;
  /** bit0 当前运行时段: 1 = first set, 2 = second set. */
  timeSlotTable: 1 | 2;
  /** bit1-2 供电方式: 00 主电源, 01 辅助电源, 10 电池供电. */
  powerSupply: 'main' | 'auxiliary' | 'battery' | 'reserved';
  /** bit3 编程允许. */
  programmingAllowed: boolean;
  /** bit4 继电器状态: 0 通 (connected) / 1 断 (disconnected). */
  relayState: 'connected' | 'disconnected';
  /** bit5 当前运行时区: 1 = first set, 2 = second set. */
  timeZoneTable: 1 | 2;
  /** bit6 继电器命令状态: 0 通 / 1 断. */
  relayCommand: 'connect' | 'disconnect';
  /** bit7 预跳闸报警状态. */
  preTripAlarm: boolean;
  /** bit8-9 电能表类型: 00 非预付费表, 01 电量型预付费表, 10 电费型预付费表. */
  meterType: 'postpaid' | 'energyPrepaid' | 'moneyPrepaid' | 'reserved';
  /** bit10 当前运行分时费率: 1 = first set, 2 = second set. */
  tariffTable: 1 | 2;
  /** bit11 当前阶梯: 1 = first set, 2 = second set. */
  stepTable: 1 | 2;
  /** bit12 保电状态. */
  powerHold: boolean;
  /** bit13 身份认证状态. */
  authenticated: boolean;
  /** bit14 本地开户. */
  localAccountOpened: boolean;
  /** bit15 远程开户. */
  remoteAccountOpened: boolean;
}

const POWER_SUPPLY = ['main', 'auxiliary', 'battery', 'reserved'] as const;
const METER_TYPE = ['postpaid', 'energyPrepaid', 'moneyPrepaid', 'reserved'] as const;

/** Split a status word 3 into named fields. */
export function decodeStatusWord3(word: number): Dlt645StatusWord3 {
  const bit = (n: number) => ((word >> n) & 1) === 1;
  return {
    raw: word & 0xffff,
    timeSlotTable: bit(0) ? 2 : 1,
    powerSupply: POWER_SUPPLY[(word >> 1) & 3],
    programmingAllowed: bit(3),
    relayState: bit(4) ? 'disconnected' : 'connected',
    timeZoneTable: bit(5) ? 2 : 1,
    relayCommand: bit(6) ? 'disconnect' : 'connect',
    preTripAlarm: bit(7),
    meterType: METER_TYPE[(word >> 8) & 3],
    tariffTable: bit(10) ? 2 : 1,
    stepTable: bit(11) ? 2 : 1,
    powerHold: bit(12),
    authenticated: bit(13),
    localAccountOpened: bit(14),
    remoteAccountOpened: bit(15),
  };
}

/**
 * Build a status word 3: starts from `fields.raw` (default 0) and overrides every named field
 * that is present. Throws `INVALID_ARGUMENT` on an unknown enum value.
 */
export function encodeStatusWord3(fields: Partial<Dlt645StatusWord3> | Record<string, unknown>): number {
  const f = fields as Record<string, unknown>;
  let word = 0;
  if (f.raw !== undefined) {
    if (typeof f.raw !== 'number' || !Number.isInteger(f.raw) || f.raw < 0 || f.raw > 0xffff) {
      throw new ProtocolError('RANGE', `status word raw ${String(f.raw)} not in 0..0xFFFF`);
    }
    word = f.raw;
  }
  const setBits = (shift: number, width: number, v: number) => {
    const mask = ((1 << width) - 1) << shift;
    word = (word & ~mask) | ((v << shift) & mask);
  };
  const flag = (name: string, shift: number) => {
    const v = f[name];
    if (v === undefined) return;
    if (typeof v !== 'boolean') throw new ProtocolError('INVALID_ARGUMENT', `${name} must be a boolean`);
    setBits(shift, 1, v ? 1 : 0);
  };
  const table = (name: string, shift: number) => {
    const v = f[name];
    if (v === undefined) return;
    if (v !== 1 && v !== 2) throw new ProtocolError('INVALID_ARGUMENT', `${name} must be 1 or 2`);
    setBits(shift, 1, v - 1);
  };
  const choice = (name: string, shift: number, width: number, options: readonly unknown[]) => {
    const v = f[name];
    if (v === undefined) return;
    const i = options.indexOf(v);
    if (i < 0) throw new ProtocolError('INVALID_ARGUMENT', `${name} must be one of ${options.join(', ')}`);
    setBits(shift, width, i);
  };
  table('timeSlotTable', 0);
  choice('powerSupply', 1, 2, POWER_SUPPLY);
  flag('programmingAllowed', 3);
  choice('relayState', 4, 1, ['connected', 'disconnected']);
  table('timeZoneTable', 5);
  choice('relayCommand', 6, 1, ['connect', 'disconnect']);
  flag('preTripAlarm', 7);
  choice('meterType', 8, 2, METER_TYPE);
  table('tariffTable', 10);
  table('stepTable', 11);
  flag('powerHold', 12);
  flag('authenticated', 13);
  flag('localAccountOpened', 14);
  flag('remoteAccountOpened', 15);
  return word & 0xffff;
}

// ---------------------------------------------------------------------------------------------
// Message and frame types
// ---------------------------------------------------------------------------------------------

/** Decoded value fields of a data item (shape depends on the item's format). */
export type Dlt645Values = Record<string, number | string | boolean>;

/** 读数据 request (C = 0x11). */
export interface Dlt645ReadRequest {
  kind: 'read';
  direction: 'request';
  address: string;
  dataId: number;
  /** Bytes after the DI (block count N, optional mmhhDDMMYY for load profiles), offset removed. */
  extra?: Uint8Array;
  /** Set by `decode`; ignored by `encode`. */
  dataIdHex?: string;
}

/** 读数据 normal reply (C = 0x91, or 0xB1 when `hasFollowing`). */
export interface Dlt645ReadResponse {
  kind: 'read';
  direction: 'response';
  abnormal?: false;
  address: string;
  dataId: number;
  hasFollowing?: boolean;
  /**
   * Named value fields for a known DI (see {@link DLT645_DATA_ITEMS}); `encode` prefers these.
   * Absent after decoding an unknown DI.
   */
  values?: Dlt645Values;
  /** Value bytes after the DI, offset removed. Always set by `decode`; used by `encode` when `values` is absent. */
  payload?: Uint8Array;
  dataIdHex?: string;
}

/** 读通信地址 request (C = 0x13, no data). */
export interface Dlt645ReadAddressRequest {
  kind: 'readAddress';
  direction: 'request';
  /** Defaults to the wildcard `AAAAAAAAAAAA`. */
  address?: string;
}

/** 读通信地址 reply (C = 0x93, data = the meter's address). */
export interface Dlt645ReadAddressResponse {
  kind: 'readAddress';
  direction: 'response';
  abnormal?: false;
  /** Header address. */
  address: string;
  /** Address carried in the data field; defaults to `address` when encoding. */
  meterAddress?: string;
}

/** 广播校时 (C = 0x08, data ssmmhhDDMMYY). */
export interface Dlt645BroadcastTime {
  kind: 'broadcastTime';
  direction: 'request';
  /** Defaults to the broadcast address `999999999999`. */
  address?: string;
  time: MeterDateTime;
}

/** 控制命令 request (C = 0x1C): relay trip/close, alarm, power hold. Plain-text (non-ESAM) layout. */
export interface Dlt645RemoteControlRequest {
  kind: 'remoteControl';
  direction: 'request';
  address: string;
  /** PA (permission level, e.g. 0x02 or 0x04) and P0..P2 as 6 hex digits in human order (P2 P1 P0). */
  password: { level: number; code: string };
  /** Operator code C0..C3 as 8 hex digits in human order (C3 C2 C1 C0). */
  operator: string;
  /** N1, see {@link DLT645_REMOTE_COMMAND}. */
  command: number;
  /** N2, reserved; 0 by default. */
  reserved?: number;
  /** N3..N8 command expiry (命令有效截止时间), sent ssmmhhDDMMYY. */
  expiry: MeterDateTime;
}

/** 控制命令 normal reply (C = 0x9C, no data). */
export interface Dlt645RemoteControlResponse {
  kind: 'remoteControl';
  direction: 'response';
  abnormal?: false;
  address: string;
}

/** Any abnormal reply carrying one error byte (C = 0xC0 | function, e.g. 0xD1, 0xDC). */
export interface Dlt645ErrorResponse {
  kind: 'error';
  direction: 'response';
  abnormal?: true;
  address: string;
  /** Function code the error answers (0x11 read, 0x1C remote control, …). */
  func: number;
  /** 错误信息字 ERR. */
  errorCode: number;
  /** Names of the set bits of `errorCode` (see {@link DLT645_ERROR_BITS}); set by `decode`. */
  errors?: string[];
}

/** Any frame this codec does not interpret (other control codes, odd lengths). */
export interface Dlt645RawFrame {
  kind: 'raw';
  address: string;
  control: number;
  /** DATA with the 0x33 offset removed. */
  data: Uint8Array;
}

/** Anything `encode()` accepts. */
export type Dlt645Message =
  | Dlt645ReadRequest
  | Dlt645ReadResponse
  | Dlt645ReadAddressRequest
  | Dlt645ReadAddressResponse
  | Dlt645BroadcastTime
  | Dlt645RemoteControlRequest
  | Dlt645RemoteControlResponse
  | Dlt645ErrorResponse
  | Dlt645RawFrame;

/** Header facts present on every decoded frame (address: 12 characters). */
export type Dlt645FrameMeta = FrameMeta;

type WithMeta<T> = T extends Dlt645ReadResponse
  ? T & Dlt645FrameMeta & { dataIdHex: string; payload: Uint8Array }
  : T extends { dataId: number }
    ? T & Dlt645FrameMeta & { dataIdHex: string }
    : T & Dlt645FrameMeta;

/** What `decode()` returns: one of the message shapes plus {@link Dlt645FrameMeta}. */
export type Dlt645Frame = WithMeta<Dlt645Message>;

export interface Dlt645EncodeOptions {
  /** Number of 0xFE wake-up bytes to prepend. Default: the message's `preamble` if any, else 0. */
  preamble?: number;
  /** Extra/override data items, merged over {@link DLT645_DATA_ITEMS}. */
  dataItems?: Readonly<Record<number, Dlt645DataItem>>;
}

export interface Dlt645DecodeOptions {
  /** Throw `UNKNOWN_DI` for a read reply whose DI has no known layout (default: keep only `payload`). */
  strict?: boolean;
  /** Extra/override data items, merged over {@link DLT645_DATA_ITEMS}. */
  dataItems?: Readonly<Record<number, Dlt645DataItem>>;
}

// ---------------------------------------------------------------------------------------------
// Value encoding
// ---------------------------------------------------------------------------------------------

function lookupItem(dataId: number, extra?: Readonly<Record<number, Dlt645DataItem>>): Dlt645DataItem | undefined {
  return extra?.[dataId] ?? DLT645_DATA_ITEMS[dataId];
}

function requireNumber(values: Dlt645Values, name: string): number {
  const v = values[name];
  if (typeof v !== 'number') {
    throw new ProtocolError('INVALID_ARGUMENT', `values.${name} must be a number`);
  }
  return v;
}

/** Decode value bytes (offset removed) per format. */
export function decodeValues(format: Dlt645ValueFormat, bytes: Uint8Array): Dlt645Values {
  const expected = valueLength(format);
  if (bytes.length !== expected) {
    throw new ProtocolError('LENGTH', `value field is ${bytes.length} bytes, format ${format.type} needs ${expected}`);
  }
  switch (format.type) {
    case 'bcd':
      return { value: decodeBcdDecimal(bytes, 0, format.bytes, format.decimals, format.signed) };
    case 'date':
      return {
        year: 2000 + bcdToByte(bytes[3], 3),
        month: bcdToByte(bytes[2], 2),
        day: bcdToByte(bytes[1], 1),
        weekday: bcdToByte(bytes[0], 0),
      };
    case 'time':
      return { hour: bcdToByte(bytes[2], 2), minute: bcdToByte(bytes[1], 1), second: bcdToByte(bytes[0], 0) };
    case 'address':
      return { address: decodeAddress(bytes, 0, 6) };
    case 'statusWord3':
      return { ...decodeStatusWord3(bytes[0] | (bytes[1] << 8)) };
  }
}

function yearByte(year: number): number {
  if (!Number.isInteger(year) || year < 2000 || year > 2099) {
    throw new ProtocolError('RANGE', `year ${year} not in 2000..2099`);
  }
  return byteToBcd(year - 2000);
}

/** Encode value fields per format (inverse of {@link decodeValues}). */
export function encodeValues(format: Dlt645ValueFormat, values: Dlt645Values): Uint8Array {
  switch (format.type) {
    case 'bcd':
      return encodeBcdDecimal(requireNumber(values, 'value'), format.bytes, format.decimals, format.signed);
    case 'date':
      return Uint8Array.of(
        byteToBcd(requireNumber(values, 'weekday')),
        byteToBcd(requireNumber(values, 'day')),
        byteToBcd(requireNumber(values, 'month')),
        yearByte(requireNumber(values, 'year')),
      );
    case 'time':
      return Uint8Array.of(
        byteToBcd(requireNumber(values, 'second')),
        byteToBcd(requireNumber(values, 'minute')),
        byteToBcd(requireNumber(values, 'hour')),
      );
    case 'address': {
      const a = values.address;
      if (typeof a !== 'string') throw new ProtocolError('INVALID_ARGUMENT', 'values.address must be a string');
      return encodeAddress(a, 6);
    }
    case 'statusWord3': {
      const w = encodeStatusWord3(values);
      return Uint8Array.of(w & 0xff, w >> 8);
    }
  }
}

/** ssmmhhDDMMYY, 6 BCD bytes. Only BCD-representability is checked, not the calendar. */
function encodeDateTime(dt: MeterDateTime | undefined, what: string): Uint8Array {
  if (!dt || typeof dt !== 'object') throw new ProtocolError('INVALID_ARGUMENT', `${what} is required`);
  return Uint8Array.of(
    byteToBcd(dt.second),
    byteToBcd(dt.minute),
    byteToBcd(dt.hour),
    byteToBcd(dt.day),
    byteToBcd(dt.month),
    yearByte(dt.year),
  );
}

function decodeDateTime(bytes: Uint8Array, offset: number): MeterDateTime {
  return {
    second: bcdToByte(bytes[offset], offset),
    minute: bcdToByte(bytes[offset + 1], offset + 1),
    hour: bcdToByte(bytes[offset + 2], offset + 2),
    day: bcdToByte(bytes[offset + 3], offset + 3),
    month: bcdToByte(bytes[offset + 4], offset + 4),
    year: 2000 + bcdToByte(bytes[offset + 5], offset + 5),
  };
}

function hexField(text: string, bytes: number, what: string): Uint8Array {
  if (typeof text !== 'string' || !new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(text)) {
    throw new ProtocolError('INVALID_ARGUMENT', `${what} must be ${bytes * 2} hex digits, got ${JSON.stringify(text)}`);
  }
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[bytes - 1 - i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function hexFieldToString(bytes: Uint8Array, offset: number, length: number): string {
  let s = '';
  for (let i = length - 1; i >= 0; i--) s += hex2(bytes[offset + i]);
  return s;
}

function u8(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xff) {
    throw new ProtocolError('RANGE', `${what} must be an integer 0..255, got ${String(v)}`);
  }
  return v;
}

function dataIdBytes(dataId: number): Uint8Array {
  if (typeof dataId !== 'number' || !Number.isInteger(dataId) || dataId < 0 || dataId > 0xffffffff) {
    throw new ProtocolError('INVALID_ARGUMENT', `dataId must be a 32-bit unsigned integer, got ${String(dataId)}`);
  }
  return Uint8Array.of(dataId & 0xff, (dataId >>> 8) & 0xff, (dataId >>> 16) & 0xff, dataId >>> 24);
}

// ---------------------------------------------------------------------------------------------
// encode
// ---------------------------------------------------------------------------------------------

/** Control byte and plain (offset-free) DATA for a message. */
function body(message: Dlt645Message, options: Dlt645EncodeOptions): { address: string; control: number; data: Uint8Array } {
  switch (message.kind) {
    case 'read': {
      if (message.direction === 'request') {
        return {
          address: message.address,
          control: DLT645_CONTROL.READ,
          data: concatBytes(dataIdBytes(message.dataId), message.extra ?? new Uint8Array(0)),
        };
      }
      let payload: Uint8Array;
      if (message.values !== undefined) {
        const item = lookupItem(message.dataId, options.dataItems);
        if (!item) {
          throw new ProtocolError('UNKNOWN_DI', `no value format known for DI ${formatDataId(message.dataId)}; pass payload bytes instead`);
        }
        payload = encodeValues(item.format, message.values);
      } else if (message.payload !== undefined) {
        payload = message.payload;
      } else {
        throw new ProtocolError('INVALID_ARGUMENT', 'read response needs values or payload');
      }
      return {
        address: message.address,
        control: message.hasFollowing ? DLT645_CONTROL.READ_RESPONSE_FOLLOWING : DLT645_CONTROL.READ_RESPONSE,
        data: concatBytes(dataIdBytes(message.dataId), payload),
      };
    }
    case 'readAddress':
      if (message.direction === 'request') {
        return { address: message.address ?? DLT645_WILDCARD_ADDRESS, control: DLT645_CONTROL.READ_ADDRESS, data: new Uint8Array(0) };
      }
      return {
        address: message.address,
        control: DLT645_CONTROL.READ_ADDRESS_RESPONSE,
        data: encodeAddress(message.meterAddress ?? message.address, 6),
      };
    case 'broadcastTime':
      return {
        address: message.address ?? DLT645_BROADCAST_ADDRESS,
        control: DLT645_CONTROL.BROADCAST_TIME,
        data: encodeDateTime(message.time, 'time'),
      };
    case 'remoteControl':
      if (message.direction === 'request') {
        const pw = message.password;
        if (!pw || typeof pw !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'password is required');
        return {
          address: message.address,
          control: DLT645_CONTROL.REMOTE_CONTROL,
          data: concatBytes(
            Uint8Array.of(u8(pw.level, 'password.level')),
            hexField(pw.code, 3, 'password.code'),
            hexField(message.operator, 4, 'operator'),
            Uint8Array.of(u8(message.command, 'command'), u8(message.reserved ?? 0, 'reserved')),
            encodeDateTime(message.expiry, 'expiry'),
          ),
        };
      }
      return { address: message.address, control: DLT645_CONTROL.REMOTE_CONTROL_RESPONSE, data: new Uint8Array(0) };
    case 'error': {
      const func = message.func;
      if (typeof func !== 'number' || !Number.isInteger(func) || func < 0 || func > 0x1f) {
        throw new ProtocolError('RANGE', `func must be 0..0x1F, got ${String(func)}`);
      }
      return {
        address: message.address,
        control: 0xc0 | func,
        data: Uint8Array.of(u8(message.errorCode, 'errorCode')),
      };
    }
    case 'raw':
      return { address: message.address, control: u8(message.control, 'control'), data: message.data };
    default:
      throw new ProtocolError('INVALID_ARGUMENT', `unknown message kind ${JSON.stringify((message as { kind?: unknown }).kind)}`);
  }
}

/**
 * Encode a message to wire bytes (with the +0x33 data offset, checksum and terminator).
 * Throws {@link ProtocolError} (`INVALID_ARGUMENT`, `RANGE`, `UNKNOWN_DI`, `LENGTH`).
 */
export function encode(message: Dlt645Message, options: Dlt645EncodeOptions = {}): Uint8Array {
  if (!message || typeof message !== 'object') throw new ProtocolError('INVALID_ARGUMENT', 'message must be an object');
  const { address, control, data } = body(message, options);
  const preamble = options.preamble ?? (message as { preamble?: number }).preamble ?? 0;
  const { out, p } = startFrame(data.length, preamble, FRAME_OVERHEAD);
  out.set(encodeAddress(address, 6), p + 1);
  out[p + 7] = 0x68;
  out[p + 8] = control;
  out[p + 9] = data.length;
  for (let i = 0; i < data.length; i++) out[p + 10 + i] = (data[i] + DATA_OFFSET) & 0xff;
  return endFrame(out, p, p + 10 + data.length);
}

// ---------------------------------------------------------------------------------------------
// decode
// ---------------------------------------------------------------------------------------------

/**
 * Decode exactly one frame (optionally preceded by 0xFE bytes). Throws {@link ProtocolError}:
 * `START`, `LENGTH`, `TERMINATOR`, `CHECKSUM` for framing problems (checked in that order),
 * then `BCD`/`LENGTH`/`UNKNOWN_DI` for content problems.
 */
export function decode(bytes: Uint8Array, options: Dlt645DecodeOptions = {}): Dlt645Frame {
  expectBytes(bytes);
  const p = frameStart(bytes, FRAME_OVERHEAD);
  const preamble = p;
  if (bytes[p + 7] !== 0x68) {
    throw new ProtocolError('START', `expected second 0x68 at offset ${p + 7}, got 0x${hex2(bytes[p + 7])}`, p + 7);
  }
  const length = bytes[p + 9];
  checkFrameEnd(bytes, p, FRAME_OVERHEAD, length);

  const address = decodeAddress(bytes, p + 1, 6);
  const control = bytes[p + 8];
  const data = new Uint8Array(length);
  for (let i = 0; i < length; i++) data[i] = (bytes[p + 10 + i] - DATA_OFFSET) & 0xff;
  const func = control & DLT645_CONTROL_BITS.FUNCTION;
  const direction = control & DLT645_CONTROL_BITS.DIRECTION ? 'response' : 'request';
  const abnormal = (control & DLT645_CONTROL_BITS.ABNORMAL) !== 0;
  const hasFollowing = (control & DLT645_CONTROL_BITS.FOLLOWING) !== 0;
  const meta: Dlt645FrameMeta = { address, control, func, direction, abnormal, hasFollowing, data, preamble };
  const dataOffset = p + 10;


  // Abnormal replies: one error byte, whatever the function.
  if (control === (0xc0 | func)) {
    if (length !== 1) {
      if (func === DLT645_CONTROL.READ || func === DLT645_CONTROL.REMOTE_CONTROL) {
        throw new ProtocolError('LENGTH', `abnormal reply 0x${hex2(control)} must carry 1 error byte, got ${length}`, p + 9);
      }
      return rawFrame(meta);
    }
    const errorCode = data[0];
    const errors = DLT645_ERROR_BITS.filter((_, i) => (errorCode >> i) & 1);
    return { kind: 'error', ...meta, direction: 'response', abnormal: true, func, errorCode, errors: [...errors] };
  }

  switch (control) {
    case DLT645_CONTROL.READ: {
      if (length < 4) throw new ProtocolError('LENGTH', `read request needs a 4-byte DI, L=${length}`, p + 9);
      const dataId = readDataId(data);
      const frame: WithMeta<Dlt645ReadRequest> = {
        kind: 'read',
        ...meta,
        direction: 'request',
        dataId,
        dataIdHex: formatDataId(dataId),
      };
      if (length > 4) frame.extra = data.slice(4);
      return frame;
    }
    case DLT645_CONTROL.READ_RESPONSE:
    case DLT645_CONTROL.READ_RESPONSE_FOLLOWING: {
      if (length < 4) throw new ProtocolError('LENGTH', `read reply needs a 4-byte DI, L=${length}`, p + 9);
      const dataId = readDataId(data);
      const payload = data.slice(4);
      const item = lookupItem(dataId, options.dataItems);
      // the reply every meter report is: built field by field (no spreads; the same keys in the same order)
      const frame: WithMeta<Dlt645ReadResponse> = {
        kind: 'read',
        address,
        control,
        func,
        direction: 'response',
        abnormal: false,
        hasFollowing,
        data,
        preamble,
        dataId,
        dataIdHex: formatDataId(dataId),
        payload,
      };
      if (item) {
        try {
          frame.values = decodeValues(item.format, payload);
        } catch (e) {
          if (e instanceof ProtocolError) throw e.withContext(`DI ${formatDataId(dataId)}`, dataOffset + 4);
          throw e;
        }
      } else if (options.strict) {
        throw new ProtocolError('UNKNOWN_DI', `no value format known for DI ${formatDataId(dataId)}`, dataOffset);
      }
      return frame;
    }
    case DLT645_CONTROL.READ_ADDRESS:
      if (length !== 0) throw new ProtocolError('LENGTH', `read-address request carries no data, L=${length}`, p + 9);
      return { kind: 'readAddress', ...meta, direction: 'request' };
    case DLT645_CONTROL.READ_ADDRESS_RESPONSE:
      if (length !== 6) throw new ProtocolError('LENGTH', `read-address reply carries 6 bytes, L=${length}`, p + 9);
      return {
        kind: 'readAddress',
        ...meta,
        direction: 'response',
        abnormal: false,
        meterAddress: decodeAddress(data, 0, 6),
      };
    case DLT645_CONTROL.BROADCAST_TIME:
      if (length !== 6) throw new ProtocolError('LENGTH', `broadcast time carries 6 bytes, L=${length}`, p + 9);
      return { kind: 'broadcastTime', ...meta, direction: 'request', time: withOffset(() => decodeDateTime(data, 0), dataOffset) };
    case DLT645_CONTROL.REMOTE_CONTROL: {
      if (length !== 16) {
        throw new ProtocolError('LENGTH', `remote control (plain-text layout) carries 16 bytes, L=${length}`, p + 9);
      }
      return {
        kind: 'remoteControl',
        ...meta,
        direction: 'request',
        password: { level: data[0], code: hexFieldToString(data, 1, 3) },
        operator: hexFieldToString(data, 4, 4),
        command: data[8],
        reserved: data[9],
        expiry: withOffset(() => decodeDateTime(data, 10), dataOffset),
      };
    }
    case DLT645_CONTROL.REMOTE_CONTROL_RESPONSE:
      if (length !== 0) throw new ProtocolError('LENGTH', `remote control reply carries no data, L=${length}`, p + 9);
      return { kind: 'remoteControl', ...meta, direction: 'response', abnormal: false };
    default:
      return rawFrame(meta);
  }
}

function rawFrame(meta: Dlt645FrameMeta): Dlt645Frame {
  return { kind: 'raw', ...meta };
}

function readDataId(data: Uint8Array): number {
  return (data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)) >>> 0;
}

/** Re-throw a content error with its offset translated from DATA-relative to frame-relative. */
function withOffset<T>(fn: () => T, dataOffset: number, context = ''): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ProtocolError) throw e.withContext(context, dataOffset);
    throw e;
  }
}

/** Look up the data item for a DI (optionally in an extra table first). */
export function getDataItem(dataId: number, extra?: Readonly<Record<number, Dlt645DataItem>>): Dlt645DataItem | undefined {
  return lookupItem(dataId, extra);
}

/** Everything DL/T 645 in one object: `dlt645.encode(...)`, `dlt645.DI.FORWARD_ACTIVE_TOTAL`, … */
export const dlt645 = Object.freeze({
  encode,
  decode,
  encodeValues,
  decodeValues,
  encodeStatusWord3,
  decodeStatusWord3,
  getDataItem,
  formatDataId,
  parseDataId,
  valueLength,
  CONTROL: DLT645_CONTROL,
  CONTROL_BITS: DLT645_CONTROL_BITS,
  DI: DLT645_DI,
  DATA_ITEMS: DLT645_DATA_ITEMS,
  REMOTE_COMMAND: DLT645_REMOTE_COMMAND,
  ERROR_BITS: DLT645_ERROR_BITS,
  BROADCAST_ADDRESS: DLT645_BROADCAST_ADDRESS,
  WILDCARD_ADDRESS: DLT645_WILDCARD_ADDRESS,
});
