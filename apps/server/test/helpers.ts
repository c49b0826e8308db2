import { afterAll, expect } from 'vitest';
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
import { DEMO_LOGINS } from '../src/demo/seed.ts';
import { TEST_DB_NAME, testOwnerUrl } from './global-setup.ts';
import { makeRole, makeUser } from './factories.ts';

// Builds the real app against the test database; tests talk HTTP to it through inject().

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** an owner connection (bypasses RLS): for arranging fixtures and checking what was written */
  owner: pg.Pool;
  login(username: string, password: string): Promise<string>;
  /** tokens of demo accounts of the seed, signed in with their demo passwords, in the order asked */
  signIn(...usernames: DemoUser[]): Promise<string[]>;
  call(token: string | null, opts: InjectOptions): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * This test file's database: a copy of the migrated, seeded template that no file running at the same
 * time uses (worker-db.ts claims it and names it in TEST_WORKER_DB before the file is imported).
 */
export const workerDbName = () => process.env.TEST_WORKER_DB ?? `${TEST_DB_NAME}_w1`;
export const OWNER_URL = () => testOwnerUrl(workerDbName());

export type DemoUser = 'admin' | 'demo' | 'reader' | 'market' | 'industry';

/** `app.inject` answered as {status, body}, with the token as the authorization header. */
export function injector(app: FastifyInstance): TestApp['call'] {
  return async (token, opts) => {
    const res = await app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ? { authorization: token } : {}) } });
    let body: unknown = res.body;
    try {
      body = res.json();
    } catch { /* not JSON */ }
    return { status: res.statusCode, body };
  };
}

/** Signs in through the login endpoint; a refusal throws. */
export function signer(call: TestApp['call']) {
  const login = async (username: string, password: string) => {
    const r = await call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username, password } });
    if (r.body?.code !== 'SUCCESS') throw new Error(`login ${username} failed: ${JSON.stringify(r.body)}`);
    return r.body.data.token as string;
  };
  const signIn = async (...usernames: DemoUser[]) => {
    const tokens: string[] = [];
    for (const u of usernames) tokens.push(await login(u, DEMO_LOGINS.find((d) => d.username === u)!.password));
    return tokens;
  };
  return { login, signIn };
}

export async function testApp(
  auth: AuthSettings = { idleMinutes: 30, maxHours: 12 },
  o: { bus?: EventBus; payments?: Payments; webDist?: string; sms?: SmsSetup; bank?: BankClient; files?: FileSetup } = {},
): Promise<TestApp> {
  const db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 10);
  const owner = new pg.Pool({ connectionString: OWNER_URL(), max: 3 });
  const app = await buildApp({ db, auth, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', bus: o.bus, payments: o.payments, webDist: o.webDist, sms: o.sms, bank: o.bank, files: o.files });
  await app.ready();
  const call = injector(app);
  return {
    app,
    db,
    owner,
    call,
    ...signer(call),
    async close() {
      await app.close();
      await db.close();
      await owner.end();
    },
  };
}

/**
 * A test file's app, built while the file is collected (`const t = await fileApp();` at its top) and
 * closed after its last test.
 */
export async function fileApp(...args: Parameters<typeof testApp>): Promise<TestApp> {
  const t = await testApp(...args);
  afterAll(() => t.close());
  return t;
}

/** The demo company's id (the company of the seed's `demo` account). */
export async function demoCompanyId(owner: pg.Pool): Promise<number> {
  return Number((await owner.query(`SELECT company_id FROM admin_users WHERE username = 'demo'`)).rows[0].company_id);
}

/** An answer's data, after checking that it is SUCCESS (the whole body in the failure's message). */
export function ok(r: { body: any }) {
  expect(r.body?.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
}

/** An answer's body, after checking that it is a 200 and SUCCESS. */
export function success(r: { status: number; body: any }): { code: string; message: string; data: any; count?: number } {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body;
}

/** A refusal: a 200 with this code and a message in Chinese (answered). */
export function refused(r: { status: number; body: any }, code: string): string {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.code, JSON.stringify(r.body)).toBe(code);
  expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
  return r.body.message;
}

/** A new user of the company whose role has these routes and operations, signed in (`token`). */
export async function signedInStaff(t: TestApp, companyId: number, routes: string[], operations: string[] = []) {
  const roleId = await makeRole(t.owner, companyId, routes, operations);
  const u = await makeUser(t.owner, { companyId, roleId });
  return { ...u, roleId, token: await t.login(u.username, u.password) };
}

/** A 400 whose message names the field (「field…). */
export function expect400(r: { status: number; body: any }, field: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.message).toContain(`「${field}`);
}

/** The demo company and the first two floors (deep 2) of its seeded area tree. */
export async function demoFloors(owner: pg.Pool) {
  const demoCompany = await demoCompanyId(owner);
  const floors = (await owner.query(`SELECT id FROM areas WHERE company_id = $1 AND deep = 2 ORDER BY id LIMIT 2`, [demoCompany])).rows;
  return { demoCompany, floorA: Number(floors[0].id), floorB: Number(floors[1].id) };
}

/** Each request, made with the token, answers this HTTP status (the method and URL in the failure's message). */
export async function expectEachStatus(t: TestApp, token: string, requests: readonly (readonly [InjectOptions['method'], string, unknown?])[], status: number) {
  for (const [method, url, payload] of requests) {
    const r = await t.call(token, { method, url, payload: payload as InjectOptions['payload'] });
    expect(r.status, `${method} ${url}`).toBe(status);
  }
}
