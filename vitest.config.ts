import { defineConfig } from 'vitest/config';

// Three projects: `unit` (pure code, no services), `integration` (*.int.test.ts: real PostgreSQL,
// MQTT, TCP), `web` (React components under happy-dom). `npm test` runs them all, then Playwright.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/**/src/**/*.int.test.ts', 'packages/*/src/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // files run side by side, each in a copy of the template database that no other running file
          // uses (apps/server/test/global-setup.ts, worker-db.ts: claimed with a lock, not by VITEST_POOL_ID,
          // which vitest 4 can hand to two files at once after a group change)
          maxWorkers: Number(process.env.TEST_INT_WORKERS ?? 2),
          // a project with its own maxWorkers runs in a group of its own: after unit and web
          sequence: { groupOrder: 1 },
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/worker-db.ts', 'apps/server/test/clock-setup.ts'],
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          // happy-dom: the same tests as under jsdom at about a third of the CPU time (antd's renders)
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
        },
      },
    ],
  },
});
