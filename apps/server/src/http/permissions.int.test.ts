import { describe, expect, it } from 'vitest';
import { ALWAYS_ALLOWED_ROUTES } from '@meter/contracts';
import { fileApp } from '../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../test/factories.ts';

// Every write is allowed by its own permission, never through a page every user may open (issue 12 §9).

const t = await fileApp();
const companyId: number = await makeCompany(t.owner);

const login = async (routes: string[], operations: string[] = []) => {
  const u = await makeUser(t.owner, { companyId, roleId: await makeRole(t.owner, companyId, routes, operations) });
  return t.login(u.username, u.password);
};

describe('write permissions', () => {
  it('no write is allowed through an always-allowed page (home) without its operation key', () => {
    // what a signed-in user does to their own session and account (name, phone, password)
    const selfService = ['/yonghu/api/logout', '/yonghu/api/admin/user/unlock', '/yonghu/api/admin/user/changePassword', '/yonghu/api/admin/user/profile'];
    const loose = t.app.apiRoutes.filter((r) => {
      // owner-app routes (perm.owner) answer owner sessions only, never a back-office user (ownerapp.int.test.ts)
      if (!r.write || r.perm === false || r.perm.access === 0 || r.perm.op || r.perm.owner) return false;
      if (selfService.includes(r.url)) return false;
      return !r.perm.routes?.length || r.perm.routes.some((k) => ALWAYS_ALLOWED_ROUTES.includes(k));
    });
    expect(loose.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('device/unusual/deal: a signed-in user without device.edit cannot mark a warning handled', async () => {
    const { rows } = await t.owner.query(`INSERT INTO device_warnings (company_id, kind) VALUES ($1, 'offline') RETURNING id`, [companyId]);
    const id = Number(rows[0].id);
    const url = '/device/api/v1/device/unusual/deal';
    for (const token of [await login(['home']), await login(['home', 'warnElectricOff'])]) {
      const r = await t.call(token, { method: 'PUT', url, payload: { id, memo: '已处理' } });
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/无权/);
    }
    expect((await t.owner.query('SELECT status FROM device_warnings WHERE id = $1', [id])).rows[0].status).toBe(0);
    const ok = await t.call(await login(['warnElectricOff'], ['device.edit']), { method: 'PUT', url, payload: { id, memo: '已处理' } });
    expect(ok.body.data).toEqual({ handled: 1, skipped: 0 });
  });
});
