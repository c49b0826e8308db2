import net from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

// The MQTT side: an embedded Aedes broker when no MQTT_URL is configured, and client connections
// (the gateway's meter channel, the event bus) to whichever broker is in use.

export interface Broker {
  url: string;
  close(): Promise<void>;
}

/** Starts the embedded broker (Aedes) on host:port. */
export async function startBroker(port: number, host = '0.0.0.0'): Promise<Broker> {
  const { Aedes } = await import('aedes');
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as net.AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        broker.close();
        // sockets of connected clients keep server.close() waiting: end them
        setTimeout(resolve, 500).unref();
      }),
  };
}

/** Connects a client that reconnects by itself; resolves once the first connection is up. */
export async function connectMqtt(url: string, clientIdPrefix: string, extra: Pick<IClientOptions, 'will'> = {}): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    ...extra,
    clientId: `${clientIdPrefix}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 5000,
  });
  client.on('error', () => {}); // reconnects by itself; errors surface as failed publishes
  return client;
}
