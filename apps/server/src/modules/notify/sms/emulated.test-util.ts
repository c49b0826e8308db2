import { randomBytes } from 'node:crypto';
import { appUrlFrom, openDb, type Db } from '../../../db/client.ts';
import { OWNER_URL, testApp, type TestApp } from '../../../../test/helpers.ts';
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
    close: async () => {
      await t.close();
      await em.close();
      await db.close();
    },
  };
}
