import type { Logger } from 'pino';
import type { MqttClient } from 'mqtt';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { controlRepo, type Route } from '../modules/control/index.ts';
import { DeviceError, type RequestOptions } from './channel.ts';
import { execTopics, parseExecCancel, parseExecRequest, type ExecReply, type ExecRequest } from './exec.ts';
import type { Decoded, DeviceRequest } from './frames.ts';
import type { Sealer } from './security.ts';

// The gateway's side of gateway/exec (messages: exec.ts). A request is answered only by the gateway
// that holds the device: `queued` at once, `sent` when the frame goes on the wire, then the outcome.
// Requests cancelled by their worker — or all of a worker's, when its MQTT will says it is gone —
// are dropped if still queued. A frame of a gone worker that was already on the wire is answered by
// the device all the same: that outcome is recorded on its command by the gateway (reply.gateway),
// since nobody else saw it; the recovered command reads the device's state back before acting again.

export interface RemoteHost {
  holds(route: Route): boolean;
  transact(route: Route, req: DeviceRequest, opts?: RequestOptions): Promise<Decoded | null>;
}

interface Serving {
  replyTo: string;
  req: DeviceRequest;
  abort: AbortController;
  wired: boolean;
}

export class RemoteServer {
  private readonly serving = new Map<string, Serving>();
  /** workers known to be gone (their will came): their later requests are not served either */
  private readonly gone = new Set<string>();
  /** requests finished lately: a message delivered twice (QoS 1) is not carried out twice */
  private recent = new Set<string>();
  private older = new Set<string>();
  private readonly topics: ReturnType<typeof execTopics>;
  private readonly replyPrefix: string;

  constructor(
    private readonly host: RemoteHost,
    private readonly client: MqttClient,
    private readonly db: Db,
    private readonly log: Logger,
    private readonly sealer: Sealer,
    prefix: string,
  ) {
    this.topics = execTopics(prefix);
    this.replyPrefix = `${prefix}gateway/reply/`;
  }

  async start() {
    this.client.on('message', (topic, payload) => {
      if (topic !== this.topics.exec && topic !== this.topics.cancel) return;
      // unsigned, forged, expired or replayed: dropped (and counted) by the sealer
      const opened = this.sealer.open(topic, payload);
      if (!opened) return;
      if (topic === this.topics.exec) {
        const m = parseExecRequest(opened.body);
        if (!m || !m.replyTo.startsWith(this.replyPrefix)) return;
        // the signed expiry is the request's validity: the frame is not put on the wire after it
        this.exec({ ...m, req: { ...m.req, validUntil: opened.expiresAt } });
      } else {
        const m = parseExecCancel(opened.body);
        if (m) this.cancel(m.replyTo, m.reqIds, m.gone === true);
      }
    });
    await this.client.subscribeAsync([this.topics.exec, this.topics.cancel], { qos: 1 });
  }

  /** requests of other processes queued or in flight here */
  get pending() {
    return this.serving.size;
  }

  private reply(to: string, m: ExecReply) {
    this.client.publish(to, this.sealer.seal(to, JSON.stringify(m)), { qos: 1 });
  }

  private exec(m: ExecRequest) {
    if (this.gone.has(m.replyTo) || this.serving.has(m.reqId) || this.recent.has(m.reqId) || this.older.has(m.reqId)) return;
    if (!this.host.holds(m.route)) return;
    this.remember(m.reqId);
    const s: Serving = { replyTo: m.replyTo, req: m.req, abort: new AbortController(), wired: false };
    this.serving.set(m.reqId, s);
    this.reply(m.replyTo, { reqId: m.reqId, state: 'queued' });
    const onWire = () => {
      s.wired = true;
      this.reply(m.replyTo, { reqId: m.reqId, state: 'sent' });
    };
    this.host.transact(m.route, m.req, { onWire, signal: s.abort.signal, queueMs: m.queueMs }).then(
      (d) => {
        this.serving.delete(m.reqId);
        if (this.gone.has(m.replyTo)) void this.orphanOutcome(s, { answered: true, frame: d?.hex ?? null });
        else this.reply(m.replyTo, { reqId: m.reqId, state: 'done', protocol: d?.protocol ?? null, frame: d?.hex ?? null });
      },
      (e: unknown) => {
        this.serving.delete(m.reqId);
        const err = e instanceof DeviceError ? e : new DeviceError('offline');
        if (this.gone.has(m.replyTo)) {
          if (s.wired) void this.orphanOutcome(s, { answered: false, error: err.message });
        } else this.reply(m.replyTo, { reqId: m.reqId, state: 'failed', error: err.code, message: err.message });
      },
    );
  }

  /** two generations of 10,000 ids: lookups stay O(1), memory bounded */
  private remember(reqId: string) {
    this.recent.add(reqId);
    if (this.recent.size >= 10_000) {
      this.older = this.recent;
      this.recent = new Set();
    }
  }

  private cancel(replyTo: string, reqIds: string[] | undefined, gone: boolean) {
    if (gone) {
      this.gone.add(replyTo);
      // a will is a one-off: forget it after a while (reply topics are never reused)
      setTimeout(() => this.gone.delete(replyTo), 3_600_000).unref();
    }
    for (const [id, s] of this.serving) {
      if (s.replyTo !== replyTo || (reqIds && !reqIds.includes(id))) continue;
      s.abort.abort();
    }
    if (gone) {
      const inFlight = [...this.serving.values()].filter((s) => s.replyTo === replyTo && s.wired).length;
      this.log.warn({ worker: replyTo, inFlight }, '指令执行进程已退出：其未下发的请求已取消');
    }
  }

  /** The device answered (or not) a frame whose worker is gone: recorded on its command. */
  private async orphanOutcome(s: Serving, outcome: { answered: boolean; frame?: string | null; error?: string }) {
    if (!s.req.ref) return;
    try {
      await this.db.tx(SYSTEM_SCOPE, (tx) =>
        controlRepo.recordGatewayOutcome(tx, s.req.ref!, { label: s.req.label, ...outcome, at: new Date().toISOString() }),
      );
    } catch (e) {
      this.log.error({ err: e, commandId: s.req.ref }, '记录已退出执行进程的指令应答失败');
    }
  }
}
