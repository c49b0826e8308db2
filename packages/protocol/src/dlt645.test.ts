import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dlt645, DLT645_DI, DLT645_REMOTE_COMMAND, type Dlt645Frame, type Dlt645Message } from './dlt645.ts';
import { fromHex, toHex } from './bcd.ts';
import { ProtocolError, type ProtocolErrorCode } from './errors.ts';
import { dltMessage } from './arbitraries.test-util.ts';
import { errorOf } from './errors.test-util.ts';

/** Decode a published frame, check it re-encodes byte-exact, return the frame. */
function vector(hex: string): Dlt645Frame {
  const bytes = fromHex(hex);
  const frame = dlt645.decode(bytes);
  expect(toHex(dlt645.encode(frame))).toBe(toHex(bytes));
  return frame;
}

describe('DL/T 645-2007 published vectors', () => {
  // Source: public GitHub Java file Test.java ("Created by WuSong, 2017-05-02"), a comment block
  // listing frames exchanged with meter 000000000161 and their decoded meanings. The same frames
  // (requests with an FE FE FE FE preamble) appear in the document "DLT645-2007报文解析".
  it('read 00010000 (forward active total energy) request', () => {
    const f = vector('68 61 01 00 00 00 00 68 11 04 33 33 34 33 14 16');
    expect(f).toMatchObject({
      kind: 'read',
      direction: 'request',
      abnormal: false,
      address: '000000000161',
      control: 0x11,
      dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL,
      dataIdHex: '00010000',
    });
  });

  it('read 00010000 reply: 000000.26 kWh (same source)', () => {
    const f = vector('68 61 01 00 00 00 00 68 91 08 33 33 34 33 59 33 33 33 8A 16');
    expect(f).toMatchObject({ kind: 'read', direction: 'response', abnormal: false, hasFollowing: false, dataIdHex: '00010000' });
    if (f.kind !== 'read' || f.direction !== 'response') throw new Error('narrowing');
    expect(f.values).toEqual({ value: 0.26 });
    expect(toHex(f.payload)).toBe('26 00 00 00');
  });

  it('A-phase voltage 02010100 reply: 100.1 V (same source)', () => {
    const f = vector('68 61 01 00 00 00 00 68 91 06 33 34 34 35 34 43 10 16');
    expect(f).toMatchObject({ dataId: DLT645_DI.VOLTAGE_A, values: { value: 100.1 } });
  });

  it('A-phase current 02020100 reply: 4.999 A (same source)', () => {
    vector('68 61 01 00 00 00 00 68 11 04 33 34 35 35 18 16');
    const f = vector('68 61 01 00 00 00 00 68 91 07 33 34 35 35 CC 7C 33 16 16');
    expect(f).toMatchObject({ dataId: DLT645_DI.CURRENT_A, values: { value: 4.999 } });
  });

  it('total active power 02030000 reply: 0.2512 kW (same source)', () => {
    vector('68 61 01 00 00 00 00 68 11 04 33 33 36 35 18 16');
    const f = vector('68 61 01 00 00 00 00 68 91 07 33 33 36 35 45 58 33 6B 16');
    expect(f).toMatchObject({ dataId: DLT645_DI.ACTIVE_POWER_TOTAL, values: { value: 0.2512 } });
  });

  it('total power factor 02060000 reply: 0.501 (same source)', () => {
    const f = vector('68 61 01 00 00 00 00 68 91 06 33 33 39 35 34 38 09 16');
    expect(f).toMatchObject({ dataId: DLT645_DI.POWER_FACTOR_TOTAL, values: { value: 0.501 } });
  });

  // Source: luatdoc.papapoi.com/572 "合宙4G DTU+国网dlt645-2007协议抄表" — 读当前正向有功总电量,
  // meter 12345678: FEFEFEFE6878563412000068110433333433C616.
  it('read request with four FE preamble bytes', () => {
    const f = vector('FE FE FE FE 68 78 56 34 12 00 00 68 11 04 33 33 34 33 C6 16');
    expect(f).toMatchObject({ kind: 'read', address: '000012345678', preamble: 4, dataId: 0x00010000 });
  });

  // Source: public C# test MeterClientTests (namespace Dlt645.Core.Tests), constant EnergyResponse.
  it('energy reply with two FE bytes: 1234.56 kWh', () => {
    const f = vector('FE FE 68 12 90 78 56 34 12 68 91 08 33 33 34 33 89 67 45 33 54 16');
    expect(f).toMatchObject({ address: '123456789012', preamble: 2, values: { value: 1234.56 } });
  });

  // Source: the ubiquitous wildcard read-address command "68 AA AA AA AA AA AA 68 13 00 DF 16"
  // (e.g. public Go test TestDlt, whose comment also gives the reply
  // "68 01 00 00 00 00 00 68 93 06 34 33 33 33 33 33 9D 16" → address 000000000001).
  it('read address (0x13) with the wildcard address and its 0x93 reply', () => {
    const req = vector('68 AA AA AA AA AA AA 68 13 00 DF 16');
    expect(req).toMatchObject({ kind: 'readAddress', direction: 'request', address: 'AAAAAAAAAAAA' });
    expect(toHex(dlt645.encode({ kind: 'readAddress', direction: 'request' }))).toBe('68 AA AA AA AA AA AA 68 13 00 DF 16');
    const res = vector('68 01 00 00 00 00 00 68 93 06 34 33 33 33 33 33 9D 16');
    expect(res).toMatchObject({ kind: 'readAddress', direction: 'response', address: '000000000001', meterAddress: '000000000001' });
  });

  // Source: http://101.42.41.254:3000/ly/KYGK/src/master/upload/202305/…_帧格式.txt (public Gitea
  // page): reply "FE FE FE FE 68 04 60 07 00 15 00 68 93 06 37 93 3A 33 48 33 9B 16", then the
  // read "68 04 60 07 00 15 00 68 11 04 33 33 34 33 32 16", and a 10-byte read
  // "68 67 02 81 00 00 00 68 11 0A 33 33 34 33 37 93 3A 33 48 33 54 16".
  it('read-address reply with preamble, and reads from the same capture', () => {
    expect(vector('FE FE FE FE 68 04 60 07 00 15 00 68 93 06 37 93 3A 33 48 33 9B 16')).toMatchObject({
      kind: 'readAddress',
      address: '001500076004',
      meterAddress: '001500076004',
      preamble: 4,
    });
    expect(vector('68 04 60 07 00 15 00 68 11 04 33 33 34 33 32 16')).toMatchObject({ dataIdHex: '00010000' });
    const long = vector('68 67 02 81 00 00 00 68 11 0A 33 33 34 33 37 93 3A 33 48 33 54 16');
    expect(long).toMatchObject({ kind: 'read', address: '000000810267', dataIdHex: '00010000' });
    if (long.kind !== 'read' || long.direction !== 'request') throw new Error('narrowing');
    expect(toHex(long.extra!)).toBe('04 60 07 00 15 00');
  });

  // Source: public C source (BroadcastTime_TxDATA_DL645), comment "//645-07广播校时
  // //68 99 99 99 99 99 99 68 08 06 84 55 43 38 39 4A 4B 16".
  it('broadcast time sync (0x08): 2017-06-05 10:22:51', () => {
    const f = vector('68 99 99 99 99 99 99 68 08 06 84 55 43 38 39 4A 4B 16');
    expect(f).toMatchObject({
      kind: 'broadcastTime',
      address: '999999999999',
      time: { year: 2017, month: 6, day: 5, hour: 10, minute: 22, second: 51 },
    });
    const again = dlt645.encode({
      kind: 'broadcastTime',
      direction: 'request',
      time: { year: 2017, month: 6, day: 5, hour: 10, minute: 22, second: 51 },
    });
    expect(toHex(again)).toBe('68 99 99 99 99 99 99 68 08 06 84 55 43 38 39 4A 4B 16');
  });

  // Source: public Java file ProtocolMeter645_2007Util.java (package com.holley.emcpshare.dcs.util):
  // comment "645拉闸报文例子:68 11 11 11 11 11 11 68 1C 10 33 33 33 33 33 33 33 33 4D 33 57 74 48 45 38 4B 55 16"
  // and the success reply it checks for ("16D2009C6811111111111168", hex written back to front).
  it('remote control trip (0x1C, N1 = 0x1A 拉闸) and the 0x9C reply', () => {
    const f = vector('68 11 11 11 11 11 11 68 1C 10 33 33 33 33 33 33 33 33 4D 33 57 74 48 45 38 4B 55 16');
    expect(f).toMatchObject({
      kind: 'remoteControl',
      direction: 'request',
      address: '111111111111',
      password: { level: 0, code: '000000' },
      operator: '00000000',
      command: DLT645_REMOTE_COMMAND.TRIP,
      reserved: 0,
      expiry: { year: 2018, month: 5, day: 12, hour: 15, minute: 41, second: 24 },
    });
    const reply = vector('68 11 11 11 11 11 11 68 9C 00 D2 16');
    expect(reply).toMatchObject({ kind: 'remoteControl', direction: 'response', abnormal: false, control: 0x9c });
  });

  // Source: public Go test TestParseDLT645Frame (package protocol_stack), commented frames
  // "FE FE FE FE 68 60 07 92 04 00 91 68 D1 01 37 67 16" and
  // "FE FE FE FE 68 60 07 92 04 00 91 68 91 08 33 33 77 33 98 4C 33 33 51 16".
  it('abnormal read reply (0xD1) with error byte 0x04', () => {
    const f = vector('FE FE FE FE 68 60 07 92 04 00 91 68 D1 01 37 67 16');
    expect(f).toMatchObject({
      kind: 'error',
      direction: 'response',
      abnormal: true,
      func: 0x11,
      errorCode: 0x04,
      errors: ['unauthorized'],
      address: '910004920760',
    });
  });

  it('reply for a DI outside the table keeps the payload; strict mode rejects it', () => {
    const hex = 'FE FE FE FE 68 60 07 92 04 00 91 68 91 08 33 33 77 33 98 4C 33 33 51 16';
    const f = vector(hex);
    expect(f).toMatchObject({ kind: 'read', dataIdHex: '00440000' });
    if (f.kind !== 'read' || f.direction !== 'response') throw new Error('narrowing');
    expect(f.values).toBeUndefined();
    expect(toHex(f.payload)).toBe('65 19 00 00');
    expect(errorOf(() => dlt645.decode(fromHex(hex), { strict: true })).code).toBe('UNKNOWN_DI');
  });

  // Source: public C# WPF handler Button_Click (ProtocolAnalysis.Portocol_645 sample) frame
  // "68 18 06 36 04 00 91 68 91 08 33 33 34 33 33 33 41 33 F9 16": checksum is right, but the value
  // byte 0x41 - 0x33 = 0x0E is not BCD, so the energy cannot be read.
  it('rejects a published reply whose value is not BCD', () => {
    const e = errorOf(() => dlt645.decode(fromHex('68 18 06 36 04 00 91 68 91 08 33 33 34 33 33 33 41 33 F9 16')));
    expect(e.code).toBe('BCD');
    expect(e.offset).toBe(16);
  });
});

describe('DL/T 645-2007 encoding', () => {
  it('builds a read for every tariff register of 尖峰平谷', () => {
    const ids = [DLT645_DI.FORWARD_ACTIVE_SHARP, DLT645_DI.FORWARD_ACTIVE_PEAK, DLT645_DI.FORWARD_ACTIVE_FLAT, DLT645_DI.FORWARD_ACTIVE_VALLEY];
    const hex = ids.map((dataId) => toHex(dlt645.encode({ kind: 'read', direction: 'request', address: '000000000161', dataId })));
    // DI bytes +0x33, low byte first: 00 01 01 00 → 33 34 34 33, etc.
    expect(hex.map((h) => h.slice(30, 41))).toEqual(['33 34 34 33', '33 35 34 33', '33 36 34 33', '33 37 34 33']);
  });

  it('encodes the simulator replies for the prepaid data items', () => {
    const money = dlt645.encode({
      kind: 'read',
      direction: 'response',
      address: '202400000001',
      dataId: DLT645_DI.REMAINING_MONEY,
      values: { value: 123.45 },
    });
    const f = dlt645.decode(money);
    expect(f).toMatchObject({ dataIdHex: '00900200', values: { value: 123.45 }, payload: Uint8Array.of(0x45, 0x23, 0x01, 0x00) });

    const date = dlt645.decode(
      dlt645.encode({
        kind: 'read',
        direction: 'response',
        address: '202400000001',
        dataId: DLT645_DI.DATE,
        values: { year: 2024, month: 3, day: 15, weekday: 5 },
      }),
    );
    expect(date).toMatchObject({ payload: Uint8Array.of(0x05, 0x15, 0x03, 0x24), values: { year: 2024, month: 3, day: 15, weekday: 5 } });

    const time = dlt645.decode(
      dlt645.encode({ kind: 'read', direction: 'response', address: '202400000001', dataId: DLT645_DI.TIME, values: { hour: 23, minute: 59, second: 1 } }),
    );
    expect(time).toMatchObject({ payload: Uint8Array.of(0x01, 0x59, 0x23) });

    const negative = dlt645.decode(
      dlt645.encode({ kind: 'read', direction: 'response', address: '202400000001', dataId: DLT645_DI.CURRENT_B, values: { value: -12.5 } }),
    );
    expect(negative).toMatchObject({ payload: Uint8Array.of(0x00, 0x25, 0x81), values: { value: -12.5 } });
  });

  it('encodes and decodes status word 3 (relay bit4, relay command bit6, prepaid type bits 8-9)', () => {
    const word = dlt645.encodeStatusWord3({ relayState: 'disconnected', relayCommand: 'disconnect', meterType: 'moneyPrepaid', powerHold: true });
    expect(word).toBe(0x1250);
    const bytes = dlt645.encode({
      kind: 'read',
      direction: 'response',
      address: '202400000001',
      dataId: DLT645_DI.STATUS_WORD_3,
      values: { relayState: 'disconnected', relayCommand: 'disconnect', meterType: 'moneyPrepaid', powerHold: true },
    });
    const f = dlt645.decode(bytes);
    expect(f).toMatchObject({
      payload: Uint8Array.of(0x50, 0x12),
      values: {
        raw: 0x1250,
        relayState: 'disconnected',
        relayCommand: 'disconnect',
        preTripAlarm: false,
        meterType: 'moneyPrepaid',
        powerSupply: 'main',
        powerHold: true,
      },
    });
    // Named fields override the raw word.
    expect(dlt645.encodeStatusWord3({ raw: 0xffff, relayState: 'connected' })).toBe(0xffef);
    expect(errorOf(() => dlt645.encodeStatusWord3({ relayState: 'half-open' })).code).toBe('INVALID_ARGUMENT');
  });

  it('builds remote-control commands with every N1 code', () => {
    for (const command of Object.values(DLT645_REMOTE_COMMAND)) {
      const msg: Dlt645Message = {
        kind: 'remoteControl',
        direction: 'request',
        address: '202400000001',
        password: { level: 0x02, code: '123456' },
        operator: '0000ABCD',
        command,
        expiry: { year: 2030, month: 12, day: 31, hour: 23, minute: 59, second: 59 },
      };
      const bytes = dlt645.encode(msg);
      // L = 16, data (+0x33): PA, P0 P1 P2, C0..C3, N1, N2, ss mm hh DD MM YY
      expect(bytes[9]).toBe(0x10);
      expect(toHex(bytes.subarray(10, 26).map((b) => (b - 0x33) & 0xff))).toBe(
        `02 56 34 12 CD AB 00 00 ${toHex(Uint8Array.of(command))} 00 59 59 23 31 12 30`,
      );
      expect(dlt645.decode(bytes)).toMatchObject({ ...msg, reserved: 0 });
    }
  });

  it('encodes an abnormal reply for any function', () => {
    const bytes = dlt645.encode({ kind: 'error', direction: 'response', address: '202400000001', func: 0x1c, errorCode: 0x01 });
    expect(bytes[8]).toBe(0xdc);
    expect(dlt645.decode(bytes)).toMatchObject({ kind: 'error', func: 0x1c, errorCode: 1, errors: ['other'] });
  });

  it('rejects bad encoder input with typed errors', () => {
    const base = { kind: 'read', direction: 'response', address: '202400000001' } as const;
    expect(errorOf(() => dlt645.encode({ ...base, dataId: 0x12345678, values: { value: 1 } })).code).toBe('UNKNOWN_DI');
    expect(errorOf(() => dlt645.encode({ ...base, dataId: DLT645_DI.VOLTAGE_A, values: { value: 10000 } })).code).toBe('RANGE');
    expect(errorOf(() => dlt645.encode({ ...base, dataId: DLT645_DI.VOLTAGE_A, values: { volts: 1 } })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => dlt645.encode({ ...base, dataId: DLT645_DI.VOLTAGE_A })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => dlt645.encode({ ...base, address: '12' , dataId: 0, payload: new Uint8Array(4) })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => dlt645.encode({ kind: 'raw', address: '202400000001', control: 0x14, data: new Uint8Array(256) })).code).toBe('LENGTH');
  });

  it('uses options.dataItems to extend the table', () => {
    const dataItems = { 0x02800001: { key: 'neutralCurrent', label: '零线电流', unit: 'A', format: { type: 'bcd', bytes: 3, decimals: 3, signed: true } } } as const;
    const bytes = dlt645.encode(
      { kind: 'read', direction: 'response', address: '202400000001', dataId: 0x02800001, values: { value: 1.5 } },
      { dataItems },
    );
    expect(dlt645.decode(bytes, { dataItems })).toMatchObject({ values: { value: 1.5 } });
    expect(dlt645.decode(bytes)).not.toHaveProperty('values');
  });
});

describe('DL/T 645-2007 framing errors', () => {
  const good = fromHex('FE FE 68 61 01 00 00 00 00 68 91 08 33 33 34 33 59 33 33 33 8A 16');
  const cases: [string, (b: Uint8Array) => Uint8Array, ProtocolErrorCode][] = [
    ['wrong first start byte', (b) => b.map((x, i) => (i === 2 ? 0x67 : x)), 'START'],
    ['wrong second start byte', (b) => b.map((x, i) => (i === 9 ? 0x69 : x)), 'START'],
    ['checksum off by one', (b) => b.map((x, i) => (i === b.length - 2 ? x + 1 : x)), 'CHECKSUM'],
    ['data byte changed', (b) => b.map((x, i) => (i === 16 ? x ^ 0x01 : x)), 'CHECKSUM'],
    ['bad terminator', (b) => b.map((x, i) => (i === b.length - 1 ? 0x17 : x)), 'TERMINATOR'],
    ['truncated', (b) => b.slice(0, -3), 'LENGTH'],
    ['trailing byte', (b) => Uint8Array.from([...b, 0x00]), 'LENGTH'],
    ['length byte too large', (b) => b.map((x, i) => (i === 11 ? 0x09 : x)), 'LENGTH'],
    ['only preamble', () => Uint8Array.of(0xfe, 0xfe), 'LENGTH'],
    ['empty', () => new Uint8Array(0), 'LENGTH'],
  ];
  for (const [name, mutate, code] of cases) {
    it(`${name} → ${code}`, () => {
      const e = errorOf(() => dlt645.decode(mutate(good)));
      expect(e).toBeInstanceOf(ProtocolError);
      expect(e.code).toBe(code);
      expect(e.message).toMatch(new RegExp(`^${code}: `));
    });
  }

  it('checks address BCD and content lengths', () => {
    // Address byte 0x1F (not BCD, not AA) with a correct checksum.
    const bad = dlt645.encode({ kind: 'raw', address: '000000000001', control: 0x14, data: new Uint8Array(0) });
    bad[1] = 0x1f;
    bad[bad.length - 2] = bad.slice(0, -2).reduce((s, b) => (s + b) & 0xff, 0);
    expect(errorOf(() => dlt645.decode(bad)).code).toBe('BCD');
    // A voltage reply with 3 value bytes instead of 2.
    const long = dlt645.encode({ kind: 'read', direction: 'response', address: '000000000001', dataId: DLT645_DI.VOLTAGE_A, payload: new Uint8Array(3) });
    expect(errorOf(() => dlt645.decode(long)).code).toBe('LENGTH');
    // Remote control with an encrypted-style (non 16-byte) body.
    const rc = dlt645.encode({ kind: 'raw', address: '000000000001', control: 0x1c, data: new Uint8Array(24) });
    expect(errorOf(() => dlt645.decode(rc)).code).toBe('LENGTH');
  });
});

describe('DL/T 645-2007 round trips (fast-check)', () => {
  it('decode(encode(m)) reproduces every message kind, and re-encoding is byte-exact', () => {
    fc.assert(
      fc.property(dltMessage, fc.integer({ min: 0, max: 4 }), (msg, preamble) => {
        const bytes = dlt645.encode(msg, { preamble });
        const frame = dlt645.decode(bytes);
        expect(frame).toMatchObject({ ...msg, preamble });
        expect(toHex(dlt645.encode(frame))).toBe(toHex(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});
