import { randomBytes } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { appUrlFrom, openDb, type Db } from '../../../db/client.ts';
import { OWNER_URL, testApp, type TestApp } from '../../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser, uniq } from '../../../../test/factories.ts';
import { SendError, type NotifyProvider } from '../provider.ts';
import { sendQueued } from '../service.ts';
import { emulatorSetup, providersFrom, startSmsEmulators, type SmsEmulators, type SmsSetup } from './setup.ts';

// A test app whose SMS and voice go through the real 阿里云/腾讯云 provider code to the local emulators
// (both on free ports), with the app's own database pool for the sender.

export interface SmsHarness {
  t: TestApp;
  db: Db;
  em: SmsEmulators;
  sms: SmsSetup;
  /** one pass of the outbox sender, as the worker runs it */
  send(): ReturnType<typeof sendQueued>;
  /** a company with these SMS (default 7) and phone prices, and the token of a user who may configure its SMS */
  company(prices?: { smsFen?: number; phoneFen?: number }): Promise<{ companyId: number; token: string }>;
  /** an SMS of price 7 queued for the company, as the alarm rules queue it; its id */
  queue(companyId: number, phone?: string, keyPrefix?: string): Promise<number>;
  /** the notifications row */
  row(id: number): Promise<any>;
  close(): Promise<void>;
}

export async function smsHarness(): Promise<SmsHarness> {
  const key = randomBytes(32);
  const db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 3);
  const em = await startSmsEmulators(db, key, { aliyun: 0, tencent: 0 });
  const sms = emulatorSetup(key, em);
  const t = await testApp(undefined, { sms });
  return {
    t, db, em, sms,
    send: () => sendQueued(db, providersFrom(db, sms, () => {}), { limit: 500, retryBaseMs: 300 }),
    company: async ({ smsFen = 7, phoneFen } = {}) => {
      const companyId = await makeCompany(t.owner);
      await t.owner.query(`UPDATE companies SET sms_price_fen = $2, phone_price_fen = coalesce($3, phone_price_fen) WHERE id = $1`, [companyId, smsFen, phoneFen ?? null]);
      const u = await makeUser(t.owner, { companyId, roleId: await makeRole(t.owner, companyId, ['systemSend', 'notesMessage']) });
      return { companyId, token: await t.login(u.username, u.password) };
    },
    queue: async (companyId, phone = '13800000000', keyPrefix = 'sms-test') => {
      const { rows } = await t.owner.query(
        `INSERT INTO notifications (company_id, level, channel, phone, content, price_fen, idempotency_key) VALUES ($1, 1, 'sms', $2, '余额不足，请及时充值', 7, $3) RETURNING id`,
        [companyId, phone, uniq(keyPrefix)],
      );
      return Number(rows[0].id);
    },
    row: async (id) => (await t.owner.query(`SELECT * FROM notifications WHERE id = $1`, [id])).rows[0],
    close: async () => {
      await t.close();
      await em.close();
      await db.close();
    },
  };
}

/** {@link smsHarness} for a whole test file (`const h = await fileSmsHarness();` at its top), closed after its last test. */
export async function fileSmsHarness(): Promise<SmsHarness> {
  const h = await smsHarness();
  afterAll(() => h.close());
  return h;
}

/**
 * A message through a provider signed with a wrong secret: refused for good as a signature mismatch, and
 * the emulator counts no call (`calls()` before and after).
 */
export async function expectWrongSignatureRefused(wrong: NotifyProvider, channel: 'sms' | 'phone', calls: () => number) {
  const before = calls();
  const e = await wrong.send({ id: 1, companyId: 1, channel, phone: '13800000000', content: 'x', idempotencyKey: uniq('k') }).catch((x: unknown) => x as SendError);
  expect(e).toBeInstanceOf(SendError);
  expect((e as SendError).message).toMatch(/SignatureDoesNotMatch|SignatureFailure/);
  expect((e as SendError).retryable).toBe(false);
  expect(calls()).toBe(before);
}
