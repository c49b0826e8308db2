import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrlFrom } from '../../../db/client.ts';
import { OWNER_URL } from '../../../../test/helpers.ts';
import { makeCompany, uniq } from '../../../../test/factories.ts';
import { startAliyunEmulator, type AliyunEmulator } from './emulator-aliyun.ts';

// The outbox with a real provider and a real crash: a sender process sending through 阿里云短信 (SDK →
// emulator) is killed (SIGKILL) right after the provider accepted its third message, before recording
// it; a restarted sender asks the provider for that OutId, records it as sent and sends the rest —
// the emulator counts each message once and no SendSms call twice for it.

let owner: pg.Pool;
let em: AliyunEmulator;
const child = path.join(import.meta.dirname, 'sms-sender-child.test-util.ts');
const AK = 'LTAI-crash-test';
const SECRET = 'crash-test-secret';

beforeAll(async () => {
  owner = new pg.Pool({ connectionString: OWNER_URL(), max: 2 });
  em = await startAliyunEmulator({ keys: { [AK]: SECRET } });
});
afterAll(async () => {
  await owner.end();
  await em.close();
});

function runSender(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, APP_URL: appUrlFrom(OWNER_URL(), 'meter_app_test'), AK, SECRET, EMU_ENDPOINT: em.endpoint, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    p.on('error', reject);
    p.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('阿里云短信 through the outbox, with a sender killed after the provider answered', () => {
  it('each message reaches the provider once and is recorded sent', async () => {
    const companyId = await makeCompany(owner);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { rows } = await owner.query(
        `INSERT INTO notifications (company_id, level, channel, phone, content, price_fen, idempotency_key) VALUES ($1, 1, 'sms', $2, $3, 9, $4) RETURNING id`,
        [companyId, `1380000${String(1000 + i)}`, `余额不足 ${i}`, uniq('crash')],
      );
      ids.push(Number(rows[0].id));
    }
    const first = await runSender({ COMPANY: String(companyId), KILL_AFTER: '3', LEASE_MS: '1000' });
    expect(first.signal, JSON.stringify(first)).toBe('SIGKILL');
    const mine = () => em.messages.filter((m) => ids.some((id) => m.outId === `notify-${id}`));
    expect(mine()).toHaveLength(3);
    const callsBefore = em.calls;
    await new Promise((r) => setTimeout(r, 1200)); // the dead sender's lease runs out
    expect((await runSender({ COMPANY: String(companyId) })).code).toBe(0);
    // the third was found at the provider (QuerySendDetails by OutId): only the last two were sent
    expect(em.calls - callsBefore).toBe(2);
    expect(mine().map((m) => m.outId).sort()).toEqual(ids.map((id) => `notify-${id}`).sort());
    const rows = (await owner.query(`SELECT status, send_attempts, cost_fen FROM notifications WHERE company_id = $1 ORDER BY id`, [companyId])).rows;
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(rows.map((r) => r.send_attempts)).toEqual([1, 1, 2, 2, 2]);
    expect(rows.map((r) => r.cost_fen)).toEqual([9, 9, 9, 9, 9]);
  }, 360_000); // two processes started: a minute or more on a loaded machine (95 s at load 15)
});
