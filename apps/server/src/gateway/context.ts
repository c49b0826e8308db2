import type { Logger } from 'pino';
import type { MqttClient } from 'mqtt';
import type { Db } from '../db/client.ts';
import type { EventBus } from '../modules/realtime/index.ts';
import type { DeviceSecrets, Sealer } from './security.ts';
import type { MeterCache } from './meter-cache.ts';
import type { IngestBuffer } from './buffer.ts';
import type { DeviceHealth } from './health.ts';
import type { Dialogue } from './dialogue.ts';
import type { TcpListener } from './listener.ts';
import type { MqttMeters } from './mqtt-meters.ts';

// What the parts of the device gateway share (gateway.ts wires them): its settings and
// dependencies, and each part, so that one reaches another through here.

export interface GatewaySettings {
  host: string;
  /** 0 = any free port (tests) */
  port: number;
  heartbeatSeconds: number;
  replyTimeoutMs: number;
  retries: number;
  /**
   * may serve the MQTT meter channel: the one gateway holding the lease in PostgreSQL does
   * (db/lease.ts); the others wait and take over within `mqttLeaseRetryMs` of the holder's death
   */
  mqttMeters: boolean;
  /** how often a standby gateway tries to take the MQTT meter lease (default 2000 ms) */
  mqttLeaseRetryMs?: number;
  /** prepended to every MQTT topic (default '') */
  topicPrefix?: string;
  /**
   * Which frames go to device_reports: 'all', or 'control' (default): control frames and their
   * replies, malformed input, and reports not stored as readings. Every reading is in `readings`
   * anyway; logging every routine report would double the rows written per reading.
   */
  frameLog?: 'all' | 'control';
}

export interface GatewayDeps {
  db: Db;
  bus: EventBus;
  log: Logger;
  /** the MQTT connection for meter/+/up|down (and remote requests) */
  mqtt?: MqttClient;
  settings: GatewaySettings;
  /** device credentials and the signer of internal messages */
  security: { secrets: DeviceSecrets; sealer: Sealer };
}

/** The parts of one gateway. */
export interface GatewayParts {
  readonly deps: GatewayDeps;
  readonly log: Logger;
  /** prepended to every MQTT topic */
  readonly prefix: string;
  /** the meters by address, cached */
  readonly meters: MeterCache;
  /** TCP: collectors/DTUs and 4G meters */
  readonly listener: TcpListener;
  /** MQTT: NB/4G meters */
  readonly mqtt: MqttMeters;
  /** frames in: to the request waiting for them, or stored as the device's own report */
  readonly dialogue: Dialogue;
  /** online/offline state, last seen, low battery */
  readonly health: DeviceHealth;
  /** readings and the frame log, buffered for the database */
  readonly buffer: IngestBuffer;
  /** set once stop() has begun */
  stopped: boolean;
}
