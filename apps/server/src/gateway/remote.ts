import { randomUUID } from 'node:crypto';
import type { IClientOptions } from 'mqtt';
import { fromHex } from '@meter/protocol';
import type { Route } from '../modules/control/index.ts';
import { DeviceError } from './channel.ts';
import { execTopics, parseExecReply, type ExecCancel, type ExecReply, type ExecRequest } from './exec.ts';
import { decodeFrame, type Decoded, type DeviceRequest } from './frames.ts';
import type { GatewayClient } from './gateway.ts';
import type { Sealer } from './security.ts';

// A worker in a process without the gateway role reaches devices through the gateway process that
// holds their connection (messages: exec.ts). The holder acknowledges at once (`queued`), says when
// the frame goes on the wire (`sent`), then answers. The worker's deadlines follow those steps:
//   - no `queued` within ackMs: no gateway holds the device → offline;
//   - `queued` and then dropped by the gateway at queueMs (its `failed` busy): the connection's queue is too
//     long → busy, never sent. Only the gateway can say a frame was not sent: its `sent` may be on its way
//     when a clock here runs out (a busy machine delays MQTT). Nothing at all within queueMs + the tries
//     on the wire (+ margins): the gateway is gone and the outcome unknown → timeout (an actuation is
//     then read back), never busy;
//   - `sent` but no answer within tries × timeout (+ a margin) → timeout (an actuation is then read back).
// A request given up is cancelled on gateway/cancel, and the worker's MQTT will cancels all of its
// requests when it dies, so the gateway never sends a frame nobody waits for.
// Every message is signed (Sealer). A request's signed expiry is its validity: the time it may wait
// in the gateway's queue (queueMs) plus its tries on the wire — a gateway does not put it on the wire
// after that (a replayed or late request never actuates). The will is signed once, at connect, so it
// is valid for WILL_TTL_MS; being accepted once (replay cache), it still cancels only once.

/** What a worker needs of its MQTT client (an mqtt.js MqttClient is one). */
export interface ExecClient {
  on(event: 'message', listener: (topic: string, payload: Buffer) => void): unknown;
  publish(topic: string, payload: string, opts: { qos: 1 }): unknown;
  publishAsync(topic: string, payload: string, opts: { qos: 1 }): Promise<unknown>;
  subscribeAsync(topic: string, opts: { qos: 1 }): Promise<unknown>;
}

export interface RemoteOptions {
  replyTimeoutMs: number;
  retries: number;
  sealer: Sealer;
  prefix?: string;
  /** how long a request may wait in the gateway's per-connection queue (default 60 s) */
  queueMs?: number;
  /** how long to wait for the holding gateway's acknowledgement (default max(2 s, replyTimeoutMs)) */
  ackMs?: number;
  /** this worker's reply topic (from {@link RemoteGateway.identity}, so the will names it) */
  replyTo?: string;
}

/** the will is signed when the connection is made and published whenever the worker dies */
export const WILL_TTL_MS = 30 * 24 * 3_600_000;

interface Waiting {
  resolve(d: Decoded | null): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
  wireMs: number;
}

const MARGIN_MS = 2000;

export class RemoteGateway implements GatewayClient {
  private readonly waiting = new Map<string, Waiting>();
  private readonly topics: ReturnType<typeof execTopics>;
  private readonly queueMs: number;
  private readonly ackMs: number;
  private closed = false;

  private constructor(
    private readonly client: ExecClient,
    private readonly opts: RemoteOptions,
    private readonly replyTo: string,
  ) {
    this.topics = execTopics(opts.prefix ?? '');
    this.queueMs = opts.queueMs ?? 60_000;
    this.ackMs = opts.ackMs ?? Math.max(2000, opts.replyTimeoutMs);
  }

  /** A reply topic for a new worker and the (signed) MQTT will that cancels its requests when it dies. */
  static identity(prefix: string, sealer: Sealer): { replyTo: string; will: NonNullable<IClientOptions['will']> } {
    const replyTo = `${prefix}gateway/reply/${randomUUID()}`;
    const gone: ExecCancel = { replyTo, gone: true };
    const topic = execTopics(prefix).cancel;
    return { replyTo, will: { topic, payload: Buffer.from(sealer.seal(topic, JSON.stringify(gone), WILL_TTL_MS)), qos: 1, retain: false } };
  }

  static async connect(client: ExecClient, opts: RemoteOptions) {
    const g = new RemoteGateway(client, opts, opts.replyTo ?? `${opts.prefix ?? ''}gateway/reply/${randomUUID()}`);
    client.on('message', (topic, payload) => {
      if (topic !== g.replyTo) return;
      const opened = opts.sealer.open(topic, payload);
      const m = opened ? parseExecReply(opened.body) : undefined;
      if (m) g.answer(m);
    });
    await client.subscribeAsync(g.replyTo, { qos: 1 });
    return g;
  }

  /** requests waiting for a gateway's answer */
  get pending() {
    return this.waiting.size;
  }

  transact(route: Route, req: DeviceRequest): Promise<Decoded | null> {
    if (this.closed) return Promise.reject(new DeviceError('offline'));
    const reqId = randomUUID();
    const tries = (req.retries ?? this.opts.retries) + 1;
    const wireMs = tries * (req.timeoutMs ?? this.opts.replyTimeoutMs) + MARGIN_MS;
    return new Promise((resolve, reject) => {
      const w: Waiting = { resolve, reject, wireMs, timer: this.deadline(reqId, this.ackMs, 'offline') };
      this.waiting.set(reqId, w);
      const msg: ExecRequest = { reqId, replyTo: this.replyTo, route, req, queueMs: this.queueMs };
      // valid while it may wait in the queue and then be tried on the wire
      this.publish(this.topics.exec, msg, this.queueMs + wireMs);
    });
  }

  private publish(topic: string, body: ExecRequest | ExecCancel, ttlMs?: number) {
    this.client.publish(topic, this.opts.sealer.seal(topic, JSON.stringify(body), ttlMs), { qos: 1 });
  }

  /** Tells the gateways this worker is leaving: its requests not yet on the wire are dropped. */
  async close() {
    this.closed = true;
    const gone: ExecCancel = { replyTo: this.replyTo, gone: true };
    await this.client.publishAsync(this.topics.cancel, this.opts.sealer.seal(this.topics.cancel, JSON.stringify(gone)), { qos: 1 }).catch(() => {});
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new DeviceError('offline'));
      this.waiting.delete(id);
    }
  }

  private deadline(reqId: string, ms: number, code: 'offline' | 'timeout'): NodeJS.Timeout {
    return setTimeout(() => {
      const w = this.waiting.get(reqId);
      if (!w) return;
      this.waiting.delete(reqId);
      // given up: the gateway must not send it any more (a frame already on the wire cannot be unsent)
      this.publish(this.topics.cancel, { replyTo: this.replyTo, reqIds: [reqId] });
      w.reject(new DeviceError(code));
    }, ms);
  }

  private answer(m: ExecReply) {
    const w = this.waiting.get(m.reqId);
    if (!w) return;
    if (m.state === 'queued' || m.state === 'sent') {
      clearTimeout(w.timer);
      w.timer = this.deadline(m.reqId, m.state === 'queued' ? this.queueMs + MARGIN_MS + w.wireMs : w.wireMs, 'timeout');
      return;
    }
    this.waiting.delete(m.reqId);
    clearTimeout(w.timer);
    if (m.state === 'failed') {
      w.reject(new DeviceError(m.error, m.message || undefined));
      return;
    }
    if (!m.frame || !m.protocol) {
      w.resolve(null);
      return;
    }
    try {
      w.resolve(decodeFrame(m.protocol, fromHex(m.frame)));
    } catch {
      w.reject(new DeviceError('invalid'));
    }
  }
}
