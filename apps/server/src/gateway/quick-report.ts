import {
  CJT188_CONTROL,
  CJT188_DI,
  CJT188_UNIT,
  DLT645_CONTROL,
  DLT645_DATA_ITEMS,
  DLT645_DI,
  DLT645_PARAM_ITEMS,
  decodeAddress,
  isBcdByte,
} from '@meter/protocol';
import { centsText } from '../modules/control/index.ts';
import type { Protocol } from './frames.ts';

// A meter's routine report read straight from its bytes: the two frames nearly every reading comes
// in (a DL/T 645 正向有功总电能 reply, a CJ/T 188 901F flow reply in the standard byte order), with
// the address, the total and the registers the gateway stores, and nothing else built (the general
// path decodes every field into objects, a data copy, the data id as hex, the meter clock as text,
// and then interprets them: about twenty objects a report, most of them garbage at once).
//
// The fast path is never looser than the codec: it checks what `dlt645.decode` / `cjt188.decode`
// check for these frames (start bytes, exact length, terminator, checksum, BCD of the address and of
// every number and of the meter clock) and answers null for anything else — any other frame, a
// field the codec would refuse, a reading in litres, a report without a current total. Null sends
// the frame down the general path, which decodes (or refuses) it as before. quick-report.test.ts
// holds the two paths to the same facts over generated and damaged frames.

/** A routine report: what the gateway queues for the database. */
export interface QuickReport {
  address: string;
  /** the total in exact hundredths (factsOf writes it as {@link centsText} of these): no text built a report */
  cents: number;
  /** the registers as the dialogue completes them (battery and valve included) */
  registers: Record<string, number | string | boolean>;
  valve?: 0 | 1;
  batteryLow?: boolean;
}

/** Hundredths as a total with two decimals (what frames.ts's `two` writes for them), one flat string. */
export { centsText };

/** `length` little-endian packed-BCD bytes at `at` (each minus `offset`, mod 256), or -1 if a nibble is over 9. */
function bcd(bytes: Uint8Array, at: number, length: number, offset: number): number {
  let v = 0;
  for (let i = length - 1; i >= 0; i--) {
    const b = (bytes[at + i] - offset) & 0xff;
    if (!isBcdByte(b)) return -1;
    v = v * 100 + (b >> 4) * 10 + (b & 0x0f);
  }
  return v;
}

/** The frame at `o` (`n` bytes) is exactly `overhead + L` bytes (L at `o + lengthAt`) ending in its checksum and 0x16. */
function framed(bytes: Uint8Array, o: number, n: number, overhead: number, lengthAt: number, length: number): boolean {
  if (n !== overhead + length || bytes[o + n - 1] !== 0x16) return false;
  let cs = 0;
  for (let i = o; i < o + n - 2; i++) cs = (cs + bytes[i]) & 0xff;
  return cs === bytes[o + n - 2] && bytes[o + lengthAt] === length;
}

/** BCD address of `length` bytes at `at` (0xAA wildcard bytes allowed), or null where the codec would refuse it. */
function address(bytes: Uint8Array, at: number, length: number): string | null {
  for (let i = 0; i < length; i++) {
    const b = bytes[at + i];
    if (b !== 0xaa && !isBcdByte(b)) return null;
  }
  return decodeAddress(bytes, at, length);
}

// DL/T 645: 68 A0…A5 68 C L DATA CS 16 (overhead 12), data bytes sent plus 0x33
const DLT_TOTAL = DLT645_DATA_ITEMS[DLT645_DI.FORWARD_ACTIVE_TOTAL];
/** the codec reads 正向有功总电能 as 4 unsigned BCD bytes with two decimals (and nothing overrides it) */
const DLT_QUICK =
  DLT645_PARAM_ITEMS[DLT645_DI.FORWARD_ACTIVE_TOTAL] === undefined &&
  DLT_TOTAL?.format.type === 'bcd' &&
  DLT_TOTAL.format.bytes === 4 &&
  DLT_TOTAL.format.decimals === 2 &&
  !DLT_TOTAL.format.signed;
/** a DL/T 645 report's registers: none (shared; the ingest never writes into an item's registers) */
const NO_REGISTERS: Readonly<Record<string, never>> = Object.freeze({});

function dltReport(bytes: Uint8Array, o: number, n: number): QuickReport | null {
  if (!DLT_QUICK || n !== 20 || bytes[o] !== 0x68 || bytes[o + 7] !== 0x68 || bytes[o + 8] !== DLT645_CONTROL.READ_RESPONSE) return null;
  if (!framed(bytes, o, n, 12, 9, 8)) return null;
  // the data identifier, little-endian after the 0x33 offset
  const di = (((bytes[o + 10] - 0x33) & 0xff) | (((bytes[o + 11] - 0x33) & 0xff) << 8) | (((bytes[o + 12] - 0x33) & 0xff) << 16) | (((bytes[o + 13] - 0x33) & 0xff) << 24)) >>> 0;
  if (di !== DLT645_DI.FORWARD_ACTIVE_TOTAL) return null;
  const cents = bcd(bytes, o + 14, 4, 0x33);
  const addr = cents < 0 ? null : address(bytes, o + 1, 6);
  if (addr === null) return null;
  return { address: addr, cents, registers: NO_REGISTERS };
}

// CJ/T 188: 68 T A0…A6 C L DATA CS 16 (overhead 13); 901F flow data: DI SER, then 19 bytes
const CJT_FLOW_LENGTH = 3 + 19;

function cjtReport(bytes: Uint8Array, o: number, n: number): QuickReport | null {
  if (n !== 13 + CJT_FLOW_LENGTH || bytes[o] !== 0x68 || bytes[o + 9] !== CJT188_CONTROL.READ_DATA_RESPONSE) return null;
  // the codec reads 19 bytes after DI+SER as the flow layout for these meter types (and any type without a layout of its own)
  const t = bytes[o + 1];
  if (t >= 0x20 && t <= 0x2f) return null;
  if (!framed(bytes, o, n, 13, 10, CJT_FLOW_LENGTH)) return null;
  if (((bytes[o + 11] << 8) | bytes[o + 12]) !== CJT188_DI.METER_DATA) return null; // standard order 90 1F only
  const d = o + 14; // the flow layout: current flow (4) unit, settlement flow (4) unit, meter clock (7), ST (2)
  if (bytes[d + 4] === CJT188_UNIT.L || bytes[d + 9] === CJT188_UNIT.L) return null;
  const current = allFF(bytes, d, 4) ? -1 : bcd(bytes, d, 4, 0);
  if (current < 0) return null;
  const settlementFF = allFF(bytes, d + 5, 4);
  const settlement = settlementFF ? 0 : bcd(bytes, d + 5, 4, 0);
  if (settlement < 0) return null;
  if (!allFF(bytes, d + 10, 7)) for (let i = 0; i < 7; i++) if (!isBcdByte(bytes[d + 10 + i])) return null;
  const addr = address(bytes, o + 2, 7);
  if (addr === null) return null;
  // ST in the standard profile: bits 0–1 the valve (00 open, 01 closed, 11 abnormal), bit 2 battery low
  const st = bytes[d + 17] | (bytes[d + 18] << 8);
  const valveCode = st & 3;
  const batteryLow = ((st >> 2) & 1) === 1;
  const registers: Record<string, number | string | boolean> = { statusST: st };
  if (!settlementFF) registers.settlementFlow = centsText(settlement);
  registers.batteryLow = batteryLow;
  const valve = valveCode === 0 ? 1 : valveCode === 1 ? 0 : undefined;
  if (valve !== undefined) registers.valve = valve;
  return { address: addr, cents: current, registers, valve, batteryLow };
}

function allFF(bytes: Uint8Array, at: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[at + i] !== 0xff) return false;
  return true;
}

/**
 * The routine report the frame `bytes[start, end)` is (the whole array by default), or null: decode
 * it the general way (see above). Never throws.
 */
export function quickReport(protocol: Protocol, bytes: Uint8Array, start = 0, end = bytes.length): QuickReport | null {
  try {
    return protocol === 'dlt645' ? dltReport(bytes, start, end - start) : cjtReport(bytes, start, end - start);
  } catch {
    return null;
  }
}
