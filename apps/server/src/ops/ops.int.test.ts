import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_URL, testApp, type TestApp } from '../../test/helpers.ts';
import { appUrlFrom, openDb, type Db } from '../db/client.ts';
import { buildApp } from '../app.ts';
import { billingCompany, type BillingCompany } from '../modules/billing/fixtures.ts';
import { healthOf, startOpsServer } from './health.ts';
import { ingestBufferDepth, readingsStored } from './metrics.ts';

// Issue 11 item 12 against the real PostgreSQL: the app reaches the database through a TCP proxy
// the test can cut. While it is cut, an API call answers 503 with a Chinese message (not 500),
// /healthz answers 503, and the audit row of a request that got through authentication is kept
// and written once the database is back. /metrics speaks the Prometheus text format.

/** A TCP proxy to PostgreSQL that can be cut (every connection reset, new ones refused) and restored. */
async function pgProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((c) => {
        const u = net.connect(Number(target.port || 5432), target.hostname);
        sockets.add(c).add(u);
        c.pipe(u).pipe(c);
        const end = () => {
          c.destroy();
          u.destroy();
          sockets.delete(c);
          sockets.delete(u);
        };
        c.on('error', end).on('close', end);
        u.on('error', end).on('close', end);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      server!.close(() => resolve());
    });
  await up();
  return { port: () => port, up, down };
}

const METRICS_TOKEN = 'scrape-token-0123456789';
let t: TestApp;
let c: BillingCompany;
let proxy: Awaited<ReturnType<typeof pgProxy>>;
let db: Db;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  t = await testApp();
  c = await billingCompany(t, { rooms: 1 });
  const owner = new URL(OWNER_URL());
  proxy = await pgProxy(owner);
  const via = new URL(appUrlFrom(OWNER_URL(), 'meter_app_test'));
  via.hostname = '127.0.0.1';
  via.port = String(proxy.port());
  db = openDb(via.toString(), 4);
  // a session memo, as in production (1 s there): the request gets past authentication while the
  // database goes away, so its audit row has someone to name
  app = await buildApp({ db, auth: { idleMinutes: 30, maxHours: 12, sessionCacheMs: 60_000 }, logLevel: 'silent', dbCheckMs: 200, auditRetryMs: 200, roles: ['api'], metricsToken: METRICS_TOKEN });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
  await proxy.down();
  await t.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url, payload, headers: { authorization: c.token } });

describe('a database outage', () => {
  it('503 in Chinese (not 500), /healthz 503, and the audit row written after recovery', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // the session is looked up (and memoised) while the database is there
    expect((await call('GET', `/yewu/api/RoomInfo/GetEnergyRoomSum`)).statusCode).toBe(200);

    await proxy.down();
    const r = await call('POST', '/yewu/api/Energy/Prepay', { roomId: c.rooms[0], wallet: 'electric', amount: '9.99', payMethod: 'cash', memo: 'outage-audit' });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ code: 'DB_UNAVAILABLE', message: '数据库暂时无法连接，请稍后重试' });
    const h = await app.inject({ method: 'GET', url: '/healthz' });
    expect(h.statusCode).toBe(503);
    expect(h.json().data).toMatchObject({ status: 'unavailable', db: 'down' });
    expect(h.json().message).toContain('数据库暂时无法连接');
    const m = await app.inject({ method: 'GET', url: '/metrics' });
    expect(m.statusCode).toBe(200);
    expect(m.body).toMatch(/^meter_db_up 0$/m);
    expect(m.body).toMatch(/^meter_audit_buffer_depth 1$/m);
    // a request that is not even authenticated (no memo) is a 503 as well
    const anon = await app.inject({ method: 'POST', url: '/yonghu/api/admin/login', payload: { username: 'nobody', password: 'x' } });
    expect(anon.statusCode).toBe(503);

    await proxy.up();
    const deadline = Date.now() + 15_000;
    let rows: { status: number; path: string }[] = [];
    while (Date.now() < deadline) {
      rows = (await t.owner.query(`SELECT status, path FROM audit_log WHERE detail->'body'->>'memo' = 'outage-audit'`)).rows;
      if (rows.length) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(rows).toEqual([{ status: 503, path: '/yewu/api/Energy/Prepay' }]);
    // nothing was credited by the refused request
    const j = await t.owner.query(`SELECT count(*)::int AS n FROM journal WHERE company_id = $1`, [c.companyId]);
    expect(j.rows[0].n).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/^meter_audit_buffer_depth 0$/m);
  });
});

describe('/metrics and /healthz', () => {
  it('Prometheus text: requests, latencies, commands by state, readings, ingest buffer, pool, MQTT', async () => {
    readingsStored.inc(3);
    ingestBufferDepth.set(42);
    await call('GET', '/yewu/api/RoomInfo/GetEnergyRoomSum');
    const m = await app.inject({ method: 'GET', url: '/metrics' });
    expect(m.headers['content-type']).toContain('text/plain');
    for (const name of [
      'meter_http_requests_total', 'meter_http_request_duration_seconds_bucket', 'meter_commands', 'meter_readings_stored_total',
      'meter_ingest_buffer_depth', 'meter_db_pool_total', 'meter_db_pool_idle', 'meter_db_pool_waiting', 'meter_db_up', 'meter_process_cpu_seconds_total',
    ]) expect(m.body, name).toContain(`${name}`);
    expect(m.body).toMatch(/meter_http_requests_total\{method="GET",route="\/yewu\/api\/RoomInfo\/GetEnergyRoomSum",status="200"\} \d+/);
    expect(m.body).toMatch(/^meter_ingest_buffer_depth 42$/m);
    expect(m.body).toMatch(/^meter_readings_stored_total \d+$/m);
  });

  it('/metrics answers another host only with the bearer token; /healthz stays open for load balancers', async () => {
    const remoteAddress = '203.0.113.7';
    const anonymous = await app.inject({ method: 'GET', url: '/metrics', remoteAddress });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().message).toContain('METRICS_TOKEN');
    expect(anonymous.body).not.toContain('meter_');
    const wrong = await app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization: `Bearer ${METRICS_TOKEN.slice(1)}x` } });
    expect(wrong.statusCode).toBe(403);
    const scraper = await app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraper.statusCode).toBe(200);
    expect(scraper.body).toContain('meter_db_up');
    expect((await app.inject({ method: 'GET', url: '/healthz', remoteAddress })).statusCode).toBe(200);
  });

  it('a process without the API answers /healthz and /metrics on its own port', async () => {
    const ops = await startOpsServer({ host: '127.0.0.1', port: 0, health: () => healthOf(app.dbWatch, ['worker']) });
    try {
      const h = await fetch(`http://127.0.0.1:${ops.port}/healthz`);
      expect(h.status).toBe(200);
      expect((await h.json()).data).toMatchObject({ status: 'ok', roles: ['worker'], db: 'up' });
      const m = await fetch(`http://127.0.0.1:${ops.port}/metrics`);
      expect(await m.text()).toContain('meter_db_pool_total');
      expect((await fetch(`http://127.0.0.1:${ops.port}/nothing`)).status).toBe(404);
    } finally {
      await ops.close();
    }
  });
});
