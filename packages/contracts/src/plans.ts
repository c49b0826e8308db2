// Device plan codes of SPEC §3 and the energy/water meter-type codes of SPEC §9.

export const COLLECTOR_PLANS: Record<number, string> = { 0: '4G', 1: 'Lora', 4: '多用户', 5: '新4G', 6: 'k3多用户' };

export const ELECTRIC_PLAN_KINDS: Record<string, number[]> = {
  average: [0, 6, 10, 100, 106, 122, 145, 146, 147, 148, 149],
  lora: [1],
  nb: [3, 7, 9, 12, 13, 107, 152, 153, 154, 190, 191],
  multiUser: [4, 144],
  zdc: [150],
};

export const WATER_PLAN_KINDS: Record<string, number[]> = {
  average: [100],
  fourgaverage: [141],
  nb: [151, 5, 3, 11, 158],
  lora: [1],
};

export const ELECTRIC_PLANS: number[] = Object.values(ELECTRIC_PLAN_KINDS).flat();
export const WATER_PLANS: number[] = Object.values(WATER_PLAN_KINDS).flat();

export const ENERGY_METER_TYPES = [3, 7, 107, 9, 12, 13, 152, 153, 190, 191, 154];
export const WATER_METER_TYPES = [3, 5, 11, 151, 158];

/** 0 农业银行, 1 中国银行, 2 regional bank (SPEC §1). */
export const BANK_NAMES: Record<number, string> = { 0: '中国农业银行', 1: '中国银行', 2: '地方商业银行' };
