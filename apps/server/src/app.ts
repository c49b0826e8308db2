import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import multipart from '@fastify/multipart';
import type { Db, Scope } from './db/client.ts';
import { AppError } from './http/errors.ts';
import { answerSerializer, checkPerm, type Perm } from './http/routes.ts';
import type { Endpoint } from '@meter/contracts';
import { AuditWriter, auditRow } from './http/audit.ts';
import { registerOps } from './ops/fastify.ts';
import { DbWatch } from './ops/health.ts';
import { DB_UNAVAILABLE_MESSAGE, isDbUnavailable } from './ops/db-errors.ts';
import { auditBufferDepth, watchCommands, watchPool } from './ops/metrics.ts';
import { commandCounts, ping } from './ops/repo.ts';
import { authenticate, authRoutes, loginLimits, SessionCache, type AuthSettings } from './modules/auth/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { areaRoutes } from './modules/area/index.ts';
import { companyRoutes } from './modules/company/index.ts';
import { schemeRoutes } from './modules/scheme/index.ts';
import { roomRoutes } from './modules/room/index.ts';
import { ownerRoutes } from './modules/owner/index.ts';
import { deviceRoutes } from './modules/device/index.ts';
import { importRoutes } from './modules/imports/index.ts';
import websocket from '@fastify/websocket';
import { controlRoutes, type ControlApi } from './modules/control/index.ts';
import { realtimeRoutes, EventBus, onSocketError } from './modules/realtime/index.ts';
import { meteringRoutes, addTimedControls } from './modules/metering/index.ts';
import { Scheduler, schedulerRoutes } from './modules/scheduler/index.ts';
import { billingRoutes } from './modules/billing/index.ts';
import { paymentRoutes, SIMULATED, type Payments } from './modules/payment/index.ts';
import { authenticateOwner, liveScope, ownerAppRoutes } from './modules/ownerapp/index.ts';
import { financeRoutes } from './modules/finance/index.ts';
import { reconcileRoutes } from './modules/reconcile/index.ts';
import { reportRoutes } from './modules/report/index.ts';
import { notifyRoutes, type SmsSetup } from './modules/notify/index.ts';
import { payAppRoutes, type PayAppProvider } from './modules/payapp/index.ts';
import { contentRoutes } from './modules/content/index.ts';
import { screenRoutes } from './modules/screen/index.ts';
import { bankClient, bankRoutes, type BankClient } from './modules/bank/index.ts';
import { fileRoutes, localFiles, type FileSetup } from './modules/files/index.ts';
import { helpRoutes } from './modules/help/index.ts';
import { addBillingJobs } from './jobs/billing.ts';

z.config(z.locales.zhCN());

export const API_PREFIXES = ['/device/api', '/yewu/api', '/yonghu/api', '/pay/api', '/wxpay/api', '/alipay/api', '/sms', '/export/api'];

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRoute[];
    /** the database watch of this process (/healthz, meter_db_up) */
    dbWatch: DbWatch;
  }
}

/** A registered API route and the schemas of its input (for the tests that walk every endpoint). */
export interface ApiRoute {
  method: string;
  url: string;
  public: boolean;
  perm: Perm | false;
  /** a write (audited), not a query sent as POST */
  write: boolean;
  schema: { body?: unknown; querystring?: unknown; params?: unknown };
  /** the declaration it was registered from (undefined: a route not yet moved onto declarations) */
  endpoint?: Endpoint;
}

export interface AppOptions {
  db: Db;
  auth: AuthSettings;
  logLevel?: string;
  /** the built web app to serve, if present */
  webDist?: string;
  /** serve the OpenAPI pages at /docs (default: not in production) */
  docs?: boolean;
  /** device events and internal signals (a local bus when absent) */
  bus?: EventBus;
  /** command expiry, attempts and how long a call waits for its command's result */
  control?: Partial<Omit<ControlApi, 'bus'>>;
  /** run the periodic jobs of the API modules in this process (the worker role): timed valve control */
  jobs?: boolean;
  /** check each declared answer against its schema (default: under tests, or VALIDATE_RESPONSES=1) */
  validateResponses?: boolean;
  /** the process's scheduler for the jobs (main.ts; default: one of the app's own) */
  scheduler?: Scheduler;
  /** the pay-application provider of those jobs (default: the simulated one) */
  payAppProvider?: PayAppProvider;
  /** Fastify's trustProxy: false (default), a hop count, or the proxies' addresses/CIDRs */
  trustProxy?: false | string[] | ((address: string, hop: number) => boolean);
  /** a scraper off this host reads /metrics with `Authorization: Bearer <token>` */
  metricsToken?: string;
  /** the roles this process runs, reported by /healthz */
  roles?: string[];
  /** how often the database is checked (a change is logged once); default 5 s */
  dbCheckMs?: number;
  /** how often audit rows kept during an outage are retried; default 2 s */
  auditRetryMs?: number;
  /** the online payment providers (default: the simulated HMAC provider) */
  payments?: Payments;
  /** the SMS setup (/sms/config, the sender); default: a key of this process only, messages to the log */
  sms?: SmsSetup;
  /** the settlement bank's sub-merchant interface (main.ts: bankFromConfig); default: none reachable */
  bank?: BankClient;
  /** where uploads go and the upload tokens' key; default: a temporary directory and a key of this process only */
  files?: FileSetup;
}

/** Without a configured SMS setup: secrets sealed with a key of this process, no provider reachable. */
const PROCESS_SMS: SmsSetup = {
  key: randomBytes(32), mode: 'emulator',
  aliyun: { endpoint: '127.0.0.1:9', protocol: 'HTTP' }, tencent: { endpoint: '127.0.0.1:9', protocol: 'http://' },
};

/** Hashed build files never change under their name: cached for a year; everything else (index.html, the
 * SPA fallback, favicon) is revalidated on every use, so a new deployment is seen at once. */
export function staticHeaders(res: { setHeader(name: string, value: string): unknown }, filePath: string): void {
  const hashed = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.br|\.gz)?$/.test(filePath);
  res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  res.setHeader('vary', 'Accept-Encoding');
}

function fieldMessage(issues: { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } }[]) {
  const first = issues[0];
  const p = first?.params?.issue?.path?.map(String).join('.') || first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || '';
  return p ? `参数「${p}」${first?.message ?? '无效'}` : `参数错误：${first?.message ?? '请求无效'}`;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: opts.logLevel ?? 'info', redact: ['req.headers.authorization'] },
    // X-Forwarded-For only from the proxies the operator names (TRUST_PROXY): trusted from anyone, a
    // client could pick the address the per-IP login limit counts
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: 5 * 1024 * 1024,
    exposeHeadRoutes: false,
  }).withTypeProvider<ZodTypeProvider>();
  const bus = opts.bus ?? new EventBus();
  // looked-up sessions, reused for at most opts.auth.sessionCacheMs; any change a person makes, here or
  // in another process (the auth-changed signal), clears it
  const sessions = new SessionCache(opts.auth.sessionCacheMs ?? 0);
  bus.onSignal('auth-changed', () => sessions.clear());
  // every API route, for the tenancy test that walks them all and for docs/API.md
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (r) => {
    if (r.config?.perm !== undefined) {
      const { body, querystring, params } = (r.schema ?? {}) as ApiRoute['schema'];
      for (const m of [r.method].flat()) apiRoutes.push({ method: m, url: r.url, public: r.config.perm === false, perm: r.config.perm, write: r.config.audit === true, schema: { body, querystring, params }, endpoint: r.config.endpoint });
    }
  });
  // operations (issue 11 item 12): the database watched, pool and commands on /metrics, audit rows
  // kept in memory while the database cannot be reached
  const dbWatch = new DbWatch(() => ping(opts.db), app.log, opts.dbCheckMs ?? 5000);
  const stopWatch = dbWatch.start();
  app.decorate('dbWatch', dbWatch);
  watchPool(opts.db.pool);
  watchCommands(() => commandCounts(opts.db));
  const audits = new AuditWriter(opts.db, app.log, { isUnavailable: isDbUnavailable, retryMs: opts.auditRetryMs, onDepth: (n) => auditBufferDepth.set(n) });
  app.addHook('onClose', async () => {
    stopWatch();
    await audits.close();
  });
  app.setValidatorCompiler(validatorCompiler);
  // answers are plain JSON; tests (NODE_ENV=test) or VALIDATE_RESPONSES=1 check each declared answer first
  app.setSerializerCompiler(answerSerializer(opts.validateResponses ?? (process.env.NODE_ENV === 'test' || process.env.VALIDATE_RESPONSES === '1')));

  await app.register(swagger, {
    openapi: {
      info: { title: '智能水电表物联网管理平台 API', version: '1.9.2' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    },
    transform: jsonSchemaTransform,
  });
  if (opts.docs ?? process.env.NODE_ENV !== 'production') await app.register(swaggerUi, { routePrefix: '/docs' });
  // security headers on every answer. The built app loads only its own scripts; antd writes inline
  // styles (style-src 'unsafe-inline'); the live channel is a websocket to the same host.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    hsts: { maxAge: 180 * 24 * 3600, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });

  // uploads: multipart bodies are read as streams by the upload route only (its limits there)
  await app.register(multipart, { limits: { files: 1, parts: 10 } });

  // Who is asking, and may they? Runs before validation, so an anonymous or forbidden request
  // learns nothing about the input it sent.
  app.addHook('onRequest', async (req) => {
    const perm = req.routeOptions.config?.perm;
    if (perm === undefined) return; // not an API route (static files, docs)
    if (perm === false) {
      req.publicCtx = { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), db: opts.db, audit: {} };
      return;
    }
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : header;
    if (perm.owner) {
      // 业主端: an owner session only (a back-office token is not one); audited under the owner's name
      const owner = await authenticateOwner(opts.db, token);
      const scope: Scope = { companyId: owner.companyId, allCompanies: false, areaIds: null, userId: null };
      req.ownerCtx = {
        owner, scope, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? ''), db: opts.db,
        tx: (fn) => opts.db.tx(scope, fn),
        audit: { companyId: owner.companyId, username: `业主:${owner.name}`.slice(0, 64) },
      };
      req.publicCtx = req.ownerCtx;
      return;
    }
    const raw = (req.query as Record<string, string> | undefined)?.searchCompanyID;
    // a company id the database can hold; anything else is left to the route's schema to refuse (400)
    const searchCompanyID = raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : undefined;
    const { user, scope } = await authenticate(opts.db, opts.auth, token, searchCompanyID, sessions);
    req.ctx = {
      user,
      scope,
      ip: req.ip,
      db: opts.db,
      tx: (fn) => opts.db.tx(scope, fn),
      read: (fn) => opts.db.read(scope, fn),
      audit: {},
    };
    checkPerm(req.ctx, perm);
  });

  // The audit row is written before the answer leaves, so a caller that saw the answer finds the row.
  app.addHook('onSend', async (req, reply, payload) => {
    // a change by a person may revoke or narrow a session (logout, password, role, account, areas)
    if (req.method !== 'GET' && (req.ctx || req.ownerCtx)) bus.signal('auth-changed');
    // GETs and queries sent as POST (route action: false) are not mutations
    if (req.method === 'GET' || req.routeOptions.config?.perm === undefined || req.routeOptions.config.audit === false) return payload;
    if (!req.ctx && !req.publicCtx) return payload;
    let code = '';
    if (typeof payload === 'string' && payload.startsWith('{')) {
      try {
        code = String(JSON.parse(payload).code ?? '');
      } catch { /* not JSON */ }
    }
    try {
      const row = auditRow(req, reply, code);
      if (row) await audits.write(row);
    } catch (e) {
      req.log.error({ err: e }, 'audit write failed');
    }
    return payload;
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) return reply.status(err.status).send({ code: err.code, message: err.message });
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.status(400).send({ code: 'BAD_REQUEST', message: fieldMessage(err.validation as never) });
    }
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const message =
        e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? '不支持的请求格式'
        : e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? '请求内容过大'
        : '请求格式错误';
      return reply.status(e.statusCode).send({ code: 'BAD_REQUEST', message });
    }
    // drizzle wraps driver errors: the PostgreSQL code may sit on `cause`
    const pgCode = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (pgCode === '23505') return reply.status(409).send({ code: 'CONFLICT', message: '数据重复，已存在相同记录' });
    if (pgCode === '23503') return reply.status(409).send({ code: 'IN_USE', message: '数据正在被使用或关联数据不存在' });
    if (pgCode === '42501') return reply.status(403).send({ code: 'FORBIDDEN', message: '无权访问该数据' });
    // the database is down or restarting: the client may retry, nothing was changed
    if (isDbUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ code: 'DB_UNAVAILABLE', message: DB_UNAVAILABLE_MESSAGE });
    }
    // a data exception (a value out of a column's range or length, a malformed value): the request's fault,
    // and its transaction rolled back
    if (pgCode?.startsWith('22')) return reply.status(400).send({ code: 'BAD_REQUEST', message: '参数取值超出范围或格式不正确' });
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: 'INTERNAL', message: '服务器内部错误，请稍后重试' });
  });

  registerOps(app, { db: opts.db, watch: dbWatch, roles: opts.roles ?? ['api'], metricsToken: opts.metricsToken });

  authRoutes(app, opts.auth, await loginLimits(app, opts.auth));
  adminRoutes(app);
  auditRoutes(app);
  areaRoutes(app);
  companyRoutes(app);
  schemeRoutes(app);
  roomRoutes(app);
  ownerRoutes(app);
  deviceRoutes(app);
  importRoutes(app);
  const controlApi: ControlApi = { bus, commandTtlMinutes: 10, maxAttempts: 3, waitMs: 15_000, ...opts.control };
  controlRoutes(app, controlApi);
  meteringRoutes(app, controlApi);
  billingRoutes(app);
  paymentRoutes(app, opts.payments);
  financeRoutes(app);
  reconcileRoutes(app, opts.payments);
  reportRoutes(app);
  notifyRoutes(app, opts.sms ?? PROCESS_SMS);
  payAppRoutes(app);
  bankRoutes(app, opts.bank ?? bankClient({ url: 'http://127.0.0.1:9', merId: 'none', key: randomBytes(32), timeoutMs: 1000 }));
  contentRoutes(app);
  screenRoutes(app, { db: opts.db, bus });
  const files = opts.files ?? localFiles();
  fileRoutes(app, files);
  await ownerAppRoutes(app, { payments: opts.payments ?? SIMULATED, files, auth: opts.auth });
  helpRoutes(app);
  schedulerRoutes(app);
  if (opts.jobs) {
    // the worker role's timed jobs, on the process's scheduler (main.ts) or one of their own
    const scheduler = opts.scheduler ?? new Scheduler({ db: opts.db, log: app.log, role: 'worker' });
    addTimedControls(scheduler, { db: opts.db, bus, log: app.log });
    const offBilling = addBillingJobs(scheduler, { db: opts.db, bus, log: app.log, payAppProvider: opts.payAppProvider, payments: opts.payments, sms: opts.sms, bank: opts.bank });
    scheduler.start();
    app.addHook('onClose', async () => {
      offBilling();
      if (!opts.scheduler) await scheduler.stop();
    });
  }
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    errorHandler: (error, socket, req) => onSocketError(req.log, error, socket, req.ip),
  });
  realtimeRoutes(app, {
    db: opts.db, auth: opts.auth, bus,
    // 业主端 sockets: the owner's session and the meters of their rooms
    owner: async (token) => {
      const owner = await authenticateOwner(opts.db, token);
      const scope: Scope = { companyId: owner.companyId, allCompanies: false, areaIds: null, userId: null };
      const live = await liveScope({ owner, tx: (fn) => opts.db.tx(scope, fn) });
      return { companyId: owner.companyId, ownerId: owner.ownerId, meterIds: live.meterIds };
    },
  });

  const dist = opts.webDist;
  const hasWeb = !!dist && fs.existsSync(path.join(dist, 'index.html'));
  // precompressed .br/.gz beside each asset (written by the web build) go out when the browser accepts them
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist!, wildcard: false, index: false, preCompressed: true, cacheControl: false, setHeaders: staticHeaders,
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    // API paths, non-GETs and missing build assets are real 404s; only page URLs get the app shell
    if (API_PREFIXES.some((p) => url.startsWith(p)) || url.startsWith('/assets/') || req.method !== 'GET' || !hasWeb) {
      return reply.status(404).send({ code: 'NOT_FOUND', message: '接口不存在' });
    }
    // the SPA: every other GET gets the app shell; the router shows the page or its 404
    return reply.type('text/html').sendFile('index.html');
  });
  return app;
}
