import path from 'node:path';
import { z } from 'zod';

// Environment, validated once at start. Every knob the operator can turn is here and in
// docs/OPERATIONS.md.
const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** password of the non-owner role the app connects as (created by the migrations) */
  APP_DB_PASSWORD: z.string().default('meter_app_local'),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  MQTT_URL: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().default(1884),
  /** with MQTT_URL: how long a starting process waits for the broker before it gives up */
  MQTT_START_WAIT_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  /** the embedded broker's address: loopback unless NB meters reach it from outside */
  MQTT_HOST: z.string().default('127.0.0.1'),
  /** largest MQTT packet the embedded broker accepts (bytes) */
  MQTT_MAX_PACKET_BYTES: z.coerce.number().int().min(1024).default(65_536),
  /** messages per second an NB meter may publish on average (bursts of 5 s worth) */
  MQTT_METER_RATE: z.coerce.number().positive().default(5),
  /** the device-side server secret (≥ 32 characters); default: DATA_DIR/device-secret, made at first start */
  DEVICE_SECRET: z.string().min(32).optional(),
  GATEWAY_PORT: z.coerce.number().int().default(9300),
  ROLES: z.string().default('api,gateway,worker'),
  /** auto: apply pending migrations at start; off: only check none is pending; only: migrate, then exit */
  MIGRATE: z.enum(['auto', 'off', 'only']).default('auto'),
  SEED_DEMO: bool.default(true),
  /** after the first demo seed, a few months of the demo company's work through the API (demo/history.ts) */
  DEMO_HISTORY: bool.default(true),
  /** the platform administrator made at first start when the database has none (SEED_DEMO=0) */
  ADMIN_USERNAME: z.string().trim().min(3).max(32).default('admin'),
  /** its password; without it a random one is made and printed once */
  INITIAL_ADMIN_PASSWORD: z.string().min(8).optional(),
  SIMULATOR: bool.default(true),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().positive().default(12),
  AUTH_SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** the OpenAPI pages at /docs: off in production unless asked for */
  API_DOCS: z.enum(['on', 'off']).default(process.env.NODE_ENV === 'production' ? 'off' : 'on'),
  /** login attempts per minute from one IP address, and for one username (429 beyond) */
  LOGIN_RATE_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_RATE_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  /** /metrics on PORT answers other hosts only with `Authorization: Bearer <METRICS_TOKEN>` */
  METRICS_TOKEN: z.string().min(16).optional(),
  // device side (gateway, worker): see docs/OPERATIONS.md
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  HEARTBEAT_SECONDS: z.coerce.number().positive().default(30),
  GATEWAY_REPLY_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
  GATEWAY_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** a worker's request may wait this long in a gateway's per-connection queue before it is dropped unsent */
  GATEWAY_QUEUE_WAIT_SECONDS: z.coerce.number().positive().max(600).default(60),
  /** this gateway also serves the MQTT meters (exactly one gateway process should) */
  GATEWAY_MQTT_METERS: bool.default(true),
  /** prepended to every MQTT topic, so deployments can share one broker (default none) */
  MQTT_TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9_\-/]*$/).default(''),
  /** raw frames logged to device_reports: control frames and anomalies (default), or all */
  GATEWAY_FRAME_LOG: z.enum(['control', 'all']).default('control'),
  READ_INTERVAL_MINUTES: z.coerce.number().min(0).default(15),
  COMMAND_TTL_MINUTES: z.coerce.number().positive().default(10),
  COMMAND_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  COMMAND_RETRY_SECONDS: z.coerce.number().positive().default(5),
  COMMAND_WAIT_SECONDS: z.coerce.number().min(0).default(15),
  /** an attempt whose worker's lease (its database session) has been gone this long is recovered */
  COMMAND_ORPHAN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** commands in flight per worker; one collector never has more than 2 of them (control/repo/commands.ts PER_COLLECTOR) */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(5000).default(800),
  OFFLINE_WARN_MINUTES: z.coerce.number().positive().default(60),
  /** a meter in use without a reading for this many days gets a no_read warning (and a work order) */
  NO_READ_DAYS: z.coerce.number().positive().default(3),
  /** NB meters' own report interval (a meter's 上报周期 overrides it): offline after 3 missed reports */
  NB_REPORT_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10080).default(5),
  CLOCK_DRIFT_SECONDS: z.coerce.number().positive().default(300),
  REPORT_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /** the simulated pay-application provider answers a withdrawal this long after it was asked */
  PAYAPP_SIM_DELAY_MS: z.coerce.number().int().min(0).default(3000),
  // online payments (docs/OPERATIONS.md "Online payments"): the providers and their merchant keys
  /** emulator: WeChat Pay v3 / Alipay protocols against the local emulators (default); live: the real providers; simulated: the old HMAC provider */
  PAY_MODE: z.enum(['emulator', 'live', 'simulated']).default('emulator'),
  /** an unpaid online order closes after this long (the query job closes it at the provider) */
  PAY_ORDER_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(120),
  /** how the providers reach this server's notify endpoints (default http://127.0.0.1:PORT) */
  PAY_NOTIFY_BASE_URL: z.string().url().optional(),
  /** seals the companies' stored merchant keys (any text ≥ 16 characters); default DATA_DIR/pay-config-key, made at first start */
  PAY_CONFIG_KEY: z.string().min(16, 'PAY_CONFIG_KEY 至少 16 个字符').optional(),
  PAY_EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8091),
  /** how browsers reach the emulator's payer page (default http://127.0.0.1:PAY_EMULATOR_PORT) */
  PAY_EMULATOR_PUBLIC_URL: z.string().url().optional(),
  WECHAT_MCHID: z.string().optional(),
  WECHAT_APPID: z.string().optional(),
  WECHAT_MERCHANT_SERIAL: z.string().optional(),
  WECHAT_MERCHANT_KEY_PATH: z.string().optional(),
  /** the platform certificate serial or the platform public key ID (PUB_KEY_ID_…) */
  WECHAT_PLATFORM_SERIAL: z.string().optional(),
  WECHAT_PLATFORM_KEY_PATH: z.string().optional(),
  WECHAT_APIV3_KEY: z.string().length(32, 'APIv3 密钥须为 32 个字符').optional(),
  WECHAT_BASE_URL: z.string().url().default('https://api.mch.weixin.qq.com'),
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_SELLER_ID: z.string().optional(),
  ALIPAY_APP_KEY_PATH: z.string().optional(),
  ALIPAY_PUBLIC_KEY_PATH: z.string().optional(),
  ALIPAY_GATEWAY: z.string().url().default('https://openapi.alipay.com/gateway.do'),
  // bank sub-merchants (docs/OPERATIONS.md "Bank sub-merchants"): the settlement bank's interface
  /** emulator: the local bank emulator (default, started by the API process); live: the bank at BANK_URL */
  BANK_MODE: z.enum(['emulator', 'live']).default('emulator'),
  BANK_EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(8095),
  BANK_URL: z.string().url().optional(),
  /** the platform's merchant number at the bank */
  BANK_MER_ID: z.string().regex(/^[A-Za-z0-9]{1,32}$/).optional(),
  /** the signing key agreed with the bank */
  BANK_SIGN_KEY: z.string().min(16, 'BANK_SIGN_KEY 至少 16 个字符').optional(),
  // SMS (docs/OPERATIONS.md "SMS providers"): each company picks its provider in /sms/config
  /** emulator: 阿里云/腾讯云 settings are used against the local emulators (default); live: against the real services */
  SMS_MODE: z.enum(['emulator', 'live']).default('emulator'),
  /** seals the stored SMS secrets (any text); default DATA_DIR/sms-config-key, made at first start */
  SMS_CONFIG_KEY: z.string().min(16, 'SMS_CONFIG_KEY 至少 16 个字符').optional(),
  SMS_ALIYUN_PORT: z.coerce.number().int().min(0).max(65535).default(8093),
  SMS_TENCENT_PORT: z.coerce.number().int().min(0).max(65535).default(8094),
  SMS_ALIYUN_ENDPOINT: z.string().default('dysmsapi.aliyuncs.com'),
  SMS_TENCENT_ENDPOINT: z.string().default('sms.tencentcloudapi.com'),
  // uploads (docs/OPERATIONS.md "Uploads"): local disk by default, any S3-compatible store with UPLOAD_STORE=s3
  UPLOAD_STORE: z.enum(['local', 's3']).default('local'),
  /** the local store's directory (default DATA_DIR/uploads); uploads are spooled under it while checked */
  UPLOAD_DIR: z.string().optional(),
  /** signs the upload tokens (any text); default DATA_DIR/upload-token-key, made at first start */
  UPLOAD_TOKEN_KEY: z.string().min(16, 'UPLOAD_TOKEN_KEY 至少 16 个字符').optional(),
  /** the S3 endpoint, e.g. http://127.0.0.1:9000 (MinIO); unset = AWS S3 of S3_REGION */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  /** prepended to every object key, so deployments can share a bucket */
  S3_PREFIX: z.string().regex(/^[A-Za-z0-9_\-/]*$/).default(''),
  /** DL/T 645 control/write password: PA + P2P1P0 (8 hex digits) and operator code (8 hex digits) */
  DLT645_PASSWORD: z.string().regex(/^[0-9A-Fa-f]{8}$/).default('02000000'),
  DLT645_OPERATOR: z.string().regex(/^[0-9A-Fa-f]{8}$/).default('00000000'),
  /** run the server's time-of-day rules from this instant on (tests, drills): e.g. 2026-11-26T03:00:00+08:00 */
  CLOCK_AT: z.string().optional(),
  /** /healthz and /metrics of a process without the API role (gateway, worker): one free port per process */
  OPS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  OPS_HOST: z.string().default('127.0.0.1'),
  /** who may set X-Forwarded-For: '' (nobody, default), a hop count, or comma-separated proxy addresses/CIDRs */
  TRUST_PROXY: z.string().regex(/^[0-9a-fA-F.:/,\s]*$/, '应为空、跳数或以逗号分隔的代理地址').default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

export type Config = z.infer<typeof Env> & { dataDir: string; webDist: string; roles: Set<string>; trustProxy: false | string[] | ((address: string, hop: number) => boolean) };

/** TRUST_PROXY as Fastify takes it: nobody, a hop count, or a list of addresses/CIDRs. */
export function trustProxyOf(v: string): false | string[] | ((address: string, hop: number) => boolean) {
  const t = v.trim();
  if (!t) return false;
  if (/^\d+$/.test(t)) {
    const hops = Number(t);
    return (_address, hop) => hop < hops;
  }
  return t.split(',').map((s) => s.trim()).filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`环境变量配置错误:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const root = path.resolve(import.meta.dirname, '../../..');
  return {
    ...c,
    dataDir: path.resolve(root, c.DATA_DIR),
    webDist: c.WEB_DIST ? path.resolve(c.WEB_DIST) : path.join(root, 'apps/web/dist'),
    trustProxy: trustProxyOf(c.TRUST_PROXY),
    roles: new Set(c.ROLES.split(',').map((s) => s.trim()).filter(Boolean)),
  };
}
