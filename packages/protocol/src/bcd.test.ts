import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bcdToByte,
  byteToBcd,
  checksum,
  decodeAddress,
  decodeBcd,
  decodeBcdDecimal,
  decodeBcdSigned,
  encodeAddress,
  encodeBcd,
  encodeBcdDecimal,
  encodeBcdSigned,
  fromHex,
  fromMeterDateTime,
  isBcdByte,
  toHex,
  toMeterDateTime,
} from './bcd.ts';
import { ProtocolError } from './errors.ts';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProtocolError) return e.code;
    throw e;
  }
  return undefined;
}

describe('BCD helpers', () => {
  it('converts single bytes', () => {
    expect(bcdToByte(0x42)).toBe(42);
    expect(byteToBcd(42)).toBe(0x42);
    expect(isBcdByte(0x99)).toBe(true);
    expect(isBcdByte(0x9a)).toBe(false);
    expect(isBcdByte(0xa0)).toBe(false);
    expect(codeOf(() => bcdToByte(0x1a))).toBe('BCD');
    expect(codeOf(() => byteToBcd(100))).toBe('RANGE');
    expect(codeOf(() => byteToBcd(-1))).toBe('RANGE');
  });

  it('decodes little-endian multi-byte BCD', () => {
    expect(decodeBcd(Uint8Array.of(0x56, 0x34, 0x12, 0x00), 0, 4)).toBe(123456);
    expect(toHex(encodeBcd(123456, 4))).toBe('56 34 12 00');
    expect(decodeBcdDecimal(Uint8Array.of(0x56, 0x34, 0x12, 0x00), 0, 4, 2)).toBe(1234.56);
    expect(codeOf(() => encodeBcd(100000000, 4))).toBe('RANGE');
    expect(codeOf(() => decodeBcd(Uint8Array.of(0x0e), 0, 1))).toBe('BCD');
    expect(codeOf(() => decodeBcd(Uint8Array.of(0x01), 0, 2))).toBe('LENGTH');
  });

  it('handles the sign bit of signed formats', () => {
    // -4.999 A as XXX.XXX: 99 49 80
    expect(decodeBcdSigned(Uint8Array.of(0x99, 0x49, 0x80), 0, 3)).toBe(-4999);
    expect(toHex(encodeBcdSigned(-4999, 3))).toBe('99 49 80');
    expect(toHex(encodeBcdDecimal(-4.999, 3, 3, true))).toBe('99 49 80');
    expect(Object.is(decodeBcdSigned(Uint8Array.of(0, 0, 0x80), 0, 3), -0)).toBe(true);
    expect(codeOf(() => encodeBcdSigned(800000, 3))).toBe('RANGE');
    expect(toHex(encodeBcdSigned(799999, 3))).toBe('99 99 79');
  });

  it('rounds fixed-point values half away from zero', () => {
    expect(toHex(encodeBcdDecimal(1.005, 4, 2))).toBe('01 01 00 00');
    expect(toHex(encodeBcdDecimal(0.1 + 0.2, 4, 2))).toBe('30 00 00 00');
    expect(codeOf(() => encodeBcdDecimal(-1, 4, 2))).toBe('RANGE');
    expect(codeOf(() => encodeBcdDecimal(Number.NaN, 4, 2))).toBe('RANGE');
  });

  it('round-trips integers and fixed-point values (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), (len, seed) => {
        const n = seed % 100 ** len;
        expect(decodeBcd(encodeBcd(n, len), 0, len)).toBe(n);
        const max = 8 * 10 * 100 ** (len - 1);
        const s = (seed % max) * (seed % 2 ? -1 : 1);
        expect(decodeBcdSigned(encodeBcdSigned(s, len), 0, len)).toBe(s);
      }),
    );
  });

  it('encodes addresses in reverse byte order with AA wildcards', () => {
    expect(toHex(encodeAddress('000012345678', 6))).toBe('78 56 34 12 00 00');
    expect(decodeAddress(fromHex('78 56 34 12 00 00'), 0, 6)).toBe('000012345678');
    expect(decodeAddress(fromHex('AA AA AA AA AA AA'), 0, 6)).toBe('AAAAAAAAAAAA');
    expect(toHex(encodeAddress('aaaaaaaaaaaaaa', 7))).toBe('AA AA AA AA AA AA AA');
    expect(codeOf(() => decodeAddress(fromHex('78 56 34 12 00 0F'), 0, 6))).toBe('BCD');
    expect(codeOf(() => encodeAddress('12345', 6))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => encodeAddress('00001234567B', 6))).toBe('INVALID_ARGUMENT');
  });

  it('computes the mod-256 sum and parses hex', () => {
    expect(checksum(fromHex('68 AA AA AA AA AA AA 68 13 00'))).toBe(0xdf);
    expect(toHex(fromHex('68aa-AA:16'))).toBe('68 AA AA 16');
    expect(codeOf(() => fromHex('6'))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => fromHex('zz'))).toBe('INVALID_ARGUMENT');
  });

  it('converts dates to meter wall-clock time in UTC+8 regardless of host zone', () => {
    const d = new Date('2024-02-29T16:30:05Z');
    const dt = toMeterDateTime(d);
    expect(dt).toEqual({ year: 2024, month: 3, day: 1, hour: 0, minute: 30, second: 5 });
    expect(fromMeterDateTime(dt).toISOString()).toBe(d.toISOString());
  });
});
