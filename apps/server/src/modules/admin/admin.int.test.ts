import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';

const t = await fileApp();
const [demo, reader, platform] = await t.signIn('demo', 'reader', 'admin');

describe('permissions on the server', () => {
  it('a user without the page permission gets 403 with a Chinese message', async () => {
    for (const url of ['/yonghu/api/admin/user/list', '/yonghu/api/admin/role/list', '/yonghu/api/admin/log/list']) {
      const r = await t.call(reader, { method: 'GET', url });
      expect(r.status, url).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
      expect(r.body.message).toMatch(/无权/);
    }
  });
  it('platform-only calls are refused to company staff', async () => {
    const r = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/manager/user', payload: { companyId: 1, username: 'x1234', password: 'Abcdefg12' } });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('平台管理员');
  });
  it('403 comes before validation: a forbidden caller learns nothing about input', async () => {
    const r = await t.call(reader, { method: 'POST', url: '/yonghu/api/admin/role', payload: { bogus: true } });
    expect(r.status).toBe(403);
  });
});

describe('roles', () => {
  it('create → get → update → list → delete', async () => {
    const name = uniq('收费员');
    const c = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/role', payload: { name, memo: '柜台', routes: ['energy', 'notesPay'], operations: ['finance.prepay'] } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const g = await t.call(demo, { method: 'GET', url: `/yonghu/api/admin/role?id=${id}` });
    expect(g.body.data).toMatchObject({ name, routes: ['energy', 'notesPay'], operations: ['finance.prepay'] });
    const u = await t.call(demo, { method: 'PUT', url: `/yonghu/api/admin/role?id=${id}`, payload: { name, routes: ['energy'], operations: [] } });
    expect(u.body.code).toBe('SUCCESS');
    const l = await t.call(demo, { method: 'GET', url: `/yonghu/api/admin/role/list?index=1&size=10&name=${encodeURIComponent(name)}` });
    expect(l.body.count).toBe(1);
    expect(l.body.data[0].routes).toEqual(['energy']);
    expect((await t.call(demo, { method: 'DELETE', url: `/yonghu/api/admin/role?id=${id}` })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `/yonghu/api/admin/role?id=${id}` })).status).toBe(404);
  });
  it('refuses unknown or platform-only routes and bad operation keys, writing nothing', async () => {
    const name = uniq('坏角色');
    for (const payload of [{ name, routes: ['administrator'] }, { name, routes: ['nope'] }, { name, operations: ['x.y'] }, { name: '' }]) {
      const r = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/role', payload });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/参数「(routes|operations|name)」/);
    }
    const { rows } = await t.owner.query('SELECT count(*)::int AS n FROM roles WHERE name = $1', [name]);
    expect(rows[0].n).toBe(0);
  });
  it('a role in use cannot be deleted', async () => {
    const c = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/role', payload: { name: uniq('在用') } });
    const roleId = c.body.data.id;
    const u = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username: uniq('staff'), password: 'Passw0rd1', roleId } });
    expect(u.body.code).toBe('SUCCESS');
    const d = await t.call(demo, { method: 'DELETE', url: `/yonghu/api/admin/role?id=${roleId}` });
    expect(d.status).toBe(409);
    expect(d.body.message).toMatch(/已分配给 1 个账号/);
  });
});

describe('users', () => {
  it('create → login with the new account → reset password → old password dead', async () => {
    const username = uniq('cashier');
    const c = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username, realName: '收银员', phone: '13912345678', password: 'Passw0rd1' } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const token = await t.login(username, 'Passw0rd1');
    const r = await t.call(demo, { method: 'PUT', url: '/yonghu/api/admin/user/resetPassword', payload: { id } });
    expect(r.body.data.password).toMatch(/^[A-Za-z0-9]{10}$/);
    expect((await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/token' })).status).toBe(401);
    await t.login(username, r.body.data.password);
    const dup = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username, password: 'Passw0rd1' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain('已被使用');
  });
  it('validates phone and username with field messages', async () => {
    const r = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username: 'ab', password: 'Passw0rd1', phone: '123' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/参数「(username|phone)」/);
    const p = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username: `u${Date.now() % 1e8}`, password: 'Passw0rd1', phone: '23800138000' } });
    expect(p.status).toBe(400);
    expect(p.body.message).toContain('手机号号段无效：中国大陆手机号码以 13～19 开头（现为 23）');
    const empty = await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/user', payload: { username: `v${Date.now() % 1e8}`, password: 'Passw0rd1', phone: '' } });
    expect(empty.body.code).toBe('SUCCESS');
  });
  it('cannot disable or delete oneself', async () => {
    const me = (await t.call(demo, { method: 'GET', url: '/yonghu/api/admin/user/token' })).body.data.user.id;
    expect((await t.call(demo, { method: 'PUT', url: `/yonghu/api/admin/user?id=${me}`, payload: { status: 0 } })).body.code).toBe('SELF_DISABLE');
    expect((await t.call(demo, { method: 'DELETE', url: `/yonghu/api/admin/user?id=${me}` })).body.code).toBe('SELF_DELETE');
  });
  it('a platform admin creates a company manager who can log in with the built-in 管理员 role', async () => {
    const username = uniq('mgr');
    const r = await t.call(platform, { method: 'POST', url: '/yonghu/api/admin/manager/user', payload: { companyId: 1, username, realName: '新经理', password: 'Passw0rd1' } });
    expect(r.body.code).toBe('SUCCESS');
    const login = await t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username, password: 'Passw0rd1' } });
    expect(login.body.data.routes).toContain('recordsRoom');
    expect(login.body.data.operations).toContain('finance.refund');
    const list = await t.call(platform, { method: 'GET', url: `/yonghu/api/admin/user/list?username=${username}` });
    expect(list.body.data[0]).toMatchObject({ username, companyName: '阳光物业演示公司', roleName: '管理员' });
  });
});

describe('audit log', () => {
  it('writes one row per mutation, which the app role cannot change or delete', async () => {
    const name = uniq('审计角色');
    const { rows: [{ max }] } = await t.owner.query('SELECT coalesce(max(id), 0)::int AS max FROM audit_log');
    await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/role', payload: { name } });
    await t.call(demo, { method: 'POST', url: '/yonghu/api/admin/role', payload: { name: '' } }); // refused: still audited
    const { rows } = await t.owner.query('SELECT * FROM audit_log WHERE id > $1 AND username = $2 ORDER BY id', [max, 'demo']);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ method: 'POST', path: '/yonghu/api/admin/role', action: '新增角色', target: `角色 ${name}`, status: 200, code: 'SUCCESS' });
    expect(rows[0].ip).not.toBe('');
    expect(rows[1]).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    const c = await t.db.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SELECT set_config('app.all_companies', 'on', true)`);
      await expect(c.query(`UPDATE audit_log SET action = 'x' WHERE id = $1`, [rows[0].id])).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
      await c.query('BEGIN');
      await c.query(`SELECT set_config('app.all_companies', 'on', true)`);
      await expect(c.query(`DELETE FROM audit_log WHERE id = $1`, [rows[0].id])).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    // and even the owner cannot rewrite history
    await expect(t.owner.query(`UPDATE audit_log SET action = 'x' WHERE id = $1`, [rows[0].id])).rejects.toThrow(/不可修改/);
  });
  it('logins are audited and the log is listed for /notesOperate, never showing secrets', async () => {
    await t.login('demo', 'demo123');
    const r = await t.call(demo, { method: 'GET', url: '/yonghu/api/admin/log/list?index=1&size=5&action=登录' });
    expect(r.body.count).toBeGreaterThan(0);
    expect(r.body.data[0]).toMatchObject({ username: 'demo', action: '登录' });
    const { rows } = await t.owner.query(`SELECT detail FROM audit_log WHERE action = '登录' ORDER BY id DESC LIMIT 1`);
    expect(JSON.stringify(rows[0].detail)).not.toContain('demo123');
  });
});
