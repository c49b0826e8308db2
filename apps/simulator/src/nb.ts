/**
 * A simulated NB-IoT meter: its own MQTT connection (docs/DEVICE-WIRE.md):
 *
 * - on connect it publishes a retained `{"online":true}` on `meter/<address>/up`; its last will
 *   (sent by the broker when the connection is lost) is a retained `{"online":false}`;
 * - it subscribes to `meter/<address>/down`, where the platform publishes
 *   `{"id":<commandId>,"frame":"<hex>","exp":<ms>,"nonce":"…","sig":"<hmac>"}`, and answers on `…/up`
 *   with `{"frame":"<hex>","nonce":"<the down message's>"}`; with credentials it acts only on a down message signed with its
 *   password (HMAC-SHA256 over topic, exp, nonce, id, frame), not expired, whose nonce is new;
 * - it pushes unsolicited report frames (its current reading) on `…/up` periodically.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { fromHex, toHex } from '@meter/protocol';
import { decodeFrame, type AnyMeter } from './meter.ts';
import type { Rng } from './random.ts';
import type { FleetLogger } from './types.ts';

export interface NbEnvironment {
  mqttUrl: string;
  /** Prepended to `meter/<address>/…` (tests use a unique prefix per run). Default ''. */
  topicPrefix: string;
  /** mqtt.js reconnect period, real ms. */
  reconnectMs: number;
  /** Unsolicited report period, real ms (0 = never). */
  reportIntervalMs: number;
  replyLatencyMs: number;
  rng: Rng;
  /** Extra mqtt.js options. */
  mqttOptions?: IClientOptions;
  /** This meter's MQTT login; the password also keys the signature of its down messages. */
  credentials?: { username: string; password: string };
  logger?: FleetLogger;
  onEvent?: (event: NbEvent) => void;
}

export type NbEvent =
  | { type: 'nbOnline'; address: string }
  | { type: 'nbOffline'; address: string; reason: string };

export type NbState = 'idle' | 'connecting' | 'online' | 'offline' | 'stopped';

export interface NbStats {
  connects: number;
  framesIn: number;
  badFramesIn: number;
  framesOut: number;
  reports: number;
  /** down messages ignored: bad signature, expired, or a nonce seen before */
  refusedDown: number;
  lastError: string;
}

interface DownMessage {
  id?: unknown;
  frame: string;
  exp?: unknown;
  nonce?: unknown;
  sig?: unknown;
}

const ONLINE = JSON.stringify({ online: true });
const OFFLINE = JSON.stringify({ online: false });

/** Topics of one NB meter. */
export function nbTopics(address: string, prefix = ''): { up: string; down: string } {
  return { up: `${prefix}meter/${address}/up`, down: `${prefix}meter/${address}/down` };
}

function stripPreamble(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0xfe) i++;
  return i === 0 ? bytes : bytes.subarray(i);
}

export class SimNbMeter {
  readonly meter: AnyMeter;
  readonly upTopic: string;
  readonly downTopic: string;
  readonly stats: NbStats = { connects: 0, framesIn: 0, badFramesIn: 0, framesOut: 0, reports: 0, refusedDown: 0, lastError: '' };
  /** nonces of accepted down messages, until their expiry */
  private readonly nonces = new Map<string, number>();

  private readonly env: NbEnvironment;
  private client: MqttClient | null = null;
  private stateValue: NbState = 'idle';
  private reportTimer: NodeJS.Timeout | null = null;
  private readonly replyTimers = new Set<NodeJS.Timeout>();
  private started = false;
  private stopped = false;

  constructor(meter: AnyMeter, env: NbEnvironment) {
    this.meter = meter;
    this.env = env;
    const topics = nbTopics(meter.address, env.topicPrefix);
    this.upTopic = topics.up;
    this.downTopic = topics.down;
  }

  get address(): string {
    return this.meter.address;
  }

  get state(): NbState {
    return this.stateValue;
  }

  get online(): boolean {
    return this.stateValue === 'online';
  }

  private log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    this.env.logger?.(level, `[nb ${this.meter.address}] ${message}`);
  }

  /** Connect (idempotent); stays disconnected while the meter's `offline` fault is on. */
  start(): void {
    this.started = true;
    if (this.stopped || this.client || this.meter.faults.offline) return;
    this.stateValue = 'connecting';
    const suffix = Math.floor(this.env.rng.next() * 0xffffffff).toString(16).padStart(8, '0');
    const client = connect(this.env.mqttUrl, {
      clientId: `sim-${this.meter.address}-${suffix}`,
      clean: true,
      keepalive: 30,
      reconnectPeriod: this.env.reconnectMs,
      connectTimeout: 10_000,
      ...this.env.mqttOptions,
      ...(this.env.credentials ?? {}),
      will: { topic: this.upTopic, payload: Buffer.from(OFFLINE), qos: 1, retain: true },
    });
    this.client = client;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.stats.connects++;
      this.stateValue = 'online';
      client.publish(this.upTopic, ONLINE, { qos: 1, retain: true });
      client.subscribe(this.downTopic, { qos: 1 });
      this.log('info', 'connected');
      this.env.onEvent?.({ type: 'nbOnline', address: this.meter.address });
      this.startReports();
    });
    client.on('message', (topic, payload) => {
      if (this.client === client && topic === this.downTopic) this.onDown(client, payload);
    });
    client.on('error', (err) => {
      this.stats.lastError = err.message;
    });
    client.on('close', () => {
      if (this.client !== client) return;
      const was = this.stateValue;
      this.stopReports();
      if (was === 'online') {
        this.stateValue = 'connecting'; // mqtt.js reconnects on its own
        this.env.onEvent?.({ type: 'nbOffline', address: this.meter.address, reason: this.stats.lastError || 'connection closed' });
      }
    });
  }

  /**
   * Follow the meter's `offline` fault: drop the connection abruptly (the broker publishes the
   * last will `{"online":false}`), or reconnect when cleared.
   */
  syncOffline(): void {
    if (this.stopped) return;
    if (this.meter.faults.offline) {
      const client = this.client;
      if (!client) {
        this.stateValue = 'offline';
        return;
      }
      this.client = null;
      this.stopReports();
      this.clearReplies();
      const wasOnline = this.stateValue === 'online';
      this.stateValue = 'offline';
      client.end(true); // no DISCONNECT packet: the broker sends the will
      if (wasOnline) this.env.onEvent?.({ type: 'nbOffline', address: this.meter.address, reason: 'offline fault' });
    } else if (!this.client) {
      if (this.started) this.start();
      else this.stateValue = 'idle';
    }
  }

  /** Publish a report with the current reading. False when not connected or the meter cannot talk. */
  report(): boolean {
    const client = this.client;
    if (!client || this.stateValue !== 'online' || !this.meter.reachable) return false;
    client.publish(this.upTopic, JSON.stringify({ frame: toHex(this.meter.reportFrame(), '') }), { qos: 0 });
    this.stats.reports++;
    return true;
  }

  /** Gracefully go away: retained `{"online":false}`, then DISCONNECT. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopReports();
    this.clearReplies();
    const client = this.client;
    this.client = null;
    this.stateValue = 'stopped';
    if (!client) return;
    if (client.connected) {
      try {
        await client.publishAsync(this.upTopic, OFFLINE, { qos: 1, retain: true });
      } catch {
        // connection went away meanwhile: the will covers it
      }
      await client.endAsync();
    } else {
      await client.endAsync(true);
    }
  }

  private onDown(client: MqttClient, payload: Buffer): void {
    this.stats.framesIn++;
    let bytes: Uint8Array;
    let nonce: string | undefined;
    try {
      const body: unknown = JSON.parse(payload.toString('utf8'));
      const frame = (body as { frame?: unknown } | null)?.frame;
      if (typeof frame !== 'string') throw new Error('no frame');
      const n = (body as { nonce?: unknown }).nonce;
      if (typeof n === 'string') nonce = n;
      if (this.env.credentials && !this.authentic(body as DownMessage)) {
        this.stats.refusedDown++;
        return;
      }
      bytes = fromHex(frame);
    } catch {
      this.stats.badFramesIn++;
      return;
    }
    const decoded = decodeFrame(this.meter.protocol, bytes);
    if (!decoded) {
      this.stats.badFramesIn++;
      return;
    }
    const reply = this.meter.handle(decoded);
    if (!reply) return;
    const send = () => {
      if (this.client !== client || this.stateValue !== 'online') return;
      // the down message's nonce goes back with the answer: a copy mqtt.js sends again after a reconnect is known as one
      client.publish(this.upTopic, JSON.stringify({ frame: toHex(stripPreamble(reply.bytes), ''), ...(nonce !== undefined && { nonce }) }), { qos: 1 });
      this.stats.framesOut++;
    };
    const delay = reply.delayMs + this.env.replyLatencyMs;
    if (delay <= 0) send();
    else {
      const timer = setTimeout(() => {
        this.replyTimers.delete(timer);
        send();
      }, delay);
      this.replyTimers.add(timer);
    }
  }

  /** A down message signed with this meter's password, not expired, with a nonce not seen before. */
  private authentic(m: DownMessage): boolean {
    const { id, frame, exp, nonce, sig } = m;
    if (typeof exp !== 'number' || typeof nonce !== 'string' || typeof sig !== 'string' || typeof id !== 'number') return false;
    const want = createHmac('sha256', this.env.credentials!.password).update(`${this.downTopic}\n${exp}\n${nonce}\n${id}\n${frame}`).digest();
    const got = Buffer.from(sig, 'hex');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return false;
    const now = Date.now();
    if (exp < now || this.nonces.has(nonce)) return false;
    for (const [n, e] of this.nonces) if (e < now) this.nonces.delete(n);
    this.nonces.set(nonce, exp);
    return true;
  }

  private startReports(): void {
    this.stopReports();
    const period = this.env.reportIntervalMs;
    if (period <= 0) return;
    // First report soon after connecting (spread out), then every period.
    const first = Math.round(Math.min(period, 2_000) * this.env.rng.next());
    this.reportTimer = setTimeout(() => {
      this.report();
      this.reportTimer = setInterval(() => this.report(), period);
    }, first);
  }

  private stopReports(): void {
    if (this.reportTimer) {
      clearTimeout(this.reportTimer);
      clearInterval(this.reportTimer);
    }
    this.reportTimer = null;
  }

  private clearReplies(): void {
    for (const t of this.replyTimers) clearTimeout(t);
    this.replyTimers.clear();
  }
}
