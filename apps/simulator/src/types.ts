/**
 * Public data types of the simulator: the fleet definition (plain JSON-able data, so the server's
 * demo mode can build it from the database) and the fault switches.
 */
import type { ProfileSpec } from './profiles.ts';

/** 电表 / 水表. */
export type MeterKind = 'electric' | 'water';

/** Wire protocol: DL/T 645-2007 (electric) or CJ/T 188-2004 (water). */
export type MeterProtocol = 'dlt645' | 'cjt188';

/** One simulated meter. Only `address` and `kind` are required. */
export interface MeterDefinition {
  /** DL/T 645: 12 digits; CJ/T 188: 14 digits (human order, as printed on the meter). */
  address: string;
  kind: MeterKind;
  /** Defaults by kind: electric → `dlt645`, water → `cjt188`. */
  protocol?: MeterProtocol;
  /** Register value at the start (kWh or m³). Default 0. */
  initialTotal?: number;
  /** Hourly consumption curve. Default `residential`. */
  profile?: ProfileSpec;
  /** Override the profile's usage per average day (kWh or m³). */
  dailyUsage?: number;
  /** Relay closed (通电) / valve open at the start. Default true. */
  supplyOn?: boolean;
  /** Electric: the meter's local remaining money (元) at the start. Default 100. */
  balance?: number;
  /** Electric: price per kWh (元) the meter deducts its local remaining money by. Default 0.6. */
  unitPrice?: number;
  /** Electric: 1 (single-phase, default) or 3 (three-phase: answers B/C phase items too). */
  phases?: 1 | 3;
  /** 0xFE wake-up bytes in front of each reply. Default 4 (DL/T 645) / 2 (CJ/T 188). */
  preamble?: number;
  /** CJ/T 188 meter type byte T. Default 0x10 (冷水水表). */
  meterType?: number;
  /** CJ/T 188 ST layout: `standard` (default) or `msbFirst` (see `CJT188_PROFILES`). */
  statusProfile?: 'standard' | 'msbFirst';
  /**
   * DL/T 645 password (6 hex digits, P2P1P0 human order). When set, remote-control (0x1C) and
   * write (0x14) frames with another password are refused (abnormal reply, 密码错/未授权).
   * Default: any password accepted.
   */
  password?: string;
  /**
   * DL/T 645 参变量 at the start, by key (`alarm1Money`, `alarm2Money`, `overdraftLimit`,
   * `hoardLimit`, `closeAllowMoney` in 元; `ctRatio`, `ptRatio`; `meterNumber`, 12 digits).
   * Defaults: 20, 10, 0, 999999.99, 0, 1, 1 and the address.
   */
  params?: Partial<Record<string, number | string>>;
  /** CJ/T 188 结算日 (1..28): the settlement flow is taken at 00:00 on this day. Default 1. */
  settleDay?: number;
  /** IMEI of an NB/4G meter (informational; TCP 4G meters are collectors with one meter). */
  imei?: string;
}

/** A collector (4G DTU, LoRa gateway, concentrator) or a 4G meter: one TCP connection, one IMEI. */
export interface CollectorDefinition {
  /** 15 digits; sent as `REG <imei>`. */
  imei: string;
  meters: MeterDefinition[];
  /** Informational (log lines). */
  name?: string;
  /** Registration secret, sent as `REG <imei> <secret>` (the platform's collector archive holds it). */
  secret?: string;
}

/** The whole fleet as data. */
export interface FleetDefinition {
  collectors: CollectorDefinition[];
  /** NB-IoT meters, each its own MQTT connection on `meter/<address>/up|down`. */
  nbMeters?: MeterDefinition[];
  /** Faults the fleet switches on (and off) by itself once started (see {@link FaultPlanEntry}); default none. */
  faults?: FaultPlanEntry[];
}

/**
 * A fault the fleet runs by itself: set on `target` (a meter address or a collector IMEI) `afterMs`
 * after start, cleared again `forMs` later (the device "returns"), repeated every `everyMs`. Real ms.
 * Example: a collector offline for 75 minutes every 6 hours —
 * `{ target: imei, fault: 'offline', afterMs: 120_000, forMs: 75 * 60_000, everyMs: 6 * 3600_000 }`.
 */
export interface FaultPlanEntry {
  target: string;
  fault: keyof MeterFaults | keyof CollectorFaults;
  /** The value set (default `true`); cleared to `false` (boolean faults) or 0. */
  value?: number | boolean;
  /** Delay after start before the fault is set. Default 0. */
  afterMs?: number;
  /** How long each episode lasts; default: until the fleet stops. */
  forMs?: number;
  /**
   * Period between episode starts; default: one episode. Must be longer than `forMs`. Without `forMs`
   * the fault is set again each period (a `reversed` register steps back once each time).
   */
  everyMs?: number;
}

/**
 * Per-meter faults.
 * - `powerLoss`: the meter is dead: no replies, no consumption;
 * - `offline`: an NB meter drops its MQTT connection (last will fires); a meter behind a
 *   collector stops answering (communication fault) but keeps consuming;
 * - `reversed`: the next reading answered (total register / 901F / report) is lower by this many
 *   units (kWh or m³) — once; the fault then clears itself (`true` = 10 units);
 * - `stuckValve`: control commands are acknowledged normally but the relay/valve does not move;
 * - `slowReplies`: delay every reply by this many real ms;
 * - `clockDrift`: the meter's clock is this many seconds ahead (negative: behind) of true time;
 *   a time sync resets it;
 * - `lowBattery`: the CJ/T 188 ST battery-low bit is set (water meters);
 * - `rateError`: 倍率异常 — the meter answers this CT ratio (电流互感器变比) whatever was written to it
 *   (electric meters; 0 = off).
 */
export interface MeterFaults {
  powerLoss: boolean;
  offline: boolean;
  reversed: number;
  stuckValve: boolean;
  slowReplies: number;
  clockDrift: number;
  lowBattery: boolean;
  rateError: number;
}

/** Fault values accepted by `setFault` (`reversed: true` means 10 units). */
export type MeterFaultInput = { [K in keyof MeterFaults]: K extends 'reversed' | 'rateError' ? number | boolean : MeterFaults[K] };

/**
 * Per-collector faults.
 * - `offline`: the connection is closed and not reopened until cleared;
 * - `slowReplies`: delay every reply forwarded by this collector by this many real ms;
 * - `garbage`: inject random bytes in front of each frame the collector sends (`true` = up to 24
 *   bytes; a number = up to that many). Text lines (REG, HB) are never preceded by garbage.
 */
export interface CollectorFaults {
  offline: boolean;
  slowReplies: number;
  garbage: number;
}

export type CollectorFaultInput = { [K in keyof CollectorFaults]: K extends 'garbage' ? number | boolean : CollectorFaults[K] };

/** Optional log sink (the library is silent by default). */
export type FleetLogger = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export interface GatewayAddress {
  host: string;
  port: number;
  /** local (source) address of the connections, e.g. 127.0.0.2: each source address has its own ephemeral ports */
  localAddress?: string;
}

export const IMEI_PATTERN = /^\d{15}$/;

/** The `slowReplies` fault of a meter or a collector: a delay in ms, ≥ 0 (RangeError otherwise). */
export function slowRepliesMs(value: unknown): number {
  const ms = Number(value);
  if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`slowReplies must be ≥ 0 ms, got ${String(value)}`);
  return ms;
}
