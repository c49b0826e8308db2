/**
 * Consumption profiles (how much a meter uses in each hour of the day) and the default
 * time-of-use table (尖峰平谷 periods) that electric meters accumulate their rate registers by.
 */
import type { MeterKind } from './types.ts';

/** Built-in hourly curves. */
export type ProfileName = 'residential' | 'commercial' | 'constant';

/** A custom curve: 24 relative weights (hour 0 … 23, China time) and the usage of an average day. */
export interface CustomProfile {
  weights: readonly number[];
  /** kWh (electric) or m³ (water) per day. */
  dailyUsage: number;
}

export type ProfileSpec = ProfileName | CustomProfile;

/**
 * Relative hourly weights. Residential: low at night, a morning peak around 07–08 and a larger
 * evening peak 18–22. Commercial (shops, offices): mostly 08–18. Constant: flat.
 */
export const PROFILE_WEIGHTS: Readonly<Record<ProfileName, readonly number[]>> = Object.freeze({
  residential: Object.freeze([
    0.35, 0.3, 0.28, 0.27, 0.27, 0.3, 0.55, 1.0, 1.1, 0.7, 0.6, 0.65, 0.8, 0.7, 0.6, 0.6, 0.7, 1.0, 1.5, 1.8, 1.9, 1.7, 1.2,
    0.65,
  ]),
  commercial: Object.freeze([
    0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.2, 0.4, 1.0, 1.6, 1.6, 1.6, 1.4, 1.6, 1.6, 1.6, 1.6, 1.4, 0.9, 0.5, 0.3, 0.2, 0.15,
    0.15,
  ]),
  constant: Object.freeze(Array.from({ length: 24 }, () => 1)),
});

/** Usage of an average day per built-in profile and meter kind (kWh or m³). */
export const DEFAULT_DAILY_USAGE: Readonly<Record<ProfileName, Readonly<Record<MeterKind, number>>>> = Object.freeze({
  residential: Object.freeze({ electric: 8, water: 0.35 }),
  commercial: Object.freeze({ electric: 40, water: 2 }),
  constant: Object.freeze({ electric: 10, water: 0.5 }),
});

/** A profile resolved to absolute usage per hour of day (sums to the daily usage). */
export interface ResolvedProfile {
  /** Usage (kWh or m³) in each hour of day 0…23 for an average day. */
  hourly: readonly number[];
  dailyUsage: number;
}

const resolvedCache = new Map<string, ResolvedProfile>();

/**
 * Resolve a profile spec for a meter kind; `dailyUsage` overrides the profile's daily usage.
 * Results for named profiles are shared (frozen), so 10 000 meters cost one table per profile.
 */
export function resolveProfile(spec: ProfileSpec | undefined, kind: MeterKind, dailyUsage?: number): ResolvedProfile {
  const s = spec ?? 'residential';
  if (typeof s === 'string') {
    const key = `${s}|${kind}|${dailyUsage ?? ''}`;
    let hit = resolvedCache.get(key);
    if (!hit) {
      hit = Object.freeze(computeProfile(s, kind, dailyUsage));
      if (resolvedCache.size < 1024) resolvedCache.set(key, hit);
    }
    return hit;
  }
  return computeProfile(s, kind, dailyUsage);
}

function computeProfile(s: ProfileSpec, kind: MeterKind, dailyUsage?: number): ResolvedProfile {
  let weights: readonly number[];
  let daily: number;
  if (typeof s === 'string') {
    const w = PROFILE_WEIGHTS[s];
    if (!w) throw new RangeError(`unknown profile ${JSON.stringify(s)}; known: ${Object.keys(PROFILE_WEIGHTS).join(', ')}`);
    weights = w;
    daily = DEFAULT_DAILY_USAGE[s][kind];
  } else {
    if (!Array.isArray(s.weights) || s.weights.length !== 24 || s.weights.some((w) => !(Number.isFinite(w) && w >= 0))) {
      throw new RangeError('a custom profile needs 24 non-negative weights');
    }
    weights = s.weights;
    daily = s.dailyUsage;
  }
  if (dailyUsage !== undefined) daily = dailyUsage;
  if (!(Number.isFinite(daily) && daily >= 0)) throw new RangeError(`daily usage must be ≥ 0, got ${daily}`);
  const sum = weights.reduce((a, b) => a + b, 0);
  const hourly = weights.map((w) => (sum > 0 ? (daily * w) / sum : 0));
  return { hourly: Object.freeze(hourly), dailyUsage: daily };
}

/** 尖 / 峰 / 平 / 谷. */
export type TouPeriod = 'sharp' | 'peak' | 'flat' | 'valley';

export const TOU_PERIODS: readonly TouPeriod[] = Object.freeze(['sharp', 'peak', 'flat', 'valley']);

/** Chinese names of the periods, for log lines and docs. */
export const TOU_LABEL: Readonly<Record<TouPeriod, string>> = Object.freeze({ sharp: '尖', peak: '峰', flat: '平', valley: '谷' });

/** Period of each hour of day 0…23 (China time). */
export type TouTable = readonly TouPeriod[];

/**
 * Default 尖峰平谷 table, typical of east-China provincial tariffs:
 * 尖 19–21; 峰 08–11, 13–19, 21–22; 平 07–08, 11–13, 22–23; 谷 23–07.
 * (2 + 10 + 4 + 8 = 24 hours.)
 */
export const DEFAULT_TOU_TABLE: TouTable = Object.freeze(
  Array.from({ length: 24 }, (_, h): TouPeriod => {
    if (h >= 19 && h < 21) return 'sharp';
    if ((h >= 8 && h < 11) || (h >= 13 && h < 19) || h === 21) return 'peak';
    if (h === 7 || h === 11 || h === 12 || h === 22) return 'flat';
    return 'valley';
  }),
);

export function validateTouTable(table: TouTable): TouTable {
  if (!Array.isArray(table) || table.length !== 24 || table.some((p) => !TOU_PERIODS.includes(p))) {
    throw new RangeError('a TOU table needs 24 entries, each sharp | peak | flat | valley');
  }
  return table;
}
