import client from 'prom-client';

// Prometheus metrics of every role (api, gateway, worker), served at /metrics (ops/server.ts for the
// roles without the API, the Fastify app otherwise). One registry per process; the gauges other
// modules set (ingest buffer depth, MQTT connection, audit buffer) are exported here so that they
// need no knowledge of Prometheus.

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'meter_' });

export const httpRequests = new client.Counter({
  name: 'meter_http_requests_total',
  help: 'HTTP requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new client.Histogram({
  name: 'meter_http_request_duration_seconds',
  help: 'HTTP request latency, by method and route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** readings stored by the ingest (call readingsStored.inc(n) after a batch is written) */
export const readingsStored = new client.Counter({
  name: 'meter_readings_stored_total',
  help: 'Readings written to the database by this process',
  registers: [registry],
});

/** readings waiting in the ingest's buffer (the ingest sets it: ingestBufferDepth.set(n)) */
export const ingestBufferDepth = new client.Gauge({
  name: 'meter_ingest_buffer_depth',
  help: 'Readings received and not yet written to the database',
  registers: [registry],
});

/** 1 connected, 0 not, per MQTT client of this process (bus, gateway) */
export const mqttConnected = new client.Gauge({
  name: 'meter_mqtt_connected',
  help: 'Whether the MQTT client is connected (1) or not (0)',
  labelNames: ['client'] as const,
  registers: [registry],
});

/** 1 when the last check of the database succeeded */
export const dbUp = new client.Gauge({ name: 'meter_db_up', help: 'Whether the database answered the last check (1) or not (0)', registers: [registry] });

/** audit rows kept in memory because the database refused them; written when it is back */
export const auditBufferDepth = new client.Gauge({
  name: 'meter_audit_buffer_depth',
  help: 'Audit rows waiting to be written (the database was unavailable)',
  registers: [registry],
});

export interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** DB pool gauges read at scrape time. */
export function watchPool(pool: PoolLike) {
  const g = (name: string, help: string, read: () => number) => {
    registry.removeSingleMetric(name);
    new client.Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
  };
  g('meter_db_pool_total', 'Connections open in the database pool', () => pool.totalCount);
  g('meter_db_pool_idle', 'Idle connections in the database pool', () => pool.idleCount);
  g('meter_db_pool_waiting', 'Queries waiting for a connection from the pool', () => pool.waitingCount);
}

/** Commands by state, counted at scrape time (the query is given by the caller, which owns the SQL). */
export function watchCommands(count: () => Promise<{ status: string; n: number }[]>) {
  registry.removeSingleMetric('meter_commands');
  new client.Gauge({
    name: 'meter_commands',
    help: 'Device commands by state',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const r of await count()) this.set({ status: r.status }, r.n);
      } catch {
        // the database is down: meter_db_up says so; the scrape still answers
      }
    },
  });
}

export const metricsText = () => registry.metrics();
export const metricsContentType = registry.contentType;
