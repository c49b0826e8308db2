import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Credentials } from './security.ts';

// MQTT client connections (the gateway's meter channel, the event bus) to whichever broker is in
// use: the embedded one (broker.ts) or MQTT_URL.

export { startBroker, type Broker } from './broker.ts';

/** Connects a client that reconnects by itself; resolves once the first connection is up. */
/** `login`: the service's broker credentials; `extra.will`: a message the broker publishes if the client dies. */
export async function connectMqtt(
  url: string,
  clientIdPrefix: string,
  login?: Credentials,
  extra: Pick<IClientOptions, 'will'> = {},
): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    ...extra,
    clientId: `${clientIdPrefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 5000,
    ...(login ? { username: login.username, password: login.password } : {}),
  });
  client.on('error', () => {}); // reconnects by itself; errors surface as failed publishes
  return client;
}

/**
 * connectMqtt, tried again while the broker is unreachable (an external broker starting after this
 * process, or restarting): every 1, 2, 4 … 10 s until `waitMs` has passed, each try logged. A refusal
 * by the broker itself (wrong credentials, not authorised) is not tried again.
 */
export async function connectMqttWaiting(
  url: string,
  clientIdPrefix: string,
  login: Credentials | undefined,
  o: { waitMs: number; log: { warn(o: object, msg: string): void }; extra?: Pick<IClientOptions, 'will'> },
): Promise<MqttClient> {
  const until = Date.now() + o.waitMs;
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      return await connectMqtt(url, clientIdPrefix, login, o.extra);
    } catch (e) {
      // a CONNACK refusal carries its return code as a number; a network failure a string (ECONNREFUSED …)
      if (typeof (e as { code?: unknown }).code === 'number' || Date.now() + delay > until) throw e;
      o.log.warn({ err: e, url, retryInMs: delay }, 'MQTT 服务暂不可达，稍后重试');
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
