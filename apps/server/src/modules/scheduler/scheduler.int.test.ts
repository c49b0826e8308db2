import { describe, expect, it, vi } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import type { Db } from '../../db/client.ts';
import { RECORD_EVERY_MS, Scheduler } from './scheduler.ts';

// The one scheduler: timing, one run at a time, outcomes recorded for /task, a database outage
// does not stop the jobs, and GET /yonghu/api/system/jobs shows them to platform administrators.

const errors: unknown[] = [];
const log = { error: (o: unknown) => errors.push(o), warn: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const name = (s: string) => `test.${s}.${Date.now()}.${Math.random().toString(36).slice(2, 6)}`;

const t = await fileApp();
const [platform, demo] = await t.signIn('admin', 'demo');

async function jobRow(n: string) {
  const r = await t.owner.query('SELECT * FROM scheduled_jobs WHERE name = $1', [n]);
  return r.rows[0];
}

describe('Scheduler', () => {
  it('runs a job after its first delay and then every period, and records the last and next run', async () => {
    const s = new Scheduler({ db: t.db, log, role: 'worker' });
    const n = name('tick');
    let runs = 0;
    s.add({ name: n, label: '测试任务', everyMs: 100, firstMs: 10, run: async () => void runs++ }).start();
    await sleep(380);
    await s.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    const row = await jobRow(n);
    expect(row).toMatchObject({ label: '测试任务', role: 'worker', every_ms: 100, last_ok: true, last_error: '' });
    // frequent successes are recorded now and then (the first at once), never more runs than happened
    expect(Number(row.runs)).toBeGreaterThanOrEqual(1);
    expect(Number(row.runs)).toBeLessThanOrEqual(runs);
    expect(row.next_run_at.getTime() - row.last_finished_at.getTime()).toBe(100);
  });

  it('never runs a job twice at once: a tick during a run is skipped, a trigger makes one more run after it', async () => {
    const s = new Scheduler({ db: t.db, log, role: 'worker' });
    const n = name('slow');
    let active = 0;
    let most = 0;
    let runs = 0;
    s.add({
      name: n, label: '慢任务', everyMs: 20, firstMs: 0,
      run: async () => {
        active++;
        most = Math.max(most, active);
        runs++;
        await sleep(150);
        active--;
      },
    }).start();
    await sleep(30);
    const before = runs;
    void s.trigger(n);
    void s.trigger(n);
    await sleep(400);
    await s.stop();
    expect(most).toBe(1);
    expect(before).toBe(1);
    // the first run, one run for both triggers, and ticks after that
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(4);
  });

  it('a failing job records its error and failure count; the next success clears the state but keeps the error text', async () => {
    const s = new Scheduler({ db: t.db, log, role: 'worker' });
    const n = name('fail');
    let fail = true;
    s.add({ name: n, label: '会失败的任务', everyMs: 60_000, firstMs: 60_000, run: async () => { if (fail) throw new Error('对端没有响应'); } }).start();
    await s.trigger(n);
    let row = await jobRow(n);
    expect(row).toMatchObject({ last_ok: false, last_error: '对端没有响应' });
    expect(Number(row.failures)).toBe(1);
    expect(errors.length).toBeGreaterThan(0);
    fail = false;
    await s.trigger(n);
    row = await jobRow(n);
    expect(row.last_ok).toBe(true);
    expect(Number(row.runs)).toBe(2);
    expect(Number(row.failures)).toBe(1);
    expect(row.last_error).toBe('对端没有响应');
    await s.stop();
  });

  it('a database outage does not stop the jobs: the record fails quietly and the runs are counted later', async () => {
    let down = true;
    const flaky: Db = { ...t.db, tx: (scope, fn) => (down ? Promise.reject(new Error('connection refused')) : t.db.tx(scope, fn)) };
    const s = new Scheduler({ db: flaky, log, role: 'worker' });
    const n = name('outage');
    let runs = 0;
    s.add({ name: n, label: '停库期间', everyMs: 60_000, firstMs: 60_000, run: async () => void runs++ }).start();
    await s.trigger(n);
    await s.trigger(n);
    expect(runs).toBe(2);
    expect(await jobRow(n)).toBeUndefined();
    down = false;
    // past the recording interval of a frequent job: the scheduler's clock (Date.now) 5.1 s on, not a 5.1 s wait
    const realNow = Date.now.bind(Date);
    const later = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + RECORD_EVERY_MS + 100);
    await s.trigger(n).finally(() => later.mockRestore());
    expect(Number((await jobRow(n)).runs)).toBe(3);
    await s.stop();
  });

  it('refuses a job registered twice', () => {
    const s = new Scheduler({ log, role: 'worker' });
    s.add({ name: 'x', label: 'x', everyMs: 1000, run: async () => {} });
    expect(() => s.add({ name: 'x', label: 'x', everyMs: 1000, run: async () => {} })).toThrow(/重复/);
  });
});

describe('GET /yonghu/api/system/jobs (/task)', () => {
  it('lists every job with its state for a platform administrator; company users are refused', async () => {
    const s = new Scheduler({ db: t.db, log, role: 'worker' });
    const n = name('shown');
    s.add({ name: n, label: '展示用任务', everyMs: 60_000, firstMs: 60_000, run: async () => { throw new Error('采集器无应答'); } }).start();
    await s.trigger(n);
    await s.stop();
    // a job that should have run long ago is overdue
    await t.owner.query(`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 hour' WHERE name = $1`, [n]);

    const r = await t.call(platform, { method: 'GET', url: '/yonghu/api/system/jobs' });
    expect(r.body.code).toBe('SUCCESS');
    const job = r.body.data.find((j: { name: string }) => j.name === n);
    expect(job).toMatchObject({ label: '展示用任务', lastOk: false, lastError: '采集器无应答', state: 'overdue', stateText: '未按时运行', roleText: '指令执行进程' });
    expect(job.nextRunAt).toBeTruthy();

    const company = await t.call(demo, { method: 'GET', url: '/yonghu/api/system/jobs' });
    expect(company.status).toBe(403);
    expect(company.body.message).toMatch(/平台管理员/);
  });
});
