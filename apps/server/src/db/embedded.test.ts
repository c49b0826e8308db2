import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claimDataDir, startTimeOf } from './embedded.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'meter-claim-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A live process other than this one, with its start time as the claim file records it. */
async function otherProcess() {
  const p = spawn('sleep', ['30']);
  await new Promise((r) => p.once('spawn', r));
  const started = startTimeOf(p.pid!);
  return { pid: p.pid!, started, stop: () => new Promise((r) => { p.once('exit', r); p.kill('SIGKILL'); }) };
}

describe('claimDataDir', () => {
  it('refuses a data directory another living platform process holds, and takes it once that process is gone', async () => {
    const dir = tmp();
    const other = await otherProcess();
    fs.writeFileSync(path.join(dir, 'meter.pid'), `${other.pid}\n${other.started}\n`);
    expect(() => claimDataDir(dir)).toThrow(`数据目录 ${dir} 正被另一个平台进程（PID ${other.pid}）使用`);
    // nothing changed: the other process's claim stays
    expect(fs.readFileSync(path.join(dir, 'meter.pid'), 'utf8')).toBe(`${other.pid}\n${other.started}\n`);
    await other.stop(); // as after a SIGKILL
    const release = claimDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'meter.pid'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'meter.pid'))).toBe(false);
  });

  it('takes a claim whose pid now names a different process (a pid reused after a restart)', async () => {
    const dir = tmp();
    const other = await otherProcess();
    fs.writeFileSync(path.join(dir, 'meter.pid'), `${other.pid}\n1\n`); // same pid, another start time
    const release = claimDataDir(dir);
    release();
    await other.stop();
  });

  it('a release leaves a claim that is not its own', () => {
    const dir = tmp();
    const release = claimDataDir(dir);
    fs.writeFileSync(path.join(dir, 'meter.pid'), '4242\n7\n');
    release();
    expect(fs.readFileSync(path.join(dir, 'meter.pid'), 'utf8')).toBe('4242\n7\n');
  });
});
