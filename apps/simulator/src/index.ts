/**
 * @meter/simulator — virtual collectors and meters that talk to the gateway over real TCP/MQTT
 * (docs/DEVICE-WIRE.md), for the demo mode, tests and benchmarks.
 *
 * ```ts
 * import { createFleet, generateFleet } from '@meter/simulator';
 * const fleet = createFleet({ ...generateFleet({ collectors: 2, meters: 20 }), gateway: { host: '127.0.0.1', port: 9300 } });
 * fleet.start();
 * await fleet.whenOnline();
 * fleet.meter('100010000001')?.setFault('stuckValve', true);
 * await fleet.stop();
 * ```
 */
export {
  createFleet,
  generateFleet,
  formatStatus,
  Fleet,
  type FleetOptions,
  type FleetEvent,
  type FleetEvents,
  type FleetStatus,
  type GenerateFleetOptions,
  type ReportPump,
  type ReportPumpOptions,
  type ReportResult,
} from './fleet.ts';
export {
  SimMeter,
  ElectricMeter,
  WaterMeter,
  createMeter,
  decodeFrame,
  addressMatches,
  registerValue,
  DLT645_BLOCK_DI,
  CJT188_WRITE_TIME_DI,
  CJT188_WRITE_SETTLE_DAY_DI,
  DLT645_PARAM_REGISTERS,
  DEFAULT_REVERSED_AMOUNT,
  type AnyMeter,
  type DecodedFrame,
  type MeterEnvironment,
  type MeterEvent,
  type MeterReply,
  type MeterSnapshot,
} from './meter.ts';
export {
  SimCollector,
  ConnectGate,
  DEFAULT_GARBAGE_BYTES,
  type CollectorEnvironment,
  type CollectorEvent,
  type CollectorState,
  type CollectorStats,
} from './collector.ts';
export { SimNbMeter, nbTopics, type NbEnvironment, type NbEvent, type NbState, type NbStats } from './nb.ts';
export {
  loadDefinition,
  loadGenerator,
  spawnLoadGenerator,
  type ConnectResult,
  type LoadDefinitionOptions,
  type LoadGenerator,
  type LoadGeneratorOptions,
  type LoadRunner,
  type LoadStats,
  type LoadMeterState,
  type SpawnedLoadGenerator,
} from './load.ts';
export {
  ManualClock,
  ScaledClock,
  chinaHourOfDay,
  chinaHourIndex,
  HOUR_MS,
  DAY_MS,
  CHINA_OFFSET_MS,
  type SimClock,
} from './clock.ts';
export {
  DEFAULT_TOU_TABLE,
  DEFAULT_DAILY_USAGE,
  PROFILE_WEIGHTS,
  TOU_PERIODS,
  TOU_LABEL,
  resolveProfile,
  type CustomProfile,
  type ProfileName,
  type ProfileSpec,
  type ResolvedProfile,
  type TouPeriod,
  type TouTable,
} from './profiles.ts';
export { Rng, hashString, mix, unitNoise } from './random.ts';
export { checkFaultPlan, faultOffValue, runFaultPlan, type FaultTarget } from './faults.ts';
export type * from './types.ts';
