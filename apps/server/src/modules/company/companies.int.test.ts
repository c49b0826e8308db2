import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/crypto.ts';
import { fileApp, demoCompanyId } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// Companies (/belongs), CompanyInfo, GetReceiptAccount, getValveControlPwd, CompanyDevicePermiss.
const t = await fileApp();
const [admin, demo, reader] = await t.signIn('admin', 'demo', 'reader');
const demoCompany: number = await demoCompanyId(t.owner);

const C = '/yewu/api/Company';
const count = async (sql: string, p: unknown[] = []) => (await t.owner.query(sql, p)).rows[0].n as number;

describe('Company CRUD (platform admin)', () => {
  it('create → list with search → detail → update → delete', async () => {
    const name = uniq('新单位');
    const classifyId = Number((await t.owner.query(`SELECT id FROM company_classifies WHERE name = '市场运营'`)).rows[0].id);
    const c = await t.call(admin, {
      method: 'POST',
      url: `${C}/detail`,
      payload: { name, classifyId, contact: '李经理', phone: '0755-8888 1234', address: '深圳', bankType: 1, edition: 1, smsPriceFen: 8, phonePriceFen: 15, deviceCheck: true, valveControlPwd: 'abc123' },
    });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const l = await t.call(admin, { method: 'GET', url: `${C}/list?index=1&size=10&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({
      id, name, classifyId, classifyName: '市场运营', bankType: 1, bankName: '中国银行', edition: 1, editionName: '智慧市场管理平台',
      deviceCheck: true, hasValveControlPwd: true,
      smsPrices: [{ notifyType: 1, name: '短信', priceFen: 8, price: '0.08' }, { notifyType: 2, name: '电话', priceFen: 15, price: '0.15' }],
    });
    expect(JSON.stringify(l.body)).not.toContain('abc123');
    const byClassify = await t.call(admin, { method: 'GET', url: `${C}/list?index=1&size=100&classifyId=${classifyId}` });
    expect(byClassify.body.data.every((r: { classifyId: number }) => r.classifyId === classifyId)).toBe(true);
    expect(byClassify.body.data.some((r: { id: number }) => r.id === id)).toBe(true);

    const g = await t.call(admin, { method: 'GET', url: `${C}/detail/${id}` });
    expect(g.body.data).toMatchObject({ id, name, contact: '李经理' });
    // a blank password keeps the one set before
    const u = await t.call(admin, { method: 'PUT', url: `${C}/detail`, payload: { id, name: `${name}改`, bankType: 2, edition: 0, valveControlPwd: '' } });
    expect(u.body.code).toBe('SUCCESS');
    const row = (await t.owner.query('SELECT name, bank_type, valve_control_pwd, contact FROM companies WHERE id = $1', [id])).rows[0];
    expect(row).toMatchObject({ name: `${name}改`, bank_type: 2, contact: '' });
    // stored as an argon2id hash, never as typed
    expect(row.valve_control_pwd).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.valve_control_pwd, 'abc123')).toBe(true);
    await t.call(admin, { method: 'PUT', url: `${C}/detail`, payload: { id, name: `${name}改`, bankType: 2, edition: 0, valveControlPwd: 'new999' } });
    expect(await verifyPassword((await t.owner.query('SELECT valve_control_pwd FROM companies WHERE id = $1', [id])).rows[0].valve_control_pwd, 'new999')).toBe(true);

    const d = await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(d.body.code).toBe('SUCCESS');
    expect((await t.call(admin, { method: 'GET', url: `${C}/detail/${id}` })).status).toBe(404);
  });

  it('the header company pick does not narrow company management', async () => {
    const name = uniq('选中后新增');
    const c = await t.call(admin, { method: 'POST', url: `${C}/detail?searchCompanyID=${demoCompany}`, payload: { name, bankType: 0, edition: 0 } });
    expect(c.body.code).toBe('SUCCESS');
    const l = await t.call(admin, { method: 'GET', url: `${C}/list?index=1&size=5&searchCompanyID=${demoCompany}&name=${encodeURIComponent(name)}` });
    expect(l.body.count).toBe(1);
    await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [c.body.data.id] } });
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await count('SELECT count(*)::int AS n FROM companies');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '', bankType: 0, edition: 0 }, /参数「name」/],
      [{ name: uniq('x'), bankType: 5, edition: 0 }, /参数「bankType」/],
      [{ name: uniq('x'), bankType: 0, edition: 0, smsPriceFen: -1 }, /参数「smsPriceFen」/],
      [{ name: uniq('x'), bankType: 0, edition: 0, phone: 'abc' }, /参数「phone」/],
      [{ name: uniq('x'), bankType: 0, edition: 0, classifyId: 999999 }, /参数「classifyId」/],
    ];
    for (const [payload, msg] of cases) {
      const r = await t.call(admin, { method: 'POST', url: `${C}/detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    expect(await count('SELECT count(*)::int AS n FROM companies')).toBe(before);
  });

  it('a duplicate name → 409', async () => {
    const r = await t.call(admin, { method: 'POST', url: `${C}/detail`, payload: { name: '阳光物业演示公司', bankType: 0, edition: 0 } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('单位名称「阳光物业演示公司」已存在');
  });

  it('unknown id → 404', async () => {
    expect((await t.call(admin, { method: 'GET', url: `${C}/detail/999999` })).status).toBe(404);
    expect((await t.call(admin, { method: 'PUT', url: `${C}/detail`, payload: { id: 999999, name: 'x', bankType: 0, edition: 0 } })).status).toBe(404);
    expect((await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [999999] } })).status).toBe(404);
  });

  it('refuses deleting a company that still has users, areas, rooms — and says which', async () => {
    const id = await makeCompany(t.owner);
    const role = await makeRole(t.owner, id, ['home']);
    await makeUser(t.owner, { companyId: id, roleId: role });
    const area = await makeArea(t.owner, id, '园区');
    await makeRoom(t.owner, id, area, '101');
    await makeRoom(t.owner, id, area, '102');
    const d = await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(d.status).toBe(409);
    expect(d.body.message).toMatch(/下还有账号 1 个、区域 1 个、房间 2 间，不能删除/);
    expect(await count('SELECT count(*)::int AS n FROM companies WHERE id = $1', [id])).toBe(1);
  });

  it('refuses deleting a company with other business data, naming it', async () => {
    const id = await makeCompany(t.owner);
    await t.owner.query(`INSERT INTO alarm_schemes (company_id, name) VALUES ($1, '报警方案甲')`, [id]);
    const d = await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(d.status).toBe(409);
    expect(d.body.message).toContain('报警方案 1 条');
  });

  it('deletes an empty company with its roles and area-permission sets', async () => {
    const id = await makeCompany(t.owner);
    await makeRole(t.owner, id, ['home']);
    await t.owner.query(`INSERT INTO area_permissions (company_id, name) VALUES ($1, '空权限')`, [id]);
    const d = await t.call(admin, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(d.body.code).toBe('SUCCESS');
    expect(await count('SELECT count(*)::int AS n FROM roles WHERE company_id = $1', [id])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM area_permissions WHERE company_id = $1', [id])).toBe(0);
    const audit = await t.owner.query(`SELECT target FROM audit_log WHERE path = '/yewu/api/Company/detail' AND method = 'DELETE' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0].target).toMatch(/^单位 /);
  });

  it('company staff get 403 on the platform calls; reader too', async () => {
    for (const [method, url, payload] of [
      ['GET', `${C}/list`, undefined],
      ['GET', `${C}/detail/${demoCompany}`, undefined],
      ['POST', `${C}/detail`, { name: uniq('x'), bankType: 0, edition: 0 }],
      ['PUT', `${C}/detail`, { id: demoCompany, name: 'hacked', bankType: 0, edition: 0 }],
      ['DELETE', `${C}/detail`, { ids: [demoCompany] }],
      ['POST', '/yewu/api/CompanyDevicePermiss/detail', { companyId: demoCompany, deviceCheck: false }],
    ] as const) {
      for (const token of [demo, reader]) {
        const r = await t.call(token, { method, url, payload });
        expect(r.status, `${method} ${url}`).toBe(403);
      }
    }
    expect((await t.owner.query('SELECT name FROM companies WHERE id = $1', [demoCompany])).rows[0].name).toBe('阳光物业演示公司');
  });
});

describe('CompanyInfo, GetReceiptAccount, getValveControlPwd', () => {
  it('CompanyInfo answers the caller’s company; a platform admin the picked one or null', async () => {
    const r = await t.call(demo, { method: 'GET', url: `${C}/CompanyInfo` });
    expect(r.body.data).toMatchObject({ id: demoCompany, name: '阳光物业演示公司', bankName: '中国农业银行' });
    expect(r.body.data).not.toHaveProperty('valveControlPwd');
    expect((await t.call(admin, { method: 'GET', url: `${C}/CompanyInfo` })).body.data).toBeNull();
    expect((await t.call(admin, { method: 'GET', url: `${C}/CompanyInfo?searchCompanyID=${demoCompany}` })).body.data.id).toBe(demoCompany);
  });

  it('GetReceiptAccount names the settlement bank', async () => {
    const r = await t.call(demo, { method: 'GET', url: `${C}/GetReceiptAccount` });
    expect(r.body.data).toMatchObject({ companyId: demoCompany, accountName: '阳光物业演示公司', bankType: 0, bankName: '中国农业银行' });
    const p = await t.call(admin, { method: 'GET', url: `${C}/GetReceiptAccount` });
    expect(p.body.code).toBe('COMPANY_REQUIRED');
  });

  it('getValveControlPwd: never the password itself; own company only; needs the valve operation', async () => {
    const r = await t.call(demo, { method: 'GET', url: `${C}/getValveControlPwd` });
    expect(r.body).toMatchObject({ code: 'SUCCESS', data: { set: true } });
    expect(JSON.stringify(r.body)).not.toContain('123456');
    expect((await t.call(reader, { method: 'GET', url: `${C}/getValveControlPwd` })).status).toBe(403);
    // another company's staff asking with demo's id get their own company's answer, never demo's
    const other = await makeCompany(t.owner);
    const role = await makeRole(t.owner, other, ['longRange'], ['device.valve']);
    const u = await makeUser(t.owner, { companyId: other, roleId: role });
    const tok = await t.login(u.username, u.password);
    // unset → a clear refusal
    const unset = await t.call(tok, { method: 'GET', url: `${C}/getValveControlPwd?companyId=${demoCompany}&searchCompanyID=${demoCompany}` });
    expect(unset.body.code).toBe('VALVE_PWD_UNSET');
    expect(unset.body.message).toContain('尚未设置阀控密码');
  });
});

describe('CompanyDevicePermiss', () => {
  const D = '/yewu/api/CompanyDevicePermiss/detail';
  it('platform admin saves the plans; staff read their own', async () => {
    const id = await makeCompany(t.owner);
    const s = await t.call(admin, { method: 'POST', url: D, payload: { companyId: id, deviceCheck: true, collectorPlans: [1, 0, 0], electricPlans: [3, 7], waterPlans: [151] } });
    expect(s.body.code).toBe('SUCCESS');
    const g = await t.call(admin, { method: 'GET', url: `${D}?companyId=${id}` });
    expect(g.body.data).toMatchObject({ companyId: id, deviceCheck: true, collectorPlans: [0, 1], electricPlans: [3, 7], waterPlans: [151] });
    const own = await t.call(demo, { method: 'GET', url: D });
    expect(own.body.data.companyId).toBe(demoCompany);
    // staff asking for another company's permissions find nothing
    expect((await t.call(demo, { method: 'GET', url: `${D}?companyId=${id}` })).status).toBe(404);
  });

  it('invalid plan codes → 400 naming the field, nothing written', async () => {
    const id = await makeCompany(t.owner);
    for (const [payload, field] of [
      [{ companyId: id, deviceCheck: true, electricPlans: [999] }, 'electricPlans'],
      [{ companyId: id, deviceCheck: true, collectorPlans: [2] }, 'collectorPlans'],
      [{ companyId: id, deviceCheck: 'maybe' }, 'deviceCheck'],
    ] as const) {
      const r = await t.call(admin, { method: 'POST', url: D, payload });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(`参数「${field}」`);
    }
    const row = (await t.owner.query('SELECT device_check, electric_plans FROM companies WHERE id = $1', [id])).rows[0];
    expect(row).toEqual({ device_check: false, electric_plans: [] });
  });

  it('unknown company → 404', async () => {
    expect((await t.call(admin, { method: 'POST', url: D, payload: { companyId: 999999, deviceCheck: false } })).status).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${D}?companyId=999999` })).status).toBe(404);
  });

  it('refuses unticking a plan the company’s devices use', async () => {
    const id = await makeCompany(t.owner);
    await t.owner.query(`INSERT INTO meters (company_id, kind, plan, address) VALUES ($1, 1, 7, $2)`, [id, String(Date.now()).slice(-12).padStart(12, '0')]);
    const r = await t.call(admin, { method: 'POST', url: D, payload: { companyId: id, deviceCheck: true, electricPlans: [3] } });
    expect(r.body.code).toBe('PLAN_IN_USE');
    expect(r.body.message).toContain('电表类型 7 1 块');
    expect((await t.call(admin, { method: 'POST', url: D, payload: { companyId: id, deviceCheck: false, electricPlans: [3] } })).body.code).toBe('SUCCESS');
  });
});
