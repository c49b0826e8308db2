// What the meter tests share: a China-time start, addresses, an environment, and frame helpers.
import { DLT645_DI, cjt188, dlt645, encodeBcdDecimal, toMeterDateTime, type Cjt188Frame, type Dlt645Frame, type MeterDateTime } from '@meter/protocol';
import { HOUR_MS, ManualClock } from './clock.ts';
import { DLT645_PARAM_REGISTERS, ElectricMeter, WaterMeter, type MeterEnvironment, type MeterEvent } from './meter.ts';
import { DEFAULT_TOU_TABLE } from './profiles.ts';

/** 2024-01-01 00:00:00 China time. */
export const T0 = Date.UTC(2024, 0, 1, 0, 0, 0) - 8 * HOUR_MS;
export const E_ADDR = '100010000001';
export const W_ADDR = '20010000000001';

export function env(clock = new ManualClock(T0), seed = 1): MeterEnvironment & { clock: ManualClock; events: MeterEvent[] } {
  const events: MeterEvent[] = [];
  return { clock, seed, touTable: DEFAULT_TOU_TABLE, checkCommandExpiry: true, onEvent: (e) => events.push(e), events };
}

export function electric(e = env(), extra: Partial<ConstructorParameters<typeof ElectricMeter>[0]> = {}) {
  return new ElectricMeter({ address: E_ADDR, kind: 'electric', initialTotal: 100, ...extra }, e);
}

export function water(e = env(), extra: Partial<ConstructorParameters<typeof WaterMeter>[0]> = {}) {
  return new WaterMeter({ address: W_ADDR, kind: 'water', initialTotal: 10, ...extra }, e);
}

export function dltReply(meter: ElectricMeter, bytes: Uint8Array): Dlt645Frame {
  const r = meter.handleBytes(bytes);
  if (!r) throw new Error('expected a reply');
  return dlt645.decode(r.bytes);
}

export function read(meter: ElectricMeter, dataId: number, address = meter.address): Dlt645Frame {
  return dltReply(meter, dlt645.encode({ kind: 'read', direction: 'request', address, dataId }));
}

export function readValue(meter: ElectricMeter, dataId: number): number {
  const f = read(meter, dataId);
  if (f.kind !== 'read' || f.direction !== 'response') throw new Error(`expected a read reply, got ${f.kind}`);
  return f.values?.value as number;
}

export function statusWord(meter: ElectricMeter) {
  const f = read(meter, DLT645_DI.STATUS_WORD_3);
  if (f.kind !== 'read' || f.direction !== 'response') throw new Error('expected a read reply');
  return f.values as Record<string, unknown>;
}

export function expiryIn(meter: { meterTime(): number }, minutes: number): MeterDateTime {
  return toMeterDateTime(new Date(meter.meterTime() + minutes * 60_000));
}

export function control(meter: ElectricMeter, command: number, opts: { expiry?: MeterDateTime; password?: string } = {}): Dlt645Frame {
  return dltReply(
    meter,
    dlt645.encode({
      kind: 'remoteControl',
      direction: 'request',
      address: meter.address,
      password: { level: 2, code: opts.password ?? '000000' },
      operator: '00000001',
      command,
      expiry: opts.expiry ?? expiryIn(meter, 10),
    }),
  );
}

/** 写数据 (0x14) as the platform sends it: DI, PA + P0P1P2, C0..C3, value (all low byte first). */
export function writeFrame(address: string, dataId: number, value: Uint8Array, password = '000000', level = 2): Uint8Array {
  const le = (hex: string) => Uint8Array.from(hex.match(/../g)!.reverse().map((b) => parseInt(b, 16)));
  const data = new Uint8Array(12 + value.length);
  data.set(Uint8Array.of(dataId & 0xff, (dataId >>> 8) & 0xff, (dataId >>> 16) & 0xff, dataId >>> 24), 0);
  data[4] = level;
  data.set(le(password), 5);
  data.set(le('00000001'), 8);
  data.set(value, 12);
  return dlt645.encode({ kind: 'raw', address, control: 0x14, data });
}

export function write(meter: ElectricMeter, dataId: number, value: Uint8Array, password?: string): Dlt645Frame {
  return dltReply(meter, writeFrame(meter.address, dataId, value, password));
}

/** A parameter read, decoded with the simulator's own register table. */
export function readParam(meter: ElectricMeter, dataId: number) {
  const r = meter.handleBytes(dlt645.encode({ kind: 'read', direction: 'request', address: meter.address, dataId }));
  if (!r) throw new Error('expected a reply');
  return dlt645.decode(r.bytes, { dataItems: DLT645_PARAM_REGISTERS });
}

export const money = (v: number) => encodeBcdDecimal(v, 4, 2);

export function cjtReply(meter: WaterMeter, bytes: Uint8Array, profile?: string): Cjt188Frame {
  const r = meter.handleBytes(bytes);
  if (!r) throw new Error('expected a reply');
  return cjt188.decode(r.bytes, { profile });
}

export function read901F(meter: WaterMeter, opts: { ser?: number; diOrder?: 'be' | 'le'; meterType?: number } = {}) {
  const f = cjtReply(
    meter,
    cjt188.encode({ kind: 'readData', direction: 'request', meterType: opts.meterType ?? 0x10, address: meter.address, ser: opts.ser, diOrder: opts.diOrder }),
    meter.statusProfile,
  );
  if (f.kind !== 'readData' || f.direction !== 'response' || f.values?.kind !== 'flow') throw new Error('expected a 901F flow reply');
  return { frame: f, values: f.values };
}

export function valve(meter: WaterMeter, code: number): Cjt188Frame {
  return cjtReply(meter, cjt188.encode({ kind: 'valveControl', direction: 'request', meterType: 0x10, address: meter.address, valve: code }));
}
