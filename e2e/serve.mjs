// Starts the server for the e2e run (see playwright.config.ts) and, once it has stopped, removes the
// throw-away data directory the config made for it. E2E_SERVER=compiled runs the production build
// (apps/server/dist, as `npm start` does; `npm test` builds it first), otherwise the sources through tsx.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const args = process.env.E2E_SERVER === 'compiled'
  ? ['--conditions=compiled', '--enable-source-maps', 'apps/server/dist/main.js']
  : ['--import', 'tsx', 'apps/server/src/main.ts'];
const child = spawn(process.execPath, args, { stdio: 'inherit', env: process.env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  const dir = process.env.DATA_DIR;
  if (process.env.E2E_REMOVE_DATA_DIR === '1' && dir) rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
