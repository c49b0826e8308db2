// Shared set-up of the browser benchmarks (bench/web-nav.ts, bench/screen-soak.ts): the real server
// (`apps/server/src/main.ts`: built web app, embedded PostgreSQL, demo seed) on port..port+3 with a
// throw-away data directory, up when /healthz answers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the server on `port` (refuses a port already answering: that server would be measured instead);
 * `portEnv` names the variable to change it, `env` is added to the server's environment. Resolves to `stop`.
 */
export async function startServer(opts: { port: number; portEnv: string; tag: string; env: Record<string, string> }): Promise<() => Promise<void>> {
  const { port } = opts;
  const base = `http://127.0.0.1:${port}`;
  if (await fetch(`${base}/healthz`).then(() => true, () => false)) throw new Error(`port ${port} is in use: stop what runs there or set ${opts.portEnv}`);
  const dataDir = mkdtempSync(join(tmpdir(), `meter-${opts.tag}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port + 1), MQTT_PORT: String(port + 2), GATEWAY_PORT: String(port + 3),
      SEED_DEMO: '1', LOG_LEVEL: 'warn', ...opts.env,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + String(d)).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited (${child.exitCode}):\n${stderr}`);
    }
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server not up in 240 s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return stop;
}
