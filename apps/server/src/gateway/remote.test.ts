import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DLT645_DI } from '@meter/protocol';
import { DeviceError } from './channel.ts';
import type { ExecReply, ExecRequest } from './exec.ts';
import { dlt } from './frames.ts';
import { RemoteGateway } from './remote.ts';
import { Sealer } from './security.ts';

// The worker's side of gateway/exec, against a fake MQTT client: what it concludes from the gateway's
// messages and from their absence. Only the gateway can say a request was not sent.

const sealer = new Sealer(Buffer.alloc(32, 7), { warn: () => {} });
const ADDRESS = '000000000001';
const route = { address: ADDRESS, protocol: 'dlt645' as const, imei: '860000000000001', mqtt: false };

class FakeClient extends EventEmitter {
  readonly sent: { topic: string; body: ExecRequest }[] = [];
  publish(topic: string, payload: string) {
    const opened = sealer.open(topic, Buffer.from(payload));
    if (opened) this.sent.push({ topic, body: JSON.parse(opened.body) });
    return this;
  }
  async subscribeAsync() {
    return [];
  }
  async publishAsync(topic: string, payload: string) {
    return this.publish(topic, payload);
  }
  /** the gateway answers on the request's reply topic */
  answer(m: ExecReply) {
    const to = this.sent.find((x) => x.topic.endsWith('gateway/exec'))!.body.replyTo;
    this.emit('message', to, Buffer.from(sealer.seal(to, JSON.stringify(m))));
  }
}

async function remote() {
  const client = new FakeClient();
  const g = await RemoteGateway.connect(client, { replyTimeoutMs: 800, retries: 0, sealer, queueMs: 1000 });
  const outcome = g.transact(route, dlt.read(ADDRESS, DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量')).then(
    () => 'done',
    (e: DeviceError) => e.code,
  );
  const reqId = client.sent[0].body.reqId;
  return { client, outcome, reqId };
}

afterEach(() => vi.useRealTimers());

describe('RemoteGateway: a request queued at the gateway', () => {
  it("is busy only when the gateway says it dropped it unsent", async () => {
    vi.useFakeTimers();
    const { client, outcome, reqId } = await remote();
    client.answer({ reqId, state: 'queued' });
    client.answer({ reqId, state: 'failed', error: 'busy', message: '设备通道繁忙，请求排队超时，未下发' });
    expect(await outcome).toBe('busy');
  });

  it("whose `sent` comes late (a busy machine) is still waited for: its answer counts, it is never called unsent", async () => {
    vi.useFakeTimers();
    const { client, outcome, reqId } = await remote();
    client.answer({ reqId, state: 'queued' });
    // past queueMs and its margin: the gateway put it on the wire just before its own limit
    await vi.advanceTimersByTimeAsync(3500);
    client.answer({ reqId, state: 'sent' });
    client.answer({ reqId, state: 'done', protocol: null, frame: null });
    expect(await outcome).toBe('done');
  });

  it('with no word at all from the gateway afterwards ends as timeout (outcome unknown), never busy', async () => {
    vi.useFakeTimers();
    const { client, outcome, reqId } = await remote();
    client.answer({ reqId, state: 'queued' });
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 800 + 2000 + 1);
    expect(await outcome).toBe('timeout');
    // and the gateway is told to drop it, should it still hold it
    expect(client.sent.some((x) => x.topic.endsWith('gateway/cancel'))).toBe(true);
  });
});
