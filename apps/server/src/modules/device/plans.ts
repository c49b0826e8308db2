import { COLLECTOR_PLANS, ELECTRIC_PLANS, METER_KIND, METER_KINDS, WATER_PLANS, meterPlanLabel, planAllowed, type DevicePermiss } from '@meter/contracts';

// A meter's plan (SPEC §3 values for its kind) and a company's device-plan permissions (SPEC §5/§6) as
// the refusal the user reads: the device forms and the .xlsx import say the same.

/** Why this is not one of SPEC §3's plans for a meter of this kind; null when it is. */
export function meterPlanInvalid(kind: number, plan: number): string | null {
  const plans = kind === METER_KIND.water ? WATER_PLANS : ELECTRIC_PLANS;
  return plans.includes(plan) ? null : `「${plan}」不是有效的${METER_KINDS[kind]}方案`;
}

/** Why the company may not use this collector plan; null when it may. */
export function collectorPlanRefusal(p: DevicePermiss, plan: number): string | null {
  if (planAllowed(p, 'collector', plan)) return null;
  return `本单位未开通「${COLLECTOR_PLANS[plan] ?? plan}」采集器方案，请联系平台管理员开通设备权限`;
}

/** Why the company may not use this plan for a meter of this kind; null when it may. */
export function meterPlanRefusal(p: DevicePermiss, kind: number, plan: number): string | null {
  if (planAllowed(p, kind === METER_KIND.water ? 'water' : 'electric', plan)) return null;
  return `本单位未开通${METER_KINDS[kind]}方案「${meterPlanLabel(kind, plan)}」，请联系平台管理员开通设备权限`;
}
