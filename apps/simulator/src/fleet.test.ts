import { describe, expect, it } from 'vitest';
import { ConnectGate } from './collector.ts';
import { HOUR_MS, ManualClock, ScaledClock } from './clock.ts';
import { createFleet, formatStatus, generateFleet } from './fleet.ts';
import { loadDefinition } from './load.ts';
import { DEFAULT_TOU_TABLE, resolveProfile, validateTouTable } from './profiles.ts';
import type { FleetEvent } from './fleet.ts';

const gateway = { host: '127.0.0.1', port: 1 };

describe('profiles and TOU table', () => {
  it('default 尖峰平谷 table covers 24 hours: 尖 2, 峰 10, 平 4, 谷 8', () => {
    const count = (p: string) => DEFAULT_TOU_TABLE.filter((x) => x === p).length;
    expect([count('sharp'), count('peak'), count('flat'), count('valley')]).toEqual([2, 10, 4, 8]);
    expect(DEFAULT_TOU_TABLE[20]).toBe('sharp');
    expect(DEFAULT_TOU_TABLE[3]).toBe('valley');
    expect(() => validateTouTable(['peak'])).toThrow(RangeError);
  });

  it('resolved profiles sum to the daily usage', () => {
    for (const name of ['residential', 'commercial', 'constant'] as const) {
      const p = resolveProfile(name, 'electric', 12);
      expect(p.hourly.reduce((a, b) => a + b, 0)).toBeCloseTo(12, 9);
    }
    expect(resolveProfile('residential', 'water').dailyUsage).toBe(0.35);
    expect(resolveProfile({ weights: Array(24).fill(1), dailyUsage: 2.4 }, 'water').hourly[5]).toBeCloseTo(0.1, 12);
    expect(() => resolveProfile({ weights: [1, 2], dailyUsage: 1 }, 'water')).toThrow(RangeError);
    expect(() => resolveProfile('nope' as 'constant', 'water')).toThrow(RangeError);
  });
});

describe('clocks', () => {
  it('ManualClock only moves forward', () => {
    const c = new ManualClock(1000);
    c.advance(500);
    expect(c.now()).toBe(1500);
    expect(() => c.set(10)).toThrow(RangeError);
    expect(() => c.advance(-1)).toThrow(RangeError);
  });

  it('ScaledClock runs `speed` times real time', () => {
    let real = 0;
    const c = new ScaledClock(60, 0, () => real);
    real = 1000;
    expect(c.now()).toBe(60_000);
    expect(() => new ScaledClock(0)).toThrow(RangeError);
  });
});

describe('generateFleet', () => {
  it('is deterministic for a seed and spreads meters over collectors', () => {
    const a = generateFleet({ collectors: 3, meters: 10, nb: 2, fourG: 2, seed: 42 });
    const b = generateFleet({ collectors: 3, meters: 10, nb: 2, fourG: 2, seed: 42 });
    expect(a).toEqual(b);
    expect(a.collectors.map((c) => c.meters.length)).toEqual([4, 3, 3, 1, 1]);
    expect(a.nbMeters).toHaveLength(2);
    expect(generateFleet({ collectors: 3, meters: 10, seed: 43 })).not.toEqual(a);
  });

  it('produces valid, unique IMEIs and addresses for each protocol', () => {
    const def = generateFleet({ collectors: 10, meters: 500, nb: 20, fourG: 5, waterShare: 0.5 });
    const meters = [...def.collectors.flatMap((c) => c.meters), ...(def.nbMeters ?? [])];
    const imeis = [...def.collectors.map((c) => c.imei), ...(def.nbMeters ?? []).map((m) => m.imei!)];
    expect(new Set(imeis).size).toBe(imeis.length);
    expect(imeis.every((i) => /^\d{15}$/.test(i))).toBe(true);
    expect(new Set(meters.map((m) => m.address)).size).toBe(meters.length);
    for (const m of meters) {
      expect(m.address).toMatch(m.kind === 'electric' ? /^\d{12}$/ : /^\d{14}$/);
      expect(m.protocol).toBe(m.kind === 'electric' ? 'dlt645' : 'cjt188');
    }
    const water = meters.filter((m) => m.kind === 'water').length;
    expect(water).toBeGreaterThan(150);
    expect(water).toBeLessThan(350);
  });

  it('builds a fleet from the generated definition', () => {
    const def = generateFleet({ collectors: 2, meters: 6, nb: 1 });
    const fleet = createFleet({ ...def, gateway, mqttUrl: 'mqtt://127.0.0.1:1' });
    expect(fleet.meters).toHaveLength(7);
    expect(fleet.collectors).toHaveLength(2);
    expect(fleet.nbMeters).toHaveLength(1);
    expect(fleet.collector(def.collectors[0].imei)?.meters).toHaveLength(3);
    expect(fleet.meter(def.nbMeters![0].address)).toBe(fleet.nbMeters[0].meter);
  });
});

describe('createFleet', () => {
  const def = {
    collectors: [
      {
        imei: '860000000000001',
        meters: [
          { address: '100000000001', kind: 'electric' as const, initialTotal: 5 },
          { address: '20000000000001', kind: 'water' as const },
        ],
      },
    ],
  };

  it('requires a gateway for collectors and a broker for NB meters', () => {
    expect(() => createFleet(def)).toThrow(/gateway/);
    expect(() => createFleet({ collectors: [], nbMeters: [{ address: '100000000001', kind: 'electric' }] })).toThrow(/mqttUrl/);
  });

  it('refuses duplicate addresses and IMEIs and bad IMEIs', () => {
    expect(() => createFleet({ gateway, collectors: [def.collectors[0], def.collectors[0]] })).toThrow(/twice/);
    expect(() => createFleet({ gateway, collectors: [{ imei: '123', meters: [] }] })).toThrow(/15 digits/);
  });

  it('routes faults to meters by address and to collectors by IMEI, and emits events', () => {
    const clock = new ManualClock();
    const fleet = createFleet({ ...def, gateway, clock });
    const events: FleetEvent[] = [];
    fleet.on('event', (e) => events.push(e));
    fleet.setFault('100000000001', 'stuckValve', true);
    fleet.setFault('860000000000001', 'garbage', true);
    fleet.setFault('860000000000001', 'slowReplies', 200);
    expect(fleet.meter('100000000001')!.faults.stuckValve).toBe(true);
    expect(fleet.collector('860000000000001')!.faults).toEqual({ offline: false, slowReplies: 200, garbage: 24 });
    expect(() => fleet.setFault('999', 'offline', true)).toThrow(/no meter or collector/);
    expect(() => fleet.setFault('860000000000001', 'powerLoss', true)).toThrow(/does not apply/);
    expect(events).toContainEqual({ type: 'fault', address: '100000000001', name: 'stuckValve', value: true });
    fleet.clearFaults('100000000001');
    fleet.clearFaults('860000000000001');
    expect(fleet.meter('100000000001')!.faults.stuckValve).toBe(false);
    expect(fleet.collector('860000000000001')!.faults.garbage).toBe(0);
  });

  it('faults set before start() do not connect anything', () => {
    const fleet = createFleet({ ...def, gateway, nbMeters: [{ address: '100000000009', kind: 'electric' }], mqttUrl: 'mqtt://127.0.0.1:1' });
    fleet.setFault('860000000000001', 'offline', true);
    fleet.setFault('100000000009', 'offline', true);
    expect(fleet.collector('860000000000001')!.state).toBe('offline');
    expect(fleet.nbMeter('100000000009')!.state).toBe('offline');
    fleet.clearFaults('860000000000001');
    fleet.clearFaults('100000000009');
    expect(fleet.collector('860000000000001')!.state).toBe('idle');
    expect(fleet.nbMeter('100000000009')!.state).toBe('idle');
  });

  it('reports status and meter snapshots against its clock', () => {
    const clock = new ManualClock(Date.UTC(2024, 5, 1, 4, 0, 0));
    const fleet = createFleet({ ...def, gateway, clock });
    clock.advance(2 * HOUR_MS);
    fleet.meter('20000000000001')!.setSupply(false);
    const s = fleet.status();
    expect(s).toMatchObject({
      collectors: { total: 1, online: 0, states: { idle: 1 } },
      meters: { total: 2, electric: 1, water: 1, supplyOff: 1, faulted: 0 },
      actuations: 1,
    });
    expect(s.simTime.getTime()).toBe(clock.now());
    expect(fleet.meter('100000000001')!.snapshot()).toMatchObject({ address: '100000000001', kind: 'electric', supplyOn: true });
    expect(fleet.meter('100000000001')!.snapshot().total).toBeGreaterThan(5);
    expect(formatStatus(s)).toMatch(/collectors 0\/1 online/);
  });
});

describe('loadDefinition', () => {
  it('numbers IMEIs and addresses from the prefix', () => {
    const def = loadDefinition({ connections: 3, metersPerConnection: 2, kind: 'mixed', prefix: '55' });
    expect(def.collectors.map((c) => c.imei)).toEqual(['865500000000001', '865500000000002', '865500000000003']);
    expect(def.collectors[0].meters.map((m) => [m.kind, m.address])).toEqual([
      ['electric', '550000000001'],
      ['water', '55000000000002'],
    ]);
    expect(() => loadDefinition({ connections: 1, prefix: 'x' })).toThrow(RangeError);
  });
});

describe('ConnectGate', () => {
  it('grants at most `limit` slots at once', async () => {
    const gate = new ConnectGate(2);
    const r1 = await gate.acquire();
    const r2 = await gate.acquire();
    let third = false;
    const p = gate.acquire().then((r) => {
      third = true;
      return r;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    expect(gate.pending).toBe(1);
    r1();
    r1(); // idempotent
    const r3 = await p;
    expect(third).toBe(true);
    r2();
    r3();
  });
});
