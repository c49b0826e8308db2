import { describe, expect, it } from 'vitest';
import { DLT645_DATA_ITEMS, DLT645_DI, DLT645_REMOTE_COMMAND, dlt645, encodeBcdDecimal, toMeterDateTime } from '@meter/protocol';
import { HOUR_MS, ManualClock, ScaledClock } from './clock.ts';
import { DLT645_BLOCK_DI, ElectricMeter, addressMatches, registerValue } from './meter.ts';
import { E_ADDR, T0, control, dltReply, electric, env, expiryIn, money, read, readParam, readValue, statusWord, write, writeFrame } from './meter.test-util.ts';

describe('helpers', () => {
  it('matches addresses with AA wildcards byte by byte', () => {
    expect(addressMatches('100010000001', '100010000001')).toBe(true);
    expect(addressMatches('AAAAAAAAAAAA', '100010000001')).toBe(true);
    expect(addressMatches('AAAAAAAA0001', '100010000001')).toBe(true);
    expect(addressMatches('AAAAAAAA0002', '100010000001')).toBe(false);
    expect(addressMatches('1000100000', '100010000001')).toBe(false);
  });

  it('register values are truncated to hundredths and roll over at one million', () => {
    expect(registerValue(12.349)).toBe(12.34);
    expect(registerValue(0.29)).toBe(0.29);
    expect(registerValue(1_000_012.5)).toBe(12.5);
  });
});

describe('ElectricMeter — DL/T 645-2007 reads', () => {
  it('answers every data item of the codec table (B/C phase items only on three-phase meters)', () => {
    const single = electric();
    const three = electric(env(), { phases: 3 });
    for (const key of Object.keys(DLT645_DATA_ITEMS)) {
      const dataId = Number(key);
      const phaseBC = ([
        DLT645_DI.VOLTAGE_B,
        DLT645_DI.VOLTAGE_C,
        DLT645_DI.CURRENT_B,
        DLT645_DI.CURRENT_C,
        DLT645_DI.ACTIVE_POWER_B,
        DLT645_DI.ACTIVE_POWER_C,
      ] as number[]).includes(dataId);
      const f3 = read(three, dataId);
      expect(f3, `DI ${dataId.toString(16)} (3-phase)`).toMatchObject({ kind: 'read', direction: 'response', dataId, address: E_ADDR });
      const f1 = read(single, dataId);
      if (phaseBC) expect(f1).toMatchObject({ kind: 'error', func: 0x11, errors: ['noRequestedData'] });
      else expect(f1, `DI ${dataId.toString(16)}`).toMatchObject({ kind: 'read', direction: 'response', dataId });
    }
  });

  it('reads realistic instantaneous values while supplied', () => {
    const m = electric();
    const v = readValue(m, DLT645_DI.VOLTAGE_A);
    expect(v).toBeGreaterThanOrEqual(214);
    expect(v).toBeLessThanOrEqual(226);
    expect(readValue(m, DLT645_DI.FREQUENCY)).toBeCloseTo(50, 0);
    const p = readValue(m, DLT645_DI.ACTIVE_POWER_TOTAL);
    expect(p).toBeGreaterThan(0);
    const i = readValue(m, DLT645_DI.CURRENT_A);
    expect(i).toBeCloseTo((p * 1000) / (v * readValue(m, DLT645_DI.POWER_FACTOR_TOTAL)), 1);
  });

  it('answers the meter address to read-address (wildcard) and to the address/meter-number items', () => {
    const m = electric();
    const f = dltReply(m, dlt645.encode({ kind: 'readAddress', direction: 'request' }));
    expect(f).toMatchObject({ kind: 'readAddress', direction: 'response', address: E_ADDR, meterAddress: E_ADDR });
    expect(read(m, DLT645_DI.COMM_ADDRESS)).toMatchObject({ values: { address: E_ADDR } });
    expect(read(m, DLT645_DI.METER_NUMBER)).toMatchObject({ values: { address: E_ADDR } });
  });

  it('ignores frames for other addresses and replies with its own address to wildcard reads', () => {
    const m = electric();
    expect(m.handleBytes(dlt645.encode({ kind: 'read', direction: 'request', address: '100010000002', dataId: 0x00010000 }))).toBeNull();
    expect(read(m, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'AAAAAAAAAAAA')).toMatchObject({ address: E_ADDR, values: { value: 100 } });
  });

  it('answers an unknown data item with an abnormal reply (无请求数据)', () => {
    const f = read(electric(), 0x04000999);
    expect(f).toMatchObject({ kind: 'error', control: 0xd1, errorCode: 0x02, errors: ['noRequestedData'] });
  });

  it('prefixes replies with the configured FE preamble (default 4)', () => {
    const r = electric().handleBytes(dlt645.encode({ kind: 'read', direction: 'request', address: E_ADDR, dataId: 0x00010000 }));
    expect(Array.from(r!.bytes.subarray(0, 5))).toEqual([0xfe, 0xfe, 0xfe, 0xfe, 0x68]);
    const r0 = electric(env(), { preamble: 0 }).handleBytes(dlt645.encode({ kind: 'read', direction: 'request', address: E_ADDR, dataId: 0x00010000 }));
    expect(r0!.bytes[0]).toBe(0x68);
  });

  it('answers the 正向有功电能数据块 (0001FF00) with total + 4 rates', () => {
    const e = env();
    const m = electric(e);
    e.clock.advance(30 * HOUR_MS);
    const f = read(m, DLT645_BLOCK_DI.FORWARD_ACTIVE_BLOCK);
    if (f.kind !== 'read' || f.direction !== 'response') throw new Error('expected a reply');
    expect(f.payload).toHaveLength(20);
    const vals = [0, 1, 2, 3, 4].map((i) => dlt645.decodeValues({ type: 'bcd', bytes: 4, decimals: 2, signed: false }, f.payload!.subarray(i * 4, i * 4 + 4)).value as number);
    const tou = m.touRegisters;
    expect(vals).toEqual([registerValue(m.total), registerValue(tou.sharp), registerValue(tou.peak), registerValue(tou.flat), registerValue(tou.valley)]);
  });
});

describe('ElectricMeter — consumption', () => {
  it('grows by roughly the daily usage per day, and the rate registers add up to the total', () => {
    const e = env();
    const m = electric(e);
    e.clock.advance(24 * HOUR_MS);
    const used = m.total - 100;
    expect(used).toBeGreaterThan(8 * 0.75 * 0.6);
    expect(used).toBeLessThan(8 * 1.25 * 1.4);
    const tou = m.touRegisters;
    expect(tou.sharp + tou.peak + tou.flat + tou.valley).toBeCloseTo(m.total, 9);
    // read back over the wire: 0.01 resolution, truncated
    expect(readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toBe(registerValue(m.total));
    expect(readValue(m, DLT645_DI.COMBINED_ACTIVE_TOTAL)).toBe(registerValue(m.total));
    expect(readValue(m, DLT645_DI.REVERSE_ACTIVE_TOTAL)).toBe(0);
  });

  it('accumulates each hour into its 尖峰平谷 register (default table)', () => {
    const e = env();
    const m = electric(e);
    const step = (hours: number) => {
      const before = m.touRegisters;
      e.clock.advance(hours * HOUR_MS);
      const after = m.touRegisters;
      return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before] > 0]));
    };
    expect(step(7)).toEqual({ sharp: false, peak: false, flat: false, valley: true }); // 00–07 谷
    expect(step(1)).toEqual({ sharp: false, peak: false, flat: true, valley: false }); // 07–08 平
    expect(step(3)).toEqual({ sharp: false, peak: true, flat: false, valley: false }); // 08–11 峰
    e.clock.advance(8 * HOUR_MS); // to 19:00
    expect(step(2)).toEqual({ sharp: true, peak: false, flat: false, valley: false }); // 19–21 尖
    expect(readValue(m, DLT645_DI.FORWARD_ACTIVE_SHARP)).toBe(registerValue(m.touRegisters.sharp));
    expect(readValue(m, DLT645_DI.COMBINED_ACTIVE_VALLEY)).toBe(registerValue(m.touRegisters.valley));
  });

  it('is deterministic for a seed, independent of how often it is read', () => {
    const ea = env();
    const eb = env();
    const ec = env(new ManualClock(T0), 2);
    const a = electric(ea);
    const b = electric(eb);
    const c = electric(ec);
    for (let i = 0; i < 100; i++) {
      ea.clock.advance(17 * 60_000);
      void a.total; // read often
    }
    eb.clock.advance(100 * 17 * 60_000); // read once
    expect(b.total).toBeCloseTo(a.total, 9);
    ec.clock.advance(100 * 17 * 60_000);
    expect(c.total).not.toBeCloseTo(a.total, 3);
  });

  it('runs faster with a speed factor', () => {
    let real = 1_000_000;
    const clock = new ScaledClock(3600, T0, () => real);
    const m = new ElectricMeter({ address: E_ADDR, kind: 'electric', initialTotal: 100 }, { ...env(), clock });
    real += 24_000; // 24 real seconds = one simulated day
    expect(clock.now()).toBe(T0 + 24 * HOUR_MS);
    expect(m.total - 100).toBeGreaterThan(3);
  });

  it('residential peaks in the evening; commercial uses most in the daytime', () => {
    const r = electric(env(), { profile: 'residential' });
    const c = new ElectricMeter({ address: '100010000002', kind: 'electric', profile: 'commercial' }, env());
    const h0 = Math.floor((T0 + 8 * HOUR_MS) / HOUR_MS); // hour index of 2024-01-01 00:00 China time
    const avg = (m: ElectricMeter, hourOfDay: number) => {
      let s = 0;
      for (let d = 0; d < 60; d++) s += m.rateAt(h0 + d * 24 + hourOfDay);
      return s / 60;
    };
    expect(avg(r, 20)).toBeGreaterThan(2 * avg(r, 3));
    expect(avg(r, 20)).toBeGreaterThan(avg(r, 14));
    expect(avg(c, 10)).toBeGreaterThan(4 * avg(c, 2));
  });

  it('deducts its local remaining money and reports overdraft below zero', () => {
    const e = env();
    const m = electric(e, { balance: 1, unitPrice: 0.5, dailyUsage: 24, profile: 'constant' });
    e.clock.advance(HOUR_MS);
    const used = m.total - 100;
    expect(readValue(m, DLT645_DI.REMAINING_MONEY)).toBeCloseTo(Math.floor((1 - used * 0.5) * 100) / 100, 2);
    expect(readValue(m, DLT645_DI.REMAINING_ENERGY)).toBeCloseTo((1 - used * 0.5) / 0.5, 1);
    e.clock.advance(10 * HOUR_MS);
    expect(readValue(m, DLT645_DI.REMAINING_MONEY)).toBe(0);
    expect(readValue(m, DLT645_DI.OVERDRAFT_MONEY)).toBeGreaterThan(0);
  });
});

describe('ElectricMeter — remote control (0x1C)', () => {
  it('拉闸 opens the relay, 直接合闸 closes it; the status word shows it; repeated commands actuate once', () => {
    const e = env();
    const m = electric(e);
    expect(statusWord(m)).toMatchObject({ relayState: 'connected', relayCommand: 'connect', powerHold: false, meterType: 'moneyPrepaid' });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP)).toMatchObject({ kind: 'remoteControl', direction: 'response', control: 0x9c });
    expect(statusWord(m)).toMatchObject({ relayState: 'disconnected', relayCommand: 'disconnect' });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP)).toMatchObject({ control: 0x9c });
    expect(m.actuations).toBe(1);
    expect(control(m, DLT645_REMOTE_COMMAND.CLOSE_DIRECT)).toMatchObject({ control: 0x9c });
    expect(control(m, DLT645_REMOTE_COMMAND.CLOSE_DIRECT)).toMatchObject({ control: 0x9c });
    expect(statusWord(m)).toMatchObject({ relayState: 'connected' });
    expect(m.actuations).toBe(2);
    expect(e.events.filter((x) => x.type === 'actuation')).toHaveLength(2);
  });

  it('合闸允许 (1B) also closes the relay', () => {
    const m = electric(env(), { supplyOn: false });
    expect(m.relay).toBe('disconnected');
    control(m, DLT645_REMOTE_COMMAND.ALLOW_CLOSE);
    expect(m.relay).toBe('connected');
    expect(m.actuations).toBe(1);
  });

  it('consumes nothing while the relay is open', () => {
    const e = env();
    const m = electric(e);
    control(m, DLT645_REMOTE_COMMAND.TRIP);
    const before = m.total;
    e.clock.advance(5 * HOUR_MS);
    expect(m.total).toBe(before);
    expect(readValue(m, DLT645_DI.ACTIVE_POWER_TOTAL)).toBe(0);
    expect(readValue(m, DLT645_DI.CURRENT_A)).toBe(0);
    control(m, DLT645_REMOTE_COMMAND.CLOSE_DIRECT);
    e.clock.advance(HOUR_MS);
    expect(m.total).toBeGreaterThan(before);
  });

  it('保电 (3A) refuses 拉闸 with an abnormal reply until 保电解除 (3B)', () => {
    const e = env();
    const m = electric(e);
    expect(control(m, DLT645_REMOTE_COMMAND.HOLD_POWER)).toMatchObject({ control: 0x9c });
    expect(statusWord(m)).toMatchObject({ powerHold: true });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP)).toMatchObject({ kind: 'error', control: 0xdc, func: 0x1c });
    expect(m.relay).toBe('connected');
    expect(m.actuations).toBe(0);
    expect(e.events).toContainEqual(expect.objectContaining({ type: 'refused', command: 'trip' }));
    expect(control(m, DLT645_REMOTE_COMMAND.HOLD_POWER_RELEASE)).toMatchObject({ control: 0x9c });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP)).toMatchObject({ control: 0x9c });
    expect(m.relay).toBe('disconnected');
  });

  it('报警 / 报警解除 toggle the pre-trip alarm bit', () => {
    const m = electric();
    control(m, DLT645_REMOTE_COMMAND.ALARM);
    expect(statusWord(m)).toMatchObject({ preTripAlarm: true });
    control(m, DLT645_REMOTE_COMMAND.ALARM_RELEASE);
    expect(statusWord(m)).toMatchObject({ preTripAlarm: false });
  });

  it('refuses an expired command, a wrong password and an unknown command code', () => {
    const m = electric(env(), { password: 'A1B2C3' });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP, { password: 'A1B2C3', expiry: expiryIn(m, -1) })).toMatchObject({ kind: 'error', errorCode: 0x01 });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP, { password: '000000' })).toMatchObject({ kind: 'error', errors: ['unauthorized'] });
    expect(control(m, 0x55, { password: 'a1b2c3' })).toMatchObject({ kind: 'error', errorCode: 0x01 });
    expect(m.relay).toBe('connected');
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP, { password: 'a1b2c3' })).toMatchObject({ control: 0x9c });
    expect(m.relay).toBe('disconnected');
  });

  it('accepts expired commands when the expiry check is off', () => {
    const m = electric({ ...env(), checkCommandExpiry: false });
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP, { expiry: expiryIn(m, -60) })).toMatchObject({ control: 0x9c });
  });

  it('ignores control frames sent to a wildcard or broadcast address', () => {
    const m = electric();
    for (const address of ['AAAAAAAAAAAA', '999999999999']) {
      const bytes = dlt645.encode({
        kind: 'remoteControl',
        direction: 'request',
        address,
        password: { level: 2, code: '000000' },
        operator: '00000001',
        command: DLT645_REMOTE_COMMAND.TRIP,
        expiry: expiryIn(m, 10),
      });
      expect(m.handleBytes(bytes)).toBeNull();
    }
    expect(m.relay).toBe('connected');
  });
});

describe('ElectricMeter — parameter writes (0x14) and reads', () => {
  const ALARM1 = 0x04001001;
  const OVERDRAFT = 0x04001003;
  const CT = 0x04000306;

  it('answers reads of every parameter with its defaults before any write', () => {
    const m = electric();
    expect(readParam(m, ALARM1)).toMatchObject({ kind: 'read', direction: 'response', values: { value: 20 } });
    expect(readParam(m, 0x04001002)).toMatchObject({ values: { value: 10 } });
    expect(readParam(m, OVERDRAFT)).toMatchObject({ values: { value: 0 } });
    expect(readParam(m, 0x04001004)).toMatchObject({ values: { value: 999999.99 } });
    expect(readParam(m, 0x04001005)).toMatchObject({ values: { value: 0 } });
    expect(readParam(m, CT)).toMatchObject({ values: { value: 1 } });
    expect(readParam(m, 0x04000307)).toMatchObject({ values: { value: 1 } });
    expect(readParam(m, DLT645_DI.METER_NUMBER)).toMatchObject({ values: { address: E_ADDR } });
    // BCD on the wire exactly as the standard lays it out: XXXXXX.XX low byte first
    const f = readParam(m, ALARM1);
    expect(f.kind === 'read' && f.direction === 'response' && Array.from(f.payload!)).toEqual([0x00, 0x20, 0x00, 0x00]);
  });

  it('stores a written value (normal reply 0x94 without data) and reads it back; counts the write', () => {
    const e = env();
    const m = electric(e);
    const f = write(m, OVERDRAFT, money(123.45));
    expect(f).toMatchObject({ kind: 'raw', control: 0x94, abnormal: false });
    expect(f.data.length).toBe(0);
    expect(readParam(m, OVERDRAFT)).toMatchObject({ values: { value: 123.45 } });
    expect(write(m, CT, encodeBcdDecimal(150, 3, 0))).toMatchObject({ control: 0x94 });
    expect(readParam(m, CT)).toMatchObject({ values: { value: 150 } });
    expect(write(m, DLT645_DI.METER_NUMBER, Uint8Array.of(0x56, 0x34, 0x12, 0x90, 0x78, 0x56))).toMatchObject({ control: 0x94 });
    expect(readParam(m, DLT645_DI.METER_NUMBER)).toMatchObject({ values: { address: '567890123456' } });
    expect(read(m, DLT645_DI.COMM_ADDRESS)).toMatchObject({ values: { address: E_ADDR } }); // the address stays
    expect(m.writes).toBe(3);
    expect(m.actuations).toBe(0);
    expect(m.snapshot()).toMatchObject({ writes: 3, params: { overdraftLimit: 123.45, ctRatio: 150, meterNumber: '567890123456', alarm1Money: 20 } });
    expect(e.events).toContainEqual({ type: 'write', address: E_ADDR, item: 'overdraftLimit', value: 123.45 });
  });

  it('checks the password like remote control: a wrong one is refused with 密码错/未授权 (bit 2) and nothing changes', () => {
    const m = electric(env(), { password: 'A1B2C3' });
    const refused = write(m, ALARM1, money(55), '000000');
    expect(refused).toMatchObject({ kind: 'error', control: 0xd4, func: 0x14, errorCode: 0x04, errors: ['unauthorized'] });
    expect(readParam(m, ALARM1)).toMatchObject({ values: { value: 20 } });
    expect(m.writes).toBe(0);
    expect(m.counters.refused).toBe(1);
    expect(write(m, ALARM1, money(55), 'a1b2c3')).toMatchObject({ control: 0x94 });
    expect(readParam(m, ALARM1)).toMatchObject({ values: { value: 55 } });
    // a meter without a configured password accepts any
    expect(write(electric(), ALARM1, money(1), '123456')).toMatchObject({ control: 0x94 });
  });

  it('answers a DI it has no writable register for with 无请求数据 (bit 1), a malformed value with 其他错误 (bit 0)', () => {
    const m = electric();
    expect(write(m, 0x04009999, money(1))).toMatchObject({ kind: 'error', func: 0x14, errorCode: 0x02, errors: ['noRequestedData'] });
    expect(write(m, DLT645_DI.FORWARD_ACTIVE_TOTAL, money(0))).toMatchObject({ kind: 'error', errorCode: 0x02 });
    expect(write(m, ALARM1, Uint8Array.of(0x00, 0x20, 0x00))).toMatchObject({ kind: 'error', errorCode: 0x01 }); // 3 bytes, needs 4
    expect(write(m, ALARM1, Uint8Array.of(0x0a, 0x00, 0x00, 0x00))).toMatchObject({ kind: 'error', errorCode: 0x01 }); // not BCD
    expect(readParam(m, 0x04009999)).toMatchObject({ kind: 'error', func: 0x11, errorCode: 0x02 });
    expect(m.writes).toBe(0);
  });

  it('ignores writes to the broadcast or a wildcard address', () => {
    const m = electric();
    expect(m.handleBytes(writeFrame('999999999999', OVERDRAFT, money(9)))).toBeNull();
    expect(m.handleBytes(writeFrame('AAAAAAAAAAAA', OVERDRAFT, money(9)))).toBeNull();
    expect(m.handleBytes(writeFrame(`${E_ADDR.slice(0, 10)}AA`, OVERDRAFT, money(9)))).toBeNull();
    expect(m.handleBytes(writeFrame('100010000002', OVERDRAFT, money(9)))).toBeNull(); // another meter
    expect(readParam(m, OVERDRAFT)).toMatchObject({ values: { value: 0 } });
    expect(m.writes).toBe(0);
  });

  it('still answers other functions with 其他错误, and takes initial parameters from its definition', () => {
    const m = electric(env(), { params: { overdraftLimit: 30, meterNumber: '000000000042' } });
    const freeze = dlt645.encode({ kind: 'raw', address: E_ADDR, control: 0x16, data: Uint8Array.of(0x99, 0x99, 0x99, 0x99) });
    expect(dltReply(m, freeze)).toMatchObject({ kind: 'error', func: 0x16, errorCode: 0x01 });
    expect(m.parameters).toMatchObject({ overdraftLimit: 30, meterNumber: '000000000042', alarm2Money: 10 });
    expect(() => electric(env(), { params: { overdraftLimit: 1e7 } })).toThrow(/overdraftLimit/);
    expect(() => electric(env(), { params: { nope: 1 } })).toThrow(/unknown meter parameter/);
  });
});

describe('ElectricMeter — clock', () => {
  it('reads its date/time in China time and is set by 广播校时 (0x08), which is never answered', () => {
    const e = env();
    const m = electric(e);
    expect(read(m, DLT645_DI.DATE)).toMatchObject({ values: { year: 2024, month: 1, day: 1, weekday: 1 } });
    expect(read(m, DLT645_DI.TIME)).toMatchObject({ values: { hour: 0, minute: 0, second: 0 } });
    m.setFault('clockDrift', 300);
    expect(read(m, DLT645_DI.TIME)).toMatchObject({ values: { hour: 0, minute: 5, second: 0 } });
    const sync = dlt645.encode({ kind: 'broadcastTime', direction: 'request', time: toMeterDateTime(new Date(e.clock.now())) });
    expect(m.handleBytes(sync)).toBeNull();
    expect(read(m, DLT645_DI.TIME)).toMatchObject({ values: { hour: 0, minute: 0, second: 0 } });
    expect(m.faults.clockDrift).toBe(0);
    expect(e.events).toContainEqual(expect.objectContaining({ type: 'timeSync', address: E_ADDR }));
  });

  it('accepts a time sync addressed to itself', () => {
    const e = env();
    const m = electric(e);
    const target = toMeterDateTime(new Date(e.clock.now() + 3_600_000));
    expect(m.handleBytes(dlt645.encode({ kind: 'broadcastTime', direction: 'request', address: E_ADDR, time: target }))).toBeNull();
    expect(read(m, DLT645_DI.TIME)).toMatchObject({ values: { hour: 1, minute: 0 } });
  });
});

describe('ElectricMeter — faults', () => {
  it('powerLoss: no replies and no consumption; offline: no replies but consumption continues', () => {
    const e = env();
    const m = electric(e);
    const req = dlt645.encode({ kind: 'read', direction: 'request', address: E_ADDR, dataId: 0x00010000 });
    m.setFault('powerLoss', true);
    const t = m.total;
    e.clock.advance(3 * HOUR_MS);
    expect(m.handleBytes(req)).toBeNull();
    expect(m.total).toBe(t);
    m.setFault('powerLoss', false);
    m.setFault('offline', true);
    e.clock.advance(3 * HOUR_MS);
    expect(m.handleBytes(req)).toBeNull();
    expect(m.total).toBeGreaterThan(t);
    m.clearFaults();
    expect(m.handleBytes(req)).not.toBeNull();
  });

  it('reversed: the next total reading goes back once, then readings are normal again', () => {
    const e = env();
    const m = electric(e);
    e.clock.advance(10 * HOUR_MS);
    const before = readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL);
    m.setFault('reversed', true);
    expect(readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toBeCloseTo(before - 10, 2);
    expect(m.faults.reversed).toBe(0);
    expect(readValue(m, DLT645_DI.FORWARD_ACTIVE_TOTAL)).toBe(before);
    m.setFault('reversed', 2.5);
    const f = dlt645.decode(m.reportFrame());
    expect(f).toMatchObject({ values: { value: Math.round((before - 2.5) * 100) / 100 } });
  });

  it('stuckValve: 拉闸 is acknowledged but the relay does not move (read-back shows it)', () => {
    const e = env();
    const m = electric(e);
    m.setFault('stuckValve', true);
    expect(control(m, DLT645_REMOTE_COMMAND.TRIP)).toMatchObject({ control: 0x9c });
    expect(statusWord(m)).toMatchObject({ relayState: 'connected', relayCommand: 'disconnect' });
    expect(m.actuations).toBe(0);
    expect(e.events).toContainEqual(expect.objectContaining({ type: 'commandIgnored', reason: 'stuckValve' }));
  });

  it('slowReplies delays replies', () => {
    const m = electric();
    m.setFault('slowReplies', 1500);
    const r = m.handleBytes(dlt645.encode({ kind: 'read', direction: 'request', address: E_ADDR, dataId: 0x00010000 }));
    expect(r?.delayMs).toBe(1500);
  });

  it('rejects bad fault values', () => {
    const m = electric();
    expect(() => m.setFault('slowReplies', -1)).toThrow(RangeError);
    expect(() => m.setFault('powerLoss', 1 as unknown as boolean)).toThrow(TypeError);
    expect(() => m.setFault('nope' as 'powerLoss', true)).toThrow(RangeError);
  });

  it('report frames carry the forward active total', () => {
    const e = env();
    const m = electric(e);
    e.clock.advance(2 * HOUR_MS);
    const f = dlt645.decode(m.reportFrame());
    expect(f).toMatchObject({ kind: 'read', direction: 'response', address: E_ADDR, dataId: DLT645_DI.FORWARD_ACTIVE_TOTAL, values: { value: registerValue(m.total) } });
  });
});
