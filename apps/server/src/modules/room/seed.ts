import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { adminUsers, areas, chargingTypes, companies, ownerRoomHistory, owners, roles, rooms } from '../../db/schema/index.ts';
import { hashPassword } from '../auth/index.ts';

// Demo archive (issue 3): per company an area tree (park → building/zone → floor), rooms with
// charging types, owners (most rooms occupied, a few vacant, some former tenants moved out) and
// their move-in history; plus two more companies with their own admin and tree. Deterministic (the
// same data on every fresh start: fixed dates, a seeded sequence) and bulk inserts only.

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗梁宋郑谢韩唐冯于董萧';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '华', '平', '刚', '建国', '海燕', '志强', '丽华', '文博'];

/** the demo's clock: everything happened before this moment */
const EPOCH = Date.UTC(2025, 0, 1, 2, 0, 0);
const DAY = 86_400_000;

function sequence(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ownerName = (i: number) => SURNAMES[(i * 7) % SURNAMES.length] + GIVEN[Math.floor(i / 3) % GIVEN.length];
const ownerPhone = (i: number) => `1${'35789'[i % 5]}${String(60_000_000 + i * 7_919).padStart(9, '0').slice(-9)}`;

/** A valid 18-digit ID number (Shenzhen region codes, born 1960–1999, real check digit). */
function idNumber(i: number, next: () => number) {
  const region = ['440303', '440304', '440305', '440306', '440307'][i % 5];
  const birth = new Date(Date.UTC(1960, 0, 1) + Math.floor(next() * 40 * 365) * DAY);
  const ymd = birth.toISOString().slice(0, 10).replace(/-/g, '');
  const first17 = `${region}${ymd}${String(100 + (i % 900)).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = w.reduce((acc, wi, k) => acc + wi * Number(first17[k]), 0);
  return first17 + '10X98765432'[sum % 11];
}

export interface ParkSpec {
  park: string;
  /** names of the second level (buildings, zones) */
  blocks: string[];
  floors: number;
  perFloor: number;
  /** room name: block index (0-based), floor (1-based), room (1-based) */
  roomName(block: number, floor: number, k: number): string;
  /** charging types [name, chargeType]; rooms use the first, every fourth room the second */
  chargingTypes: [string, number][];
  address: { province: string; city: string; district: string };
  /** the first owner's number: keeps phones unique across companies */
  ownerOffset: number;
  seed: number;
}

/** Builds one company's tree, rooms, owners and history. Returns how many rooms and owners. */
export async function seedPark(tx: Tx, companyId: number, spec: ParkSpec) {
  const next = sequence(spec.seed);
  const types = await tx
    .insert(chargingTypes)
    .values(spec.chargingTypes.map(([name, chargeType]) => ({ companyId, name, chargeType })))
    .returning({ id: chargingTypes.id });
  const [park] = await tx.insert(areas).values({ companyId, name: spec.park, deep: 0, ...spec.address }).returning({ id: areas.id });
  const blocks = await tx
    .insert(areas)
    .values(spec.blocks.map((name, b) => ({ companyId, parentId: park.id, name, deep: 1, sort: b + 1 })))
    .returning({ id: areas.id });
  const floors = await tx
    .insert(areas)
    .values(blocks.flatMap((bl) => Array.from({ length: spec.floors }, (_, f) => ({ companyId, parentId: bl.id, name: `${f + 1}层`, deep: 2, sort: f + 1 }))))
    .returning({ id: areas.id, parentId: areas.parentId, name: areas.name });

  const roomRows = floors.flatMap((fl, idx) => {
    const b = Math.floor(idx / spec.floors);
    const f = (idx % spec.floors) + 1;
    return Array.from({ length: spec.perFloor }, (_, k) => ({
      companyId,
      areaId: fl.id,
      name: spec.roomName(b, f, k + 1),
      decoration: Math.floor(next() * 4),
      orientation: Math.floor(next() * 9),
      chargingTypeId: types[k % 4 === 3 && types.length > 1 ? 1 : 0].id,
      sizeM2: (30 + Math.floor(next() * 9000) / 100).toFixed(2),
      path: `${spec.park}/${spec.blocks[b]}/${fl.name}/${spec.roomName(b, f, k + 1)}`,
    }));
  });
  const inserted = await tx
    .insert(rooms)
    .values(roomRows.map(({ path: _p, ...v }) => v))
    .returning({ id: rooms.id, areaId: rooms.areaId });

  // about one room in twelve is vacant; half of those had a tenant who moved out
  const ownerRows: (typeof owners.$inferInsert)[] = [];
  const moves: { owner: number; room: number; in: Date; out?: Date }[] = [];
  inserted.forEach((room, k) => {
    const vacant = next() < 1 / 12;
    if (vacant && next() < 0.5) return;
    const i = spec.ownerOffset + ownerRows.length;
    const id = idNumber(i, next);
    const movedIn = new Date(EPOCH - Math.floor(next() * 900 + 30) * DAY);
    const movedOut = vacant ? new Date(movedIn.getTime() + Math.floor(next() * 20 + 5) * DAY) : undefined;
    moves.push({ owner: ownerRows.length, room: k, in: movedIn, out: movedOut });
    ownerRows.push({
      companyId,
      roomId: vacant ? null : room.id,
      status: vacant ? 0 : 1,
      movedInAt: vacant ? null : movedIn,
      name: ownerName(i),
      phone: ownerPhone(i),
      idNumber: next() < 0.8 ? id : '',
      gender: Number(id[16]) % 2 === 1 ? 1 : 2,
      createdAt: movedIn,
    });
  });
  const ownerIds = await tx.insert(owners).values(ownerRows).returning({ id: owners.id });

  const history: (typeof ownerRoomHistory.$inferInsert)[] = [];
  for (const m of moves) {
    const o = ownerRows[m.owner];
    const base = {
      companyId,
      ownerId: ownerIds[m.owner].id,
      roomId: inserted[m.room].id,
      areaId: inserted[m.room].areaId,
      ownerName: o.name,
      ownerPhone: o.phone ?? '',
      roomName: roomRows[m.room].path,
      operatorName: '演示数据',
    };
    history.push({ ...base, action: 1, at: m.in, memo: '办理入住' });
    if (m.out) history.push({ ...base, action: 2, at: m.out, memo: '租约到期退房' });
  }
  if (history.length) await tx.insert(ownerRoomHistory).values(history);
  return { rooms: inserted.length, owners: ownerRows.length };
}

/** The demo company's park: 3 buildings × 6 floors × 22 rooms. */
export const DEMO_PARK: ParkSpec = {
  park: '阳光园区',
  blocks: ['1号楼', '2号楼', '3号楼'],
  floors: 6,
  perFloor: 22,
  roomName: (b, f, k) => `${b + 1}-${f}${String(k).padStart(2, '0')}`,
  chargingTypes: [['住宅用电', 1], ['商铺用电', 1], ['住宅用水', 2], ['物业管理费', 3], ['公摊电费', 4]],
  address: { province: '广东省', city: '深圳市', district: '南山区' },
  ownerOffset: 0,
  seed: 20250101,
};

interface OtherCompany {
  name: string;
  classify: string;
  edition: number;
  bankType: number;
  contact: string;
  phone: string;
  address: string;
  admin: { username: string; password: string; realName: string };
  park: ParkSpec;
}

/** Two more companies, each with its own admin, tree, rooms and owners (a market and an industrial park). */
export const OTHER_COMPANIES: OtherCompany[] = [
  {
    name: '鑫达农贸市场管理有限公司',
    classify: '市场运营',
    edition: 1,
    bankType: 1,
    contact: '陈主任',
    phone: '0755-27781234',
    address: '广东省深圳市宝安区西乡街道鑫达农贸市场',
    admin: { username: 'market', password: 'market123', realName: '市场管理员' },
    park: {
      park: '鑫达农贸市场',
      blocks: ['A区', 'B区'],
      floors: 2,
      perFloor: 35,
      roomName: (b, f, k) => `${'AB'[b]}${f}-${String(k).padStart(2, '0')}`,
      chargingTypes: [['摊位用电', 1], ['冷库用电', 1], ['摊位用水', 2], ['市场管理费', 3]],
      address: { province: '广东省', city: '深圳市', district: '宝安区' },
      ownerOffset: 10_000,
      seed: 20250202,
    },
  },
  {
    name: '恒通工业园区运营有限公司',
    classify: '工业园区',
    edition: 0,
    bankType: 2,
    contact: '刘经理',
    phone: '0769-22881234',
    address: '广东省东莞市松山湖高新区恒通工业园',
    admin: { username: 'industry', password: 'industry123', realName: '园区管理员' },
    park: {
      park: '恒通工业园',
      blocks: ['1栋厂房', '2栋厂房'],
      floors: 4,
      perFloor: 12,
      roomName: (b, f, k) => `${b + 1}栋${f}${String(k).padStart(2, '0')}`,
      chargingTypes: [['工业用电', 1], ['办公用电', 1], ['工业用水', 2]],
      address: { province: '广东省', city: '东莞市', district: '松山湖' },
      ownerOffset: 20_000,
      seed: 20250303,
    },
  },
];

const companyRouteKeys = () => ROUTES.filter((r) => r.access === undefined).map((r) => r.key);

/** Creates the other demo companies with an admin role and account each, then their parks; gives their ids by admin username. */
export async function seedOtherCompanies(tx: Tx, classifyIds: Record<string, number>): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const hashes = await Promise.all(OTHER_COMPANIES.map((c) => hashPassword(c.admin.password)));
  for (const [n, c] of OTHER_COMPANIES.entries()) {
    const [company] = await tx
      .insert(companies)
      .values({ name: c.name, classifyId: classifyIds[c.classify], contact: c.contact, phone: c.phone, address: c.address, bankType: c.bankType, edition: c.edition, valveControlPwd: '123456' })
      .returning({ id: companies.id });
    const [role] = await tx
      .insert(roles)
      .values({ companyId: company.id, name: '管理员', memo: '单位管理员（内置）', access: 1, builtin: true, routes: companyRouteKeys(), operations: [...OPERATION_KEYS] })
      .returning({ id: roles.id });
    await tx.insert(adminUsers).values({ username: c.admin.username, realName: c.admin.realName, companyId: company.id, roleId: role.id, passwordHash: hashes[n], access: 1 });
    await seedPark(tx, company.id, c.park);
    ids[c.admin.username] = company.id;
  }
  return ids;
}
