/**
 * Simulated meters: the state of one electricity meter (DL/T 645-2007) or water meter
 * (CJ/T 188-2004) and how it answers the frames addressed to it. No I/O here — a collector or an
 * NB connection feeds decoded frames in and writes the replies out, so everything in this file is
 * unit-testable against a {@link ManualClock}.
 */
import type { MeterDefinition } from './types.ts';
import type { MeterEnvironment } from './meter-base.ts';
import { ElectricMeter } from './electric-meter.ts';
import { WaterMeter } from './water-meter.ts';

// The parts: meter-base.ts (what every meter shares), electric-meter.ts, water-meter.ts.
export * from './meter-base.ts';
export * from './electric-meter.ts';
export * from './water-meter.ts';

// ---------------------------------------------------------------------------------------------
// Factory
// ---------------------------------------------------------------------------------------------

/** Build the right meter class for a definition. */
export function createMeter(def: MeterDefinition, env: MeterEnvironment): ElectricMeter | WaterMeter {
  if (def.kind === 'electric') return new ElectricMeter(def, env);
  if (def.kind === 'water') return new WaterMeter(def, env);
  throw new RangeError(`meter kind must be 'electric' or 'water', got ${JSON.stringify((def as { kind?: unknown }).kind)}`);
}

export type AnyMeter = ElectricMeter | WaterMeter;
