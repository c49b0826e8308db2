// Can a reading be true? (issue 11 item 8). A reading whose consumption since the meter's last good
// reading is beyond what the meter can physically pass in that time, or a sudden large multiple of
// what it usually uses, is held for a person to accept or reject instead of being billed: a fault
// or a forged report must not settle ¥100,000 against an owner and lock the meter's billing.
// Pure functions: ingest supplies the meter's terms and its usual use.

/** device_lookups ids (migration 0006): phase 1 单相, 2 三相; calibers DN15 … DN50. */
const SINGLE_PHASE = 1;
/** Q4 (overload flow, m³/h) of ISO 4064 water meters by caliber lookup id (DN15 … DN50). */
const WATER_Q4: Record<number, number> = { 61: 3.125, 62: 5, 63: 7.875, 64: 12.5, 65: 20, 66: 31.25 };

export const PLAUSIBILITY = {
  /** single-phase meters: 60 A at 250 V, in kW (= kWh an hour) */
  singlePhaseKw: 15,
  /** three-phase or unknown: 3 × 100 A at 250 V */
  threePhaseKw: 75,
  /** water meter of unknown caliber: the largest one listed (DN50) */
  waterDefault: 31.25,
  /** over the rated maximum by this factor before a reading is held */
  margin: 1.5,
  /** the shortest time the rated maximum is counted over (register rounding, clock steps) */
  minHours: 0.25,
  /** the usual-use rule looks only at consumption of at least this many units … */
  usualMin: 100,
  /** … more than this multiple of the usual use … */
  usualFactor: 20,
  /** … counted over at least a day */
  usualMinHours: 24,
} as const;

export interface PlausibilityTerms {
  kind: number;
  phaseId: number | null;
  caliberId: number | null;
}

/** The most a meter can measure in an hour (kWh or m³), by its kind, phase and caliber. */
export function ratedPerHour(t: PlausibilityTerms): number {
  if (t.kind === 2) return (t.caliberId != null && WATER_Q4[t.caliberId]) || PLAUSIBILITY.waterDefault;
  return t.phaseId === SINGLE_PHASE ? PLAUSIBILITY.singlePhaseKw : PLAUSIBILITY.threePhaseKw;
}

export interface Implausible {
  reason: string;
  /** the most the rule allows for this interval, in units */
  limit: number;
}

/**
 * Why a consumption of `used` units over `elapsedMs` cannot be true, or null. `usualPerHour` is the
 * meter's usual use (units an hour over its recent history), null when it has too little history.
 */
export function implausible(used: number, elapsedMs: number, rated: number, usualPerHour: number | null): Implausible | null {
  if (!(used > 0)) return null;
  const hours = Math.max(0, elapsedMs) / 3600_000;
  const ratedLimit = rated * Math.max(hours, PLAUSIBILITY.minHours) * PLAUSIBILITY.margin;
  if (used > ratedLimit) {
    return { reason: `用量超过表具额定最大值（${round(rated)}/小时）在该时段内可能的用量`, limit: round(ratedLimit) };
  }
  if (usualPerHour !== null && used >= PLAUSIBILITY.usualMin) {
    const usualLimit = Math.max(PLAUSIBILITY.usualMin, usualPerHour * Math.max(hours, PLAUSIBILITY.usualMinHours) * PLAUSIBILITY.usualFactor);
    if (used > usualLimit) return { reason: `用量超过该表平时用量的 ${PLAUSIBILITY.usualFactor} 倍`, limit: round(usualLimit) };
  }
  return null;
}

/** Whether a consumption is large enough for the usual-use rule to need the meter's history. */
export const needsUsualUse = (used: number) => used >= PLAUSIBILITY.usualMin;

const round = (v: number) => Math.round(v * 100) / 100;
