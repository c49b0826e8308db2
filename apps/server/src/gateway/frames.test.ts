import { describe, expect, it } from 'vitest';
import { CJT188_CONTROL, DLT645_CONTROL, DLT645_DI, cjt188, dlt645, fromHex, toMeterDateTime, type Dlt645Frame } from '@meter/protocol';
import { DLT645_PARAMS, DLT645_PARAM_ITEMS, cjt, cjtFacts, decodeFrame, dlt, dltClock, dltFacts, hex, matches, refusal, singleFrame } from './frames.ts';

const ADDR = '000000001234';
const OTHER = '000000005678';
const W_ADDR = '00000000004321';

const dltReply = (address: string, dataId: number, values: Record<string, number | string | boolean>) =>
  decodeFrame('dlt645', dlt645.encode({ kind: 'read', direction: 'response', address, dataId, values }, { dataItems: DLT645_PARAM_ITEMS }));

describe('correlation (matches)', () => {
  const req = dlt.read(ADDR, DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量');

  it('a read reply matches its request by address, function and data identifier', () => {
    expect(matches(req.expect!, dltReply(ADDR, DLT645_DI.FORWARD_ACTIVE_TOTAL, { value: 12.34 }))).toBe(true);
  });

  it('another meter, another data identifier or a request frame does not match', () => {
    expect(matches(req.expect!, dltReply(OTHER, DLT645_DI.FORWARD_ACTIVE_TOTAL, { value: 1 }))).toBe(false);
    expect(matches(req.expect!, dltReply(ADDR, DLT645_DI.VOLTAGE_A, { value: 220 }))).toBe(false);
    expect(matches(req.expect!, decodeFrame('dlt645', fromHex(req.frame)))).toBe(false);
  });

  it('an abnormal reply to the same function matches (the meter refused)', () => {
    const err = decodeFrame('dlt645', dlt645.encode({ kind: 'error', direction: 'response', address: ADDR, func: DLT645_CONTROL.READ, errorCode: 0x02 }));
    expect(matches(req.expect!, err)).toBe(true);
    expect(refusal(err)).toContain('无请求数据');
    // …but not an abnormal reply to a control command
    const ctl = decodeFrame('dlt645', dlt645.encode({ kind: 'error', direction: 'response', address: ADDR, func: DLT645_CONTROL.REMOTE_CONTROL, errorCode: 0x04 }));
    expect(matches(req.expect!, ctl)).toBe(false);
  });

  it('a remote control reply matches the control request, not a read', () => {
    const ctl = dlt.remote(ADDR, 0x1a, { password: '02000000', operator: '00000000' }, new Date(), '拉闸');
    const ok = decodeFrame('dlt645', dlt645.encode({ kind: 'remoteControl', direction: 'response', address: ADDR }));
    expect(matches(ctl.expect!, ok)).toBe(true);
    expect(matches(req.expect!, ok)).toBe(false);
    expect(ctl.retries).toBe(0);
  });

  it('the remote control request carries password, operator, command and a future expiry', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    const f = decodeFrame('dlt645', fromHex(dlt.remote(ADDR, 0x1c, { password: '04123456', operator: '00000099' }, now, '合闸').frame)).frame;
    expect(f.kind).toBe('remoteControl');
    if (f.kind !== 'remoteControl' || f.direction !== 'request') throw new Error('unexpected');
    expect(f.password).toEqual({ level: 4, code: '123456' });
    expect(f.operator).toBe('00000099');
    expect(f.command).toBe(0x1c);
    expect(f.expiry).toEqual(toMeterDateTime(new Date(now.getTime() + 600_000)));
  });

  it('a write reply (raw 0x94) matches the write request', () => {
    const w = dlt.write(ADDR, 'overdraftLimit', '50.00', { password: '02000000', operator: '00000000' });
    const reply = decodeFrame('dlt645', dlt645.encode({ kind: 'raw', address: ADDR, control: 0x94, data: new Uint8Array(0) }));
    expect(matches(w.expect!, reply)).toBe(true);
    // the request's data: DI, password, operator, value (offset removed by the codec)
    const req = decodeFrame('dlt645', fromHex(w.frame)).frame;
    expect(req.kind).toBe('raw');
    expect(Array.from(req.data.subarray(0, 4))).toEqual([0x03, 0x10, 0x00, 0x04]);
    expect(Array.from(req.data.subarray(12))).toEqual([0x00, 0x50, 0x00, 0x00]);
  });

  it('CJ/T 188: read and valve replies match by address, function and DI', () => {
    const read = cjt.read(W_ADDR);
    const data = cjt188.encode({
      kind: 'readData',
      direction: 'response',
      meterType: 0x10,
      address: W_ADDR,
      values: { kind: 'flow', currentFlow: 12.5, currentFlowUnit: 0x2c, settlementFlow: 10, settlementFlowUnit: 0x2c, realTime: '2025-06-01 08:00:00', status: { valve: 'closed', batteryLow: true } },
    });
    const d = decodeFrame('cjt188', data);
    expect(matches(read.expect!, d)).toBe(true);
    expect(matches(cjt.valve(W_ADDR, true).expect!, d)).toBe(false);
    const facts = cjtFacts(d.frame as never);
    expect(facts).toMatchObject({ total: '12.50', valve: 0, batteryLow: true });
    expect(facts.meterTime?.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    const valveReply = decodeFrame('cjt188', cjt188.encode({ kind: 'valveControl', direction: 'response', meterType: 0x10, address: W_ADDR, status: { valve: 'open' } }));
    expect(matches(cjt.valve(W_ADDR, true).expect!, valveReply)).toBe(true);
    // 写标准时间: the codec leaves the reply raw; the DI is found in either byte order
    const timeReply = decodeFrame('cjt188', cjt188.encode({ kind: 'raw', meterType: 0x10, address: W_ADDR, control: CJT188_CONTROL.WRITE_DATA_RESPONSE, data: Uint8Array.of(0x15, 0xa0, 0) }));
    expect(matches(cjt.writeTime(W_ADDR, new Date()).expect!, timeReply)).toBe(true);
  });

  it('litres are converted to cubic metres exactly', () => {
    const data = cjt188.encode({
      kind: 'readData',
      direction: 'response',
      meterType: 0x10,
      address: W_ADDR,
      values: { kind: 'flow', currentFlow: 1234.56, currentFlowUnit: 0x29, settlementFlow: null, settlementFlowUnit: 0x29, realTime: null, status: { valve: 'open' } },
    });
    expect(cjtFacts(decodeFrame('cjt188', data).frame as never).total).toBe('1.23');
  });
});

const dltFrame = (address: string, dataId: number, values: Record<string, number | string | boolean>) => dltReply(address, dataId, values).frame as Dlt645Frame;

describe('facts of DL/T 645 replies', () => {
  it('total, relay state and power hold', () => {
    expect(dltFacts(dltFrame(ADDR, DLT645_DI.FORWARD_ACTIVE_TOTAL, { value: 1234.5 })).total).toBe('1234.50');
    const sw = dlt645.encodeStatusWord3({ relayState: 'disconnected', powerHold: true });
    const f = dltFacts(dltFrame(ADDR, DLT645_DI.STATUS_WORD_3, { raw: sw }));
    expect(f).toMatchObject({ valve: 0, powerHold: true });
    expect(dltFacts(dltFrame(ADDR, DLT645_DI.STATUS_WORD_3, { raw: 0 }))).toMatchObject({ valve: 1, powerHold: false });
  });

  it('a parameter read back by its own key', () => {
    const f = dltFacts(dltFrame(ADDR, DLT645_PARAMS.overdraftLimit.dataId, { value: 50 }));
    expect(f.registers).toEqual({ overdraftLimit: 50 });
  });

  it('the meter clock from DATE and TIME (China time)', () => {
    const date = dltFrame(ADDR, DLT645_DI.DATE, { year: 2025, month: 6, day: 1, weekday: 0 });
    const time = dltFrame(ADDR, DLT645_DI.TIME, { hour: 8, minute: 30, second: 5 });
    expect(dltClock(date, time)?.toISOString()).toBe('2025-06-01T00:30:05.000Z');
  });
});

describe('singleFrame', () => {
  it('accepts exactly one valid frame with a preamble and rejects garbage', () => {
    const f = dlt645.encode({ kind: 'read', direction: 'request', address: ADDR, dataId: 0 }, { preamble: 4 });
    expect(singleFrame(f).protocol).toBe('dlt645');
    expect(hex(singleFrame(f).bytes)).toBe(hex(f.subarray(4)));
    expect(() => singleFrame(Uint8Array.of(1, 2, 3))).toThrow();
    const bad = f.slice();
    bad[bad.length - 2] ^= 0xff;
    expect(() => singleFrame(bad)).toThrow();
  });
});
