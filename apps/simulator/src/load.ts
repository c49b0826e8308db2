/**
 * Load generation for the gateway benchmarks (bench/connections.ts, bench/ingest.ts):
 *
 * - many TCP connections from one process (4G meters: one connection each; or collectors with
 *   many meters each), opened with bounded concurrency so the gateway's accept backlog never
 *   overflows;
 * - unsolicited report frames pushed at a fixed rate across all of them.
 *
 * `loadDefinition()` gives the IMEIs and addresses up front so the benchmark can seed its
 * database; `loadGenerator()` runs in this process; `spawnLoadGenerator()` runs the same thing in a
 * child process (so the client sockets do not count against the benchmark process's file
 * descriptor limit, and the two do not share one event loop).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createFleet, type Fleet, type ReportPumpOptions, type ReportResult } from './fleet.ts';
import type { CollectorDefinition, FleetDefinition, FleetLogger, GatewayAddress, MeterDefinition } from './types.ts';

export interface LoadDefinitionOptions {
  /** TCP connections (each registers its own IMEI). */
  connections: number;
  /**
   * Index of the first connection (default 0): a load split over several processes gives each the
   * same prefix and its own slice (`offset` = connections of the processes before it).
   */
  offset?: number;
  /** Meters behind each connection. Default 1 (a 4G meter). */
  metersPerConnection?: number;
  /** Meter kind. `mixed` alternates electric and water. Default `electric`. */
  kind?: 'electric' | 'water' | 'mixed';
  /**
   * Leading digits that make the IMEIs/addresses unique to this run (1–4 digits, default `7`):
   * IMEIs `86<prefix><index>`, electric addresses `<prefix><index>` (12 digits), water addresses
   * `<prefix><index>` (14 digits), each padded with zeros.
   */
  prefix?: string;
  /**
   * The platform's device secret (DEVICE_SECRET) of a test deployment: each connection registers with
   * the secret the platform derives for its IMEI (hex HMAC-SHA256 of `tcp-imei:<imei>`, 32 digits —
   * a 4G meter's; seed collectors' reg_secret with the same). Without it connections send no secret.
   */
  deviceSecret?: string;
}

export interface LoadGeneratorOptions extends LoadDefinitionOptions {
  gateway: GatewayAddress;
  /** Connections opening/registering at once. Default 500. */
  connectConcurrency?: number;
  /** Heartbeat period, real ms (0 = none). Default 30 000. */
  heartbeatMs?: number;
  /** Registration timeout, real ms. Default 30 000 (a loaded gateway may answer slowly). */
  registerTimeoutMs?: number;
  /** Reconnect backoff, real ms. Default 1 000 / 30 000. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Simulated ms per real ms: how fast readings grow between reports. Default 60. */
  speed?: number;
  seed?: number;
  /** Bus latency added to every meter reply, real ms (a collector's RS-485 round trip). Default 0. */
  replyLatencyMs?: number;
  logger?: FleetLogger;
}

/** One meter's relay/valve as the simulator holds it (bench/bulk-close.ts checks each was switched once). */
export interface LoadMeterState {
  address: string;
  supplyOn: boolean;
  /** relay/valve commands received and accepted (a repeated command counts again) */
  actuationCommands: number;
}

export interface ConnectResult {
  /** Connections registered (`OK`). */
  registered: number;
  /** Connections not registered when `connect()` returned. */
  pending: number;
  /** Registrations refused with `ERR`. */
  rejects: number;
  /** Wall time until all registered (or the timeout), ms. */
  elapsedMs: number;
  /** Per-connection connect → `OK` latency, ms. */
  registerMs: { p50: number; p90: number; p99: number; max: number };
}

export interface LoadStats {
  connections: number;
  online: number;
  reports: number;
  framesIn: number;
  framesOut: number;
  rejects: number;
  disconnects: number;
  /** Memory of the process running the connections. */
  memory: { rssMB: number; heapUsedMB: number };
}

/** Common surface of {@link loadGenerator} (in-process) and {@link spawnLoadGenerator} (child process). */
export interface LoadRunner {
  readonly definition: FleetDefinition;
  /** Open every connection; resolves when all are registered or after `timeoutMs`. */
  connect(timeoutMs?: number): Promise<ConnectResult>;
  /** Encode the next `count` report frames ahead ({@link Fleet.prepareReports}); resolves with how many. */
  prepareReports(count: number): Promise<number>;
  /** Push reports at a rate; resolves when `durationMs`/`count` is reached. */
  pushReports(options: ReportPumpOptions): Promise<ReportResult>;
  stats(): Promise<LoadStats>;
  /** Every meter's relay/valve state and the actuating commands it accepted. */
  meterStates(): Promise<LoadMeterState[]>;
  stop(): Promise<void>;
}

export interface LoadGenerator extends LoadRunner {
  readonly fleet: Fleet;
}

function pad(prefix: string, index: number, digits: number): string {
  const rest = digits - prefix.length;
  if (String(index).length > rest) throw new RangeError(`index ${index} does not fit a ${digits}-digit number after ${prefix}`);
  return prefix + String(index).padStart(rest, '0');
}

/** The IMEIs and meter addresses a load run uses (seed the gateway's database with these). */
export function loadDefinition(options: LoadDefinitionOptions): FleetDefinition {
  const { connections } = options;
  const perConnection = options.metersPerConnection ?? 1;
  const prefix = options.prefix ?? '7';
  if (!/^\d{1,4}$/.test(prefix)) throw new RangeError('prefix must be 1–4 digits');
  if (!(Number.isInteger(connections) && connections >= 0)) throw new RangeError('connections must be a non-negative integer');
  if (!(Number.isInteger(perConnection) && perConnection >= 1)) throw new RangeError('metersPerConnection must be ≥ 1');
  const offset = options.offset ?? 0;
  if (!(Number.isInteger(offset) && offset >= 0)) throw new RangeError('offset must be a non-negative integer');
  const kind = options.kind ?? 'electric';
  const collectors: CollectorDefinition[] = [];
  let meterIndex = offset * perConnection;
  for (let i = offset; i < offset + connections; i++) {
    const imei = pad(`86${prefix}`, i + 1, 15);
    const meters: MeterDefinition[] = [];
    for (let j = 0; j < perConnection; j++) {
      meterIndex++;
      const water = kind === 'water' || (kind === 'mixed' && meterIndex % 2 === 0);
      meters.push(
        water
          ? { address: pad(prefix, meterIndex, 14), kind: 'water', protocol: 'cjt188', initialTotal: 0, profile: 'constant', preamble: 0 }
          : { address: pad(prefix, meterIndex, 12), kind: 'electric', protocol: 'dlt645', initialTotal: 0, profile: 'constant', preamble: 0 },
      );
    }
    const secret = options.deviceSecret === undefined ? undefined : createHmac('sha256', options.deviceSecret).update(`tcp-imei:${imei}`).digest('hex').slice(0, 32);
    collectors.push({ imei, meters, ...(perConnection === 1 ? { name: `4G-${i + 1}` } : { name: `DTU-${i + 1}` }), ...(secret && { secret }) });
  }
  return { collectors, nbMeters: [] };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Run a load fleet in this process. */
export function loadGenerator(options: LoadGeneratorOptions): LoadGenerator {
  const definition = loadDefinition(options);
  const fleet = createFleet({
    ...definition,
    gateway: options.gateway,
    seed: options.seed ?? 7,
    speed: options.speed ?? 60,
    heartbeatMs: options.heartbeatMs ?? 30_000,
    registerTimeoutMs: options.registerTimeoutMs ?? 30_000,
    reconnectMinMs: options.reconnectMinMs ?? 1_000,
    reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
    connectConcurrency: options.connectConcurrency ?? 500,
    replyLatencyMs: options.replyLatencyMs ?? 0,
    logger: options.logger,
  });
  return {
    definition,
    fleet,
    async connect(timeoutMs = 120_000): Promise<ConnectResult> {
      const t0 = performance.now();
      fleet.start();
      try {
        await fleet.whenOnline(timeoutMs);
      } catch {
        // report what we have
      }
      const elapsedMs = performance.now() - t0;
      const latencies = fleet.collectors
        .filter((c) => c.stats.registrations > 0)
        .map((c) => c.stats.lastRegisterMs)
        .sort((a, b) => a - b);
      const status = fleet.status();
      return {
        registered: status.collectors.online,
        pending: status.collectors.total - status.collectors.online,
        rejects: status.traffic.rejects,
        elapsedMs,
        registerMs: {
          p50: percentile(latencies, 50),
          p90: percentile(latencies, 90),
          p99: percentile(latencies, 99),
          max: latencies.length ? latencies[latencies.length - 1] : 0,
        },
      };
    },
    async prepareReports(count: number): Promise<number> {
      return fleet.prepareReports(count);
    },
    pushReports(pumpOptions: ReportPumpOptions): Promise<ReportResult> {
      return fleet.pumpReports(pumpOptions).done;
    },
    async stats(): Promise<LoadStats> {
      const s = fleet.status();
      const mem = process.memoryUsage();
      return {
        connections: s.collectors.total,
        online: s.collectors.online,
        reports: s.traffic.reports,
        framesIn: s.traffic.framesIn,
        framesOut: s.traffic.framesOut,
        rejects: s.traffic.rejects,
        disconnects: s.traffic.disconnects,
        memory: { rssMB: mem.rss / 2 ** 20, heapUsedMB: mem.heapUsed / 2 ** 20 },
      };
    },
    async meterStates(): Promise<LoadMeterState[]> {
      return fleet.meters.map((m) => ({ address: m.address, supplyOn: m.supplyOn, actuationCommands: m.counters.actuationCommands }));
    },
    stop: () => fleet.stop(),
  };
}

// ---------------------------------------------------------------------------------------------
// Child-process runner
// ---------------------------------------------------------------------------------------------

/** Messages between {@link spawnLoadGenerator} and load-worker.ts. */
export type LoadWorkerRequest =
  | { id: number; op: 'connect'; timeoutMs?: number }
  | { id: number; op: 'prepareReports'; count: number }
  | { id: number; op: 'pushReports'; options: ReportPumpOptions }
  | { id: number; op: 'stats' }
  | { id: number; op: 'meterStates' }
  | { id: number; op: 'stop' };

export type LoadWorkerResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { ready: true };

export interface SpawnedLoadGenerator extends LoadRunner {
  readonly child: ChildProcess;
  readonly pid: number;
}

function tsxLoaderUrl(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(require.resolve('tsx')).href;
}

/**
 * Run a load fleet in a child process (Node + tsx), controlled over IPC. The child exits after
 * `stop()` (or when this process exits).
 */
export function spawnLoadGenerator(options: Omit<LoadGeneratorOptions, 'logger'>): Promise<SpawnedLoadGenerator> {
  const definition = loadDefinition(options);
  // from the sources the worker runs through tsx; from the compiled output (dist/) it is plain JavaScript
  const fromSource = import.meta.url.endsWith('.ts');
  const worker = fileURLToPath(new URL(fromSource ? './load-worker.ts' : './load-worker.js', import.meta.url));
  const child = fork(worker, [JSON.stringify(options)], {
    execArgv: fromSource ? ['--import', tsxLoaderUrl()] : process.execArgv.filter((a) => a.startsWith('--conditions')),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  child.on('exit', (code, signal) => failAll(new Error(`load worker exited (code ${code}, signal ${signal})`)));
  child.on('error', (err) => failAll(err));
  type Request = LoadWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;
  const call = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...request, id });
    });
  return new Promise((resolve, reject) => {
    const onEarlyExit = (code: number | null) => reject(new Error(`load worker exited during start-up (code ${code})`));
    child.once('exit', onEarlyExit);
    child.on('message', (raw: LoadWorkerResponse) => {
      if ('ready' in raw) {
        child.off('exit', onEarlyExit);
        resolve({
          definition,
          child,
          pid: child.pid ?? -1,
          connect: (timeoutMs?: number) => call<ConnectResult>({ op: 'connect', timeoutMs }),
          prepareReports: (count: number) => call<number>({ op: 'prepareReports', count }),
          pushReports: (o: ReportPumpOptions) => call<ReportResult>({ op: 'pushReports', options: o }),
          stats: () => call<LoadStats>({ op: 'stats' }),
          meterStates: () => call<LoadMeterState[]>({ op: 'meterStates' }),
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            const exited = new Promise<void>((r) => child.once('exit', () => r()));
            try {
              await call<void>({ op: 'stop' });
            } catch {
              // exited already
            }
            await exited;
          },
        });
        return;
      }
      const p = pending.get(raw.id);
      if (!p) return;
      pending.delete(raw.id);
      if (raw.ok) p.resolve(raw.result);
      else p.reject(new Error(raw.error));
    });
  });
}
