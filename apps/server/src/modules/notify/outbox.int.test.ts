import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrlFrom } from '../../db/client.ts';
import { OWNER_URL } from '../../../test/helpers.ts';
import { makeCompany } from '../../../test/factories.ts';

// Notifications go through an outbox: a sender killed between claiming and sending (SIGKILL, a real
// process) leaves only what it had claimed and not recorded; a restarted sender sends each message
// exactly once, with the same idempotency key on every try.

let owner: pg.Pool;
let dir: string;
const child = path.join(import.meta.dirname, 'sender-child.test-util.ts');

function runSender(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, APP_URL: appUrlFrom(OWNER_URL(), 'meter_app_test'), ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.on('error', reject);
    p.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function queueFor(companyId: number, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const { rows } = await owner.query(
      `INSERT INTO notifications (company_id, level, channel, phone, content, idempotency_key)
       VALUES ($1, 1, 'sms', '13800000000', $2, $3) RETURNING id`,
      [companyId, `余额不足提醒 ${i}`, `outbox-test:${i}`],
    );
    ids.push(Number(rows[0].id));
  }
  return ids;
}

beforeAll(async () => {
  owner = new pg.Pool({ connectionString: OWNER_URL(), max: 2 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
});

afterAll(async () => {
  await owner.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the notification outbox', () => {
  it('a sender killed between claim and send, restarted: each message is sent exactly once', async () => {
    const companyId = await makeCompany(owner);
    const ids = await queueFor(companyId, 5);
    const out = path.join(dir, 'sent-1.txt');
    fs.writeFileSync(out, '');
    const first = await runSender({ COMPANY: String(companyId), KILL_AT: '3', OUT: out, LEASE_MS: '1000' });
    expect(first.signal).toBe('SIGKILL');
    // the two messages delivered before the crash are recorded as sent, not left to be sent again
    const after = (await owner.query(`SELECT id, status FROM notifications WHERE company_id = $1 ORDER BY id`, [companyId])).rows;
    expect(after.map((r) => r.status)).toEqual(['sent', 'sent', 'sending', 'sending', 'sending']);
    await new Promise((r) => setTimeout(r, 1200)); // the dead sender's lease runs out
    const second = await runSender({ COMPANY: String(companyId), OUT: out });
    expect(second.code).toBe(0);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const mine = lines.filter(([id]) => ids.includes(Number(id)));
    const count = new Map<number, number>();
    for (const [id] of mine) count.set(Number(id), (count.get(Number(id)) ?? 0) + 1);
    expect(ids.map((id) => count.get(id))).toEqual([1, 1, 1, 1, 1]);
    // every delivery carries the message's own idempotency key
    for (const [id, key] of mine) expect(key).toBe(`notify-${id}`);
    const done = (await owner.query(`SELECT status, send_attempts FROM notifications WHERE company_id = $1 ORDER BY id`, [companyId])).rows;
    expect(done.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(done.map((r) => r.send_attempts)).toEqual([1, 1, 2, 2, 2]);
  }, 360_000); // two processes started: seconds on a quiet machine, a minute or more on a loaded one

  it('a message whose sender died on its last try is failed as unknown, not sent a third time', async () => {
    const companyId = await makeCompany(owner);
    const [id] = await queueFor(companyId, 1);
    await owner.query(`UPDATE notifications SET status = 'sending', send_attempts = 2, lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const out = path.join(dir, 'sent-2.txt');
    fs.writeFileSync(out, '');
    expect((await runSender({ COMPANY: String(companyId), OUT: out })).code).toBe(0);
    expect(fs.readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith(`${id} `))).toEqual([]);
    const row = (await owner.query(`SELECT status, error FROM notifications WHERE id = $1`, [id])).rows[0];
    expect(row.status).toBe('failed');
    expect(row.error).toContain('结果未知');
  }, 120_000);
});
