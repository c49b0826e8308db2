import type { Tx } from '../../db/client.ts';
import * as repo from './repo.ts';

// Demo devices (issue 3): collectors and meters of several plans over a company's rooms (FLEETS: 20
// collectors and 600 meters in the demo park, smaller fleets for the market and the industrial park),
// some behind collectors, a few marked as focused. Deterministic (same data on every fresh start),
// bulk inserts. The device dictionaries come from migration 0006 (fixed ids, 单相 = 1).

type Via = 'dtu' | 'lora' | 'multi' | 'direct';

interface Segment {
  count: number;
  plan: number;
  via: Via;
}

/** A company's demo devices: meter segments and the plan codes of its collectors, by group. */
export interface DeviceFleet {
  electric: Segment[];
  water: Segment[];
  collectors: Record<Exclude<Via, 'direct'>, number[]>;
}

export const FLEETS: Record<'park' | 'market' | 'industry', DeviceFleet> = {
  /**
   * The demo company's residential park: 400 electric meters (wired behind 4G DTUs, LoRa,
   * multi-user, and NB-IoT meters talking directly), 200 water meters (M-Bus behind DTUs, LoRa,
   * NB-IoT and 4G), 20 collectors (0 4G, 5 新4G, 1 Lora, 4 多用户, 6 k3多用户).
   */
  park: {
    electric: [
      { count: 120, plan: 0, via: 'dtu' },
      { count: 40, plan: 100, via: 'dtu' },
      { count: 60, plan: 1, via: 'lora' },
      { count: 40, plan: 4, via: 'multi' },
      { count: 20, plan: 144, via: 'multi' },
      { count: 60, plan: 3, via: 'direct' },
      { count: 30, plan: 7, via: 'direct' },
      { count: 30, plan: 13, via: 'direct' },
    ],
    water: [
      { count: 80, plan: 100, via: 'dtu' },
      { count: 40, plan: 1, via: 'lora' },
      { count: 40, plan: 151, via: 'direct' },
      { count: 40, plan: 141, via: 'direct' },
    ],
    collectors: { dtu: [0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5], lora: [1, 1, 1, 1], multi: [4, 4, 6, 6] },
  },
  /** The market's 140 stalls: an electric meter each (4G DTUs in the halls, LoRa in the cold stores), 40 water meters. */
  market: {
    electric: [
      { count: 100, plan: 0, via: 'dtu' },
      { count: 40, plan: 1, via: 'lora' },
    ],
    water: [
      { count: 30, plan: 100, via: 'dtu' },
      { count: 10, plan: 151, via: 'direct' },
    ],
    collectors: { dtu: [0, 0, 5], lora: [1], multi: [] },
  },
  /** The industrial park's 96 units: electric meters behind DTUs and NB-IoT, 24 water meters. */
  industry: {
    electric: [
      { count: 60, plan: 0, via: 'dtu' },
      { count: 36, plan: 3, via: 'direct' },
    ],
    water: [{ count: 24, plan: 100, via: 'dtu' }],
    collectors: { dtu: [0, 5], lora: [], multi: [] },
  },
};

const COLLECTOR_NAMES: Record<Exclude<Via, 'direct'>, string> = { dtu: '4G采集器', lora: 'LoRa网关', multi: '多用户集中器' };

const FOCUS_MEMOS = ['用电量异常偏高，重点关注', '业主反映读数不准', '近期频繁离线', '欠费多次，关注通断', '新装表具试运行', '水量突增，排查漏水'];

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0').slice(-width);

interface PlannedMeter {
  kind: 1 | 2;
  plan: number;
  via: Via;
  room: { id: number; areaId: number; name: string };
  /** index of the collector within its group */
  slot?: number;
}

export interface SeedDevicesResult {
  collectors: number;
  meters: number;
}

export async function seedDevices(tx: Tx, companyId: number, fleet: DeviceFleet = FLEETS.park): Promise<SeedDevicesResult> {
  const rooms = await repo.roomsOfCompany(tx, companyId);
  if (!rooms.length) return { collectors: 0, meters: 0 };
  const lookups = new Map((await repo.allLookups(tx)).map((l) => [`${l.kind}:${l.name}`, l.id]));
  const L = (kind: string, name: string) => lookups.get(`${kind}:${name}`) ?? null;
  const rand = lcg(20240601 + companyId);

  // 1. plan every meter: kind, plan, room, and which collector of its group it sits behind
  const planned: PlannedMeter[] = [];
  const expand = (segments: Segment[], kind: 1 | 2, roomOffset: number) => {
    let j = 0;
    for (const s of segments) {
      for (let k = 0; k < s.count; k++, j++) planned.push({ kind, plan: s.plan, via: s.via, room: rooms[(roomOffset + j) % rooms.length] });
    }
  };
  const electricTotal = fleet.electric.reduce((a, s) => a + s.count, 0);
  expand(fleet.electric, 1, 0);
  expand(fleet.water, 2, electricTotal);
  for (const via of ['dtu', 'lora', 'multi'] as const) {
    const group = planned.filter((m) => m.via === via);
    const n = fleet.collectors[via].length;
    group.forEach((m, i) => (m.slot = Math.floor((i * n) / group.length)));
  }

  // 2. collectors, each installed in the area of the first room it serves
  const collectorRows: Parameters<typeof repo.insertCollectorsBulk>[1] = [];
  const collectorKey: string[] = [];
  let c = 0;
  for (const via of ['dtu', 'lora', 'multi'] as const) {
    fleet.collectors[via].forEach((plan, slot) => {
      const first = planned.find((m) => m.via === via && m.slot === slot);
      c++;
      collectorRows.push({
        companyId,
        areaId: first?.room.areaId ?? rooms[0].areaId,
        name: `${COLLECTOR_NAMES[via]}${pad(slot + 1, 2)}`,
        imei: `8688${pad(companyId, 5)}${pad(c, 6)}`,
        plan,
        simNo: `8986${pad(companyId, 6)}${pad(c, 10)}`,
        installAddress: first ? `${first.room.name} 所在楼层弱电井` : '',
        memo: '',
      });
      collectorKey.push(`${via}:${slot}`);
    });
  }
  const collectorIds = await repo.insertCollectorsBulk(tx, collectorRows);
  const collectorOf = new Map(collectorKey.map((k, i) => [k, collectorIds[i]]));

  // 3. meters
  const perRoom = new Map<string, number>();
  let e = 0;
  let w = 0;
  const rows: Parameters<typeof repo.insertMetersBulk>[1] = planned.map((m) => {
    const electric = m.kind === 1;
    const seq = electric ? ++e : ++w;
    const key = `${m.room.id}:${m.kind}`;
    const nth = (perRoom.get(key) ?? 0) + 1;
    perRoom.set(key, nth);
    const threePhase = electric && seq % 10 === 0;
    const gateway = { dtu: '4G DTU', lora: 'LoRa 网关', multi: '集中器', direct: m.plan === 141 ? '4G 直连' : 'NB-IoT 直连' }[m.via];
    const port = m.via === 'dtu' ? (electric ? 'RS485-1' : 'M-Bus') : m.via === 'multi' ? 'RS485-2' : null;
    const waterType = m.via === 'direct' ? (m.plan === 141 ? '预付费水表' : 'NB-IoT 水表') : '远传水表';
    const month = 1 + Math.floor(rand() * 12);
    const day = 1 + Math.floor(rand() * 28);
    return {
      companyId,
      roomId: m.room.id,
      collectorId: m.slot !== undefined ? (collectorOf.get(`${m.via}:${m.slot}`) ?? null) : null,
      name: `${m.room.name}${electric ? '电表' : '水表'}${nth > 1 ? `-${nth}` : ''}`,
      kind: m.kind,
      plan: m.plan,
      // DL/T 645: 12 digits; CJ/T 188: 14 digits
      address: electric ? `20${pad(companyId, 4)}${pad(seq, 6)}` : `30${pad(companyId, 6)}${pad(seq, 6)}`,
      imei: m.via === 'direct' ? `86${electric ? '99' : '98'}${pad(companyId, 5)}${pad(seq, 6)}` : '',
      protocolId: L('protocol', electric ? 'DL/T645-2007' : 'CJ/T188-2004'),
      baudId: L('baud', '2400'),
      phaseId: electric ? L('phase', threePhase ? '三相' : '单相') : null,
      gatewayId: L('gateway', gateway),
      portId: port ? L('port', port) : null,
      brandId: L('brand', electric ? ['正泰', '德力西', '威胜', '林洋'][seq % 4] : ['宁波水表', '三川'][seq % 2]),
      caliberId: electric ? null : L('caliber', seq % 5 === 0 ? 'DN20' : 'DN15'),
      typeId: L('type', electric ? (threePhase ? '多功能电表' : '预付费电表') : waterType),
      multiplier: threePhase ? '30' : '1',
      initialReading: (Math.floor(rand() * (electric ? 500000 : 50000)) / 100).toFixed(2),
      installDate: `2024-${pad(month, 2)}-${pad(day, 2)}`,
      status: 1,
      valveState: 1,
      memo: '',
    };
  });
  await repo.insertMetersBulk(tx, rows);

  // 4. a few focused meters
  const focusAddresses = [rows[3], rows[57], rows[130], rows[271], rows[420], rows[555]].filter(Boolean).map((r) => r.address);
  const focused = await repo.meterIdsByAddress(tx, companyId, focusAddresses);
  const byAddress = new Map(focused.map((f) => [f.address, f.id]));
  await repo.insertFocusBulk(
    tx,
    focusAddresses.flatMap((a, i) => (byAddress.has(a) ? [{ companyId, meterId: byAddress.get(a)!, memo: FOCUS_MEMOS[i % FOCUS_MEMOS.length] }] : [])),
  );
  return { collectors: collectorIds.length, meters: rows.length };
}
