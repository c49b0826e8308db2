import http from 'node:http';
import type { MqttClient } from 'mqtt';
import { now } from '../clock.ts';
import { dbUp, metricsContentType, metricsText, mqttConnected } from './metrics.ts';

// Health of a process (issue 11 item 12): the database is checked every few seconds and each change
// is logged once (数据库连接中断 / 已恢复); each MQTT client logs its disconnects and reconnects. The
// roles without the API (gateway, worker) answer /healthz and /metrics on OPS_PORT (startOpsServer);
// the API serves the same two paths itself (ops/fastify.ts).

export interface OpsLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

/** Watches the database: `up` is the last result; a transition is logged once. */
export class DbWatch {
  up: boolean | null = null;
  lastError = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private ping: () => Promise<unknown>, private log: OpsLog, private intervalMs = 5000) {}

  async check(): Promise<boolean> {
    let ok: boolean;
    try {
      await this.ping();
      ok = true;
    } catch (e) {
      ok = false;
      this.lastError = (e as Error).message;
    }
    if (ok !== this.up) {
      if (!ok) this.log.error({ err: this.lastError }, `数据库连接中断：${this.lastError}。期间接口返回 503，审计记录暂存内存，恢复后补写`);
      else if (this.up === false) this.log.info({}, '数据库连接已恢复');
    }
    this.up = ok;
    dbUp.set(ok ? 1 : 0);
    return ok;
  }

  start() {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
    return () => clearInterval(this.timer);
  }
}

/** Logs an MQTT client's disconnects and reconnects once each, and keeps meter_mqtt_connected. */
export function watchMqtt(client: MqttClient, name: string, log: OpsLog) {
  let connected = client.connected;
  mqttConnected.set({ client: name }, connected ? 1 : 0);
  const down = (why: string) => {
    if (!connected) return;
    connected = false;
    mqttConnected.set({ client: name }, 0);
    log.warn({ client: name }, `MQTT 连接断开（${name}）：${why}，正在自动重连`);
  };
  client.on('offline', () => down('离线'));
  client.on('close', () => down('连接关闭'));
  client.on('connect', () => {
    if (connected) return;
    connected = true;
    mqttConnected.set({ client: name }, 1);
    log.info({ client: name }, `MQTT 连接已恢复（${name}）`);
  });
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  roles: string[];
  db: 'up' | 'down';
  mqtt: Record<string, boolean>;
  message: string;
  /** the server's clock (CLOCK_AT shifts it for drills and tests) */
  now: string;
}

/** The answer of /healthz: 200 when the database answers, else 503 (a load balancer takes it out). */
export async function healthOf(watch: DbWatch, roles: string[], mqtt: Record<string, MqttClient | undefined> = {}): Promise<HealthReport> {
  const ok = await watch.check();
  return {
    status: ok ? 'ok' : 'unavailable',
    roles,
    db: ok ? 'up' : 'down',
    mqtt: Object.fromEntries(Object.entries(mqtt).filter(([, c]) => c).map(([k, c]) => [k, c!.connected])),
    message: ok ? '' : `数据库暂时无法连接：${watch.lastError}`,
    now: now().toISOString(),
  };
}

/** /healthz and /metrics for a process without the API (gateway, worker), bound to host:port. */
export async function startOpsServer(o: { host: string; port: number; health: () => Promise<HealthReport> }) {
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0];
    const done = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type }).end(body);
    if (req.method !== 'GET') return done(405, 'application/json; charset=utf-8', JSON.stringify({ code: 'METHOD_NOT_ALLOWED', message: '仅支持 GET' }));
    if (url === '/healthz') {
      void o.health().then((h) => done(h.status === 'ok' ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify({ code: h.status === 'ok' ? 'SUCCESS' : 'UNAVAILABLE', message: h.message, data: h })));
      return;
    }
    if (url === '/metrics') {
      void metricsText().then((t) => done(200, metricsContentType, t), (e: Error) => done(500, 'text/plain; charset=utf-8', e.message));
      return;
    }
    done(404, 'application/json; charset=utf-8', JSON.stringify({ code: 'NOT_FOUND', message: '接口不存在' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address();
  return { port: typeof addr === 'object' && addr ? addr.port : o.port, close: () => new Promise<void>((r) => server.close(() => r())) };
}
