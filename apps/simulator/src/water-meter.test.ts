import { describe, expect, it } from 'vitest';
import { CJT188_DI, CJT188_UNIT, CJT188_VALVE, cjt188 } from '@meter/protocol';
import { HOUR_MS, ManualClock } from './clock.ts';
import { CJT188_WRITE_SETTLE_DAY_DI, CJT188_WRITE_TIME_DI, ElectricMeter, WaterMeter, registerValue } from './meter.ts';
import { W_ADDR, cjtReply, electric, env, read901F, valve, water } from './meter.test-util.ts';

describe('WaterMeter — CJ/T 188-2004', () => {
  it('answers 901F with cumulative flow, settlement flow, real time and status', () => {
    const e = env();
    const m = water(e);
    e.clock.advance(5 * HOUR_MS + 12 * 60_000 + 7_000);
    const { frame, values } = read901F(m, { ser: 0x42 });
    expect(frame).toMatchObject({ meterType: 0x10, address: W_ADDR, control: 0x81, ser: 0x42, dataId: CJT188_DI.METER_DATA, diOrder: 'be' });
    expect(values).toMatchObject({
      currentFlow: registerValue(m.total),
      currentFlowUnit: CJT188_UNIT.m3,
      settlementFlow: 10,
      realTime: '2024-01-01 05:12:07',
      status: { valve: 'open', batteryLow: false },
    });
    expect(values.currentFlow!).toBeGreaterThan(10);
  });

  it('echoes the request DI byte order, answers wildcard type/address, ignores other types', () => {
    const m = water();
    expect(read901F(m, { diOrder: 'le' }).frame).toMatchObject({ diOrder: 'le' });
    expect(read901F(m, { meterType: 0xaa }).frame).toMatchObject({ meterType: 0x10 });
    expect(m.handleBytes(cjt188.encode({ kind: 'readData', direction: 'request', meterType: 0x30, address: W_ADDR }))).toBeNull();
    const f = cjtReply(m, cjt188.encode({ kind: 'readAddress', direction: 'request', meterType: 0xaa, address: 'AAAAAAAAAAAAAA', ser: 3 }));
    expect(f).toMatchObject({ kind: 'readAddress', direction: 'response', address: W_ADDR, ser: 3 });
  });

  it('closes (0x99) and opens (0x55) the valve; duplicates actuate once; no flow while closed', () => {
    const e = env();
    const m = water(e);
    expect(valve(m, CJT188_VALVE.CLOSE)).toMatchObject({ kind: 'valveControl', direction: 'response', control: 0x84, status: { valve: 'closed' } });
    expect(valve(m, CJT188_VALVE.CLOSE)).toMatchObject({ status: { valve: 'closed' } });
    expect(m.actuations).toBe(1);
    const t = m.total;
    e.clock.advance(6 * HOUR_MS);
    expect(read901F(m).values).toMatchObject({ currentFlow: registerValue(t), status: { valve: 'closed' } });
    expect(valve(m, CJT188_VALVE.OPEN)).toMatchObject({ status: { valve: 'open' } });
    expect(m.actuations).toBe(2);
    e.clock.advance(6 * HOUR_MS);
    expect(m.total).toBeGreaterThan(t);
  });

  it('stuckValve acknowledges with the unchanged state; an unknown valve code gets an abnormal reply', () => {
    const m = water();
    m.setFault('stuckValve', true);
    expect(valve(m, CJT188_VALVE.CLOSE)).toMatchObject({ control: 0x84, status: { valve: 'open' } });
    expect(m.actuations).toBe(0);
    m.clearFaults();
    const f = valve(m, 0x12);
    expect(f).toMatchObject({ kind: 'raw', control: 0xc4 });
    expect(m.valve).toBe('open');
  });

  it('lowBattery sets the ST battery bit, in the standard and the MSB-first layouts', () => {
    const m = water();
    m.setFault('lowBattery', true);
    expect(read901F(m).values.status).toMatchObject({ batteryLow: true, raw: 0b100 });
    const msb = water(env(), { statusProfile: 'msbFirst', supplyOn: false });
    msb.setFault('lowBattery', true);
    expect(read901F(msb).values.status).toMatchObject({ valve: 'closed', batteryLow: true, raw: 0x60 });
  });

  it('snapshots the settlement flow at 00:00 on the 1st of the month', () => {
    const e = new ManualClock(Date.UTC(2024, 0, 31, 23, 0, 0) - 8 * HOUR_MS);
    const m = water(env(e), { profile: 'constant', dailyUsage: 24 });
    e.advance(HOUR_MS); // exactly midnight Feb 1
    const atMidnight = m.total;
    e.advance(5 * HOUR_MS);
    expect(read901F(m).values).toMatchObject({ settlementFlow: registerValue(atMidnight) });
    expect(m.snapshot().settlementTotal).toBeCloseTo(atMidnight, 9);
    expect(m.total).toBeGreaterThan(atMidnight);
  });

  it('sets its clock from 写标准时间 (A015) and reports the drift fault in real time', () => {
    const e = env();
    const m = water(e);
    m.setFault('clockDrift', -120);
    expect(read901F(m).values.realTime).toBe('2023-12-31 23:58:00');
    // DI A015, SER 1, then ss mm hh DD MM YY(lo) YY(hi) = 2024-01-01 00:00:00
    const bytes = cjt188.encode({ kind: 'raw', meterType: 0x10, address: W_ADDR, control: 0x04, data: Uint8Array.of(0xa0, 0x15, 1, 0x00, 0x00, 0x00, 0x01, 0x01, 0x24, 0x20) });
    const f = cjtReply(m, bytes);
    expect(f).toMatchObject({ kind: 'raw', control: 0x84 });
    expect(Array.from(f.data)).toEqual([0xa0, 0x15, 1]);
    expect(read901F(m).values.realTime).toBe('2024-01-01 00:00:00');
    expect(CJT188_WRITE_TIME_DI).toBe(0xa015);
  });

  it('accepts 写结算日 (A011): the settlement flow is then taken at 00:00 on that day', () => {
    const clock = new ManualClock(Date.UTC(2024, 0, 10, 12, 0, 0) - 8 * HOUR_MS); // Jan 10, 12:00
    const e = env(clock);
    const m = water(e, { profile: 'constant', dailyUsage: 24 });
    expect(m.snapshot()).toMatchObject({ settleDay: 1, writes: 0 });
    const bytes = cjt188.encode({ kind: 'raw', meterType: 0x10, address: W_ADDR, control: 0x04, data: Uint8Array.of(0xa0, 0x11, 0, 0x15) });
    const f = cjtReply(m, bytes);
    expect(f).toMatchObject({ kind: 'raw', control: 0x84, abnormal: false });
    expect(Array.from(f.data)).toEqual([0xa0, 0x11, 0]);
    expect(m.snapshot()).toMatchObject({ settleDay: 15, writes: 1 });
    expect(e.events).toContainEqual({ type: 'write', address: W_ADDR, item: 'settleDay', value: 15 });
    const before = m.snapshot().settlementTotal;
    clock.advance(4 * 24 * HOUR_MS + 11 * HOUR_MS); // Jan 14, 23:00: not yet
    expect(m.snapshot().settlementTotal).toBe(before);
    clock.advance(HOUR_MS); // Jan 15, 00:00
    const atMidnight = m.total;
    clock.advance(3 * HOUR_MS);
    expect(m.snapshot().settlementTotal).toBeCloseTo(atMidnight, 9);
    expect(read901F(m).values).toMatchObject({ settlementFlow: registerValue(atMidnight) });
    // Feb 1 no longer settles; Feb 15 does
    clock.advance((31 - 15 + 1) * 24 * HOUR_MS);
    expect(m.snapshot().settlementTotal).toBeCloseTo(atMidnight, 9);
    expect(CJT188_WRITE_SETTLE_DAY_DI).toBe(0xa011);
  });

  it('refuses a settle day outside 1..28 or not BCD with an abnormal reply; ignores wildcard writes', () => {
    const m = water();
    for (const day of [0x00, 0x29, 0x31, 0x1a]) {
      const f = cjtReply(m, cjt188.encode({ kind: 'raw', meterType: 0x10, address: W_ADDR, control: 0x04, data: Uint8Array.of(0xa0, 0x11, 0, day) }));
      expect(f).toMatchObject({ control: 0xc4, abnormal: true });
    }
    const wild = cjt188.encode({ kind: 'raw', meterType: 0x10, address: 'AAAAAAAAAAAAAA', control: 0x04, data: Uint8Array.of(0xa0, 0x11, 0, 0x15) });
    expect(m.handleBytes(wild)).toBeNull();
    expect(m.snapshot()).toMatchObject({ settleDay: 1, writes: 0 });
    expect(() => water(env(), { settleDay: 29 })).toThrow(/settleDay/);
  });

  it('powerLoss silences it; report frames decode as 901F replies', () => {
    const e = env();
    const m = water(e);
    e.clock.advance(HOUR_MS);
    const f = cjt188.decode(m.reportFrame());
    expect(f).toMatchObject({ kind: 'readData', direction: 'response', address: W_ADDR, values: { kind: 'flow', currentFlow: registerValue(m.total) } });
    m.setFault('powerLoss', true);
    expect(m.handleBytes(cjt188.encode({ kind: 'readData', direction: 'request', meterType: 0x10, address: W_ADDR }))).toBeNull();
  });

  it('validates definitions', () => {
    expect(() => water(env(), { address: '123' })).toThrow(/14 digits/);
    expect(() => new ElectricMeter({ address: '20010000000001', kind: 'electric' }, env())).toThrow(/12 digits/);
    expect(() => new WaterMeter({ address: W_ADDR, kind: 'water', protocol: 'dlt645' }, env())).toThrow(/cjt188/);
    expect(() => electric(env(), { initialTotal: -1 })).toThrow(RangeError);
  });
});
