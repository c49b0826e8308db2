import { describe, expect, it } from 'vitest';
import { fileApp, demoCompanyId } from '../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../../test/factories.ts';
import { verifyPassword } from '../auth/crypto.ts';
import { MAX_FAILURES } from './valve-password.ts';

// The valve-control password is compared on the server (issue 12 §3): a close of a phaseId-1 meter
// without it, or with a wrong one, sends nothing; wrong ones are audited and limited; a company admin sets it.

const C = '/yewu/api/Company';
const OPEN = '/device/api/v1/device/order/open';
const t = await fileApp();
const [demo, reader] = await t.signIn('demo', 'reader');
const demoCompany: number = await demoCompanyId(t.owner);
const phase1: number = Number((await t.owner.query(`SELECT id FROM meters WHERE company_id = $1 AND phase_id = 1 ORDER BY id LIMIT 1`, [demoCompany])).rows[0].id);

const closes = async (meterId: number) =>
  Number((await t.owner.query(`SELECT count(*)::int AS n FROM commands WHERE meter_id = $1 AND kind = 'close'`, [meterId])).rows[0].n);
const stored = async (companyId: number) => String((await t.owner.query('SELECT valve_control_pwd FROM companies WHERE id = $1', [companyId])).rows[0].valve_control_pwd);

describe('valve-control password', () => {
  it('closing a phaseId-1 meter without the password, or with a wrong one, is refused and sends nothing', async () => {
    const before = await closes(phase1);
    const none = await t.call(demo, { method: 'POST', url: OPEN, payload: { id: phase1, open: false, memo: '远程拉闸' } });
    expect(none.body).toMatchObject({ code: 'VALVE_PWD_REQUIRED', message: '请输入阀控密码' });
    const wrong = await t.call(demo, { method: 'POST', url: OPEN, payload: { id: phase1, open: false, memo: '远程拉闸', password: '000000' } });
    expect(wrong.body).toMatchObject({ code: 'VALVE_PWD_WRONG', message: '密码输入不正确' });
    expect(await closes(phase1)).toBe(before);
    // the refused close is audited, the password masked
    const { rows } = await t.owner.query(`SELECT code, detail FROM audit_log WHERE path = $1 AND username = 'demo' ORDER BY id DESC LIMIT 1`, [OPEN]);
    expect(rows[0].code).toBe('VALVE_PWD_WRONG');
    expect(rows[0].detail.body.password).toBe('******');
  });

  it('the dialog check compares on the server (typed value trimmed); the stored value is an argon2id hash', async () => {
    expect(await stored(demoCompany)).toMatch(/^\$argon2id\$/);
    const ok = await t.call(demo, { method: 'POST', url: `${C}/checkValveControlPwd`, payload: { password: ' 123456 ' } });
    expect(ok.body.code).toBe('SUCCESS');
    const bad = await t.call(demo, { method: 'POST', url: `${C}/checkValveControlPwd`, payload: { password: '123457' } });
    expect(bad.body).toMatchObject({ code: 'VALVE_PWD_WRONG', message: '密码输入不正确' });
    expect((await t.call(reader, { method: 'POST', url: `${C}/checkValveControlPwd`, payload: { password: '123456' } })).status).toBe(403);
  });

  it(`after ${MAX_FAILURES} wrong passwords a user is refused even the right one; another user is not`, async () => {
    const companyId = await makeCompany(t.owner);
    await t.owner.query(`UPDATE companies SET valve_control_pwd = 'plain88' WHERE id = $1`, [companyId]);
    const role = await makeRole(t.owner, companyId, ['longRange'], ['device.valve']);
    const a = await makeUser(t.owner, { companyId, roleId: role });
    const b = await makeUser(t.owner, { companyId, roleId: role });
    const ta = await t.login(a.username, a.password);
    const tb = await t.login(b.username, b.password);
    const check = (tok: string, password: string) => t.call(tok, { method: 'POST', url: `${C}/checkValveControlPwd`, payload: { password } });
    for (let i = 0; i < MAX_FAILURES; i++) expect((await check(ta, `wrong${i}`)).body.code).toBe('VALVE_PWD_WRONG');
    const locked = await check(ta, 'plain88');
    expect(locked.body).toMatchObject({ code: 'VALVE_PWD_LOCKED', message: '阀控密码错误次数过多，请 15 分钟后再试' });
    const { rows } = await t.owner.query(`SELECT count(*)::int AS n FROM audit_log WHERE user_id = $1 AND code = 'VALVE_PWD_WRONG'`, [a.id]);
    expect(rows[0].n).toBe(MAX_FAILURES);
    // a value stored plain before the hash migration still works once, and is hashed then
    expect((await check(tb, 'plain88')).body.code).toBe('SUCCESS');
    expect(await stored(companyId)).toMatch(/^\$argon2id\$/);
    expect((await check(tb, 'plain88')).body.code).toBe('SUCCESS');
  });

  it('a company admin sets it; staff without administration cannot', async () => {
    const companyId = await makeCompany(t.owner);
    const adminRole = await makeRole(t.owner, companyId, ['systemRecords', 'longRange'], ['device.valve']);
    const staffRole = await makeRole(t.owner, companyId, ['longRange'], ['device.valve']);
    const admin = await makeUser(t.owner, { companyId, roleId: adminRole });
    const staff = await makeUser(t.owner, { companyId, roleId: staffRole });
    const ta = await t.login(admin.username, admin.password);
    const ts = await t.login(staff.username, staff.password);
    expect((await t.call(ts, { method: 'PUT', url: `${C}/setValveControlPwd`, payload: { password: 'staff999' } })).status).toBe(403);
    const bad = await t.call(ta, { method: 'PUT', url: `${C}/setValveControlPwd`, payload: { password: 'a b' } });
    expect(bad.status).toBe(400);
    const r = await t.call(ta, { method: 'PUT', url: `${C}/setValveControlPwd`, payload: { password: 'new4321' } });
    expect(r.body.code).toBe('SUCCESS');
    expect(await verifyPassword(await stored(companyId), 'new4321')).toBe(true);
    expect((await t.call(ts, { method: 'POST', url: `${C}/checkValveControlPwd`, payload: { password: 'new4321' } })).body.code).toBe('SUCCESS');

    // once set, changing it needs the current one: missing and wrong ones change nothing (and are audited)
    const set = (payload: object) => t.call(ta, { method: 'PUT', url: `${C}/setValveControlPwd`, payload });
    expect((await set({ password: 'next5678' })).body).toMatchObject({ code: 'VALVE_PWD_REQUIRED', message: '请输入当前阀控密码' });
    expect((await set({ password: 'next5678', currentPassword: 'guess' })).body).toMatchObject({ code: 'VALVE_PWD_WRONG', message: '当前阀控密码不正确' });
    expect(await verifyPassword(await stored(companyId), 'new4321')).toBe(true);
    expect((await set({ password: 'next5678', currentPassword: ' new4321 ' })).body.code).toBe('SUCCESS');
    expect(await verifyPassword(await stored(companyId), 'next5678')).toBe(true);
    const { rows } = await t.owner.query(`SELECT action, code, detail FROM audit_log WHERE user_id = $1 AND path = $2 ORDER BY id`, [admin.id, `${C}/setValveControlPwd`]);
    expect(rows.map((r) => [r.action, r.code])).toEqual([
      ['设置阀控密码', 'BAD_REQUEST'], ['设置阀控密码', 'SUCCESS'], ['修改阀控密码', 'VALVE_PWD_REQUIRED'], ['修改阀控密码', 'VALVE_PWD_WRONG'], ['修改阀控密码', 'SUCCESS'],
    ]);
    expect(rows.every((r) => r.detail.body.password === '******' && (r.detail.body.currentPassword ?? '******') === '******')).toBe(true);
  });
});
