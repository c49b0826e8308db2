import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeUser, uniq } from '../../../test/factories.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { addReadings, billingCompany, FINANCE_ROUTES, makeMeter, type BillingCompany } from './fixtures.ts';
import { settleMeters } from './settlement.ts';

// 短信模板 (platform) and a company's 提醒规则 (alermSmsConfig): templates with variables, rules per
// meter kind and event binding a template, a threshold and a channel — and the billing alarms using
// them: 缴费到账 after a counter payment, 余额不足 only at or below the rule's threshold on the rule's
// channels, 欠费停止供应 and 恢复供应 with their templates.

let t: TestApp;
let c: BillingCompany;
let admin: string;

beforeAll(async () => {
  t = await testApp();
  c = await billingCompany(t, { rooms: 2, routes: [...FINANCE_ROUTES, 'systemSend'] });
  const a = await makeUser(t.owner, { companyId: null, access: 0 });
  admin = await t.login(a.username, a.password);
});
afterAll(() => t.close());

const T = '/yewu/api/alermSmsConfigTemplate';
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const notes = async (ownerId: number) =>
  (await t.owner.query(`SELECT level, channel, content, price_fen FROM notifications WHERE owner_id = $1 ORDER BY id`, [ownerId])).rows;

async function template(event: number, content: string) {
  const r = await t.call(admin, { method: 'POST', url: `${T}/Detail`, payload: { name: uniq('模板'), event, content, status: 1, memo: '' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return Number(r.body.data.id);
}

describe('短信模板 and 提醒规则', () => {
  it('templates: platform admins write them, unknown variables are refused, companies read them', async () => {
    const bad = await t.call(admin, { method: 'POST', url: `${T}/Detail`, payload: { name: uniq('模板'), event: 1, content: '余额{money}', status: 1 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('未知变量');
    const id = await template(1, '{owner} 余额 {balance}');
    const staff = await t.call(c.token, { method: 'POST', url: `${T}/Detail`, payload: { name: uniq('模板'), event: 1, content: 'x', status: 1 } });
    expect(staff.status).toBe(403);
    const list = await t.call(c.token, { method: 'GET', url: `${T}/List?index=1&size=100&event=1` });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: number }) => r.id)).toContain(id);
    // the four built-in templates of the migration
    expect((await t.call(c.token, { method: 'GET', url: `${T}/List?index=1&size=100&name=${encodeURIComponent('缴费到账通知')}` })).body.count).toBe(1);
    const upd = await t.call(admin, { method: 'PUT', url: `${T}/Detail`, payload: { id, name: uniq('改名'), event: 1, content: '{owner}：{balance}', status: 1, memo: '' } });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect((await t.call(admin, { method: 'DELETE', url: `${T}/Detail`, payload: { ids: [id] } })).status).toBe(200);
  });

  it('rules drive the alarms: 缴费到账, 余额不足 below the threshold on both channels, 欠费 and 恢复供应', async () => {
    const list = await t.call(c.token, { method: 'GET', url: '/yewu/api/alermSmsConfig/ConfigList' });
    expect(list.body.data).toHaveLength(8);
    expect(list.body.data[0]).toMatchObject({ meterKind: 1, event: 1, channel: 'sms', saved: false });

    const paid = await template(4, '{owner}缴费¥{amount}到账，{kind}余额¥{balance}');
    const low = await template(1, '{owner}余额¥{balance}，低于¥{threshold}');
    const cut = await template(2, '{room}已欠费停电，余额¥{balance}');
    const back = await template(3, '{room}已恢复供电，余额¥{balance}');
    const wrong = await t.call(c.token, { method: 'POST', url: '/yewu/api/alermSmsConfig', payload: { rules: [{ meterKind: 1, event: 1, templateId: paid, thresholdFen: 0, channel: 'sms' }] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('不适用于该事件');
    const saved = await t.call(c.token, {
      method: 'POST', url: '/yewu/api/alermSmsConfig',
      payload: {
        rules: [
          { meterKind: 1, event: 4, templateId: paid, thresholdFen: 0, channel: 'sms' },
          { meterKind: 1, event: 1, templateId: low, thresholdFen: 1500, channel: 'both' },
          { meterKind: 1, event: 2, templateId: cut, thresholdFen: 0, channel: 'sms' },
          { meterKind: 1, event: 3, templateId: back, thresholdFen: 0, channel: 'sms' },
        ],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.find((r: { event: number; meterKind: number }) => r.meterKind === 1 && r.event === 1)).toMatchObject({ templateId: low, thresholdFen: 1500, channel: 'both', saved: true });

    const [room, owner] = [c.rooms[0], c.owners[0]];
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: c.alarm });
    const prepay = (amount: string) => t.call(c.token, { method: 'POST', url: '/yewu/api/Energy/Prepay', payload: { roomId: room, wallet: 'electric', amount, payMethod: 'cash' } });
    expect((await prepay('30.00')).body.code).toBe('SUCCESS');
    expect(await notes(owner)).toEqual([{ level: 5, channel: 'sms', content: '业主1缴费¥30.00到账，电费余额¥30.00', price_fen: 10 }]);

    const settle = () => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, [m], { skipLocked: false }));
    // 25 kWh × 0.68 → 13.00: below alarm 1 (20.00) and below the rule's 15.00: on both channels
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(10), total: '25' }]);
    await settle();
    const lows = (await notes(owner)).slice(1);
    expect(lows.map((n) => n.channel)).toEqual(['sms', 'phone']);
    expect(lows[0]).toMatchObject({ level: 1, content: '业主1余额¥13.00，低于¥15.00' });
    expect(lows[1].price_fen).toBe(20);
    // 20 kWh more → −0.60: 欠费 with its template; a top-up: 缴费到账 and 恢复供应
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(9), total: '45' }]);
    await settle();
    expect((await notes(owner)).at(-1)).toMatchObject({ level: 3, content: '101已欠费停电，余额¥-0.60' });
    expect((await prepay('50.00')).body.code).toBe('SUCCESS');
    const last = (await notes(owner)).slice(-2);
    expect(last.map((n) => n.level).sort()).toEqual([4, 5]);
    expect(last.find((n) => n.level === 4)?.content).toBe('101已恢复供电，余额¥49.40');

    // a template in use cannot be deleted
    const del = await t.call(admin, { method: 'DELETE', url: `${T}/Detail`, payload: { ids: [low] } });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('不能删除');
  });
});
