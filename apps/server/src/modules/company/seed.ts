import { and, eq, isNull } from 'drizzle-orm';
import { ALL_COLLECTOR_PLANS, ALL_ELECTRIC_PLANS, ALL_WATER_PLANS } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { areaPermissions, areas, companies } from '../../db/schema/index.ts';
import { hashPassword } from '../auth/index.ts';

// Demo data of the company archive (issue 3): the demo company's device permissions, receipt and SMS
// prices, valve password, and its area-permission sets. Called from demo/seed.ts once the area tree exists.

/** Plans the demo company may not use, so the device-permission check shows in the device forms. */
const DEMO_DENIED = { electric: [145, 146, 147, 148, 149, 150], water: [158] };

export async function seedCompanyArchive(tx: Tx, companyId: number) {
  await tx
    .update(companies)
    .set({
      contact: '张经理',
      phone: '0755-86001234',
      address: '广东省深圳市南山区科技园科苑路 8 号',
      bankType: 0,
      smsPriceFen: 8,
      phonePriceFen: 15,
      // 充值档位: 50, 100, 200, 500 元
      payGears: [5000, 10000, 20000, 50000],
      valveControlPwd: await hashPassword('123456'),
      deviceCheck: true,
      collectorPlans: [...ALL_COLLECTOR_PLANS],
      electricPlans: ALL_ELECTRIC_PLANS.filter((p) => !DEMO_DENIED.electric.includes(p)).sort((a, b) => a - b),
      waterPlans: [...new Set(ALL_WATER_PLANS.filter((p) => !DEMO_DENIED.water.includes(p)))].sort((a, b) => a - b),
    })
    .where(eq(companies.id, companyId));

  const [park] = await tx.select().from(areas).where(and(eq(areas.companyId, companyId), isNull(areas.parentId))).limit(1);
  if (!park) return;
  await tx.update(areas).set({ province: '广东省', city: '深圳市', district: '南山区', town: '粤海街道' }).where(eq(areas.id, park.id));
  const buildings = await tx.select().from(areas).where(eq(areas.parentId, park.id)).orderBy(areas.sort, areas.id);
  await tx.insert(areaPermissions).values([
    { companyId, name: '全园区', areaIds: [park.id], memo: `${park.name}及以下全部区域` },
    ...buildings.map((b) => ({ companyId, name: `${b.name}管理`, areaIds: [b.id], memo: `只能查看${park.name}${b.name}` })),
    { companyId, name: '旧权限（停用）', areaIds: buildings.slice(0, 1).map((b) => b.id), status: 0, memo: '已停用的示例' },
  ]);
}
