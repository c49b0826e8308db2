import { MeterCache } from './meter-cache.ts';
import type { Route } from '../modules/control/index.ts';
import type { RequestOptions } from './channel.ts';
import type { GatewayDeps, GatewayParts } from './context.ts';
import type { Decoded, DeviceRequest } from './frames.ts';
import { IngestBuffer } from './buffer.ts';
import { Dialogue } from './dialogue.ts';
import { DeviceHealth } from './health.ts';
import { TcpListener } from './listener.ts';
import { MqttMeters } from './mqtt-meters.ts';
import * as routing from './routing.ts';
import { RemoteServer } from './serve-remote.ts';

// The device gateway (docs/DEVICE-WIRE.md): a TCP listener for collectors/DTUs and 4G meters
// (registration by IMEI, heartbeat, transparent DL/T 645 / CJ/T 188 frames) and the MQTT channel of
// NB/4G meters (meter/<address>/up|down). It answers "send this frame to that meter and give me
// the reply" (transact) for the command worker, and stores what devices report by themselves.
// Devices authenticate: a collector registers with its archive's secret (a 4G meter with one derived
// from the server secret), and its reports count only for the meters behind it; MQTT down messages
// are signed with the meter's key; gateway/exec requests must be signed and fresh (security.ts).
//
// The parts, each in its own file: listener.ts (TCP), mqtt-meters.ts (NB/4G over MQTT),
// dialogue.ts (frames in: replies and reports), routing.ts (which way to a meter), health.ts
// (online, last seen, low battery) and buffer.ts (readings and the frame log for the database).

export type { GatewayDeps, GatewaySettings } from './context.ts';

/** What the worker needs from a gateway: a frame to a meter, and its reply. */
export interface GatewayClient {
  transact(route: Route, req: DeviceRequest): Promise<Decoded | null>;
}

export class Gateway implements GatewayClient {
  private readonly parts: GatewayParts;
  private timers: NodeJS.Timeout[] = [];
  private remote: RemoteServer | undefined;

  constructor(private readonly deps: GatewayDeps) {
    const parts: { -readonly [K in keyof GatewayParts]?: GatewayParts[K] } = {
      deps,
      log: deps.log,
      prefix: deps.settings.topicPrefix ?? '',
      meters: new MeterCache(deps.db, deps.log),
      stopped: false,
    };
    const g = parts as GatewayParts;
    parts.listener = new TcpListener(g);
    parts.dialogue = new Dialogue(g);
    parts.mqtt = new MqttMeters(g);
    parts.health = new DeviceHealth(g);
    parts.buffer = new IngestBuffer(g);
    this.parts = g;
  }

  get log() {
    return this.deps.log;
  }

  /** the TCP port actually listened on */
  get port(): number {
    return this.parts.listener.port;
  }

  stats() {
    const { listener, mqtt, buffer, meters } = this.parts;
    const down = buffer.databaseDownSince;
    return {
      connections: listener.counts.connections,
      sockets: listener.counts.sockets,
      mqttMeters: mqtt.size,
      readingsStored: buffer.readingsStored,
      /** readings waiting to be stored, and reports waiting for their meter to be looked up */
      backlog: buffer.queuedReadings + meters.pending,
      databaseDownMs: down ? Date.now() - down : 0,
    };
  }

  async start() {
    const s = this.deps.settings;
    const { listener, health, buffer, mqtt } = this.parts;
    await listener.listen();
    const hbMs = s.heartbeatSeconds * 1000;
    this.timers.push(setInterval(() => listener.sweep(), Math.max(200, Math.min(5000, hbMs / 2))));
    this.timers.push(setInterval(() => buffer.kick(), 500));
    this.timers.push(setInterval(() => void health.flushOnline(), 200));
    this.timers.push(setInterval(() => void health.flushRegistered(), 200));
    this.timers.push(setInterval(() => void health.flushSeen(), Math.max(1000, Math.min(15_000, hbMs))));
    for (const t of this.timers) t.unref();
    await mqtt.start();
    if (this.deps.mqtt) {
      this.remote = new RemoteServer(this, this.deps.mqtt, this.deps.db, this.log, this.deps.security.sealer, this.parts.prefix);
      await this.remote.start();
    }
    this.log.info({ port: this.port }, '设备网关已启动');
  }

  async stop() {
    const { listener, health, buffer, mqtt } = this.parts;
    this.parts.stopped = true;
    buffer.stopping();
    await mqtt.stopLease();
    for (const t of this.timers) clearInterval(t);
    buffer.cancelLinger();
    listener.destroyAll();
    mqtt.closeAll();
    await listener.close();
    await this.flush();
    await health.flushRegistered();
    await health.flushOnline();
    await health.flushSeen();
  }

  /** Does this gateway hold a way to the meter? */
  holds(route: Route): boolean {
    return routing.holds(this.parts, route);
  }

  transact(route: Route, req: DeviceRequest, opts?: RequestOptions): Promise<Decoded | null> {
    return routing.transact(this.parts, route, req, opts);
  }

  /** serving the MQTT meters now (holds the lease) */
  get servesMqttMeters() {
    return this.parts.mqtt.serves;
  }

  /** Reported readings not yet being stored (backpressure, diagnostics). */
  get queuedReadings(): number {
    return this.parts.buffer.queuedReadings;
  }

  /** Writes buffered reports and readings (at stop, and when tests ask); resolves once all are written. */
  flush(): Promise<void> {
    return this.parts.buffer.flush();
  }
}
