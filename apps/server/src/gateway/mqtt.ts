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
