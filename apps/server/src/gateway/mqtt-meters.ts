import type { MqttClient } from 'mqtt';
import { fromHex } from '@meter/protocol';
import { SYSTEM_SCOPE } from '../db/client.ts';
import { LEASE, leaseKeyOf, SessionLease } from '../db/lease.ts';
import { Channel, DeviceError } from './channel.ts';
import type { GatewayParts } from './context.ts';
import { hex, singleFrame } from './frames.ts';
import { ERROR_REPORTS_PER_MINUTE } from './listener.ts';
import * as repo from './repo.ts';
import { LogThrottle, signDown } from './security.ts';

// The gateway's NB/4G side: meters on MQTT (meter/<address>/up|down). One gateway serves them, the
// one holding the lease in PostgreSQL; down messages are signed with the meter's key.

/** how long an answer's nonce is remembered (a meter's copy sent again after a reconnect comes within it) */
export const REPLY_MEMORY_MS = 60 * 60_000;
/** and how many at the most (≈ 100 bytes each), the oldest forgotten first */
const REPLY_MEMORY_MAX = 200_000;

export class MqttMeters {
  private readonly channels = new Map<string, Channel>();
  private readonly online = new Map<string, boolean>();
  private readonly junk: LogThrottle;
  private readonly repeats: LogThrottle;
  /**
   * `<address> <nonce>` of the answers taken in the last REPLY_MEMORY_MS, oldest first: mqtt.js sends a
   * QoS 1 message again after a reconnect when its ack was lost, and the copy of a read's answer,
   * taken for a report, would be stored with the later time of its arrival (a false 读数倒走 when a
   * newer reading came between).
   */
  private readonly answered = new Map<string, number>();
  /** malformed MQTT reports written to device_reports in the current minute (all meters together) */
  private errorBudget = { minute: 0, used: 0 };
  private readonly downNonce = { n: 0, base: Math.random().toString(36).slice(2, 8) };
  private lease: SessionLease | undefined;
  private serving = false;
  private listening = false;

  constructor(private readonly g: GatewayParts) {
    this.junk = new LogThrottle(g.log, 'MQTT 上报异常，已丢弃');
    this.repeats = new LogThrottle(g.log, '表具重发的 MQTT 应答（已收到过），已丢弃');
  }

  private get log() {
    return this.g.log;
  }

  private get prefix() {
    return this.g.prefix;
  }

  /** serving the MQTT meters now (holds the lease) */
  get serves() {
    return this.serving;
  }

  /** meters with a channel */
  get size() {
    return this.channels.size;
  }

  /** Waits for the lease (if this gateway may serve MQTT meters): serving starts once it is held. */
  async start() {
    const s = this.g.deps.settings;
    if (!this.g.deps.mqtt || !s.mqttMeters) return;
    const client = this.g.deps.mqtt;
    this.lease = new SessionLease({
      db: this.g.deps.db,
      key: LEASE.mqttMeters,
      sub: leaseKeyOf(this.prefix),
      log: this.log,
      name: 'MQTT 表具通道',
      retryMs: s.mqttLeaseRetryMs ?? 2000,
      pingMs: Math.min(2000, s.mqttLeaseRetryMs ?? 2000),
      onAcquired: () => this.startServing(client),
      onLost: () => this.stopServing(client),
    });
    await this.lease.start();
    if (!this.lease.held) this.log.info('另一网关正在服务 MQTT 表具，本网关待命（对方退出后自动接管）');
  }

  /** Gives the lease up. */
  async stopLease() {
    await this.lease?.stop();
  }

  /** Closes every meter's channel. */
  closeAll() {
    for (const ch of this.channels.values()) ch.close(new DeviceError('closed'));
  }

  /** the meter is known to be offline (it said so) */
  offline(address: string): boolean {
    return this.online.get(address) === false;
  }

  /** the meter's channel, if it has one */
  channelOf(address: string): Channel | undefined {
    return this.channels.get(address);
  }

  /** the meter's channel, opened if it has none */
  channel(address: string): Channel {
    let ch = this.channels.get(address);
    if (!ch || ch.closed) {
      const client = this.g.deps.mqtt!;
      ch = new Channel({
        timeoutMs: this.g.deps.settings.replyTimeoutMs,
        retries: this.g.deps.settings.retries,
        send: (bytes, req) => {
          if (!client.connected) throw new DeviceError('offline');
          client.publish(`${this.prefix}meter/${address}/down`, this.down(address, req.ref ?? 0, hex(bytes)), { qos: 1 });
          if (req.log) {
            const m = this.g.meters.peek(address);
            if (m) this.g.buffer.report(m.companyId, m.id, null, 'down', 'mqtt', hex(bytes), { label: req.label }, '');
          }
        },
        onReply: (req, d) => this.g.dialogue.replied(req, d, 'mqtt', null),
        onTimeout: (req) => void this.g.health.unanswered(req),
      });
      this.channels.set(address, ch);
    }
    return ch;
  }

  /** A down message signed with the meter's key, valid for a minute, with a nonce the meter remembers. */
  private down(address: string, id: number, frame: string): string {
    const topic = `${this.prefix}meter/${address}/down`;
    const nonce = `${this.downNonce.base}${(this.downNonce.n++).toString(36)}`;
    return signDown(this.g.deps.security.secrets.meter(address).password, topic, id, frame, Date.now() + 60_000, nonce);
  }

  /** The lease is ours: serve the MQTT meters. */
  private async startServing(client: MqttClient) {
    if (!this.listening) {
      this.listening = true;
      client.on('message', (topic, payload) => {
        if (!this.serving || !topic.startsWith(this.prefix)) return;
        const m = /^meter\/([0-9A-Fa-f]{1,16})\/up$/.exec(topic.slice(this.prefix.length));
        if (m) void this.up(m[1], payload);
      });
    }
    this.serving = true;
    await client.subscribeAsync(`${this.prefix}meter/+/up`, { qos: 1 });
    this.log.info('本网关开始服务 MQTT 表具');
  }

  /** The lease is lost: stop at once (another gateway may take it). */
  private async stopServing(client: MqttClient) {
    this.serving = false;
    for (const ch of this.channels.values()) ch.close(new DeviceError('offline'));
    this.channels.clear();
    await client.unsubscribeAsync(`${this.prefix}meter/+/up`).catch(() => {});
  }

  /** An answer to a down message already taken (same meter, same nonce): false for the first. */
  private repeated(address: string, nonce: unknown): boolean {
    if (typeof nonce !== 'string' || !nonce) return false;
    const now = Date.now();
    for (const [k, at] of this.answered) {
      if (now - at < REPLY_MEMORY_MS && this.answered.size < REPLY_MEMORY_MAX) break;
      this.answered.delete(k);
    }
    const key = `${address} ${nonce.slice(0, 64)}`;
    if (this.answered.has(key)) {
      this.repeats.hit({ address, nonce: key.slice(address.length + 1) });
      return true;
    }
    this.answered.set(key, now);
    return false;
  }

  private async up(address: string, payload: Buffer) {
    let msg: { frame?: unknown; online?: unknown; nonce?: unknown };
    try {
      msg = JSON.parse(payload.toString('utf8'));
      if (!msg || typeof msg !== 'object') throw new Error('not an object');
    } catch {
      await this.badInput(address, payload.subarray(0, 256).toString('hex'), '上报内容不是有效的 JSON');
      return;
    }
    if (typeof msg.online === 'boolean') {
      this.online.set(address, msg.online);
      if (!msg.online) this.channels.get(address)?.close(new DeviceError('offline'));
      if (!msg.online) this.channels.delete(address);
      const meter = await this.g.meters.get(address);
      if (!meter) return;
      if (msg.online) this.g.health.meterSeen(meter);
      else {
        this.g.meters.update(address, { online: false });
        const changed = await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, [meter.id], false));
        for (const c of changed) this.g.deps.bus.emit({ companyId: c.companyId, kind: 'online', body: { meterId: c.id, address, areaId: c.areaId, online: false } });
      }
      return;
    }
    if (typeof msg.frame !== 'string') {
      await this.badInput(address, payload.subarray(0, 256).toString('hex'), '上报内容缺少 frame 字段');
      return;
    }
    if (this.repeated(address, msg.nonce)) return;
    let frame;
    try {
      frame = singleFrame(fromHex(msg.frame));
    } catch (e) {
      await this.badInput(address, msg.frame.slice(0, 1024), `报文无效：${(e as Error).message}`);
      return;
    }
    this.online.set(address, true);
    this.g.dialogue.frame(null, frame.protocol, frame.bytes, 'mqtt', address);
  }

  /** Malformed input from an MQTT meter: logged (throttled) and written to the frame log (a budget a minute). */
  async badInput(address: string, hexText: string, error: string) {
    this.junk.hit({ address, error });
    const minute = Math.floor(Date.now() / 60_000);
    if (this.errorBudget.minute !== minute) this.errorBudget = { minute, used: 0 };
    if (this.errorBudget.used++ >= ERROR_REPORTS_PER_MINUTE * 5) return;
    const meter = await this.g.meters.get(address);
    if (meter) this.g.buffer.report(meter.companyId, meter.id, null, 'up', 'mqtt', hexText, null, error);
  }
}
