import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { fromHex } from '@meter/protocol';
import type { Route } from '../modules/control/index.ts';
import { DeviceError, type DeviceErrorCode } from './channel.ts';
import { decodeFrame, type Decoded, type DeviceRequest, type Protocol } from './frames.ts';
import type { GatewayClient } from './gateway.ts';
import type { Sealer } from './security.ts';

// A worker in a process without the gateway role reaches devices through the gateway process that
// holds their connection: it publishes the request on gateway/exec; only the gateway that holds
// the route answers, on gateway/reply/<this node>. No answer in time = no gateway holds the device.
// Both are signed (Sealer); the request's signed expiry is its validity: a gateway that cannot put
// the frame on the wire before it does not send it at all (a replayed or late request never actuates).

interface Waiting {
  resolve(d: Decoded | null): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

export class RemoteGateway implements GatewayClient {
  private readonly replyTo: string;
  private readonly waiting = new Map<string, Waiting>();

  private constructor(
    private readonly client: MqttClient,
    private readonly replyTimeoutMs: number,
    private readonly retries: number,
    private readonly prefix: string,
    private readonly sealer: Sealer,
  ) {
    this.replyTo = `${prefix}gateway/reply/${randomUUID()}`;
  }

  static async connect(client: MqttClient, replyTimeoutMs: number, retries: number, prefix: string, sealer: Sealer) {
    const g = new RemoteGateway(client, replyTimeoutMs, retries, prefix, sealer);
    client.on('message', (topic, payload) => {
      if (topic !== g.replyTo) return;
      const opened = sealer.open(topic, payload);
      if (opened) g.answer(opened.body);
    });
    await client.subscribeAsync(g.replyTo, { qos: 0 });
    return g;
  }

  transact(route: Route, req: DeviceRequest): Promise<Decoded | null> {
    const reqId = randomUUID();
    const tries = (req.retries ?? this.retries) + 1;
    // the gateway queues per connection: allow for its own timeouts plus a margin
    const valid = tries * (req.timeoutMs ?? this.replyTimeoutMs);
    const wait = valid + 5000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(reqId);
        reject(new DeviceError('offline'));
      }, wait);
      this.waiting.set(reqId, { resolve, reject, timer });
      const topic = `${this.prefix}gateway/exec`;
      this.client.publish(topic, this.sealer.seal(topic, JSON.stringify({ reqId, replyTo: this.replyTo, route, req }), valid), { qos: 0 });
    });
  }

  private answer(body: string) {
    let msg: { reqId?: string; protocol?: Protocol | null; frame?: string | null; error?: DeviceErrorCode; message?: string };
    try {
      msg = JSON.parse(body);
    } catch {
      return;
    }
    const w = msg.reqId ? this.waiting.get(msg.reqId) : undefined;
    if (!w) return;
    this.waiting.delete(msg.reqId!);
    clearTimeout(w.timer);
    if (msg.error) {
      w.reject(new DeviceError(msg.error, msg.message));
      return;
    }
    if (!msg.frame || !msg.protocol) {
      w.resolve(null);
      return;
    }
    try {
      w.resolve(decodeFrame(msg.protocol, fromHex(msg.frame)));
    } catch {
      w.reject(new DeviceError('invalid'));
    }
  }
}
