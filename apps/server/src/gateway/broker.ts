import net from 'node:net';
import { Duplex, Transform } from 'node:stream';
import type { Logger } from 'pino';
import { LogThrottle, sameText, type DeviceSecrets, type ServiceRole } from './security.ts';

// The embedded MQTT broker (Aedes) with the same rules an external Mosquitto/EMQX gets in
// docs/OPERATIONS.md: every client logs in (server roles svc-gateway/svc-worker/svc-api, NB meters
// with their address and derived password), topic ACLs, a payload size limit enforced before a
// packet is buffered, and a per-client message rate limit. Refusals are logged at a throttled rate.

export interface Broker {
  url: string;
  close(): Promise<void>;
}

export interface BrokerOptions {
  port: number;
  /** default 127.0.0.1: NB meters outside this machine need MQTT_HOST=0.0.0.0 (or an external broker with TLS) */
  host?: string;
  secrets: DeviceSecrets;
  /** MQTT_TOPIC_PREFIX */
  prefix?: string;
  log: Pick<Logger, 'warn' | 'info'>;
  /** largest MQTT packet accepted, bytes (default 64 KiB) */
  maxPacketBytes?: number;
  /** messages a meter may publish per second on average (burst: 5 s worth) (default 5) */
  meterRate?: number;
}

type Role = ServiceRole | 'meter';
interface Identity {
  role: Role;
  /** the meter's address (role meter) */
  address?: string;
  /** token bucket of a meter */
  tokens: number;
  refilledAt: number;
}

const identities = new WeakMap<object, Identity>();
const METER_USER = /^[0-9A-Fa-f]{1,16}$/;

/** Which topics a role may publish to / subscribe to (topics without the prefix). */
export function allowed(role: Role, address: string | undefined, action: 'publish' | 'subscribe', topic: string): boolean {
  if (role === 'meter') return topic === `meter/${address}/${action === 'publish' ? 'up' : 'down'}`;
  if (action === 'subscribe') {
    if (topic === 'events/+/+' || topic === 'internal/+') return true;
    if (role === 'gateway') return topic === 'meter/+/up' || topic === 'gateway/exec' || topic === 'gateway/cancel';
    return role === 'worker' && /^gateway\/reply\/[A-Za-z0-9-]{1,64}$/.test(topic);
  }
  if (/^events\/\d{1,12}\/(reading|command|online|warning)$/.test(topic) || /^internal\/[A-Za-z0-9_-]{1,64}$/.test(topic)) return true;
  if (role === 'gateway') return /^meter\/[0-9A-Fa-f]{1,16}\/down$/.test(topic) || /^gateway\/reply\/[A-Za-z0-9-]{1,64}$/.test(topic);
  // gateway/cancel: a worker's requests given up, or its will (it is gone)
  return role === 'worker' && (topic === 'gateway/exec' || topic === 'gateway/cancel');
}

/**
 * Passes an MQTT byte stream through while reading each packet's fixed header: a packet announcing
 * more than `max` bytes ends the connection before its body is buffered anywhere.
 */
export function packetSizeGuard(max: number, onTooBig: (bytes: number) => void): Transform {
  let state: 'type' | 'length' | 'body' = 'type';
  let length = 0;
  let multiplier = 1;
  let left = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let i = 0;
      while (i < chunk.length) {
        if (state === 'body') {
          const take = Math.min(left, chunk.length - i);
          left -= take;
          i += take;
          if (left === 0) state = 'type';
          continue;
        }
        if (state === 'type') {
          state = 'length';
          length = 0;
          multiplier = 1;
          i++;
          continue;
        }
        const b = chunk[i++];
        length += (b & 0x7f) * multiplier;
        multiplier *= 128;
        if (b & 0x80) {
          if (multiplier > 128 ** 4) return done(new Error('malformed remaining length'));
          continue;
        }
        if (length > max) {
          onTooBig(length);
          return done(new Error('packet too large'));
        }
        left = length;
        state = left ? 'body' : 'type';
      }
      done(null, chunk);
    },
  });
}

/** Starts the embedded broker (Aedes) on host:port with authentication and ACLs. */
export async function startBroker(o: BrokerOptions): Promise<Broker> {
  const { Aedes } = await import('aedes');
  const prefix = o.prefix ?? '';
  const maxPacket = o.maxPacketBytes ?? 64 * 1024;
  const rate = o.meterRate ?? 5;
  const refusedLogin = new LogThrottle(o.log, 'MQTT 登录被拒绝（用户名或密码错误）');
  const refusedTopic = new LogThrottle(o.log, 'MQTT 发布或订阅超出权限，已拒绝');
  const refusedSize = new LogThrottle(o.log, 'MQTT 报文超过大小上限，已断开');
  const refusedRate = new LogThrottle(o.log, 'MQTT 客户端发送过快，已断开');
  const services = (['gateway', 'worker', 'api'] as const).map((role) => ({ role, ...o.secrets.service(role) }));
  const strip = (topic: string) => (topic.startsWith(prefix) ? topic.slice(prefix.length) : null);

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      const pw = password ? password.toString('utf8') : '';
      const user = username ?? '';
      const svc = services.find((s) => s.username === user);
      let identity: Identity | undefined;
      if (svc && sameText(pw, svc.password)) identity = { role: svc.role, tokens: 0, refilledAt: 0 };
      else if (METER_USER.test(user) && sameText(pw, o.secrets.meter(user).password)) identity = { role: 'meter', address: user, tokens: rate * 5, refilledAt: Date.now() };
      if (!identity) {
        refusedLogin.hit({ clientId: client.id, username: user.slice(0, 64) });
        const err = Object.assign(new Error('bad username or password'), { returnCode: 4 as const });
        return done(err, false);
      }
      identities.set(client, identity);
      done(null, true);
    },
    authorizePublish(client, packet, done) {
      const who = client ? identities.get(client) : undefined;
      if (!who) return done(new Error('not authenticated'));
      const topic = strip(packet.topic);
      if (topic === null || !allowed(who.role, who.address, 'publish', topic)) {
        refusedTopic.hit({ clientId: client!.id, action: 'publish', topic: packet.topic.slice(0, 128) });
        return done(new Error('not authorized'));
      }
      if (who.role === 'meter') {
        const now = Date.now();
        who.tokens = Math.min(rate * 5, who.tokens + ((now - who.refilledAt) / 1000) * rate);
        who.refilledAt = now;
        if (who.tokens < 1) {
          refusedRate.hit({ clientId: client!.id, address: who.address });
          return done(new Error('rate limit'));
        }
        who.tokens--;
      }
      done(null);
    },
    authorizeSubscribe(client, sub, done) {
      const who = client ? identities.get(client) : undefined;
      const topic = strip(sub.topic);
      if (!who || topic === null || !allowed(who.role, who.address, 'subscribe', topic)) {
        refusedTopic.hit({ clientId: client?.id, action: 'subscribe', topic: sub.topic.slice(0, 128) });
        return done(null, null);
      }
      done(null, sub);
    },
  });

  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    const guard = packetSizeGuard(maxPacket, (bytes) => refusedSize.hit({ remote: socket.remoteAddress, bytes }));
    guard.on('error', () => socket.destroy());
    socket.pipe(guard);
    const conn = Duplex.from({ readable: guard, writable: socket });
    conn.on('close', () => socket.destroy());
    broker.handle(conn);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as net.AddressInfo;
  const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.address;
  return {
    url: `mqtt://${host}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        broker.close();
        // sockets of connected clients keep server.close() waiting: end them
        setTimeout(resolve, 500).unref();
      }),
  };
}
