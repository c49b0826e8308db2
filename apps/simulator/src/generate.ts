// Generated fleets (CLI, demos, load tests): a deterministic fleet definition of a given size.
import { Rng, mix } from './random.ts';
import type { CollectorDefinition, FleetDefinition, MeterDefinition } from './types.ts';

export interface GenerateFleetOptions {
  /** Number of collectors. */
  collectors: number;
  /** Meters spread evenly over the collectors. */
  meters: number;
  /** NB meters (MQTT). Default 0. */
  nb?: number;
  /** 4G meters: each its own TCP connection (a collector with one meter). Default 0. */
  fourG?: number;
  /** Share of water meters, 0–1. Default 0.3. */
  waterShare?: number;
  /** Share of commercial (daytime) profiles, 0–1; the rest are residential. Default 0.2. */
  commercialShare?: number;
  seed?: number;
  /**
   * Leading digits that make this fleet's IMEIs and addresses unique (default: derived from the
   * seed, 3 digits). Electric addresses are `1<block><index>` (12 digits), water addresses
   * `2<block><index>` (14), IMEIs `86<block><index>` (15).
   */
  block?: string;
}

/** Deterministic fleet definition of the given size. */
export function generateFleet(options: GenerateFleetOptions): FleetDefinition {
  const seed = (options.seed ?? 1) >>> 0;
  const rng = new Rng(mix(seed, 0x9e4e));
  const block = options.block ?? String(seed % 1000).padStart(3, '0');
  if (!/^\d{1,6}$/.test(block)) throw new RangeError('block must be 1–6 digits');
  const nCollectors = options.collectors;
  const nMeters = options.meters;
  const nNb = options.nb ?? 0;
  const nFourG = options.fourG ?? 0;
  for (const [k, v] of Object.entries({ collectors: nCollectors, meters: nMeters, nb: nNb, fourG: nFourG })) {
    if (!(Number.isInteger(v) && v >= 0)) throw new RangeError(`${k} must be a non-negative integer`);
  }
  if (nMeters > 0 && nCollectors === 0) throw new RangeError('meters need at least one collector');
  const waterShare = options.waterShare ?? 0.3;
  const commercialShare = options.commercialShare ?? 0.2;
  let electricIndex = 0;
  let waterIndex = 0;
  let imeiIndex = 0;
  const pad = (prefix: string, index: number, digits: number) => {
    const rest = digits - prefix.length;
    if (String(index).length > rest) throw new RangeError(`too many devices for ${digits}-digit numbers with prefix ${prefix}`);
    return prefix + String(index).padStart(rest, '0');
  };
  const nextImei = () => pad(`86${block}`, ++imeiIndex, 15);
  const meter = (kind?: 'electric' | 'water'): MeterDefinition => {
    const k = kind ?? (rng.next() < waterShare ? 'water' : 'electric');
    const profile = rng.next() < commercialShare ? 'commercial' : 'residential';
    if (k === 'electric') {
      return {
        address: pad(`1${block}`, ++electricIndex, 12),
        kind: 'electric',
        protocol: 'dlt645',
        initialTotal: Math.round(rng.next() * 300_000) / 100,
        profile,
      };
    }
    return {
      address: pad(`2${block}`, ++waterIndex, 14),
      kind: 'water',
      protocol: 'cjt188',
      initialTotal: Math.round(rng.next() * 30_000) / 100,
      profile,
    };
  };
  const collectors: CollectorDefinition[] = [];
  for (let i = 0; i < nCollectors; i++) {
    const count = Math.floor(nMeters / nCollectors) + (i < nMeters % nCollectors ? 1 : 0);
    collectors.push({ imei: nextImei(), name: `DTU-${i + 1}`, meters: Array.from({ length: count }, () => meter()) });
  }
  for (let i = 0; i < nFourG; i++) {
    const imei = nextImei();
    collectors.push({ imei, name: `4G-${i + 1}`, meters: [{ ...meter('electric'), imei }] });
  }
  const nbMeters = Array.from({ length: nNb }, () => ({ ...meter(), imei: nextImei() }));
  return { collectors, nbMeters };
}
