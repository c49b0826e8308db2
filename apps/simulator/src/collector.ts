/**
 * A simulated collector (4G DTU, LoRa gateway, concentrator) or 4G meter: one TCP connection to
 * the gateway, speaking docs/DEVICE-WIRE.md:
 *
 * 1. `REG <imei>\n` first (`REG <imei> <secret>\n` when the collector has a registration secret); `OK\n` → online, `ERR …\n` → the gateway closes, we retry with backoff;
 * 2. `HB\n` every heartbeat interval (the gateway answers `HB\n`); no traffic at all for three
 *    intervals → the link is considered dead and reopened;
 * 3. everything else is DL/T 645 / CJ/T 188 frames, passed transparently to the meters on the
 *    collector's bus; each meter answers the frames addressed to it.
 *
 * The connection is reopened with exponential backoff whenever it drops, until `stop()`.
 */
import net from 'node:net';
import { FrameSplitter, type SplitterItem } from '@meter/protocol';
import { decodeFrame, type AnyMeter } from './meter.ts';
import type { Rng } from './random.ts';
import {
  IMEI_PATTERN,
  slowRepliesMs,
  type CollectorFaultInput,
  type CollectorFaults,
  type FleetLogger,
  type GatewayAddress,
  type MeterProtocol,
} from './types.ts';

/** Limits how many connections are being opened/registered at the same time (fleet-wide). */
export class ConnectGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!(Number.isInteger(limit) && limit > 0)) throw new RangeError(`connect concurrency must be a positive integer, got ${limit}`);
  }

  /** Resolves with a release function once a slot is free. Call it exactly once. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.waiting.shift()?.();
        });
      };
      if (this.active < this.limit) grant();
      else this.waiting.push(grant);
    });
  }

  get pending(): number {
    return this.waiting.length;
  }
}

export interface CollectorEnvironment {
  gateway: GatewayAddress;
  /** Heartbeat period, real ms. 0 disables heartbeats and the dead-link check. */
  heartbeatMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** Give up on a connection that has not been answered `OK`/`ERR` within this time. */
  registerTimeoutMs: number;
  /** Bus latency added to every reply, real ms. */
  replyLatencyMs: number;
  rng: Rng;
  gate: ConnectGate;
  logger?: FleetLogger;
  onEvent?: (event: CollectorEvent) => void;
}

export type CollectorState =
  /** created, not started */
  | 'idle'
  /** queued for a connection slot */
  | 'waiting'
  /** TCP connect in progress */
  | 'connecting'
  /** `REG` sent, waiting for `OK` */
  | 'registering'
  | 'online'
  /** waiting to reconnect */
  | 'backoff'
  /** held down by the `offline` fault */
  | 'offline'
  | 'stopped';

export type CollectorEvent =
  | { type: 'online'; imei: string; registerMs: number }
  | { type: 'offline'; imei: string; reason: string }
  | { type: 'rejected'; imei: string; message: string }
  | { type: 'reconnecting'; imei: string; delayMs: number; attempt: number };

export interface CollectorStats {
  connects: number;
  registrations: number;
  rejects: number;
  disconnects: number;
  framesIn: number;
  badFramesIn: number;
  framesOut: number;
  reports: number;
  bytesIn: number;
  bytesOut: number;
  garbageBytes: number;
  heartbeats: number;
  /** Connect start → `OK`, real ms, of the last registration. */
  lastRegisterMs: number;
  lastError: string;
}

const NO_FAULTS: CollectorFaults = Object.freeze({ offline: false, slowReplies: 0, garbage: 0 });

/** Bytes used for garbage: never printable (so garbage cannot pass for a text line), plus lone 0x68/0x16/0xFE. */
const GARBAGE_POOL: readonly number[] = (() => {
  const pool: number[] = [];
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x20 && b <= 0x7e) || b === 0x0a || b === 0x0d || b === 0x09;
    if (!printable) pool.push(b);
  }
  return pool;
})();

/** Default largest garbage burst for `garbage: true`. */
export const DEFAULT_GARBAGE_BYTES = 24;

export class SimCollector {
  readonly imei: string;
  readonly name: string;
  readonly meters: readonly AnyMeter[];
  readonly stats: CollectorStats = {
    connects: 0,
    registrations: 0,
    rejects: 0,
    disconnects: 0,
    framesIn: 0,
    badFramesIn: 0,
    framesOut: 0,
    reports: 0,
    bytesIn: 0,
    bytesOut: 0,
    garbageBytes: 0,
    heartbeats: 0,
    lastRegisterMs: 0,
    lastError: '',
  };

  private readonly env: CollectorEnvironment;
  private readonly byAddress = new Map<string, AnyMeter>();
  private readonly byProtocol: Record<MeterProtocol, AnyMeter[]> = { dlt645: [], cjt188: [] };
  private faultState: CollectorFaults = { ...NO_FAULTS };
  private stateValue: CollectorState = 'idle';
  private socket: net.Socket | null = null;
  private splitter: FrameSplitter | null = null;
  /** Bumped whenever a pending connect attempt must be abandoned. */
  private generation = 0;
  private attempt = 0;
  private connectStartedAt = 0;
  private lastRxAt = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private registerTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly replyTimers = new Set<NodeJS.Timeout>();
  private releaseSlot: (() => void) | null = null;
  private readonly closeWaiters: Array<() => void> = [];
  private started = false;
  private stopped = false;

  constructor(
    imei: string,
    meters: readonly AnyMeter[],
    env: CollectorEnvironment,
    name?: string,
    private readonly secret?: string,
  ) {
    if (!IMEI_PATTERN.test(imei)) throw new RangeError(`collector IMEI must be 15 digits, got ${JSON.stringify(imei)}`);
    this.imei = imei;
    this.name = name ?? imei;
    this.meters = meters;
    this.env = env;
    for (const m of meters) {
      if (this.byAddress.has(m.address)) throw new RangeError(`meter ${m.address} appears twice on collector ${imei}`);
      this.byAddress.set(m.address, m);
      this.byProtocol[m.protocol].push(m);
    }
  }

  get state(): CollectorState {
    return this.stateValue;
  }

  get online(): boolean {
    return this.stateValue === 'online';
  }

  get faults(): CollectorFaults {
    return { ...this.faultState };
  }

  /** Begin connecting (idempotent). While the `offline` fault is on, connecting waits for it to clear. */
  start(): void {
    this.started = true;
    if (this.stopped || this.faultState.offline) return;
    if (this.stateValue === 'idle') this.open();
  }

  /** Close the connection for good; resolves once the socket is closed. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.shutdown('stopped');
  }

  setFault<K extends keyof CollectorFaults>(name: K, value: CollectorFaultInput[K]): void {
    switch (name) {
      case 'offline': {
        if (typeof value !== 'boolean') throw new TypeError('offline must be a boolean');
        if (value === this.faultState.offline) return;
        this.faultState.offline = value;
        if (value) void this.shutdown('offline');
        else this.resume();
        return;
      }
      case 'slowReplies':
        this.faultState.slowReplies = slowRepliesMs(value);
        return;
      case 'garbage': {
        const n = value === true ? DEFAULT_GARBAGE_BYTES : value === false ? 0 : Number(value);
        if (!(Number.isInteger(n) && n >= 0 && n <= 1024)) throw new RangeError(`garbage must be 0..1024 bytes, got ${String(value)}`);
        this.faultState.garbage = n;
        return;
      }
      default:
        throw new RangeError(`unknown collector fault ${JSON.stringify(name)}`);
    }
  }

  clearFaults(): void {
    const wasOffline = this.faultState.offline;
    this.faultState = { ...NO_FAULTS };
    if (wasOffline) this.resume();
  }

  /** After the `offline` fault clears: reconnect now (if started). */
  private resume(): void {
    if (this.stopped) return;
    this.stateValue = 'idle';
    this.attempt = 0;
    if (this.started && !this.stopped) this.open();
  }

  /**
   * Send an unsolicited report frame for `meter` (default: the next meter in turn). Returns
   * `'sent'`, `'offline'` (not registered, or the meter cannot talk), or `'busy'` (the socket's
   * write buffer is full; nothing was written). `encoded`: a report frame of `meter` encoded
   * beforehand ({@link Fleet.prepareReports}), written as it is.
   */
  report(meter?: AnyMeter, encoded?: Uint8Array): 'sent' | 'offline' | 'busy' {
    const socket = this.socket;
    if (!socket || this.stateValue !== 'online') return 'offline';
    if (socket.writableNeedDrain) return 'busy';
    const m = meter ?? this.nextReportMeter();
    if (!m || !m.reachable) return 'offline';
    this.writeFrame(socket, encoded ?? m.reportFrame());
    this.stats.reports++;
    return 'sent';
  }

  private reportCursor = 0;
  private nextReportMeter(): AnyMeter | undefined {
    if (this.meters.length === 0) return undefined;
    const m = this.meters[this.reportCursor % this.meters.length];
    this.reportCursor = (this.reportCursor + 1) % this.meters.length;
    return m;
  }

  private corked = false;

  /** Hold writes until {@link endBatch} (many frames → one syscall). */
  beginBatch(): void {
    if (this.socket && !this.corked) {
      this.socket.cork();
      this.corked = true;
    }
  }

  endBatch(): void {
    if (this.corked) {
      this.corked = false;
      this.socket?.uncork();
    }
  }

  /** Write raw bytes on the connection (tests, custom reports). False when not online. */
  sendRaw(bytes: Uint8Array): boolean {
    if (!this.socket || this.stateValue !== 'online') return false;
    this.socket.write(bytes);
    this.stats.bytesOut += bytes.length;
    return true;
  }

  /** Drop the current connection as if the network failed (it reconnects with backoff). */
  dropConnection(): void {
    this.socket?.destroy();
  }

  // --- connection lifecycle -----------------------------------------------------------------

  private log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.env.logger?.(level, `[collector ${this.name}] ${message}`);
  }

  private open(): void {
    if (this.stopped || this.faultState.offline) return;
    const gen = ++this.generation;
    this.stateValue = 'waiting';
    void this.env.gate.acquire().then((release) => {
      if (gen !== this.generation || this.stopped || this.faultState.offline) {
        release();
        return;
      }
      this.releaseSlot = release;
      this.connect();
    });
  }

  private freeSlot(): void {
    const release = this.releaseSlot;
    this.releaseSlot = null;
    release?.();
  }

  private connect(): void {
    this.stateValue = 'connecting';
    this.stats.connects++;
    this.connectStartedAt = performance.now();
    const { host, port, localAddress } = this.env.gateway;
    const socket = net.connect(localAddress ? { host, port, localAddress } : { host, port });
    socket.setNoDelay(true);
    this.socket = socket;
    this.splitter = new FrameSplitter({ minTextLength: 2, maxBuffer: 4096 });
    this.registerTimer = setTimeout(() => {
      this.stats.lastError = 'registration timed out';
      this.log('warn', 'no answer to REG, reconnecting');
      socket.destroy();
    }, this.env.registerTimeoutMs);
    socket.once('connect', () => {
      if (this.socket !== socket) return;
      socket.setKeepAlive(true, 60_000);
      this.stateValue = 'registering';
      this.lastRxAt = performance.now();
      socket.write(this.secret ? `REG ${this.imei} ${this.secret}\n` : `REG ${this.imei}\n`);
    });
    socket.on('data', (chunk: Buffer) => this.onData(socket, chunk));
    socket.on('error', (err: Error) => {
      this.stats.lastError = err.message;
    });
    socket.on('close', () => this.onClose(socket));
  }

  private onData(socket: net.Socket, chunk: Buffer): void {
    if (this.socket !== socket || !this.splitter) return;
    this.stats.bytesIn += chunk.length;
    this.lastRxAt = performance.now();
    const items: SplitterItem[] = this.splitter.push(chunk);
    for (const item of items) {
      if (this.socket !== socket) return; // closed while handling
      if (item.kind === 'text') this.onText(socket, item.text.trim());
      else this.onFrame(socket, item.protocol, item.bytes);
    }
  }

  private onText(socket: net.Socket, text: string): void {
    if (text === 'OK') {
      if (this.stateValue !== 'registering') return;
      this.clearRegisterTimer();
      this.stateValue = 'online';
      this.attempt = 0;
      this.stats.registrations++;
      this.stats.lastRegisterMs = performance.now() - this.connectStartedAt;
      this.freeSlot();
      this.startHeartbeat(socket);
      this.log('info', 'registered');
      this.env.onEvent?.({ type: 'online', imei: this.imei, registerMs: this.stats.lastRegisterMs });
    } else if (text.startsWith('ERR')) {
      this.stats.rejects++;
      this.stats.lastError = text;
      this.log('warn', `gateway refused registration: ${text}`);
      this.env.onEvent?.({ type: 'rejected', imei: this.imei, message: text });
      socket.destroy();
    }
    // `HB` answers only refresh lastRxAt (done in onData).
  }

  private onFrame(socket: net.Socket, protocol: MeterProtocol, bytes: Uint8Array): void {
    if (this.stateValue !== 'online') return;
    this.stats.framesIn++;
    const decoded = decodeFrame(protocol, bytes);
    if (!decoded) {
      this.stats.badFramesIn++;
      return;
    }
    const address = decoded.frame.address;
    const direct = this.byAddress.get(address);
    const candidates = direct && direct.protocol === protocol ? [direct] : this.byProtocol[protocol];
    for (const meter of candidates) {
      const reply = meter.handle(decoded);
      if (!reply) continue;
      const delay = reply.delayMs + this.faultState.slowReplies + this.env.replyLatencyMs;
      if (delay <= 0) this.writeFrame(socket, reply.bytes);
      else {
        const timer = setTimeout(() => {
          this.replyTimers.delete(timer);
          if (this.socket === socket && this.stateValue === 'online') this.writeFrame(socket, reply.bytes);
        }, delay);
        this.replyTimers.add(timer);
      }
    }
  }

  private writeFrame(socket: net.Socket, frame: Uint8Array): boolean {
    let out = frame;
    const max = this.faultState.garbage;
    if (max > 0) {
      const rng = this.env.rng;
      const n = rng.int(1, max);
      const garbage = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const r = rng.next();
        // Occasionally a stray frame delimiter, never two printable bytes in a row.
        if (r < 0.08 && (i === 0 || garbage[i - 1] !== 0x68)) garbage[i] = 0x68;
        else if (r < 0.12) garbage[i] = 0x16;
        else garbage[i] = rng.pick(GARBAGE_POOL);
      }
      out = new Uint8Array(n + frame.length);
      out.set(garbage);
      out.set(frame, n);
      this.stats.garbageBytes += n;
    }
    this.stats.framesOut++;
    this.stats.bytesOut += out.length;
    return socket.write(out);
  }

  private startHeartbeat(socket: net.Socket): void {
    const period = this.env.heartbeatMs;
    if (period <= 0) return;
    this.heartbeatTimer = setInterval(() => {
      if (this.socket !== socket) return;
      if (performance.now() - this.lastRxAt > 3 * period) {
        this.stats.lastError = 'no traffic for 3 heartbeat intervals';
        this.log('warn', 'link dead (no traffic for 3 heartbeats), reconnecting');
        socket.destroy();
        return;
      }
      this.stats.heartbeats++;
      this.stats.bytesOut += 3;
      socket.write('HB\n');
    }, period);
  }

  private clearRegisterTimer(): void {
    if (this.registerTimer) clearTimeout(this.registerTimer);
    this.registerTimer = null;
  }

  private clearConnectionTimers(): void {
    this.clearRegisterTimer();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    for (const t of this.replyTimers) clearTimeout(t);
    this.replyTimers.clear();
  }

  private onClose(socket: net.Socket): void {
    if (this.socket !== socket) return;
    const wasOnline = this.stateValue === 'online';
    this.socket = null;
    this.corked = false;
    this.splitter = null;
    this.clearConnectionTimers();
    this.freeSlot();
    this.stats.disconnects++;
    if (wasOnline) {
      this.log('info', 'disconnected');
      this.env.onEvent?.({ type: 'offline', imei: this.imei, reason: this.stats.lastError || 'connection closed' });
    }
    for (const w of this.closeWaiters.splice(0)) w();
    if (this.stopped) {
      this.stateValue = 'stopped';
      return;
    }
    if (this.faultState.offline) {
      this.stateValue = 'offline';
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const base = Math.min(this.env.reconnectMaxMs, this.env.reconnectMinMs * 2 ** Math.min(this.attempt, 30));
    const delayMs = Math.round(base * (0.5 + 0.5 * this.env.rng.next()));
    this.attempt++;
    this.stateValue = 'backoff';
    this.env.onEvent?.({ type: 'reconnecting', imei: this.imei, delayMs, attempt: this.attempt });
    const gen = this.generation;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (gen === this.generation && !this.stopped && !this.faultState.offline) this.open();
    }, delayMs);
  }

  /** Close the connection and cancel anything pending; final state `target`. */
  private shutdown(target: 'stopped' | 'offline'): Promise<void> {
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const socket = this.socket;
    if (!socket) {
      this.clearConnectionTimers();
      this.freeSlot();
      this.stateValue = target;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.closeWaiters.push(resolve);
      socket.destroy();
    });
  }
}
