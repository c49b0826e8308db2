import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// The embedded default (no DATABASE_URL): the real start command on a fresh data directory serves
// the API and both demo logins; after a SIGKILL leaves an orphan postgres behind, the next start
// still comes up with the same data.

const root = path.resolve(import.meta.dirname, '../../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meter-embedded-'));
// a web build of its own (the real one may be being rebuilt beside this suite by npm test)
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'meter-embedded-web-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>智能水电表物联网管理平台</title><div id="root"></div>');
fs.chmodSync(dataDir, 0o755);
/** A port below the kernel's ephemeral range (32768–60999 here) that nothing listens on now: a port picked at
 * random inside that range may be the local end of another test's connection, and postgres then cannot bind it. */
async function freePort(from: number, span: number): Promise<number> {
  for (;;) {
    const p = from + Math.floor(Math.random() * span);
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer().once('error', () => resolve(false)).listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return p;
  }
}
const port = await freePort(24000, 997); // and the two above it (gateway, MQTT); e2e's server is at 18480..
const pgPort = await freePort(23000, 1000);
let child: ChildProcess | undefined;
/** how long a start may take; each test gets that and a minute more */
const START_MS = 400_000;

function start() {
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, WEB_DIST: webDist, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), SIMULATOR: '0', LOG_LEVEL: 'warn',
    // the device side and the local emulators on ports of their own, so a demo running beside the tests does not collide
    GATEWAY_PORT: String(port + 1), MQTT_PORT: String(port + 2), PAY_EMULATOR_PORT: '0', SMS_ALIYUN_PORT: '0', SMS_TENCENT_PORT: '0', BANK_EMULATOR_PORT: '0',
  };
  delete env.DATABASE_URL;
  delete env.MQTT_URL;
  const p = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout!.on('data', (d) => (out += d));
  p.stderr!.on('data', (d) => (out += d));
  return { p, output: () => out };
}

// initdb, migrations and the demo seed take ~20 s here, several times that on a busy machine (over 170 s
// once, at load 15 beside two integration runs): the limit is generous, and a server that exits fails at once
async function waitHealthy(p: ChildProcess, output: () => string, timeoutMs = START_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`server exited (${p.exitCode ?? p.signalCode}) before it was healthy:\n${output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy:\n${output()}`);
}

const login = async (username: string, password: string) => {
  const r = await fetch(`http://127.0.0.1:${port}/yonghu/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return (await r.json()) as { code: string; data: { token: string } };
};

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('embedded database (npm start without DATABASE_URL)', () => {
  it('starts on a fresh data dir, prints the URL and logins, and both demo logins work', async () => {
    const s = start();
    child = s.p;
    await waitHealthy(s.p, s.output);
    expect(s.output()).toContain(`http://localhost:${port}`);
    expect(s.output()).toContain('demo / demo123');
    expect((await login('admin', 'admin123')).code).toBe('SUCCESS');
    expect((await login('demo', 'demo123')).code).toBe('SUCCESS');
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    // the login page is served (the web app's index.html for every route of the app)
    const page = await fetch(`http://127.0.0.1:${port}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('智能水电表物联网管理平台');
  }, START_MS + 60_000);

  it('refuses a second start on the same data directory and leaves the running one serving', async () => {
    const second = start();
    const code = await new Promise<number | null>((r) => second.p.once('exit', r));
    expect(code).not.toBe(0);
    expect(second.output()).toContain(`正被另一个平台进程（PID ${child!.pid}）使用`);
    expect(second.output()).not.toContain('发现遗留的数据库进程');
    // the first one's database was not stopped under it
    expect((await login('demo', 'demo123')).code).toBe('SUCCESS');
  }, 120_000);

  it('comes back after SIGKILL left an orphan postgres, with the data kept', async () => {
    const before = await login('demo', 'demo123');
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const pid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(() => process.kill(pid, 0)).not.toThrow(); // the orphan is still running
    const s = start();
    child = s.p;
    await waitHealthy(s.p, s.output);
    // the old session survived the restart: same database, not a fresh one
    const me = await fetch(`http://127.0.0.1:${port}/yonghu/api/admin/user/token`, { headers: { authorization: before.data.token } });
    expect(me.status).toBe(200);
    expect(s.output()).not.toContain('首次启动');
  }, START_MS + 60_000);
});
