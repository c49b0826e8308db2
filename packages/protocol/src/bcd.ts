/**
 * BCD, hex and checksum helpers shared by the DL/T 645 and CJ/T 188 codecs.
 *
 * Conventions used throughout the package:
 * - multi-byte BCD fields are little-endian on the wire (lowest-order byte first),
 *   exactly as both standards transmit them;
 * - addresses are exposed as strings in human reading order (highest digit first),
 *   i.e. the wire bytes reversed;
 * - every helper throws {@link ProtocolError} rather than a generic error.
 */
import { ProtocolError } from './errors.ts';

/** Largest BCD field handled as a JS number (14 digits < 2^53). */
const MAX_NUMERIC_BCD_BYTES = 7;

/** True when both nibbles of `b` are 0–9. */
export function isBcdByte(b: number): boolean {
  return (b & 0x0f) <= 9 && b >> 4 <= 9;
}

/** Decode one packed-BCD byte (0x42 → 42). Throws `BCD` on a nibble above 9. */
export function bcdToByte(b: number, offset?: number): number {
  if (!isBcdByte(b)) {
    throw new ProtocolError('BCD', `byte 0x${hex2(b)} is not BCD`, offset);
  }
  return (b >> 4) * 10 + (b & 0x0f);
}

/** Encode 0–99 as one packed-BCD byte (42 → 0x42). Throws `RANGE` otherwise. */
export function byteToBcd(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 99) {
    throw new ProtocolError('RANGE', `${n} does not fit in one BCD byte (0-99)`);
  }
  return ((n / 10) | 0) * 16 + (n % 10);
}

function checkLength(length: number): void {
  if (!Number.isInteger(length) || length < 1 || length > MAX_NUMERIC_BCD_BYTES) {
    throw new ProtocolError('INVALID_ARGUMENT', `BCD field length ${length} not in 1..${MAX_NUMERIC_BCD_BYTES}`);
  }
}

/**
 * Decode an unsigned little-endian BCD integer of `length` bytes starting at `offset`.
 * `bytes[offset]` holds the two lowest digits.
 */
export function decodeBcd(bytes: Uint8Array, offset: number, length: number): number {
  checkLength(length);
  if (offset < 0 || offset + length > bytes.length) {
    throw new ProtocolError('LENGTH', `BCD field of ${length} bytes at ${offset} exceeds ${bytes.length}-byte input`, offset);
  }
  let value = 0;
  for (let i = length - 1; i >= 0; i--) {
    value = value * 100 + bcdToByte(bytes[offset + i], offset + i);
  }
  return value;
}

/** Encode a non-negative integer as `length` little-endian BCD bytes. Throws `RANGE` if it does not fit. */
export function encodeBcd(value: number, length: number): Uint8Array {
  checkLength(length);
  if (!Number.isInteger(value) || value < 0 || value >= 100 ** length) {
    throw new ProtocolError('RANGE', `${value} does not fit in ${length} BCD bytes`);
  }
  const out = new Uint8Array(length);
  let rest = value;
  for (let i = 0; i < length; i++) {
    out[i] = byteToBcd(rest % 100);
    rest = Math.floor(rest / 100);
  }
  return out;
}

/**
 * Decode a sign-magnitude BCD integer: the top bit of the most significant (last) byte is the
 * sign (1 = negative), the remaining bits are BCD. A negative zero decodes to `-0`.
 */
export function decodeBcdSigned(bytes: Uint8Array, offset: number, length: number): number {
  checkLength(length);
  if (offset < 0 || offset + length > bytes.length) {
    throw new ProtocolError('LENGTH', `BCD field of ${length} bytes at ${offset} exceeds ${bytes.length}-byte input`, offset);
  }
  const msb = bytes[offset + length - 1];
  const negative = (msb & 0x80) !== 0;
  let value = bcdToByte(msb & 0x7f, offset + length - 1);
  for (let i = length - 2; i >= 0; i--) {
    value = value * 100 + bcdToByte(bytes[offset + i], offset + i);
  }
  return negative ? -value : value;
}

/**
 * Encode a sign-magnitude BCD integer (see {@link decodeBcdSigned}). The magnitude may use at most
 * 7 in its top digit because the top bit carries the sign. `-0` sets the sign bit.
 */
export function encodeBcdSigned(value: number, length: number): Uint8Array {
  checkLength(length);
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  if (!Number.isInteger(magnitude) || magnitude >= 8 * 10 * 100 ** (length - 1)) {
    throw new ProtocolError('RANGE', `${value} does not fit in ${length} signed BCD bytes`);
  }
  const out = encodeBcd(magnitude, length);
  if (negative) out[length - 1] |= 0x80;
  return out;
}

/**
 * Decode a fixed-point BCD value with `decimals` implied decimal places, e.g. 4 bytes with
 * 2 decimals is the DL/T 645 format XXXXXX.XX.
 */
export function decodeBcdDecimal(
  bytes: Uint8Array,
  offset: number,
  length: number,
  decimals: number,
  signed = false,
): number {
  const raw = signed ? decodeBcdSigned(bytes, offset, length) : decodeBcd(bytes, offset, length);
  return decimals === 0 ? raw : raw / 10 ** decimals;
}

/**
 * Encode a fixed-point value. The value is rounded to `decimals` places (half away from zero)
 * before encoding; a value that does not fit throws `RANGE`.
 */
export function encodeBcdDecimal(value: number, length: number, decimals: number, signed = false): Uint8Array {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ProtocolError('RANGE', `${String(value)} is not a finite number`);
  }
  const scaled = Math.abs(value) * 10 ** decimals;
  // Nudge by a relative epsilon so that e.g. 1.005 * 100 = 100.49999… still rounds to 101.
  const magnitude = Math.round(scaled + scaled * Number.EPSILON * 4);
  const negative = value < 0 || Object.is(value, -0);
  if (signed) return encodeBcdSigned(negative ? -magnitude || -0 : magnitude, length);
  if (negative && magnitude !== 0) {
    throw new ProtocolError('RANGE', `${value} is negative but the field is unsigned`);
  }
  return encodeBcd(magnitude, length);
}

/**
 * Decode an address field (`length` bytes, lowest byte first) to a string in human order.
 * Each byte must be BCD or the wildcard 0xAA (rendered as "AA").
 */
export function decodeAddress(bytes: Uint8Array, offset: number, length: number): string {
  if (offset < 0 || offset + length > bytes.length) {
    throw new ProtocolError('LENGTH', `address of ${length} bytes at ${offset} exceeds input`, offset);
  }
  // character codes first, then one flat string (addresses are map keys: a concatenated string
  // would be flattened and hashed on every lookup)
  const codes = (ADDRESS_CODES[length] ??= new Array<number>(length * 2));
  for (let i = length - 1, k = 0; i >= 0; i--) {
    const b = bytes[offset + i];
    if (b !== 0xaa && !isBcdByte(b)) {
      throw new ProtocolError('BCD', `address byte 0x${hex2(b)} is neither BCD nor the 0xAA wildcard`, offset + i);
    }
    codes[k++] = HEX_DIGIT[b >> 4];
    codes[k++] = HEX_DIGIT[b & 0x0f];
  }
  return String.fromCharCode.apply(null, codes);
}

/**
 * Encode a human-order address string of exactly `2 * length` characters. Every two-character
 * group must be two decimal digits or "AA" (wildcard; case-insensitive).
 */
export function encodeAddress(address: string, length: number): Uint8Array {
  if (typeof address !== 'string' || address.length !== length * 2) {
    throw new ProtocolError(
      'INVALID_ARGUMENT',
      `address must be a string of ${length * 2} characters, got ${JSON.stringify(address)}`,
    );
  }
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const pair = address.slice(i * 2, i * 2 + 2).toUpperCase();
    let b: number;
    if (pair === 'AA') b = 0xaa;
    else if (/^[0-9]{2}$/.test(pair)) b = parseInt(pair, 16);
    else {
      throw new ProtocolError('INVALID_ARGUMENT', `address ${JSON.stringify(address)}: "${pair}" is not two digits or AA`);
    }
    out[length - 1 - i] = b;
  }
  return out;
}

/**
 * Copy `src[start, end)` into a new plain `Uint8Array`. Unlike `Buffer#slice` (a view), this never
 * aliases the caller's memory, whatever `Uint8Array` subclass `src` is.
 */
export function copyBytes(src: Uint8Array, start = 0, end = src.length): Uint8Array {
  // a plain loop: frames are short, and subarray of a Buffer costs more than the copy itself
  const from = Math.max(0, start);
  const out = new Uint8Array(Math.max(0, Math.min(end, src.length) - from));
  for (let i = 0; i < out.length; i++) out[i] = src[from + i];
  return out;
}

/** The parts one after another in a new `Uint8Array`. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Sum of `bytes[start..end)` modulo 256: the checksum used by both DL/T 645 and CJ/T 188. */
export function checksum(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += bytes[i];
  return sum & 0xff;
}

/** Scratch arrays of character codes, one per address length (decoding is synchronous). */
const ADDRESS_CODES: number[][] = [];
/** Character codes of the upper-case hex digits 0–F. */
const HEX_DIGIT = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));
const HEX2 = Array.from({ length: 256 }, (_, b) => b.toString(16).toUpperCase().padStart(2, '0'));

/** Two upper-case hex digits. */
export function hex2(b: number): string {
  return HEX2[b & 0xff];
}

/** Bytes as upper-case hex, separated by `separator` (default one space): `68 AA … 16`. */
export function toHex(bytes: Uint8Array, separator = ' '): string {
  return Array.from(bytes, hex2).join(separator);
}

/**
 * Parse hex text such as `"68 AA AA 68"`, `"68aaaa68"` or `"68-AA"` into bytes. Whitespace,
 * `-`, `:` and `,` are ignored. Throws `INVALID_ARGUMENT` on other characters or an odd digit count.
 */
export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/[\s\-:,]/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) {
    throw new ProtocolError('INVALID_ARGUMENT', `not an even-length hex string: ${JSON.stringify(text.slice(0, 64))}`);
  }
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Date-time fields as BCD meters carry them (no time zone: meters run on local time). */
export interface MeterDateTime {
  /** Full year, e.g. 2024. Two-digit wire years map to 2000–2099. */
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Convert a JS Date to meter wall-clock fields in a fixed UTC offset (default +08:00,
 * China Standard Time), independent of the host time zone.
 */
export function toMeterDateTime(date: Date, utcOffsetMinutes = 480): MeterDateTime {
  const t = new Date(date.getTime() + utcOffsetMinutes * 60_000);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
  };
}

/** Inverse of {@link toMeterDateTime}. Does not validate the calendar. */
export function fromMeterDateTime(dt: MeterDateTime, utcOffsetMinutes = 480): Date {
  return new Date(
    Date.UTC(dt.year, dt.month - 1, dt.day, dt.hour, dt.minute, dt.second) - utcOffsetMinutes * 60_000,
  );
}
