// The V8 flags the server runs with (apps/server/package.json "start"): a bench that times server code
// inside its own process (settlement: the real sweep) runs under the same ones, so it measures what
// production runs. A larger young generation: a settlement batch's objects (the batch document, the
// priced rows, the statement's literals) die young instead of being copied out of a 16 MiB semi-space
// (GC was a third of the sweep's node CPU; bench/README.md «Settlement»).
import { spawnSync } from 'node:child_process';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

/** Runs this script again under the server's flags unless it has them already (then returns). */
export function underServerFlags(): void {
  const have = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const missing = SERVER_NODE_FLAGS.filter((f) => !have.some((a) => a.split('=')[0] === f.split('=')[0]));
  if (!missing.length) return;
  const r = spawnSync(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
