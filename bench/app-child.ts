// The production app in a child process of a bench (list-api, growth), so the bench's own work does not
// share its event loop: the bench forks its own file with BENCH_ROLE=server; the child serves the app on a
// free port of 127.0.0.1, sends the port, and stops when the bench disconnects.
import { fork, type ChildProcess } from 'node:child_process';
import { appUrlFrom, openDb } from '../apps/server/src/db/client.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { authSettings } from '../apps/server/src/modules/auth/service.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { APP_PASSWORD, ownerUrl } from './db-common.ts';

/** this process is the forked app of a bench */
export const isAppChild = process.env.BENCH_ROLE === 'server';

/** In the child: the app on database `db` (a pool of `poolSize`), with the production auth settings. */
export async function serveAppChild(db: string, poolSize: number) {
  const pool = openDb(appUrlFrom(ownerUrl(db), APP_PASSWORD), poolSize);
  const app = await buildApp({ db: pool, auth: authSettings(loadConfig(process.env)), logLevel: 'warn' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
  process.on('disconnect', () => void app.close().then(() => pool.close()).then(() => process.exit(0)));
  return { app, pool };
}

/**
 * In the bench: forks `file` (the bench's own, from import.meta.url) as the app and waits for its port.
 * `execArgv` replaces the bench's own Node flags for the child (default: the same as the bench's).
 */
export async function forkAppChild(file: string, execArgv = process.execArgv): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  const child = fork(file, [], { env: { ...process.env, BENCH_ROLE: 'server' }, stdio: 'inherit', execArgv });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`服务进程退出（${code}）`)));
  });
  const stop = async () => {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return { child, port, stop };
}
