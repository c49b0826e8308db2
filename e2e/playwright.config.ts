// End-to-end tests in Debian's Chromium (never a downloaded browser), against the real server
// serving the built web app (apps/web/dist: `npm run build -w @meter/web` first; `npm test` does).
//
// By default the config starts its own server on separate ports with a fresh data directory and the
// demo seed, so it never touches a running instance or ./data. Set E2E_BASE_URL to test a server
// that is already running instead (it must have the demo seed: demo/demo123, admin/admin123).
import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** the specs of the `ledger` lane (see `projects`) */
const LEDGER = [
  'arrears-pay', 'billing', 'device', 'finance', 'notices', 'ownerapp', 'pages', 'payapp', 'reconcile', 'screen',
].map((name) => `${name}.spec.ts`);

const workers = Number(process.env.E2E_WORKERS ?? 1);

const root = resolve(import.meta.dirname, '..');
const external = process.env.E2E_BASE_URL;
const port = Number(process.env.E2E_PORT ?? 18480);
const baseURL = external ?? `http://127.0.0.1:${port}`;

// evaluated by the runner and by each worker; only the runner starts the server, so make the data
// directory lazily, once, and hand it on through the environment
if (!external && !process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'meter-e2e-'));
  process.env.E2E_DATA_DIR_OWNED = '1';
}

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  // E2E_WORKERS=2 (what `npm test` runs): the two lanes of `projects` side by side against the one server;
  // by default (`npm run test:e2e`) one worker and the files in their old order
  workers,
  retries: process.env.CI ? 1 : 0,
  // generous: CI machines here are small and shared (first page loads fetch ~40 chunks)
  timeout: Number(process.env.E2E_TEST_TIMEOUT ?? 120_000),
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: join(root, 'playwright-report') }]] : 'list',
  outputDir: join(root, 'test-results'),
  use: {
    baseURL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1440, height: 900 },
    // a trace records every action's snapshots, a large share of the browser's CPU: only a retried test keeps one
    trace: 'on-first-retry',
    // the app turns antd's animations off for a user who asks for less motion (Root.tsx): no frames to paint,
    // no waiting for a dialog or a dropdown to finish moving
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run',
      ],
    },
  },
  // With E2E_WORKERS ≥ 2, two lanes, each one file after another in its own worker, side by side against
  // the one server (one worker: a single project, the files in their old order).
  // `ledger`: the specs that move money or read the company's money figures (a top-up elsewhere would change
  // 今日缴费, the day's totals /dailyClose confirms, a room's balance they expect), close the day, or run
  // simulated collectors on the gateway — in their old order, as before. `other`: the others (archives,
  // settings, the shell, uploads, bank sub-merchants): they touch rows of their own only. /recordsOwner's
  // export counts the company's owners, so the owner import stays in the same lane as archives.
  projects: workers > 1
    ? [
        { name: 'ledger', testMatch: LEDGER, workers: 1, use: { browserName: 'chromium' } },
        { name: 'other', testMatch: '*.spec.ts', testIgnore: LEDGER, workers: 1, use: { browserName: 'chromium' } },
      ]
    : [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: external
    ? undefined
    : {
        command: 'node e2e/serve.mjs',
        cwd: root,
        url: `${baseURL}/healthz`,
        reuseExistingServer: false,
        timeout: 180_000,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: process.env.E2E_DATA_DIR!,
          EMBEDDED_PG_PORT: process.env.E2E_PG_PORT ?? String(port + 1),
          MQTT_PORT: process.env.E2E_MQTT_PORT ?? String(port + 2),
          GATEWAY_PORT: process.env.E2E_GATEWAY_PORT ?? String(port + 3),
          SEED_DEMO: '1',
          SIMULATOR: process.env.E2E_SIMULATOR ?? '0',
          // the local payment emulator on a free port of 127.0.0.1 (payer pages, WeChat Pay v3 / Alipay)
          PAY_EMULATOR_PORT: '0',
          SMS_ALIYUN_PORT: '0',
          SMS_TENCENT_PORT: '0',
          // the local bank emulator (sub-merchants: its /inbox page shows the SMS code and the paid amount)
          BANK_EMULATOR_PORT: '0',
          LOG_LEVEL: 'warn',
          // every test signs in from 127.0.0.1, most as demo: 35 sign-ins can fall in one minute on a quiet
          // machine, over the per-address (30) and per-account (10) login limits. The limits themselves are
          // tested in apps/server/src/modules/auth/login-limits.int.test.ts.
          LOGIN_RATE_PER_IP: '1000',
          LOGIN_RATE_PER_ACCOUNT: '1000',
          // E2E_CLOCK_AT runs the server's time-of-day rules from that instant (e.g. 2026-11-26T03:00:00+08:00)
          ...(process.env.E2E_CLOCK_AT ? { CLOCK_AT: process.env.E2E_CLOCK_AT } : {}),
          // a data directory we made (mkdtemp above) is removed by serve.mjs after the server stops
          E2E_REMOVE_DATA_DIR: process.env.E2E_DATA_DIR_OWNED === '1' ? '1' : '0',
        },
      },
});
