import { describe, expect, it } from 'vitest';
import { formSchema } from '../resource.ts';
import { ELECTRIC_PLANS, WATER_PLANS, COLLECTOR_PLANS } from '../plans.ts';
import { DEVICE_PLAN_OPTIONS, companyResource, planAllowed } from './company.ts';
import { areaPermissionResource, areaResource, PROVINCES } from './area.ts';

describe('device-plan permissions', () => {
  it('are checked only while deviceCheck is on', () => {
    const p = { deviceCheck: false, collectorPlans: [], electricPlans: [3], waterPlans: [] };
    expect(planAllowed(p, 'electric', 7)).toBe(true);
    expect(planAllowed({ ...p, deviceCheck: true }, 'electric', 7)).toBe(false);
    expect(planAllowed({ ...p, deviceCheck: true }, 'electric', 3)).toBe(true);
    expect(planAllowed({ ...p, deviceCheck: true }, 'water', 3)).toBe(false);
  });
  it('the dialog offers every plan code of SPEC §3 exactly once per kind', () => {
    const e = DEVICE_PLAN_OPTIONS.electric.flatMap((g) => g.options.map((o) => o.value));
    const w = DEVICE_PLAN_OPTIONS.water.flatMap((g) => g.options.map((o) => o.value));
    expect([...e].sort((a, b) => a - b)).toEqual([...ELECTRIC_PLANS].sort((a, b) => a - b));
    expect([...w].sort((a, b) => a - b)).toEqual([...WATER_PLANS].sort((a, b) => a - b));
    expect(DEVICE_PLAN_OPTIONS.collector.map((o) => o.value)).toEqual(Object.keys(COLLECTOR_PLANS).map(Number));
  });
});

describe('company, area and area-permission forms', () => {
  it('company: codes from their lists, prices as whole 分, no spaces in the valve password', () => {
    const s = formSchema(companyResource);
    const ok = s.parse({ name: ' 甲单位 ', bankType: '1', edition: 0, smsPriceFen: '8', valveControlPwd: 'abc123' });
    expect(ok).toMatchObject({ name: '甲单位', bankType: 1, edition: 0, smsPriceFen: 8, phonePriceFen: 20, deviceCheck: false, classifyId: null });
    const bad = s.safeParse({ name: '甲', bankType: 3, edition: 0, smsPriceFen: 1.5, valveControlPwd: 'a b' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual(['bankType', 'smsPriceFen', 'valveControlPwd']);
  });
  it('area: blank address levels and no parent are allowed; areaType is 0 or 1', () => {
    const s = formSchema(areaResource);
    expect(s.parse({ name: '园区' })).toMatchObject({ name: '园区', parentId: null, areaType: 0, province: '', sort: 0 });
    expect(s.safeParse({ name: '园区', areaType: 2 }).success).toBe(false);
    expect(PROVINCES).toHaveLength(34);
  });
  it('area permission: areas are required', () => {
    const s = formSchema(areaPermissionResource);
    expect(s.safeParse({ name: '组' }).success).toBe(false);
    expect(s.parse({ name: '组', areaIds: [1, '2'] })).toMatchObject({ areaIds: [1, '2'], status: 1 });
  });
});
