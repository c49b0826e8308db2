import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { defineConfig } from 'vitest/config';

// Four projects: `unit` (pure code, no services), `integration` (*.int.test.ts: real PostgreSQL,
// MQTT, TCP), `web` and `web-mocks` (React components under happy-dom; `--project 'web*'` runs both).
// `npm test` runs them all, then Playwright.

/** The web test files that call vi.mock (relative to apps/web): they run isolated, in the `web-mocks` project. */
const WEB_SRC = join(import.meta.dirname, 'apps/web/src');
const WEB_MOCKING = readdirSync(WEB_SRC, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(mock|doMock)\(/.test(readFileSync(join(WEB_SRC, f), 'utf8')))
  .map((f) => `src/${f.split(sep).join('/')}`);

/** The server and package unit files share one module graph (`isolate: false`): none may replace a module. */
const UNIT_ROOTS = [...readdirSync(join(import.meta.dirname, 'packages')).map((p) => `packages/${p}/src`), 'apps/server/src', 'apps/simulator/src'];
const unitMocking = UNIT_ROOTS.flatMap((root) =>
  readdirSync(join(import.meta.dirname, root), { recursive: true, encoding: 'utf8' })
    .filter((f) => /(?<!\.int)\.test\.ts$/.test(f))
    .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(import.meta.dirname, root, f), 'utf8')))
    .map((f) => `${root}/${f}`),
);
if (unitMocking.length) {
  throw new Error(`unit test files share a module graph and may not call vi.mock: ${unitMocking.join(', ')} (use vi.spyOn, or make it an integration test)`);
}
/** No integration file replaces a module (vi.mock), so that they can share a module graph per worker again (see `isolate` below). */
const INT_ROOTS = [...readdirSync(join(import.meta.dirname, 'packages')).map((p) => `packages/${p}/src`), ...readdirSync(join(import.meta.dirname, 'apps')).map((a) => `apps/${a}/src`)];
const intMocking = INT_ROOTS.flatMap((root) =>
  readdirSync(join(import.meta.dirname, root), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.int.test.ts') && !f.split(sep).includes('node_modules'))
    .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(import.meta.dirname, root, f), 'utf8')))
    .map((f) => `${root}/${f}`),
);
if (intMocking.length) {
  throw new Error(`integration test files share a module graph and may not call vi.mock: ${intMocking.join(', ')} (use vi.spyOn on the instance)`);
}

export default defineConfig({
  test: {
    // two workers for unit and web (vitest's default on two cores is one): the web files, at about 2 s of
    // CPU each, take half the wall time; each worker loads antd and the app once (web: isolate false).
    // Integration keeps its own count below. TEST_WORKERS to change.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          // the files share one module graph per worker (none replaces a module with vi.mock): the server's
          // imports are transformed and evaluated once per worker instead of once per file (276 s → 59 s wall
          // on 2 cores at load 14; user CPU 64 → 20 s). Property tests (fast-check, thousands of runs) get
          // room for a loaded machine.
          isolate: false,
          testTimeout: 30_000,
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
          // The files of a worker share one process and module graph (`isolate: false`): the server's imports
          // load once per worker, not once per file (2026-12-08, load 6–12, one after the other: CPU 634 → 213 s,
          // wall 840 → 342 s). TEST_INT_ISOLATE=1 gives
          // each file a process of its own. The device tests assert outcomes, not timing margins, which a
          // busier shared event loop or machine broke (2026-12-07): split.int's reads go out with `retries: 0`
          // where it counts frames (a late-handled reply is legitimately sent again), its NB meter sends no
          // periodic report into the counted window, and the tests that start processes wait until each is
          // ready or has exited, with generous limits. A file closes what it starts and restores what it
          // spies on: on 2026-12-08 no socket, server or interval outlived its file (async_hooks at each
          // file's end), only one-shot timers. No integration file may call vi.mock (checked above);
          // worker-db.ts and one-query-at-a-time.ts work either way.
          isolate: process.env.TEST_INT_ISOLATE === '1',
          maxWorkers: Number(process.env.TEST_INT_WORKERS ?? 2),
          // a project with its own maxWorkers runs in a group of its own: after unit and web
          sequence: { groupOrder: 1 },
          globalSetup: ['apps/server/test/global-setup.ts'],
          setupFiles: ['apps/server/test/worker-db.ts', 'apps/server/test/clock-setup.ts', 'apps/server/test/one-query-at-a-time.ts'],
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...WEB_MOCKING, '**/node_modules/**'],
          // happy-dom: the same tests as under jsdom at about a third of the CPU time (antd's renders)
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          // a page test takes 1-3 s alone; beside integration and a busy machine, several times that
          testTimeout: 15_000,
          // the files of a worker share one module graph and one happy-dom window: antd, pro-components and
          // the app are transformed and evaluated once per worker, not once per file (most of a file's time
          // was spent there). Each test still starts clean: setup.ts unmounts, clears storage and restores
          // mocks after every test; module state a page keeps (area selections, in-flight requests) is reset
          // by the tests that use it.
          isolate: false,
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          // the files that replace modules with vi.mock keep a module graph of their own (a shared graph
          // would hand their stand-ins to the other files)
          name: 'web-mocks',
          root: './apps/web',
          include: WEB_MOCKING,
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          // a page test takes 1-3 s alone; beside integration and a busy machine, several times that
          testTimeout: 15_000,
        },
      },
    ],
  },
});
