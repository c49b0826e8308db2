import { and, count, eq, isNotNull } from 'drizzle-orm';
import { OPERATION_KEYS, ROUTES } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { adminUsers, collectors, companies, companyClassifies, meters, owners, roles } from '../db/schema/index.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { seedSchemes } from '../modules/scheme/index.ts';
import { FLEETS, seedDevices } from '../modules/device/index.ts';
import { seedBilling } from '../modules/billing/index.ts';
import { seedCompanyArchive } from '../modules/company/index.ts';
import { DEMO_PARK, seedOtherCompanies, seedPark } from '../modules/room/index.ts';
import { seedContent, seedNotices } from '../modules/content/index.ts';
import { raiseWarnings } from '../modules/control/index.ts';
import { seedBankDemo } from '../modules/bank/index.ts';
import { seedPayAppDemo } from '../modules/payapp/index.ts';

// Demo data for a fresh start (DESIGN §2). Runs once: only when there is no company yet.

export const DEMO_LOGINS = [
  { username: 'admin', password: 'admin123', label: '平台管理员' },
  { username: 'demo', password: 'demo123', label: '演示单位管理员' },
  { username: 'reader', password: 'reader123', label: '演示抄表员（受限角色）' },
  { username: 'market', password: 'market123', label: '农贸市场单位管理员' },
  { username: 'industry', password: 'industry123', label: '工业园区单位管理员' },
];

/** 业主端 (/h5): the demo owner signs in with their room number (房间编号, printed at start) and this password, or by phone + SMS code */
export const DEMO_OWNER = { password: 'owner123', phone: '13900000001', label: '演示业主（业主端 /h5）' };

/** The demo owner's room and phone, for the start-up banner (null when the demo was not seeded). */
export async function demoOwnerLogin(db: Db): Promise<{ roomId: number; phone: string } | null> {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const [o] = await tx.select({ roomId: owners.roomId, phone: owners.phone }).from(owners)
      .where(and(eq(owners.phone, DEMO_OWNER.phone), eq(owners.status, 1))).orderBy(owners.id).limit(1);
    return o?.roomId ? { roomId: o.roomId, phone: o.phone } : null;
  });
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '华', '平', '刚'];

/** A deterministic pseudo-random sequence, so every fresh demo looks the same. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function demoName(i: number) {
  return SURNAMES[i % SURNAMES.length] + GIVEN[Math.floor(i / SURNAMES.length) % GIVEN.length];
}

export function demoPhone(i: number) {
  return `13${String(800000000 + i * 7919).slice(-9)}`;
}

export const companyRoutes = () => ROUTES.filter((r) => r.access === undefined).map((r) => r.key);

/** Seeds the demo when the database has no company; true when it did. */
export async function seedDemoIfEmpty(db: Db, log: (m: string) => void = () => {}): Promise<boolean> {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const [c] = await tx.select({ n: count() }).from(companies);
    if (c.n > 0) return false;
    log('首次启动：写入演示数据');
    const classes = await tx
      .insert(companyClassifies)
      .values([{ name: '物业公司', sort: 1 }, { name: '市场运营', sort: 2 }, { name: '工业园区', sort: 3 }])
      .returning();
    const [demo] = await tx
      .insert(companies)
      .values({ name: '阳光物业演示公司', classifyId: classes[0].id, contact: '张经理', phone: '13800138000', address: '深圳市南山区科技园', bankType: 0, edition: 0, valveControlPwd: '123456' })
      .returning();
    const [adminRole] = await tx
      .insert(roles)
      .values({ companyId: demo.id, name: '管理员', memo: '单位管理员（内置）', access: 1, builtin: true, routes: companyRoutes(), operations: [...OPERATION_KEYS] })
      .returning();
    const [readerRole] = await tx
      .insert(roles)
      .values({
        companyId: demo.id,
        name: '抄表员',
        memo: '只能抄表与查看抄表记录',
        access: 1,
        routes: ['casualCopy', 'peopleCasualCopy', 'notesCopy', 'copyLog'],
        operations: ['device.readEnergy', 'device.manualRead'],
      })
      .returning();
    await tx.insert(adminUsers).values([
      { username: 'admin', realName: '平台管理员', passwordHash: await hashPassword('admin123'), access: 0, userType: 0 },
      { username: 'demo', realName: '演示管理员', companyId: demo.id, roleId: adminRole.id, passwordHash: await hashPassword('demo123'), access: 1 },
      { username: 'reader', realName: '抄表员小李', companyId: demo.id, roleId: readerRole.id, passwordHash: await hashPassword('reader123'), access: 1 },
    ]);
    // ---- archive (modules/room/seed.ts): area tree, charging types, rooms, owners, move-in history; two more companies ----
    await seedPark(tx, demo.id, DEMO_PARK);
    const others = await seedOtherCompanies(tx, Object.fromEntries(classes.map((c) => [c.name, c.id])));
    // ---- company archive (modules/company/seed.ts): device permissions, receipt, valve password, area-permission sets ----
    await seedCompanyArchive(tx, demo.id);
    // ---- schemes (modules/scheme/seed.ts): charging schemes, charge codes, alarm schemes of every demo company ----
    for (const c of await tx.select({ id: companies.id }).from(companies).orderBy(companies.id)) await seedSchemes(tx, c.id);
    // ---- devices (modules/device/seed.ts): collectors and meters over the rooms above; keep last ----
    // ---- billing (modules/billing/seed.ts): schemes on the meters, owners' opening balances (journal rows of kind 'opening') ----
    // the market and the industrial park get their own smaller fleets: a new user opening them finds meters too
    for (const [companyId, fleet] of [[demo.id, FLEETS.park], [others.market, FLEETS.market], [others.industry, FLEETS.industry]] as const) {
      if (companyId == null) continue;
      await seedDevices(tx, companyId, fleet);
      await seedBilling(tx, companyId);
    }
    // ---- 增值服务 (modules/content/seed.ts): notice/appeal/work-order types, appeals in every state ----
    await seedContent(tx, demo.id);
    await seedNotices(tx, demo.id);
    // ---- 业主端 (modules/ownerapp): the demo company's first owner gets the demo owner's password and phone ----
    const [first] = await tx.select({ id: owners.id }).from(owners)
      .where(and(eq(owners.companyId, demo.id), eq(owners.status, 1), isNotNull(owners.roomId))).orderBy(owners.id).limit(1);
    if (first) await tx.update(owners).set({ passwordHash: await hashPassword(DEMO_OWNER.password), phone: DEMO_OWNER.phone }).where(eq(owners.id, first.id));
    // ---- device faults: warnings that open 设备工单 (control → content); the demo fleet's reconnecting collector closes its own ----
    const [collector] = await tx.select({ id: collectors.id, areaId: collectors.areaId }).from(collectors).where(eq(collectors.companyId, demo.id)).orderBy(collectors.id).limit(1);
    const faulty = await tx.select({ id: meters.id, areaId: meters.areaId }).from(meters).where(eq(meters.companyId, demo.id)).orderBy(meters.id).limit(2);
    await raiseWarnings(tx, [
      ...(collector ? [{ companyId: demo.id, meterId: null, collectorId: collector.id, areaId: collector.areaId, kind: 'offline', detail: { lastSeenAt: null } }] : []),
      ...faulty.map((m, i) => ({
        companyId: demo.id, meterId: m.id, collectorId: null, areaId: m.areaId, kind: i === 0 ? 'backwards' : 'valve_mismatch',
        detail: i === 0 ? { reason: '读数小于上次读数', total: '1180.20', lastTotal: '1186.75' } : { expected: 1, actual: 0 },
      })),
    ]);
    // ---- the water pages' and 倍率异常's warnings too (the demo fleet raises its own; a demo without it, e2e, shows these) ----
    const [water] = await tx.select({ id: meters.id, areaId: meters.areaId }).from(meters).where(and(eq(meters.companyId, demo.id), eq(meters.kind, 2))).orderBy(meters.id).limit(1);
    const [rated] = await tx.select({ id: meters.id, areaId: meters.areaId }).from(meters).where(and(eq(meters.companyId, demo.id), eq(meters.kind, 1))).orderBy(meters.id).offset(2).limit(1);
    await raiseWarnings(tx, [
      ...(water ? [{ companyId: demo.id, meterId: water.id, collectorId: null, areaId: water.areaId, kind: 'valve_mismatch', detail: { expected: 0, actual: 1 } }] : []),
      ...(rated ? [{ companyId: demo.id, meterId: rated.id, collectorId: null, areaId: rated.areaId, kind: 'rate_error', detail: { expected: 1, actual: 80 } }] : []),
    ]);
    // ---- 汇付 (modules/payapp/seed.ts): an opened collecting account with receipts and withdrawals, an application waiting ----
    await seedPayAppDemo(tx, demo.id);
    // ---- bank sub-merchants (modules/bank/seed.ts): an opened sub-merchant, an application, the bank log ----
    await seedBankDemo(tx, demo.id);
    return true;
  });
}
