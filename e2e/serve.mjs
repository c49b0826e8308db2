// Starts the server for the e2e run (see playwright.config.ts) and, once it has stopped, removes the
// throw-away data directory the config made for it.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  const dir = process.env.DATA_DIR;
  if (process.env.E2E_REMOVE_DATA_DIR === '1' && dir) rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
