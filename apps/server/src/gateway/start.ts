import pino, { type Logger } from 'pino';
import type { MqttClient } from 'mqtt';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { Worker, type WorkerSettings } from '../jobs/worker.ts';
import type { ControlApi } from '../modules/control/index.ts';
import { EventBus } from '../modules/realtime/index.ts';
import { Gateway, type GatewayClient, type GatewaySettings } from './gateway.ts';
import { connectMqtt, connectMqttWaiting, startBroker, type Broker } from './mqtt.ts';
import { StartupError } from '../ops/startup.ts';
import { watchMqtt } from '../ops/health.ts';
import { RemoteGateway } from './remote.ts';
import { DeviceSecrets, Sealer, loadDeviceSecret } from './security.ts';
import type { Scheduler } from '../modules/scheduler/index.ts';

// Starts the device side of the roles this process runs (ROLES): the embedded MQTT broker (when no
// MQTT_URL is set and this process is a gateway), the event bus over MQTT, the gateway and the
// command worker. Single process (the default) runs everything; split roles meet over MQTT.

export function gatewaySettings(c: Config): GatewaySettings {
  return {
    host: c.GATEWAY_HOST,
    port: c.GATEWAY_PORT,
    heartbeatSeconds: c.HEARTBEAT_SECONDS,
    replyTimeoutMs: c.GATEWAY_REPLY_TIMEOUT_MS,
    retries: c.GATEWAY_RETRIES,
    mqttMeters: c.GATEWAY_MQTT_METERS,
    topicPrefix: c.MQTT_TOPIC_PREFIX,
    frameLog: c.GATEWAY_FRAME_LOG,
  };
}

export function workerSettings(c: Config): WorkerSettings {
  return {
    auth: { password: c.DLT645_PASSWORD, operator: c.DLT645_OPERATOR },
    clockDriftSeconds: c.CLOCK_DRIFT_SECONDS,
    retryDelayMs: c.COMMAND_RETRY_SECONDS * 1000,
    commandTtlMinutes: c.COMMAND_TTL_MINUTES,
    maxAttempts: c.COMMAND_MAX_ATTEMPTS,
    clockEveryHours: 24,
    concurrency: c.WORKER_CONCURRENCY,
    pollMs: 1000,
    readIntervalMinutes: c.READ_INTERVAL_MINUTES,
    offlineWarnMinutes: c.OFFLINE_WARN_MINUTES,
    noReadDays: c.NO_READ_DAYS,
    nbReportIntervalMinutes: c.NB_REPORT_INTERVAL_MINUTES,
    heartbeatSeconds: c.HEARTBEAT_SECONDS,
    replyTimeoutMs: c.GATEWAY_REPLY_TIMEOUT_MS,
    retries: c.GATEWAY_RETRIES,
    reportRetentionDays: c.REPORT_RETENTION_DAYS,
    orphanGraceSeconds: c.COMMAND_ORPHAN_GRACE_SECONDS,
    queueWaitMs: c.GATEWAY_QUEUE_WAIT_SECONDS * 1000,
  };
}

/** The in-process gateway as the worker's client: a request waits at most queueMs for its turn, then fails as busy (retried). */
export function withQueueWait(gateway: Pick<Gateway, 'transact'>, queueMs: number): GatewayClient {
  return { transact: (route, req) => gateway.transact(route, req, { queueMs }) };
}

export function controlApiSettings(c: Config): Omit<ControlApi, 'bus'> {
  return { commandTtlMinutes: c.COMMAND_TTL_MINUTES, maxAttempts: c.COMMAND_MAX_ATTEMPTS, waitMs: c.COMMAND_WAIT_SECONDS * 1000 };
}

export interface DeviceSide {
  bus: EventBus;
  log: Logger;
  /** device credentials (the demo fleet logs in with them) */
  secrets: DeviceSecrets;
  gateway?: Gateway;
  worker?: Worker;
  /** the MQTT broker URL in use ('' = none) */
  mqttUrl: string;
  /** this process's MQTT clients by use (for /healthz) */
  mqttClients: Record<string, MqttClient | undefined>;
  stop(): Promise<void>;
}

export async function startDeviceSide(
  config: Config,
  db: Db,
  log: Logger = pino({ level: config.LOG_LEVEL }),
  /** the process's scheduler: the worker's jobs are timed by it (main.ts) */
  scheduler?: Scheduler,
): Promise<DeviceSide> {
  const roles = config.roles;
  const bus = new EventBus(config.MQTT_TOPIC_PREFIX);
  const secrets = new DeviceSecrets(loadDeviceSecret(config.dataDir, config.DEVICE_SECRET));
  const sealer = new Sealer(secrets.signingKey, log.child({ role: 'mqtt' }));
  let broker: Broker | undefined;
  const clients: MqttClient[] = [];
  let mqttUrl = config.MQTT_URL ?? '';
  if (!mqttUrl && roles.has('gateway')) {
    broker = await startBroker({
      port: config.MQTT_PORT,
      host: config.MQTT_HOST,
      secrets,
      prefix: config.MQTT_TOPIC_PREFIX,
      log: log.child({ role: 'mqtt' }),
      maxPacketBytes: config.MQTT_MAX_PACKET_BYTES,
      meterRate: config.MQTT_METER_RATE,
    });
    mqttUrl = broker.url;
    log.info({ host: config.MQTT_HOST, port: config.MQTT_PORT }, '内置 MQTT 服务已启动');
  } else if (!mqttUrl) {
    mqttUrl = `mqtt://127.0.0.1:${config.MQTT_PORT}`;
  }
  let busClient: MqttClient | undefined;
  let gatewayClient: MqttClient | undefined;
  const busLogin = secrets.service(roles.has('worker') ? 'worker' : 'api');
  try {
    // the bus client carries the worker's requests too (RemoteGateway) when this process runs one.
    // An external broker (MQTT_URL) is what the processes of a deployment talk through: wait for it.
    busClient = config.MQTT_URL
      ? await connectMqttWaiting(mqttUrl, 'meter-bus', busLogin, { waitMs: config.MQTT_START_WAIT_SECONDS * 1000, log })
      : await connectMqtt(mqttUrl, 'meter-bus', busLogin);
    clients.push(busClient);
    watchMqtt(busClient, 'bus', log);
    await bus.attach(busClient, sealer);
  } catch (e) {
    if (config.MQTT_URL) {
      throw new StartupError(
        `无法连接 MQTT 服务 ${mqttUrl}（${(e as Error).message}，已等待 ${config.MQTT_START_WAIT_SECONDS} 秒）。`,
        '确认 broker 已启动、地址与端口正确、本服务的账号与 ACL 已配置（docs/OPERATIONS.md「External Mosquitto / EMQX」）；进程之间的事件与远程指令都经过它。',
        { cause: e },
      );
    }
    // without a broker this process still works on its own; other processes just do not see its events
    log.warn({ err: e, url: mqttUrl }, 'MQTT 连接失败，事件仅在本进程内传递');
    mqttUrl = '';
  }

  let gateway: Gateway | undefined;
  if (roles.has('gateway')) {
    const gwClient = mqttUrl ? await connectMqtt(mqttUrl, 'meter-gateway', secrets.service('gateway')) : undefined;
    if (gwClient) clients.push(gwClient);
    if (gwClient) watchMqtt(gwClient, 'gateway', log);
    gatewayClient = gwClient;
    gateway = new Gateway({ db, bus, log: log.child({ role: 'gateway' }), mqtt: gwClient, settings: gatewaySettings(config), security: { secrets, sealer } });
    await gateway.start();
  }

  let worker: Worker | undefined;
  let remote: RemoteGateway | undefined;
  if (roles.has('worker')) {
    const settings = workerSettings(config);
    // the gateway of this process: its queue wait is bounded as a remote gateway's is (GATEWAY_QUEUE_WAIT_SECONDS)
    let client: GatewayClient | undefined = gateway && withQueueWait(gateway, settings.queueWaitMs!);
    if (!client && mqttUrl) {
      // a connection of its own whose (signed) will tells the gateways this worker is gone (its queued frames are dropped)
      const id = RemoteGateway.identity(config.MQTT_TOPIC_PREFIX, sealer);
      const wClient = await connectMqtt(mqttUrl, 'meter-worker', secrets.service('worker'), { will: id.will });
      clients.push(wClient);
      watchMqtt(wClient, 'worker', log);
      remote = await RemoteGateway.connect(wClient, {
        replyTimeoutMs: settings.replyTimeoutMs,
        retries: settings.retries,
        sealer,
        prefix: config.MQTT_TOPIC_PREFIX,
        queueMs: config.GATEWAY_QUEUE_WAIT_SECONDS * 1000,
        replyTo: id.replyTo,
      });
      client = remote;
    }
    if (!client) throw new Error('worker 角色需要同进程的 gateway 角色，或可连接的 MQTT 服务（MQTT_URL）');
    worker = new Worker({ db, bus, gateway: client, log: log.child({ role: 'worker' }), settings, scheduler });
    worker.start();
  }

  return {
    bus,
    log,
    secrets,
    gateway,
    worker,
    mqttUrl,
    mqttClients: { bus: busClient, gateway: gatewayClient },
    async stop() {
      await worker?.stop();
      await remote?.close();
      await gateway?.stop();
      bus.detach();
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
      await broker?.close();
    },
  };
}
