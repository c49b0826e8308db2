import pino from 'pino';
import { loadConfig } from './config.ts';
import { setClockAt } from './clock.ts';
import { startDatabase } from './db/index.ts';
import { DEMO_LOGINS, DEMO_OWNER, demoOwnerLogin, seedDemoIfEmpty } from './demo/seed.ts';
import { seedDemoDeviceWork, seedDemoHistory } from './demo/history.ts';
import { seedHelpDemo } from './demo/help.ts';
import { buildApp } from './app.ts';
import { authSettings } from './modules/auth/index.ts';
import { ensurePlatformAdmin } from './modules/admin/index.ts';
import { controlApiSettings, startDeviceSide } from './gateway/start.ts';
import { simulatedProvider } from './modules/payapp/index.ts';
import { paymentsFromConfig } from './modules/payment/index.ts';
import { smsFromConfig } from './modules/notify/index.ts';
import { bankFromConfig } from './modules/bank/index.ts';
import { filesFromConfig } from './modules/files/index.ts';
import { startDemoFleet } from './gateway/demo.ts';
import { StartupError } from './ops/startup.ts';
import { healthOf, startOpsServer } from './ops/health.ts';
import { Scheduler } from './modules/scheduler/index.ts';

// Starts the roles named in ROLES (default: all in one process) on embedded defaults.
async function main() {
  const config = loadConfig();
  setClockAt(config.CLOCK_AT);
  const log = (m: string) => console.log(`[meter] ${m}`);
  const database = await startDatabase(config, log);
  const { db } = database;
  if (config.MIGRATE === 'only') {
    log('数据库迁移已完成（MIGRATE=only），进程退出');
    await database.stop();
    return;
  }
  const seeded = config.SEED_DEMO && (await seedDemoIfEmpty(db, log));
  // without demo data someone must still be able to sign in: the first platform administrator
  const firstAdmin = await ensurePlatformAdmin(db, { username: config.ADMIN_USERNAME, password: config.INITIAL_ADMIN_PASSWORD });

  // one scheduler times every periodic job of this process (the worker role's; shown on /task)
  const plog = pino({ level: config.LOG_LEVEL });
  const scheduler = new Scheduler({ db, log: plog.child({ role: 'scheduler' }), role: 'worker' });
  // gateway (TCP + MQTT devices), worker (commands, scheduled reading) and the event bus, per ROLES
  const devices = await startDeviceSide(config, db, plog, scheduler);
  if (devices.gateway) log(`设备网关已启动：TCP 端口 ${devices.gateway.port}${devices.mqttUrl ? `，MQTT ${devices.mqttUrl}` : ''}`);
  // online payments: WeChat Pay v3 / Alipay (PAY_MODE); in emulator mode the local emulators run in the API process
  const pay = await paymentsFromConfig(config, { emulator: config.roles.has('api'), db });
  if (pay.emulator) log(`本地支付模拟器（演示用，非真实支付平台）已启动：${pay.emulator.url}`);
  // SMS: each company's provider (/sms/config); in emulator mode the local 阿里云/腾讯云 emulators run in the API process
  const sms = await smsFromConfig(config, db, { emulator: config.roles.has('api') });
  if (sms.emulators) log(`本地短信模拟器（演示用，不发出真实短信）已启动：阿里云 ${sms.emulators.aliyun.url}，腾讯云 ${sms.emulators.tencent.endpoint}`);

  // the settlement bank (BANK_MODE); in emulator mode the local bank emulator runs in the API process
  const bank = await bankFromConfig(config, { emulator: config.roles.has('api') });
  if (bank.emulator) log(`本地银行模拟器（演示用，非真实银行）已启动：${bank.emulator.url}（验证短信与打款金额见 ${bank.emulator.url}/inbox）`);
  // uploads: local disk or an S3-compatible store (UPLOAD_STORE); the demo's tutorials are stored through it
  const files = await filesFromConfig(config);
  if (config.SEED_DEMO) await seedHelpDemo(db, files, log);

  const app = await buildApp({
    db,
    auth: authSettings(config),
    logLevel: config.LOG_LEVEL,
    trustProxy: config.trustProxy,
    webDist: config.webDist,
    docs: config.API_DOCS === 'on',
    bus: devices.bus,
    control: controlApiSettings(config),
    jobs: config.roles.has('worker'),
    scheduler,
    payAppProvider: simulatedProvider({ delayMs: config.PAYAPP_SIM_DELAY_MS }),
    roles: [...config.roles],
    metricsToken: config.METRICS_TOKEN,
    payments: pay.payments,
    sms: sms.sms,
    bank: bank.client,
    files,
  });
  // the demo's history goes through the API: first readings and payments, before the simulated meters start from
  // the last readings
  if (seeded && config.DEMO_HISTORY) {
    await seedDemoHistory(app, DEMO_LOGINS[1], log).catch((e: Error) => log(`演示历史数据未能全部写入：${e.message}`));
  }
  // demo mode: simulated collectors and meters of the demo companies connect to the gateway
  const fleet =
    config.SIMULATOR && devices.gateway
      ? await startDemoFleet({
          db,
          log: devices.log.child({ role: 'simulator' }),
          gatewayPort: devices.gateway.port,
          mqttUrl: devices.mqttUrl,
          topicPrefix: config.MQTT_TOPIC_PREFIX,
          demoUsernames: DEMO_LOGINS.map((l) => l.username),
          secrets: devices.secrets,
        }).catch((e) => {
          log(`演示模拟设备启动失败：${(e as Error).message}`);
          return undefined;
        })
      : undefined;
  // then what the staff did to the meters, carried out by the (simulated) meters now online
  if (seeded && config.DEMO_HISTORY) {
    await seedDemoDeviceWork(app, DEMO_LOGINS[1], { log, onlineWithinMs: fleet ? 30_000 : 0 }).catch((e: Error) => log(`演示历史数据未能全部写入：${e.message}`));
  }

  if (config.roles.has('api')) await app.listen({ port: config.PORT, host: config.HOST });
  // a process without the API (gateway, worker) answers /healthz and /metrics on OPS_PORT
  const ops = config.roles.has('api')
    ? undefined
    : await startOpsServer({ host: config.OPS_HOST, port: config.OPS_PORT, health: () => healthOf(app.dbWatch, [...config.roles], devices.mqttClients) }).catch((e: Error) => {
        throw new StartupError(`运维端口 ${config.OPS_HOST}:${config.OPS_PORT} 无法监听（${e.message}）。`, '设置 OPS_PORT 为一个空闲端口（每个进程各用一个），或确认没有其他进程占用。', { cause: e });
      });
  if (ops) log(`运维接口：http://${config.OPS_HOST}:${ops.port}/healthz 与 /metrics`);
  const url = `http://localhost:${config.PORT}`;
  console.log(`\n  智能水电表物联网管理平台 v1.9.2 已启动\n  访问地址: ${url}${config.API_DOCS === 'on' ? `\n  接口文档: ${url}/docs` : ''}`);
  if (firstAdmin) {
    console.log(`  已创建平台管理员账号: ${firstAdmin.username}${firstAdmin.password ? ` / ${firstAdmin.password}（随机密码，只显示这一次，请登录后立即修改）` : '（密码为 INITIAL_ADMIN_PASSWORD）'}`);
  }
  if (config.SEED_DEMO) {
    console.log('  演示账号:');
    for (const l of DEMO_LOGINS) console.log(`    ${l.label.padEnd(12, '　')} ${l.username} / ${l.password}`);
    const owner = await demoOwnerLogin(db).catch(() => null);
    if (owner) {
      console.log(`    ${DEMO_OWNER.label.padEnd(12, '　')} ${url}/h5  房间编号 ${owner.roomId} / ${DEMO_OWNER.password}（或手机号 ${owner.phone} + 短信验证码）`);
    }
  }
  console.log('');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`收到 ${signal}，正在停止…`);
    await ops?.close().catch(() => {});
    await scheduler.stop().catch(() => {});
    await app.close().catch(() => {});
    await pay.emulator?.close().catch(() => {});
    await sms.emulators?.close().catch(() => {});
    await bank.emulator?.close().catch(() => {});
    await fleet?.stop().catch(() => {});
    await devices.stop().catch(() => {});
    await database.stop().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  // a known start-up failure says what is wrong and what to do; anything else with its stack
  if (e instanceof StartupError) console.error(`[meter] 启动失败：${e.message}`);
  else console.error('[meter] 启动失败:', e);
  process.exit(1);
});
