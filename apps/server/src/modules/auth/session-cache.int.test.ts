import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../../test/factories.ts';
import { connectMqtt } from '../../gateway/mqtt.ts';
import { MQTT_URL, testSealer } from '../control/harness.test-util.ts';
import { EventBus } from '../realtime/bus.ts';
import { hashToken } from './crypto.ts';

// The session memo (AUTH_SESSION_CACHE_MS): it saves lookups, and a change made by a person — here or
// signalled from another process — still takes effect at once; a change behind the app's back (a
// direct database write) lasts no longer than the memo's lifetime.

let t: TestApp; // memo of one minute, so anything it serves is visibly from the memo
let short: TestApp; // memo of 300 ms
let companyId: number;
let bossToken: string;

beforeAll(async () => {
  t = await testApp({ idleMinutes: 30, maxHours: 12, sessionCacheMs: 60_000 });
  short = await testApp({ idleMinutes: 30, maxHours: 12, sessionCacheMs: 300 });
  companyId = await makeCompany(t.owner);
  const bossRole = await makeRole(t.owner, companyId, ['systemRecords', 'systemRole']);
  const boss = await makeUser(t.owner, { companyId, roleId: bossRole });
  bossToken = await t.login(boss.username, boss.password);
});
afterAll(async () => {
  await t.close();
  await short.close();
});

const me = (app: TestApp, token: string) => app.call(token, { method: 'GET', url: '/yonghu/api/admin/user/token' });
const roles = (app: TestApp, token: string) => app.call(token, { method: 'GET', url: '/yonghu/api/admin/role/list?index=1&size=10' });
const staff = async (routes: string[]) => {
  const roleId = await makeRole(t.owner, companyId, routes);
  const u = await makeUser(t.owner, { companyId, roleId });
  return { ...u, roleId, token: await t.login(u.username, u.password) };
};
const revokeBehindTheApp = (token: string, app: TestApp) =>
  app.owner.query(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1`, [hashToken(token)]);

describe('session memo', () => {
  it('serves repeated requests from the memo (a revocation behind the app is not seen yet)', async () => {
    const u = await staff(['systemRecords']);
    expect((await me(t, u.token)).status).toBe(200);
    const r = await revokeBehindTheApp(u.token, t);
    expect(r.rowCount).toBe(1);
    expect((await me(t, u.token)).status).toBe(200);
  });

  it('a logout kills the token at once', async () => {
    const u = await staff(['systemRecords']);
    expect((await me(t, u.token)).status).toBe(200);
    expect((await t.call(u.token, { method: 'POST', url: '/yonghu/api/logout' })).body.code).toBe('SUCCESS');
    expect((await me(t, u.token)).status).toBe(401);
  });

  it('disabling an account and narrowing a role take effect on the next request', async () => {
    const u = await staff(['systemRecords', 'systemRole']);
    expect((await roles(t, u.token)).status).toBe(200);
    const narrowed = await t.call(bossToken, { method: 'PUT', url: `/yonghu/api/admin/role?id=${u.roleId}`, payload: { name: '只看账号', routes: ['systemRecords'] } });
    expect(narrowed.body.code, JSON.stringify(narrowed.body)).toBe('SUCCESS');
    expect((await roles(t, u.token)).status).toBe(403);
    expect((await me(t, u.token)).status).toBe(200);
    const off = await t.call(bossToken, { method: 'PUT', url: `/yonghu/api/admin/user?id=${u.id}`, payload: { status: 0, realName: 'x' } });
    expect(off.body.code).toBe('SUCCESS');
    expect((await me(t, u.token)).status).toBe(401);
  });

  it('a change handled by another API process clears the memo here (auth-changed over MQTT)', async () => {
    const prefix = `test-auth-${process.pid}-${Date.now().toString(36)}/`;
    const buses = [new EventBus(prefix), new EventBus(prefix)];
    const clients = await Promise.all(buses.map((_, i) => connectMqtt(MQTT_URL, `test-auth-${i}`)));
    await Promise.all(buses.map((b, i) => b.attach(clients[i], testSealer())));
    const [here, there] = await Promise.all(buses.map((bus) => testApp({ idleMinutes: 30, maxHours: 12, sessionCacheMs: 60_000 }, { bus })));
    try {
      const u = await makeUser(here.owner, { companyId, roleId: await makeRole(here.owner, companyId, ['systemRecords']) });
      const token = await here.login(u.username, u.password);
      expect((await me(here, token)).status).toBe(200);
      // the logout is handled by the other process; this one learns of it from the bus
      expect((await there.call(token, { method: 'POST', url: '/yonghu/api/logout' })).body.code).toBe('SUCCESS');
      const deadline = Date.now() + 3000;
      let status = 200;
      while (Date.now() < deadline && (status = (await me(here, token)).status) === 200) await new Promise((r) => setTimeout(r, 50));
      expect(status).toBe(401);
    } finally {
      await here.close();
      await there.close();
      await Promise.all(clients.map((c) => c.endAsync()));
    }
  });

  it('a change behind the app lasts no longer than the memo lifetime', async () => {
    const u = await makeUser(short.owner, { companyId, roleId: await makeRole(short.owner, companyId, ['systemRecords']) });
    const token = await short.login(u.username, u.password);
    expect((await me(short, token)).status).toBe(200);
    await revokeBehindTheApp(token, short);
    await new Promise((r) => setTimeout(r, 350));
    expect((await me(short, token)).status).toBe(401);
  });
});
