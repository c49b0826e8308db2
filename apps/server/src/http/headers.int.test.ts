import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { fileApp } from '../../test/helpers.ts';
import { makeCompany, makeRole, makeUser, uniq } from '../../test/factories.ts';

// Security headers on every answer; /docs off when asked (production); a session (HTTP token and open
// websocket) ends when its user's password is reset or changed by someone else (issue 12 §8, §10).

const t = await fileApp();


/** A /ws connection signed in with the token, once ready: what it received and when it closed. */
async function openSocket(token: string) {
  const ws = await t.app.injectWS('/ws');
  const messages: { type: string; code?: string }[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (m) => messages.push(JSON.parse(String(m))));
  ws.send(JSON.stringify({ auth: token }));
  await expect.poll(() => messages.some((m) => m.type === 'ready')).toBe(true);
  return { messages, closed };
}
describe('security headers', () => {
  it('CSP with frame-ancestors, nosniff, HSTS, Referrer-Policy on API answers', async () => {
    for (const url of ['/yonghu/api/admin/user/token', '/healthz', '/no-such-page']) {
      const r = await t.app.inject({ method: 'GET', url });
      const csp = String(r.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('/docs is off when the app is built without it', async () => {
    const app = await buildApp({ db: t.db, auth: { idleMinutes: 30, maxHours: 12 }, logLevel: 'silent', docs: false });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(404);
    await app.close();
  });
});

describe('websocket sessions', () => {
  it('end when the user’s password is reset by someone else', async () => {
    const companyId = await makeCompany(t.owner);
    const adminRole = await makeRole(t.owner, companyId, ['systemRecords']);
    const admin = await makeUser(t.owner, { companyId, roleId: adminRole });
    const user = await makeUser(t.owner, { companyId, roleId: await makeRole(t.owner, companyId, ['home']) });
    const adminToken = await t.login(admin.username, admin.password);
    const token = await t.login(user.username, user.password);
    const { messages, closed } = await openSocket(token);
    const r = await t.call(adminToken, { method: 'PUT', url: '/yonghu/api/admin/user/resetPassword', payload: { id: user.id } });
    expect(r.body.code).toBe('SUCCESS');
    // well before the one-minute recheck
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5000))])).toBe(4001);
    expect(messages.at(-1)).toMatchObject({ type: 'error', code: 'UNAUTHORIZED' });
  });

  it('end, with the HTTP token, when the platform admin sets a new password for a company manager', async () => {
    const companyId = await makeCompany(t.owner);
    const platform = await t.login('admin', 'admin123');
    const username = uniq('mgr');
    const M = '/yonghu/api/admin/manager/user';
    const created = await t.call(platform, { method: 'POST', url: M, payload: { companyId, username, realName: '经理', password: 'Passw0rd1' } });
    expect(created.body.code).toBe('SUCCESS');
    const token = await t.login(username, 'Passw0rd1');
    const other = await t.login(username, 'Passw0rd1');
    const { closed } = await openSocket(token);
    // an edit without a new password keeps the sessions
    const renamed = await t.call(platform, { method: 'POST', url: M, payload: { id: created.body.data.id, companyId, username, realName: '经理改' } });
    expect(renamed.body.code).toBe('SUCCESS');
    expect((await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/token' })).status).toBe(200);
    const changed = await t.call(platform, { method: 'POST', url: M, payload: { id: created.body.data.id, companyId, username, realName: '经理改', password: 'Newpass99' } });
    expect(changed.body.code).toBe('SUCCESS');
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5000))])).toBe(4001);
    for (const tok of [token, other]) expect((await t.call(tok, { method: 'GET', url: '/yonghu/api/admin/user/token' })).status).toBe(401);
    await t.login(username, 'Newpass99');
  });
});
