import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { MQTT_URL } from '../modules/control/harness.test-util.ts';
import { connectMqttWaiting } from './mqtt.ts';

// A process whose external broker (MQTT_URL) is not up yet waits for it instead of running cut off
// from the other processes (start.ts turns a final failure into a start-up error). The broker here is
// the machine's Mosquitto, reached through a port that only starts forwarding after a while.

const broker = new URL(MQTT_URL);

function lateProxy(afterMs: number) {
  const server = net.createServer((c) => {
    const u = net.connect(Number(broker.port || 1883), broker.hostname);
    c.pipe(u).pipe(c);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
  });
  return new Promise<{ url: string; close: () => void; opened: Promise<void> }>((resolve) => {
    // take a free port, let it go (connections are refused), listen on it again later
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => {
        let timer: NodeJS.Timeout | undefined;
        const opened = new Promise<void>((r) => (timer = setTimeout(() => server.listen(port, '127.0.0.1', () => r()), afterMs)));
        const close = () => {
          clearTimeout(timer);
          if (server.listening) server.close();
        };
        resolve({ url: `mqtt://127.0.0.1:${port}`, close, opened });
      });
    });
  });
}

describe('connecting to a broker that is not up yet', () => {
  it('tries again until the broker answers, logging each wait', async () => {
    const p = await lateProxy(1500);
    const warnings: string[] = [];
    try {
      const client = await connectMqttWaiting(p.url, 'test-late', undefined, { waitMs: 20_000, log: { warn: (_o, m) => warnings.push(m) } });
      expect(client.connected).toBe(true);
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings[0]).toBe('MQTT 服务暂不可达，稍后重试');
      await client.endAsync();
    } finally {
      await p.opened;
      p.close();
    }
  }, 30_000);

  it('gives up with the network error once the wait is over', async () => {
    const p = await lateProxy(60_000);
    const t0 = Date.now();
    await expect(connectMqttWaiting(p.url, 'test-never', undefined, { waitMs: 2500, log: { warn: () => {} } })).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    p.close();
  }, 30_000);
});
