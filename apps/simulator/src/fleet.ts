/**
 * The simulator fleet: meters behind TCP collectors plus NB meters over MQTT, built from a
 * {@link FleetDefinition} (plain data). `createFleet()` builds it, `start()` connects everything,
 * `stop()` closes everything.
 */
import { EventEmitter } from 'node:events';
import type { IClientOptions } from 'mqtt';
import { ManualClock, ScaledClock, chinaDateTimeText, type SimClock } from './clock.ts';
import { ConnectGate, SimCollector, type CollectorEvent, type CollectorState } from './collector.ts';
import { createMeter, type AnyMeter, type MeterEnvironment, type MeterEvent } from './meter.ts';
import { SimNbMeter, type NbEvent } from './nb.ts';
import { checkFaultPlan, runFaultPlan } from './faults.ts';
import { DEFAULT_TOU_TABLE, validateTouTable, type TouTable } from './profiles.ts';
import { Rng, mix } from './random.ts';
import type {
  CollectorFaultInput,
  CollectorFaults,
  FleetDefinition,
  FleetLogger,
  GatewayAddress,
  MeterDefinition,
  MeterFaultInput,
  MeterFaults,
} from './types.ts';

export interface FleetOptions extends FleetDefinition {
  /** The gateway's TCP listener (required when there are collectors). */
  gateway?: GatewayAddress;
  /** Broker URL, e.g. `mqtt://127.0.0.1:1883` (required when there are NB meters). */
  mqttUrl?: string;
  /** Prefix for NB topics (`<prefix>meter/<address>/up`); default ''. */
  topicPrefix?: string;
  /** Extra mqtt.js options for NB connections. */
  mqttOptions?: IClientOptions;
  /**
   * Each NB meter's MQTT login (the platform derives it from its server secret). The password is
   * also the key the meter checks its down messages with: unsigned, expired or replayed ones are ignored.
   */
  nbCredentials?: (address: string) => { username: string; password: string };
  /** Seed of every random choice (usage noise, jitter, garbage). Default 1. */
  seed?: number;
  /** Simulated ms per real ms (ignored when `clock` is given). Default 1. */
  speed?: number;
  /** Simulated time at start (ignored when `clock` is given). Default: now. */
  startTime?: number | Date;
  /** Bring your own clock (e.g. a {@link ManualClock} in tests). */
  clock?: SimClock;
  /** 尖峰平谷 table (24 entries). Default {@link DEFAULT_TOU_TABLE}. */
  touTable?: TouTable;
  /** Collector heartbeat period, real ms; 0 disables. Default 30 000. */
  heartbeatMs?: number;
  /** Reconnect backoff: first delay and cap, real ms. Default 1 000 / 30 000. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Drop a TCP connection not answered `OK`/`ERR` within this time. Default 10 000. */
  registerTimeoutMs?: number;
  /** Connections opened/registering at the same time (fleet-wide). Default 256. */
  connectConcurrency?: number;
  /** Bus latency added to every reply, real ms. Default 0. */
  replyLatencyMs?: number;
  /** Unsolicited report period of every TCP meter, real ms (0 = never). Default 0. */
  reportIntervalMs?: number;
  /** Unsolicited report period of every NB meter, real ms (0 = never). Default 60 000. */
  nbReportIntervalMs?: number;
  /** Meters refuse remote-control commands whose expiry is past. Default true. */
  checkCommandExpiry?: boolean;
  logger?: FleetLogger;
}

export type FleetEvent = CollectorEvent | NbEvent | MeterEvent;

export interface FleetEvents {
  event: [FleetEvent];
}

export interface FleetStatus {
  simTime: Date;
  speed: number;
  collectors: { total: number; online: number; states: Record<CollectorState, number> };
  nbMeters: { total: number; online: number };
  meters: { total: number; electric: number; water: number; supplyOff: number; faulted: number };
  traffic: {
    framesIn: number;
    framesOut: number;
    reports: number;
    badFramesIn: number;
    garbageBytes: number;
    connects: number;
    registrations: number;
    rejects: number;
    disconnects: number;
  };
  actuations: number;
  /** Parameter writes the meters accepted (DL/T 645 写数据, CJ/T 188 写结算日 / 写标准时间). */
  writes: number;
}

export interface ReportPumpOptions {
  /** Frames per second across the whole fleet. */
  ratePerSecond: number;
  /** Stop after this long (real ms). */
  durationMs?: number;
  /** Stop after this many frames were sent. */
  count?: number;
  /** Scheduling granularity, real ms. Default 10. */
  tickMs?: number;
}

export interface ReportResult {
  sent: number;
  /** Skipped because the socket's write buffer was full (backpressure). */
  busy: number;
  /** Skipped because the connection/meter was offline. */
  offline: number;
  elapsedMs: number;
  /** `sent` per second of `elapsedMs`. */
  achievedPerSecond: number;
}

export interface ReportPump {
  /** Resolves when the duration/count is reached or `stop()` is called. */
  readonly done: Promise<ReportResult>;
  stats(): ReportResult;
  stop(): ReportResult;
}

const NO_FAULT_TARGET = (target: string) => new RangeError(`no meter or collector ${JSON.stringify(target)} in this fleet`);

export class Fleet extends EventEmitter<FleetEvents> {
  readonly clock: SimClock;
  readonly seed: number;
  readonly collectors: readonly SimCollector[];
  readonly nbMeters: readonly SimNbMeter[];
  /** Every meter: behind collectors first, then NB meters. */
  readonly meters: readonly AnyMeter[];
  readonly definition: FleetDefinition;

  private readonly options: FleetOptions;
  private readonly meterIndex = new Map<string, AnyMeter>();
  private readonly collectorIndex = new Map<string, SimCollector>();
  private readonly nbIndex = new Map<string, SimNbMeter>();
  private readonly pumps = new Set<{ stop(): ReportResult }>();
  private reportTimer: NodeJS.Timeout | null = null;
  private stopFaultPlan: (() => void) | null = null;
  private started = false;
  private stopped = false;

  constructor(options: FleetOptions) {
    super();
    this.options = options;
    const collectorsDef = options.collectors ?? [];
    const nbDef = options.nbMeters ?? [];
    this.definition = { collectors: collectorsDef, nbMeters: nbDef, ...(options.faults ? { faults: options.faults } : {}) };
    if (collectorsDef.length > 0 && !options.gateway) throw new TypeError('createFleet: `gateway` is required when there are collectors');
    if (nbDef.length > 0 && !options.mqttUrl) throw new TypeError('createFleet: `mqttUrl` is required when there are NB meters');
    this.seed = (options.seed ?? 1) >>> 0;
    this.clock = options.clock ?? new ScaledClock(options.speed ?? 1, options.startTime);
    const touTable = validateTouTable(options.touTable ?? DEFAULT_TOU_TABLE);
    const onEvent = (event: FleetEvent) => this.onEvent(event);
    const meterEnv: MeterEnvironment = {
      clock: this.clock,
      seed: this.seed,
      touTable,
      checkCommandExpiry: options.checkCommandExpiry ?? true,
      onEvent,
    };
    const build = (def: MeterDefinition): AnyMeter => {
      if (this.meterIndex.has(def.address)) throw new RangeError(`meter address ${def.address} appears twice in the fleet`);
      const meter = createMeter(def, meterEnv);
      this.meterIndex.set(def.address, meter);
      return meter;
    };

    const gate = new ConnectGate(options.connectConcurrency ?? 256);
    const collectorRng = new Rng(mix(this.seed, 0xc011));
    const collectors: SimCollector[] = [];
    for (const c of collectorsDef) {
      if (this.collectorIndex.has(c.imei)) throw new RangeError(`collector IMEI ${c.imei} appears twice in the fleet`);
      const collector = new SimCollector(
        c.imei,
        c.meters.map(build),
        {
          gateway: options.gateway as GatewayAddress,
          heartbeatMs: options.heartbeatMs ?? 30_000,
          reconnectMinMs: options.reconnectMinMs ?? 1_000,
          reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
          registerTimeoutMs: options.registerTimeoutMs ?? 10_000,
          replyLatencyMs: options.replyLatencyMs ?? 0,
          rng: collectorRng,
          gate,
          logger: options.logger,
          onEvent,
        },
        c.name,
        c.secret,
      );
      this.collectorIndex.set(c.imei, collector);
      collectors.push(collector);
    }
    const nbRng = new Rng(mix(this.seed, 0x0b));
    const nbMeters: SimNbMeter[] = [];
    for (const def of nbDef) {
      const nb = new SimNbMeter(build(def), {
        mqttUrl: options.mqttUrl as string,
        topicPrefix: options.topicPrefix ?? '',
        reconnectMs: options.reconnectMinMs ?? 1_000,
        reportIntervalMs: options.nbReportIntervalMs ?? 60_000,
        replyLatencyMs: options.replyLatencyMs ?? 0,
        rng: nbRng,
        mqttOptions: options.mqttOptions,
        credentials: options.nbCredentials?.(def.address),
        logger: options.logger,
        onEvent,
      });
      this.nbIndex.set(def.address, nb);
      nbMeters.push(nb);
    }
    this.collectors = collectors;
    this.nbMeters = nbMeters;
    this.meters = [...this.meterIndex.values()];
    checkFaultPlan(options.faults ?? [], (t) => (this.collectorIndex.has(t) ? 'collector' : this.meterIndex.has(t) ? 'meter' : undefined));
  }

  /** Every meter behind a TCP connection, with its collector, in report order. */
  private tcpMeters(): { c: SimCollector; m: AnyMeter }[] {
    return this.collectors.flatMap((c) => c.meters.map((m) => ({ c, m })));
  }

  private onEvent(event: FleetEvent): void {
    if (event.type === 'fault' && (event.name === 'offline' || event.name === 'all')) {
      this.nbIndex.get(event.address)?.syncOffline();
    }
    if (event.type === 'actuation') this.options.logger?.('info', `[meter ${event.address}] ${event.command} → ${event.supplyOn ? 'supply on' : 'supply off'}`);
    if (event.type === 'write') this.options.logger?.('info', `[meter ${event.address}] write ${event.item} = ${event.value}`);
    this.emit('event', event);
  }

  /** Connect every collector and NB meter (returns at once; see {@link whenOnline}). */
  start(): this {
    if (this.stopped) throw new Error('a stopped fleet cannot be restarted; create a new one');
    if (this.started) return this;
    this.started = true;
    for (const c of this.collectors) c.start();
    for (const nb of this.nbMeters) nb.start();
    if (this.options.faults?.length) {
      this.stopFaultPlan = runFaultPlan(this, this.options.faults, (e) => this.options.logger?.('warn', `fault plan: ${e.message}`));
    }
    const period = this.options.reportIntervalMs ?? 0;
    if (period > 0 && this.collectors.length > 0) {
      // Spread each period's reports over the period instead of one burst.
      const targets = this.tcpMeters();
      const perTick = Math.max(1, Math.ceil((targets.length * 100) / period));
      let cursor = 0;
      this.reportTimer = setInterval(() => {
        for (let i = 0; i < perTick && targets.length > 0; i++) {
          const { c, m } = targets[cursor];
          cursor = (cursor + 1) % targets.length;
          c.report(m);
        }
      }, 100);
    }
    return this;
  }

  /**
   * Resolve once every collector is registered and every NB meter connected (ignoring those held
   * down by an `offline` fault); reject after `timeoutMs`.
   */
  whenOnline(timeoutMs = 10_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const check = () => {
        const waitingC = this.collectors.filter((c) => !c.online && !c.faults.offline).length;
        const waitingN = this.nbMeters.filter((n) => !n.online && !n.meter.faults.offline).length;
        if (waitingC === 0 && waitingN === 0) return resolve();
        if (performance.now() >= deadline) {
          return reject(new Error(`fleet not online after ${timeoutMs} ms: ${waitingC} collectors, ${waitingN} NB meters still offline`));
        }
        setTimeout(check, 20);
      };
      check();
    });
  }

  /** Close every connection (NB meters publish a retained `{"online":false}` first). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopFaultPlan?.();
    for (const p of [...this.pumps]) p.stop();
    if (this.reportTimer) clearInterval(this.reportTimer);
    this.reportTimer = null;
    await Promise.all([...this.collectors.map((c) => c.stop()), ...this.nbMeters.map((n) => n.stop())]);
  }

  meter(address: string): AnyMeter | undefined {
    return this.meterIndex.get(address);
  }

  collector(imei: string): SimCollector | undefined {
    return this.collectorIndex.get(imei);
  }

  nbMeter(address: string): SimNbMeter | undefined {
    return this.nbIndex.get(address);
  }

  /**
   * Set a fault on a meter (by address) or collector (by IMEI). Collector faults: `offline`,
   * `slowReplies`, `garbage`; meter faults: see {@link MeterFaults}.
   */
  setFault(target: string, name: keyof MeterFaults | keyof CollectorFaults, value: unknown): void {
    const collector = this.collectorIndex.get(target);
    if (collector && (name === 'offline' || name === 'slowReplies' || name === 'garbage')) {
      collector.setFault(name, value as CollectorFaultInput[typeof name]);
      return;
    }
    const meter = this.meterIndex.get(target);
    if (meter && name !== 'garbage') {
      meter.setFault(name, value as MeterFaultInput[typeof name]);
      return;
    }
    if (!collector && !meter) throw NO_FAULT_TARGET(target);
    throw new RangeError(`fault ${JSON.stringify(name)} does not apply to ${target}`);
  }

  /** Clear every fault of a meter or collector. */
  clearFaults(target: string): void {
    const collector = this.collectorIndex.get(target);
    const meter = this.meterIndex.get(target);
    if (!collector && !meter) throw NO_FAULT_TARGET(target);
    collector?.clearFaults();
    meter?.clearFaults();
  }

  status(): FleetStatus {
    const states: Record<CollectorState, number> = {
      idle: 0,
      waiting: 0,
      connecting: 0,
      registering: 0,
      online: 0,
      backoff: 0,
      offline: 0,
      stopped: 0,
    };
    const traffic = {
      framesIn: 0,
      framesOut: 0,
      reports: 0,
      badFramesIn: 0,
      garbageBytes: 0,
      connects: 0,
      registrations: 0,
      rejects: 0,
      disconnects: 0,
    };
    for (const c of this.collectors) {
      states[c.state]++;
      const s = c.stats;
      traffic.framesIn += s.framesIn;
      traffic.framesOut += s.framesOut;
      traffic.reports += s.reports;
      traffic.badFramesIn += s.badFramesIn;
      traffic.garbageBytes += s.garbageBytes;
      traffic.connects += s.connects;
      traffic.registrations += s.registrations;
      traffic.rejects += s.rejects;
      traffic.disconnects += s.disconnects;
    }
    for (const n of this.nbMeters) {
      traffic.framesIn += n.stats.framesIn;
      traffic.framesOut += n.stats.framesOut;
      traffic.reports += n.stats.reports;
      traffic.badFramesIn += n.stats.badFramesIn;
      traffic.connects += n.stats.connects;
    }
    let electric = 0;
    let supplyOff = 0;
    let faulted = 0;
    let actuations = 0;
    let writes = 0;
    for (const m of this.meters) {
      if (m.kind === 'electric') electric++;
      if (!m.supplyOn) supplyOff++;
      const f = m.faults;
      if (f.powerLoss || f.offline || f.reversed > 0 || f.stuckValve || f.slowReplies > 0 || f.clockDrift !== 0 || f.lowBattery || f.rateError > 0) faulted++;
      actuations += m.actuations;
      writes += m.writes;
    }
    return {
      simTime: new Date(this.clock.now()),
      speed: this.clock.speed,
      collectors: { total: this.collectors.length, online: states.online, states },
      nbMeters: { total: this.nbMeters.length, online: this.nbMeters.filter((n) => n.online).length },
      meters: { total: this.meters.length, electric, water: this.meters.length - electric, supplyOff, faulted },
      traffic,
      actuations,
      writes,
    };
  }

  /** Report frames encoded ahead by {@link prepareReports}, taken by the next pump. */
  private prepared: { c: SimCollector; m: AnyMeter; frame: Uint8Array }[] = [];

  /**
   * Encode the next `count` report frames of the TCP meters now (round-robin, in the order
   * {@link pumpReports} sends them); the next pump writes these first. A load test measuring the
   * receiving side prepares its frames so that the sender spends its CPU on writing only.
   * Returns how many frames were prepared.
   */
  prepareReports(count: number): number {
    const targets = this.tcpMeters();
    this.prepared = [];
    if (!targets.length) return 0;
    for (let i = 0; i < count; i++) {
      const t = targets[i % targets.length];
      this.prepared.push({ c: t.c, m: t.m, frame: t.m.reportFrame() });
    }
    return this.prepared.length;
  }

  /**
   * Push unsolicited report frames at `ratePerSecond` across every TCP meter (round-robin) and
   * NB meter, for load tests. Skips connections whose write buffer is full (counted as `busy`); a frame
   * encoded ahead ({@link prepareReports}) that meets a full buffer waits for the next tick instead.
   */
  pumpReports(options: ReportPumpOptions): ReportPump {
    const rate = options.ratePerSecond;
    if (!(Number.isFinite(rate) && rate > 0)) throw new RangeError(`ratePerSecond must be > 0, got ${rate}`);
    const tickMs = options.tickMs ?? 10;
    type Target = { c: SimCollector; m: AnyMeter } | { nb: SimNbMeter };
    const targets: Target[] = [
      ...this.tcpMeters(),
      ...this.nbMeters.map((nb) => ({ nb })),
    ];
    const result: ReportResult = { sent: 0, busy: 0, offline: 0, elapsedMs: 0, achievedPerSecond: 0 };
    const t0 = performance.now();
    let attempted = 0;
    let cursor = 0;
    const prepared = this.prepared;
    this.prepared = [];
    let next = 0;
    let timer: NodeJS.Timeout | null = null;
    let finish!: (r: ReportResult) => void;
    const done = new Promise<ReportResult>((resolve) => (finish = resolve));
    const snapshot = (): ReportResult => {
      const elapsedMs = performance.now() - t0;
      return { ...result, elapsedMs, achievedPerSecond: elapsedMs > 0 ? (result.sent * 1000) / elapsedMs : 0 };
    };
    const pump = {
      stats: snapshot,
      stop: (): ReportResult => {
        if (timer) clearInterval(timer);
        timer = null;
        this.pumps.delete(pump);
        const r = snapshot();
        finish(r);
        return r;
      },
      done,
    };
    const tick = () => {
      const elapsed = performance.now() - t0;
      const last = options.durationMs !== undefined && elapsed >= options.durationMs;
      if (targets.length === 0) {
        pump.stop();
        return;
      }
      // On the last tick, send what was due up to the end of the duration (not beyond it).
      let due = Math.floor((rate * (last ? (options.durationMs as number) : elapsed)) / 1000) - attempted;
      if (options.count !== undefined) due = Math.min(due, options.count - result.sent);
      const batch = new Set<SimCollector>();
      for (let i = 0; i < due; i++) {
        if (next < prepared.length) {
          const p = prepared[next];
          if (!batch.has(p.c)) {
            batch.add(p.c);
            p.c.beginBatch();
          }
          const r = p.c.report(p.m, p.frame);
          // a socket that pushes back keeps its frame for the next tick (the frames are sent in their order,
          // none is encoded again on the fly: that cost the load generator 5 µs a report beside the gateway)
          if (r === 'busy') {
            result.busy++;
            break;
          }
          next++;
          attempted++;
          if (r === 'sent') result.sent++;
          else result.offline++;
          continue;
        }
        const t = targets[cursor];
        cursor = (cursor + 1) % targets.length;
        attempted++;
        if ('nb' in t) {
          if (t.nb.report()) result.sent++;
          else result.offline++;
          continue;
        }
        if (!batch.has(t.c)) {
          batch.add(t.c);
          t.c.beginBatch();
        }
        const r = t.c.report(t.m);
        if (r === 'sent') result.sent++;
        else if (r === 'busy') result.busy++;
        else result.offline++;
      }
      for (const c of batch) c.endBatch();
      if (last || (options.count !== undefined && result.sent >= options.count)) pump.stop();
    };
    this.pumps.add(pump);
    timer = setInterval(tick, tickMs);
    return pump;
  }
}

/** Build a fleet (not yet connected: call `start()`). */
export function createFleet(options: FleetOptions): Fleet {
  return new Fleet(options);
}


/** One status line (CLI, logs). */
export function formatStatus(s: FleetStatus): string {
  // Simulated wall clock in China time (UTC+8), like the meters show it.
  const sim = chinaDateTimeText(s.simTime.getTime());
  const t = s.traffic;
  return [
    `[${new Date().toTimeString().slice(0, 8)}] sim ${sim} (UTC+8) ×${s.speed}`,
    `collectors ${s.collectors.online}/${s.collectors.total} online`,
    `nb ${s.nbMeters.online}/${s.nbMeters.total}`,
    `meters ${s.meters.total} (⚡${s.meters.electric} 💧${s.meters.water}, supply off ${s.meters.supplyOff}, faulted ${s.meters.faulted})`,
    `frames in ${t.framesIn} out ${t.framesOut} reports ${t.reports} bad ${t.badFramesIn}`,
    `reconnects ${Math.max(0, t.connects - s.collectors.total - s.nbMeters.total)} rejects ${t.rejects}`,
    `actuations ${s.actuations} writes ${s.writes}`,
  ].join(' | ');
}

export { ManualClock, ScaledClock };
export { generateFleet, type GenerateFleetOptions } from './generate.ts';

