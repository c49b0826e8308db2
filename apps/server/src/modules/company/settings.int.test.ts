import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { EXPORT_LAYOUTS } from '@meter/contracts';
import { fileApp } from '../../../test/helpers.ts';
import { makeRole, makeUser } from '../../../test/factories.ts';
import { loginWith, makeTenant } from '../scheme/fixtures.ts';

// 系统配置 (sys_config), 导出配置 (/export/api/save/config) and what honours them (receipts read the
// title, the .xlsx exports the columns), and 个人中心's profile and login history.

const CFG = '/yewu/api/sys_config';
const EXP = '/export/api/save/config';
const t = await fileApp();
const a = await makeTenant(t);
const b = await makeTenant(t);
const [admin] = await t.signIn('admin');

const value = (rows: { key: string; value: string }[], key: string) => rows.find((r) => r.key === key)?.value;

describe('sys_config', () => {
  it('lists every item with its default, saves some, keeps the others, and each company has its own', async () => {
    const l = await t.call(a.token, { method: 'GET', url: `${CFG}/list` });
    expect(l.body.code).toBe('SUCCESS');
    expect(l.body.data.map((r: { key: string }) => r.key)).toEqual(['receiptTitle', 'receiptFooter', 'arrearsLine']);
    expect(l.body.data[2]).toMatchObject({ label: '欠费线（元）', value: '0', defaultValue: '0', updatedAt: null });
    const s = await t.call(a.token, { method: 'PUT', url: `${CFG}/detail`, payload: { receiptTitle: ' 阳光物业收款处 ', arrearsLine: 20.5 } });
    expect(s.body.code, JSON.stringify(s.body)).toBe('SUCCESS');
    expect(value(s.body.data, 'receiptTitle')).toBe('阳光物业收款处');
    expect(value(s.body.data, 'arrearsLine')).toBe('20.50');
    expect(s.body.data[0].updatedBy).not.toBe('');
    const again = await t.call(a.token, { method: 'PUT', url: `${CFG}/detail`, payload: { receiptFooter: '客服电话 400-000-0000' } });
    expect(value(again.body.data, 'receiptTitle')).toBe('阳光物业收款处');
    expect(value(again.body.data, 'receiptFooter')).toBe('客服电话 400-000-0000');
    const other = await t.call(b.token, { method: 'GET', url: `${CFG}/list` });
    expect(value(other.body.data, 'receiptTitle')).toBe('');
    // the audit log names what changed
    const audit = await t.owner.query(`SELECT action, target FROM audit_log WHERE company_id = $1 AND path LIKE '%sys_config%' ORDER BY id DESC LIMIT 1`, [a.companyId]);
    expect(audit.rows[0]).toEqual({ action: '修改系统配置', target: '系统配置 收据备注' });
  });

  it('refuses bad values in Chinese and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ arrearsLine: '12.345' }, '欠费线（元）格式不正确（最多 2 位小数）'],
      [{ arrearsLine: 'abc' }, '欠费线（元）格式不正确（最多 2 位小数）'],
      [{ receiptTitle: '抬'.repeat(65) }, '收据抬头最多 64 个字'],
      [{}, '请至少修改一项配置'],
    ];
    for (const [payload, message] of cases) {
      const r = await t.call(b.token, { method: 'PUT', url: `${CFG}/detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message).toContain(message);
    }
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM company_configs WHERE company_id = $1`, [b.companyId])).rows[0].n).toBe(0);
  });

  it('tenancy: a company user cannot read or write another company; a platform admin names the company', async () => {
    expect((await t.call(b.token, { method: 'GET', url: `${CFG}/list?companyId=${a.companyId}` })).status).toBe(403);
    expect((await t.call(b.token, { method: 'PUT', url: `${CFG}/detail`, payload: { companyId: a.companyId, receiptTitle: 'x' } })).status).toBe(403);
    const none = await t.call(admin, { method: 'GET', url: `${CFG}/list` });
    expect(none.body).toMatchObject({ code: 'COMPANY_REQUIRED', message: '请先在页面顶部选择单位' });
    const read = await t.call(admin, { method: 'GET', url: `${CFG}/list?companyId=${a.companyId}` });
    expect(value(read.body.data, 'receiptTitle')).toBe('阳光物业收款处');
    expect((await t.call(admin, { method: 'GET', url: `${CFG}/list?companyId=99999999` })).status).toBe(404);
    const w = await t.call(admin, { method: 'PUT', url: `${CFG}/detail?searchCompanyID=${b.companyId}`, payload: { receiptFooter: '平台代设' } });
    expect(value(w.body.data, 'receiptFooter')).toBe('平台代设');
    // a cashier may read (receipts need the title) but not change it
    const cashier = await loginWith(t, a.companyId, ['billprint'], []);
    expect((await t.call(cashier, { method: 'GET', url: `${CFG}/list` })).body.code).toBe('SUCCESS');
    expect((await t.call(cashier, { method: 'PUT', url: `${CFG}/detail`, payload: { receiptTitle: 'x' } })).status).toBe(403);
  });
});

describe('export config', () => {
  async function ownerSheetHeader(token: string) {
    const res = await t.app.inject({ method: 'GET', url: '/yewu/api/userinfo/export', headers: { authorization: token } });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    return (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
  }

  it('lists the exports of the pages the user may open, every column shown by default', async () => {
    const r = await t.call(a.token, { method: 'GET', url: EXP });
    expect(r.body.code).toBe('SUCCESS');
    const owner = r.body.data.find((x: { key: string }) => x.key === 'owner');
    expect(owner).toMatchObject({ title: '业主档案', updatedAt: null });
    expect(owner.columns.every((c: { shown: boolean }) => c.shown)).toBe(true);
    const narrow = await loginWith(t, a.companyId, ['recordsOwner'], ['owner.export']);
    expect((await t.call(narrow, { method: 'GET', url: EXP })).body.data.map((x: { key: string }) => x.key)).toEqual(['owner']);
  });

  it('a saved choice shapes the .xlsx of that company only; the report exports follow too', async () => {
    const keep = ['业主姓名', '手机号码', '房间'];
    const s = await t.call(a.token, { method: 'PUT', url: EXP, payload: { key: 'owner', columns: keep } });
    expect(s.body.code, JSON.stringify(s.body)).toBe('SUCCESS');
    expect(s.body.data.columns.filter((c: { shown: boolean }) => c.shown).map((c: { header: string }) => c.header)).toEqual(keep);
    expect(await ownerSheetHeader(a.token)).toEqual(keep);
    expect(await ownerSheetHeader(b.token)).toEqual(EXPORT_LAYOUTS.owner.columns.map((c) => c.header));

    await t.call(a.token, { method: 'PUT', url: EXP, payload: { key: 'reportBank', columns: ['日期', '金额（元）'] } });
    const res = await t.app.inject({ method: 'GET', url: '/yewu/api/Report/BankExport?startTime=2026-01-01&endTime=2026-01-31', headers: { authorization: a.token } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['日期', '金额（元）']);
    expect(rows.every((r) => r.length <= 2)).toBe(true);
  });

  it('refuses an unknown export, an unknown column or none at all, in Chinese', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ key: 'nope', columns: ['日期'] }, 400, '没有这项导出'],
      [{ key: 'owner', columns: ['业主姓名', '年龄'] }, 400, '业主档案没有这些列：年龄'],
      [{ key: 'owner', columns: [] }, 400, '至少保留一列'],
      [{ columns: ['业主姓名'] }, 400, '请指定导出'],
    ];
    for (const [payload, status, message] of cases) {
      const r = await t.call(b.token, { method: 'PUT', url: EXP, payload });
      expect(r.status, JSON.stringify(payload)).toBe(status);
      expect(r.body.message).toContain(message);
    }
    const none = await t.call(admin, { method: 'PUT', url: EXP, payload: { key: 'owner', columns: ['业主姓名'] } });
    expect(none.body.code).toBe('COMPANY_REQUIRED');
    const clerk = await loginWith(t, b.companyId, ['recordsOwner'], ['owner.export']);
    expect((await t.call(clerk, { method: 'PUT', url: EXP, payload: { key: 'owner', columns: ['业主姓名'] } })).status).toBe(403);
  });
});

describe('个人中心', () => {
  it('reads and changes the own profile; refuses a bad phone in Chinese', async () => {
    const role = await makeRole(t.owner, a.companyId, ['home']);
    const u = await makeUser(t.owner, { companyId: a.companyId, roleId: role });
    const token = await t.login(u.username, u.password);
    const p = await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/profile' });
    expect(p.body.data).toMatchObject({ username: u.username, phone: '' });
    expect(p.body.data.lastLoginAt).not.toBeNull();
    const s = await t.call(token, { method: 'PUT', url: '/yonghu/api/admin/user/profile', payload: { realName: '王收费', phone: '13900139000' } });
    expect(s.body.data).toMatchObject({ realName: '王收费', phone: '13900139000' });
    expect((await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/token' })).body.data.user.realName).toBe('王收费');
    const bad = await t.call(token, { method: 'PUT', url: '/yonghu/api/admin/user/profile', payload: { realName: '', phone: '12345' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/请输入姓名|手机号码/);
  });

  it('the login history lists the own attempts only, failures with their reason, the current session marked', async () => {
    const role = await makeRole(t.owner, a.companyId, ['home']);
    const u = await makeUser(t.owner, { companyId: a.companyId, roleId: role });
    const wrong = await t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username: u.username, password: 'wrong-one1' } });
    expect(wrong.body.code).not.toBe('SUCCESS');
    const token = await t.login(u.username, u.password);
    const l = await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/loginLog?index=1&size=10' });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 2 });
    expect(l.body.data[0]).toMatchObject({ success: true, reasonText: '', current: true });
    expect(l.body.data[1]).toMatchObject({ success: false, reasonText: '密码错误', current: false });
    const failures = await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/loginLog?success=0' });
    expect(failures.body.count).toBe(1);
    expect((await t.call(token, { method: 'GET', url: '/yonghu/api/admin/user/loginLog?success=5' })).body.message).toContain('登录结果无效');
    // another user's history is not in it
    expect((await t.call(a.token, { method: 'GET', url: '/yonghu/api/admin/user/loginLog' })).body.data.every((r: { id: number }) => !l.body.data.some((x: { id: number }) => x.id === r.id))).toBe(true);
  });
});
