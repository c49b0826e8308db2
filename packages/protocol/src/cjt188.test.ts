import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cjt188, CJT188_DI, CJT188_PROFILES, CJT188_UNIT, CJT188_VALVE, type Cjt188Frame, type Cjt188Message } from './cjt188.ts';
import { fromHex, toHex } from './bcd.ts';
import { cjtMessage } from './arbitraries.test-util.ts';
import { errorOf } from './errors.test-util.ts';

function vector(hex: string, options?: Parameters<typeof cjt188.decode>[1]): Cjt188Frame {
  const bytes = fromHex(hex);
  const frame = cjt188.decode(bytes, options);
  expect(toHex(cjt188.encode(frame, { profile: options?.profile }))).toBe(toHex(bytes));
  return frame;
}

describe('CJ/T 188-2004 published vectors', () => {
  // Source: public C# unit test FrameCJT188_2004Sample.cs (namespace Friendcom.Protocol.Sample):
  // SetDataSample() request "68 10 88 05 27 10 15 20 00 01 03 90 1F 01 25 16" and reply
  // "68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16";
  // IsProtocolSample() expects the same request with checksum 24 to be rejected.
  it('read 901F request and reply of a cold-water meter', () => {
    const req = vector('68 10 88 05 27 10 15 20 00 01 03 90 1F 01 25 16');
    expect(req).toMatchObject({
      kind: 'readData',
      direction: 'request',
      meterType: 0x10,
      address: '00201510270588',
      control: 0x01,
      dataId: CJT188_DI.METER_DATA,
      dataIdHex: '901F',
      diOrder: 'be',
      ser: 1,
    });
    const res = vector('68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16');
    expect(res).toMatchObject({
      kind: 'readData',
      direction: 'response',
      abnormal: false,
      address: '00201510270588',
      ser: 1,
      values: {
        kind: 'flow',
        currentFlow: 0,
        currentFlowUnit: CJT188_UNIT.m3,
        settlementFlow: 0,
        settlementFlowUnit: 0x2c,
        realTime: '2017-01-09 17:20:06',
        status: { raw: 0, valve: 'open', batteryLow: false },
      },
    });
  });

  it('rejects the same request with a wrong checksum (same source)', () => {
    const e = errorOf(() => cjt188.decode(fromHex('68 10 88 05 27 10 15 20 00 01 03 90 1F 01 24 16')));
    expect(e.code).toBe('CHECKSUM');
    expect(e.offset).toBe(14);
  });

  // Source: public LuatOS script comment "FE FE FE 68 10 AA AA AA AA AA AA AA 01 03 90 1F 01 D2 16
  // ------万能读表指令" (wildcard read of any water meter).
  it('wildcard read with an FE FE FE preamble', () => {
    expect(vector('FE FE FE 68 10 AA AA AA AA AA AA AA 01 03 90 1F 01 D2 16')).toMatchObject({
      kind: 'readData',
      address: 'AAAAAAAAAAAAAA',
      preamble: 3,
      ser: 1,
    });
  });

  // Source: public Go function readSB(), comment with a real reply
  // "FE FE 68 10 45 41 10 05 15 33 78 81 16 90 1F AA 00 59 59 00 2C FF FF FF FF 2C FF FF FF FF FF FF FF 00 00 C2 16":
  // settlement flow and clock filled with FF (not supported by that meter).
  it('reply with FF-filled (unsupported) fields decodes them as null', () => {
    const f = vector('FE FE 68 10 45 41 10 05 15 33 78 81 16 90 1F AA 00 59 59 00 2C FF FF FF FF 2C FF FF FF FF FF FF FF 00 00 C2 16');
    expect(f).toMatchObject({
      address: '78331505104145',
      ser: 0xaa,
      values: { kind: 'flow', currentFlow: 5959, settlementFlow: null, realTime: null },
    });
  });

  // Source: public Java test using CJT188ProtocolFrame.decodePack: request with the identifier sent
  // low byte first, "68 10 01 00 00 05 08 00 00 01 03 1F 90 00 39 16", and the meter's reply
  // "FE FE FE 68 10 01 00 00 05 08 00 00 81 16 90 1F 00 00 23 01 00 2C … 00 48 16" (current flow 123.00 m³).
  it('accepts the 1F 90 identifier order and reports it', () => {
    const req = vector('68 10 01 00 00 05 08 00 00 01 03 1F 90 00 39 16');
    expect(req).toMatchObject({ kind: 'readData', dataId: 0x901f, diOrder: 'le', address: '00000805000001', ser: 0 });
    const res = vector('FE FE FE 68 10 01 00 00 05 08 00 00 81 16 90 1F 00 00 23 01 00 2C 00 00 00 00 2C 00 00 00 00 00 00 00 00 00 48 16');
    expect(res).toMatchObject({ diOrder: 'be', values: { currentFlow: 123, settlementFlow: 0, realTime: '0000-00-00 00:00:00' } });
  });

  // Source: public Java class WMUdpSendCmdsUtils (com.gdiot.ssm), comments
  // "强制开阀：FEFEFE6810011312190000000404A0170155CC16", "强制关阀：FEFEFE6810011312190000000404A01701991016",
  // "读表头地址:FEFEFE6810AAAAAAAAAAAAAA0303810A01B016" and the vendor code "自由开阀 … A0 17 01 66 DD 16".
  it('valve control open/close (DI A017) and read address (DI 810A)', () => {
    expect(vector('FEFEFE6810011312190000000404A0170155CC16')).toMatchObject({
      kind: 'valveControl',
      direction: 'request',
      address: '00000019121301',
      control: 0x04,
      dataIdHex: 'A017',
      ser: 1,
      valve: CJT188_VALVE.OPEN,
      action: 'open',
    });
    expect(vector('FEFEFE6810011312190000000404A01701991016')).toMatchObject({ valve: 0x99, action: 'close' });
    expect(vector('FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 66 DD 16')).toMatchObject({ valve: 0x66, action: 'other' });
    expect(vector('FEFEFE6810AAAAAAAAAAAAAA0303810A01B016')).toMatchObject({
      kind: 'readAddress',
      direction: 'request',
      address: 'AAAAAAAAAAAAAA',
      dataIdHex: '810A',
    });
  });

  // Source: public Lua parser comment
  // "FE FE FE 68 10 18 00 00 40 40 92 00 81 16 90 1F 00 29 00 00 00 2C 29 00 00 00 2C 00 00 00 00 00 00 00 00 23 B5 16"
  // — ST1 = 0x00, ST2 = 0x23 (vendor bits in the second status byte).
  it('keeps vendor status bits in raw', () => {
    const f = vector('FE FE FE 68 10 18 00 00 40 40 92 00 81 16 90 1F 00 29 00 00 00 2C 29 00 00 00 2C 00 00 00 00 00 00 00 00 23 B5 16');
    expect(f).toMatchObject({ values: { currentFlow: 0.29, settlementFlow: 0.29, status: { raw: 0x2300, valve: 'open', batteryLow: false } } });
  });
});

describe('CJ/T 188 status profiles', () => {
  it('standard: ST1 bit0-1 valve, bit2 battery', () => {
    const p = CJT188_PROFILES.standard;
    expect(p.decode(0x00)).toMatchObject({ valve: 'open', batteryLow: false });
    expect(p.decode(0x01)).toMatchObject({ valve: 'closed' });
    expect(p.decode(0x03)).toMatchObject({ valve: 'abnormal' });
    expect(p.decode(0x02)).toMatchObject({ valve: 'unknown' });
    expect(p.decode(0x04)).toMatchObject({ valve: 'open', batteryLow: true });
    expect(p.encode({ valve: 'closed', batteryLow: true })).toBe(0x05);
    expect(p.encode({ raw: 0xff00, valve: 'abnormal' })).toBe(0xff03);
  });

  it('msbFirst vendor variant: ST1 bit7-6 valve, bit5 battery', () => {
    const p = CJT188_PROFILES.msbFirst;
    expect(p.decode(0x40)).toMatchObject({ valve: 'closed', batteryLow: false });
    expect(p.decode(0xc0)).toMatchObject({ valve: 'abnormal' });
    expect(p.decode(0x20)).toMatchObject({ valve: 'open', batteryLow: true });
    expect(p.encode({ valve: 'closed' })).toBe(0x40);
    expect(p.encode({ valve: 'abnormal', batteryLow: true })).toBe(0xe0);
  });

  it('the same reply reads differently under each profile', () => {
    const bytes = cjt188.encode({
      kind: 'valveControl',
      direction: 'response',
      meterType: 0x10,
      address: '00000019121301',
      ser: 1,
      status: { raw: 0x0041 },
    });
    expect(toHex(bytes)).toBe('68 10 01 13 12 19 00 00 00 84 05 A0 17 01 41 00 39 16');
    expect(cjt188.decode(bytes)).toMatchObject({ status: { raw: 0x41, valve: 'closed' } });
    // ST1 = 0x41: closed under `standard` (bits 1-0 = 01), closed under `msbFirst` too (bits 7-6 = 01)…
    expect(cjt188.decode(bytes, { profile: 'msbFirst' })).toMatchObject({ status: { raw: 0x41, valve: 'closed', batteryLow: false } });
    // …but ST1 = 0x04 is "battery low" only under `standard`, and 0x80 means different things.
    const st = (raw: number) => cjt188.encode({ kind: 'valveControl', direction: 'response', meterType: 0x10, address: '00000019121301', status: { raw } });
    expect(cjt188.decode(st(0x04))).toMatchObject({ status: { valve: 'open', batteryLow: true } });
    expect(cjt188.decode(st(0x04), { profile: 'msbFirst' })).toMatchObject({ status: { valve: 'open', batteryLow: false } });
    expect(cjt188.decode(st(0xc0))).toMatchObject({ status: { valve: 'open' } });
    expect(cjt188.decode(st(0xc0), { profile: 'msbFirst' })).toMatchObject({ status: { valve: 'abnormal' } });
    const battery = cjt188.encode(
      { kind: 'valveControl', direction: 'response', meterType: 0x10, address: '00000019121301', status: { valve: 'open', batteryLow: true } },
      { profile: 'msbFirst' },
    );
    expect(cjt188.decode(battery)).toMatchObject({ status: { raw: 0x20, batteryLow: false } });
    expect(cjt188.decode(battery, { profile: 'msbFirst' })).toMatchObject({ status: { raw: 0x20, batteryLow: true } });
    expect(errorOf(() => cjt188.decode(bytes, { profile: 'nope' })).code).toBe('INVALID_ARGUMENT');
  });

  it('accepts a custom profile object', () => {
    const custom = {
      name: 'valveInSt2',
      description: 'test vendor: valve bits in ST2',
      decode: (raw: number) => ({ raw, valve: raw & 0x100 ? ('closed' as const) : ('open' as const), batteryLow: false }),
      encode: (s: { raw?: number; valve?: string }) => (s.raw ?? 0) | (s.valve === 'closed' ? 0x100 : 0),
    };
    const bytes = cjt188.encode(
      { kind: 'valveControl', direction: 'response', meterType: 0x10, address: '00000019121301', status: { valve: 'closed' } },
      { profile: custom },
    );
    expect(cjt188.decode(bytes, { profile: custom })).toMatchObject({ status: { raw: 0x100, valve: 'closed' } });
  });
});

describe('CJ/T 188 encoding', () => {
  it('builds the simulator reply of a water meter', () => {
    const msg: Cjt188Message = {
      kind: 'readData',
      direction: 'response',
      meterType: 0x10,
      address: '00201510270588',
      ser: 7,
      values: {
        kind: 'flow',
        currentFlow: 1234.56,
        currentFlowUnit: CJT188_UNIT.m3,
        settlementFlow: 1200,
        settlementFlowUnit: CJT188_UNIT.m3,
        realTime: '2024-03-15 08:30:00',
        status: { valve: 'closed', batteryLow: true },
      },
    };
    const bytes = cjt188.encode(msg, { preamble: 3 });
    expect(toHex(bytes.subarray(0, 17))).toBe('FE FE FE 68 10 88 05 27 10 15 20 00 81 16 90 1F 07');
    expect(toHex(bytes.subarray(17, 36))).toBe('56 34 12 00 2C 00 00 12 00 2C 00 30 08 15 03 24 20 05 00');
    expect(cjt188.decode(bytes)).toMatchObject({
      values: { currentFlow: 1234.56, realTime: '2024-03-15 08:30:00', status: { raw: 5, valve: 'closed', batteryLow: true } },
    });
  });

  it('builds a heat-meter reply with the 46-byte layout', () => {
    const bytes = cjt188.encode({
      kind: 'readData',
      direction: 'response',
      meterType: 0x20,
      address: '12345678901234',
      values: {
        kind: 'heat',
        settlementHeat: 100.5,
        settlementHeatUnit: CJT188_UNIT.kWh,
        currentHeat: 120.25,
        currentHeatUnit: CJT188_UNIT.kWh,
        heatPower: 3.2,
        heatPowerUnit: CJT188_UNIT.kW,
        flowRate: 0.1234,
        flowRateUnit: CJT188_UNIT.m3_per_h,
        cumulativeFlow: 45.67,
        cumulativeFlowUnit: CJT188_UNIT.m3,
        supplyTemperature: 55.3,
        returnTemperature: 41.25,
        workingHours: 8760,
        realTime: null,
        status: { raw: 0 },
      },
    });
    expect(bytes[10]).toBe(0x2e);
    expect(cjt188.decode(bytes)).toMatchObject({
      values: { kind: 'heat', flowRate: 0.1234, supplyTemperature: 55.3, workingHours: 8760, realTime: null },
    });
  });

  it('rejects inconsistent input', () => {
    const base = { kind: 'readData', direction: 'response', address: '00201510270588' } as const;
    const flow = {
      kind: 'flow',
      currentFlow: 1,
      currentFlowUnit: 0x2c,
      settlementFlow: 1,
      settlementFlowUnit: 0x2c,
      realTime: null,
      status: {},
    } as const;
    expect(errorOf(() => cjt188.encode({ ...base, meterType: 0x20, values: flow })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => cjt188.encode({ ...base, meterType: 0x10, values: { ...flow, currentFlow: 1e6 } })).code).toBe('RANGE');
    expect(errorOf(() => cjt188.encode({ ...base, meterType: 0x10, values: { ...flow, realTime: '2024/01/01' } })).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => cjt188.encode({ ...base, meterType: 0x10, dataId: 0x1234, values: flow })).code).toBe('UNKNOWN_DI');
    expect(errorOf(() => cjt188.encode({ ...base, meterType: 0x10, address: '123' , payload: new Uint8Array(0) })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('CJ/T 188 decoding from Node Buffers', () => {
  it('copies data out of the input', () => {
    const buf = Buffer.from(fromHex('FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 55 CC 16'));
    const f = cjt188.decode(buf);
    buf.fill(0);
    expect(Buffer.isBuffer(f.data)).toBe(false);
    expect(toHex(f.data)).toBe('A0 17 01 55');
  });
});

describe('CJ/T 188 decoding errors', () => {
  const good = fromHex('68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16');
  it('reports framing problems in order', () => {
    expect(errorOf(() => cjt188.decode(good.map((b, i) => (i === 0 ? 0x69 : b)))).code).toBe('START');
    expect(errorOf(() => cjt188.decode(good.slice(0, 20))).code).toBe('LENGTH');
    expect(errorOf(() => cjt188.decode(good.map((b, i) => (i === good.length - 1 ? 0 : b)))).code).toBe('TERMINATOR');
    expect(errorOf(() => cjt188.decode(good.map((b, i) => (i === 20 ? b ^ 0x10 : b)))).code).toBe('CHECKSUM');
  });

  it('reports a 901F reply of the wrong size and a non-BCD reading', () => {
    const short = cjt188.encode({ kind: 'readData', direction: 'response', meterType: 0x10, address: '00201510270588', payload: new Uint8Array(18) });
    // payload with the default DI 901F but 18 bytes instead of 19
    expect(errorOf(() => cjt188.decode(short)).code).toBe('LENGTH');
    const nonBcd = cjt188.encode({ kind: 'readData', direction: 'response', meterType: 0x10, address: '00201510270588', payload: Uint8Array.of(0x0a, ...new Uint8Array(18)) });
    const e = errorOf(() => cjt188.decode(nonBcd));
    expect(e.code).toBe('BCD');
    expect(e.offset).toBe(14);
  });

  it('unknown identifiers keep the payload; strict mode rejects them', () => {
    const bytes = cjt188.encode({ kind: 'readData', direction: 'response', meterType: 0x10, address: '00201510270588', dataId: 0x9010, payload: Uint8Array.of(1, 2) });
    expect(cjt188.decode(bytes)).toMatchObject({ dataIdHex: '9010', payload: Uint8Array.of(1, 2) });
    expect(errorOf(() => cjt188.decode(bytes, { strict: true })).code).toBe('UNKNOWN_DI');
  });
});

describe('CJ/T 188 round trips (fast-check)', () => {
  it('decode(encode(m)) reproduces every message kind, and re-encoding is byte-exact', () => {
    fc.assert(
      fc.property(cjtMessage, fc.integer({ min: 0, max: 4 }), (msg, preamble) => {
        const bytes = cjt188.encode(msg, { preamble });
        const frame = cjt188.decode(bytes);
        const expected: Record<string, unknown> = { ...msg, preamble };
        if (msg.kind !== 'raw') {
          expected.ser = msg.ser ?? 0;
          expected.diOrder = msg.diOrder ?? 'be';
        }
        expect(frame).toMatchObject(expected);
        expect(toHex(cjt188.encode(frame))).toBe(toHex(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});
