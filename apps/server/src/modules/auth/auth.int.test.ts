import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../../test/factories.ts';
import { LOCK_AFTER_FAILURES, LOGIN_FAILED_MESSAGE } from './service.ts';

const t = await fileApp();
const companyId: number = await makeCompany(t.owner);
const roleId: number = await makeRole(t.owner, companyId, ['systemRecords'], []);

const login = (username: string, password: string) =>
  t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username, password } });
const me = (token: string | null) => t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/token' });

describe('login', () => {
  it('returns token, user, access, routes, operations and company', async () => {
    const r = await login('demo', 'demo123');
    expect(r.status).toBe(200);
    expect(r.body.code).toBe('SUCCESS');
    const d = r.body.data;
    expect(d.token.length).toBeGreaterThanOrEqual(22); // ≥128 bits in base64url
    expect(d.user).toMatchObject({ username: 'demo' });
    expect(d.access).toBe(1);
    expect(d.routes).toContain('recordsRoom');
    expect(d.routes).not.toContain('administrator');
    expect(d.operations).toContain('finance.prepay');
    expect(d.company).toMatchObject({ name: '阳光物业演示公司', bankType: 0, edition: 0 });
  });

  it('stores only a hash of the token', async () => {
    const token = (await login('demo', 'demo123')).body.data.token;
    const { rows } = await t.owner.query('SELECT count(*)::int AS n FROM sessions WHERE token_hash = $1', [token]);
    expect(rows[0].n).toBe(0);
  });

  it('refuses a wrong password and an unknown user with a Chinese message', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    const bad = await login(u.username, 'wrong');
    expect(bad.status).toBe(200);
    expect(bad.body.code).toBe('LOGIN_FAILED');
    expect(bad.body.message).toMatch(/用户名或密码错误/);
    const unknown = await login('no-such-user', 'x');
    expect(unknown.body).toMatchObject({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
    // the same answer: nothing tells which usernames exist (再错 N 次 was only said to real users)
    expect(bad.body).toEqual(unknown.body);
  });

  it('rejects malformed input with 400 naming the field', async () => {
    const r = await t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username: 'demo' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.message).toContain('password');
  });

  it(`locks the account after ${LOCK_AFTER_FAILURES} consecutive failures, even for the right password`, async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++) expect((await login(u.username, 'bad')).body.code).toBe('LOGIN_FAILED');
    const last = await login(u.username, 'bad');
    expect(last.body).toEqual({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
    expect((await t.owner.query('SELECT locked_until > now() AS locked FROM admin_users WHERE id = $1', [u.id])).rows[0].locked).toBe(true);
    // locked: even the right password is refused, with the one message every failure gets
    const right = await login(u.username, u.password);
    expect(right.body).toEqual({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
    const { rows: why } = await t.owner.query(`SELECT reason FROM login_attempts WHERE user_id = $1 ORDER BY id DESC LIMIT 1`, [u.id]);
    expect(why[0].reason).toBe('locked');
    // after the lock expires the right password works again and the counter is reset
    await t.owner.query(`UPDATE admin_users SET locked_until = now() - interval '1 second' WHERE id = $1`, [u.id]);
    expect((await login(u.username, u.password)).body.code).toBe('SUCCESS');
    const { rows } = await t.owner.query('SELECT failed_count FROM admin_users WHERE id = $1', [u.id]);
    expect(rows[0].failed_count).toBe(0);
  });

  it('a success resets the consecutive-failure count', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++) await login(u.username, 'bad');
    expect((await login(u.username, u.password)).body.code).toBe('SUCCESS');
    expect((await login(u.username, 'bad')).body.code).toBe('LOGIN_FAILED');
  });

  it('never allows more than 100 failures per hour per account', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    await t.owner.query(
      `INSERT INTO login_attempts (username, user_id, success, reason) SELECT $1, $2, false, 'password' FROM generate_series(1, 100)`,
      [u.username, u.id],
    );
    const r = await login(u.username, u.password);
    expect(r.body).toEqual({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
    const { rows } = await t.owner.query(`SELECT reason FROM login_attempts WHERE user_id = $1 ORDER BY id DESC LIMIT 1`, [u.id]);
    expect(rows[0].reason).toBe('rate');
  });

  it('refuses a disabled account with the same message', async () => {
    const u = await makeUser(t.owner, { companyId, roleId, status: 0 });
    expect((await login(u.username, u.password)).body).toEqual({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
  });
});

describe('sessions', () => {
  it('no token or a bad token is 401 with the Chinese message', async () => {
    for (const token of [null, 'garbage']) {
      const r = await me(token);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 'UNAUTHORIZED', message: '登录状态过期，请重新登录' });
    }
  });

  it('a token is dead after logout', async () => {
    const token = await t.login('demo', 'demo123');
    expect((await me(token)).status).toBe(200);
    expect((await t.call(token, { method: 'POST', url: '/yonghu/api/logout' })).body.code).toBe('SUCCESS');
    expect((await me(token)).status).toBe(401);
  });

  it('expires after inactivity and absolutely', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    const idle = await t.login(u.username, u.password);
    await t.owner.query(`UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_id = $1`, [u.id]);
    expect((await me(idle)).status).toBe(401);
    const abs = await t.login(u.username, u.password);
    await t.owner.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND revoked_at IS NULL`, [u.id]);
    expect((await me(abs)).status).toBe(401);
  });

  it('a password change kills every session of the user', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    const a = await t.login(u.username, u.password);
    const b = await t.login(u.username, u.password);
    const wrong = await t.call(a, { method: 'PUT', url: '/yonghu/api/admin/user/changePassword', payload: { oldPassword: 'x', newPassword: 'NewPassw0rd' } });
    expect(wrong.body.code).toBe('PASSWORD_WRONG');
    const weak = await t.call(a, { method: 'PUT', url: '/yonghu/api/admin/user/changePassword', payload: { oldPassword: u.password, newPassword: 'short' } });
    expect(weak.status).toBe(400);
    const ok = await t.call(a, { method: 'PUT', url: '/yonghu/api/admin/user/changePassword', payload: { oldPassword: u.password, newPassword: 'NewPassw0rd' } });
    expect(ok.body.code).toBe('SUCCESS');
    expect((await me(a)).status).toBe(401);
    expect((await me(b)).status).toBe(401);
    expect((await login(u.username, 'NewPassw0rd')).body.code).toBe('SUCCESS');
  });

  it('disabling an account kills its sessions', async () => {
    const u = await makeUser(t.owner, { companyId, roleId });
    const token = await t.login(u.username, u.password);
    const demo = await t.login('demo', 'demo123');
    // demo cannot reach a user of another company (404), so disable via that company's own admin
    const adminRole = await makeRole(t.owner, companyId, ['systemRecords']);
    const boss = await makeUser(t.owner, { companyId, roleId: adminRole });
    const bossToken = await t.login(boss.username, boss.password);
    expect((await t.call(demo, { method: 'PUT', url: `/yonghu/api/admin/user?id=${u.id}`, payload: { status: 0 } })).status).toBe(404);
    const r = await t.call(bossToken, { method: 'PUT', url: `/yonghu/api/admin/user?id=${u.id}`, payload: { status: 0, realName: 'x' } });
    expect(r.body.code).toBe('SUCCESS');
    expect((await me(token)).status).toBe(401);
  });

  it('the lock screen checks the login password on the server', async () => {
    const token = await t.login('demo', 'demo123');
    const bad = await t.call(token, { method: 'POST', url: '/yonghu/api/admin/user/unlock', payload: { password: 'nope' } });
    expect(bad.body).toEqual({ code: 'PASSWORD_WRONG', message: '密码错误' });
    const ok = await t.call(token, { method: 'POST', url: '/yonghu/api/admin/user/unlock', payload: { password: 'demo123' } });
    expect(ok.body.code).toBe('SUCCESS');
  });
});
