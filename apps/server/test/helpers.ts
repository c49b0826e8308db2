import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { appUrlFrom, openDb, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import type { AuthSettings } from '../src/modules/auth/service.ts';
import type { EventBus } from '../src/modules/realtime/bus.ts';
import type { Payments } from '../src/modules/payment/service.ts';
import type { SmsSetup } from '../src/modules/notify/index.ts';
import type { BankClient } from '../src/modules/bank/index.ts';
import type { FileSetup } from '../src/modules/files/index.ts';
import { testOwnerUrl } from './global-setup.ts';

// Builds the real app against the test database; tests talk HTTP to it through inject().

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** an owner connection (bypasses RLS): for arranging fixtures and checking what was written */
  owner: pg.Pool;
  login(username: string, password: string): Promise<string>;
  call(token: string | null, opts: InjectOptions): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export const OWNER_URL = () => process.env.TEST_OWNER_URL ?? testOwnerUrl();

export async function testApp(
  auth: AuthSettings = { idleMinutes: 30, maxHours: 12 },
  o: { bus?: EventBus; payments?: Payments; webDist?: string; sms?: SmsSetup; bank?: BankClient; files?: FileSetup } = {},
): Promise<TestApp> {
  const db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 10);
  const owner = new pg.Pool({ connectionString: OWNER_URL(), max: 3 });
  const app = await buildApp({ db, auth, logLevel: 'silent', bus: o.bus, payments: o.payments, webDist: o.webDist, sms: o.sms, bank: o.bank, files: o.files });
  await app.ready();
  const call: TestApp['call'] = async (token, opts) => {
    const res = await app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ? { authorization: token } : {}) } });
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch { /* not JSON */ }
    return { status: res.statusCode, body };
  };
  return {
    app,
    db,
    owner,
    call,
    async login(username, password) {
      const r = await call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username, password } });
      if (r.body?.code !== 'SUCCESS') throw new Error(`login ${username} failed: ${JSON.stringify(r.body)}`);
      return r.body.data.token as string;
    },
    async close() {
      await app.close();
      await db.close();
      await owner.end();
    },
  };
}
