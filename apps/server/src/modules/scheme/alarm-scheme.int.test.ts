import { describe, expect, it } from 'vitest';
import { expectEachStatus, fileApp } from '../../../test/helpers.ts';
import { makeArea, makeRoom, uniq } from '../../../test/factories.ts';
import { countRows, expectNameTaken, loginWith, makeMeter, makeTenant, type Tenant } from './fixtures.ts';

// Alarm schemes (/recordsPolice): thresholds in 元 on the wire and 分 stored, alarm1 ≥ alarm2 ≥ close,
// the no-disconnect window, permissions, tenancy and the in-use refusal.

const A = '/yewu/api/alarmscheme';

const t = await fileApp();
const a: Tenant = await makeTenant(t);
const b: Tenant = await makeTenant(t);

const body = (over: Record<string, unknown> = {}) => ({
  name: uniq('报警'), kind: 1, alarmAmount1: '20', alarmAmount2: '10', closeAmount: '0', overdraftAmount: '5.5',
  notifySms: true, notifyPhone: false, noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: true, memo: '',
  ...over,
});

async function create(token: string, over: Record<string, unknown> = {}) {
  const r = await t.call(token, { method: 'POST', url: `${A}/detail`, payload: body(over) });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}
const detail = (token: string, id: number) => t.call(token, { method: 'GET', url: `${A}/detail/${id}` });

describe('alarm schemes', () => {
  it('create → list with search → detail → update → delete', async () => {
    const name = uniq('电表报警');
    const id = await create(a.token, { name });
    const stored = await t.owner.query(`SELECT alarm1_fen, alarm2_fen, close_fen, overdraft_fen, no_close_start, no_close_end, no_close_weekend FROM alarm_schemes WHERE id = $1`, [id]);
    expect(stored.rows[0]).toEqual({ alarm1_fen: 2000, alarm2_fen: 1000, close_fen: 0, overdraft_fen: 550, no_close_start: '22:00', no_close_end: '08:00', no_close_weekend: true });
    const l = await t.call(a.token, { method: 'GET', url: `${A}/list?index=1&size=10&name=${encodeURIComponent(name)}&kind=1` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, name, alarmAmount1: '20.00', alarmAmount2: '10.00', closeAmount: '0.00', overdraftAmount: '5.50', notifySms: true, notifyPhone: false });
    expect(l.body.data[0]).not.toHaveProperty('alarm1Fen');
    expect((await detail(a.token, id)).body.data).toMatchObject({ id, name, noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: true, status: 1 });
    const u = await t.call(a.token, {
      method: 'PUT', url: `${A}/detail`,
      payload: { ...body({ name, alarmAmount1: '30', alarmAmount2: '30', closeAmount: '30', noCloseStart: '', noCloseEnd: '', notifyPhone: true, status: 0 }), id },
    });
    expect(u.body.code, JSON.stringify(u.body)).toBe('SUCCESS');
    expect((await detail(a.token, id)).body.data).toMatchObject({ alarmAmount1: '30.00', closeAmount: '30.00', noCloseStart: '', notifyPhone: true, status: 0 });
    expect((await t.call(a.token, { method: 'DELETE', url: `${A}/detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await detail(a.token, id)).status).toBe(404);
  });

  it('the demo company has alarm schemes of 20元/10元/0元', async () => {
    const demo = await t.login('demo', 'demo123');
    const l = await t.call(demo, { method: 'GET', url: `${A}/list?size=100` });
    expect(l.body.data).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: '电表默认报警', alarmAmount1: '20.00', alarmAmount2: '10.00', closeAmount: '0.00' }),
    ]));
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['alarm2 above alarm1', { alarmAmount1: '10', alarmAmount2: '10.01' }, '参数「alarmAmount2」二级报警金额不能大于一级报警金额'],
    ['close above alarm2', { closeAmount: '10.5' }, '参数「closeAmount」断闸金额不能大于二级报警金额'],
    ['only a window start', { noCloseEnd: '' }, '参数「noCloseEnd」请填写不断闸结束时间'],
    ['equal window ends', { noCloseStart: '08:00', noCloseEnd: '08:00' }, '参数「noCloseEnd」不断闸开始时间和结束时间不能相同'],
    ['bad time', { noCloseStart: '25:00' }, '参数「noCloseStart」时间格式应为 HH:mm'],
    ['3 decimals', { alarmAmount1: '20.001' }, '参数「alarmAmount1」一级报警金额（元）格式不正确'],
    ['negative', { overdraftAmount: '-1' }, '参数「overdraftAmount」透支额度（元）不能小于 0'],
    ['missing threshold', { alarmAmount1: undefined }, '参数「alarmAmount1」请填写一级报警金额（元）'],
    ['unknown kind', { kind: 3 }, '参数「kind」表具类型取值无效'],
  ];
  for (const [what, over, message] of invalid) {
    it(`invalid: ${what} → 400, nothing written`, async () => {
      const before = await countRows(t.owner, 'alarm_schemes');
      const r = await t.call(a.token, { method: 'POST', url: `${A}/detail`, payload: body(over) });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.message).toContain(message);
      expect(await countRows(t.owner, 'alarm_schemes')).toBe(before);
    });
  }

  it('an invalid update changes nothing', async () => {
    const id = await create(a.token);
    const before = (await detail(a.token, id)).body.data;
    const r = await t.call(a.token, { method: 'PUT', url: `${A}/detail`, payload: { ...body({ name: before.name, alarmAmount2: '99' }), id } });
    expect(r.status).toBe(400);
    expect((await detail(a.token, id)).body.data).toEqual(before);
  });

  it('a duplicate name → 409', async () => {
    const name = uniq('同名');
    await create(a.token, { name });
    await expectNameTaken(t, a.token, `${A}/detail`, body({ name }), name);
  });

  it('unknown id → 404', async () => {
    await expectEachStatus(t, a.token, [['GET', `${A}/detail/99999999`], ['PUT', `${A}/detail`, { ...body(), id: 99999999 }], ['DELETE', `${A}/detail`, { ids: [99999999] }]], 404);
  });

  it('reader (no /recordsPolice) → 403', async () => {
    const [reader] = await t.signIn('reader');
    await expectEachStatus(t, reader, [
      ['GET', `${A}/list`], ['GET', `${A}/detail/1`], ['POST', `${A}/detail`, body()], ['PUT', `${A}/detail`, { ...body(), id: 1 }],
      ['DELETE', `${A}/detail`, { ids: [1] }],
    ], 403);
    // the meter archive may read them (its picker), not write them
    const meterClerk = await loginWith(t, a.companyId, ['recordsTable']);
    expect((await t.call(meterClerk, { method: 'GET', url: `${A}/list` })).body.code).toBe('SUCCESS');
    expect((await t.call(meterClerk, { method: 'POST', url: `${A}/detail`, payload: body() })).status).toBe(403);
  });

  it("another company's scheme: invisible, unchangeable, undeletable", async () => {
    const name = uniq('乙报警');
    const id = await create(b.token, { name });
    expect((await detail(a.token, id)).status).toBe(404);
    expect(JSON.stringify((await t.call(a.token, { method: 'GET', url: `${A}/list?size=1000` })).body)).not.toContain(name);
    expect((await t.call(a.token, { method: 'PUT', url: `${A}/detail`, payload: { ...body({ name: 'hacked' }), id } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${A}/detail`, payload: { ids: [id] } })).status).toBe(404);
    expect((await detail(b.token, id)).body.data).toMatchObject({ name, alarmAmount1: '20.00' });
  });

  it('delete and kind change refused while a meter uses it, even in an area the user cannot see', async () => {
    const id = await create(a.token);
    const other = await makeArea(t.owner, a.companyId, uniq('别区'));
    const room = await makeRoom(t.owner, a.companyId, other, uniq('房'));
    await makeMeter(t.owner, a.companyId, room, { alarmSchemeId: id });
    const restricted = await loginWith(t, a.companyId, ['recordsPolice'], [], [a.areaId]);
    for (const token of [a.token, restricted]) {
      const r = await t.call(token, { method: 'DELETE', url: `${A}/detail`, payload: { ids: [id] } });
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^报警方案「.+」正被 1 块表具使用/);
    }
    const cur = (await detail(a.token, id)).body.data;
    const k = await t.call(a.token, { method: 'PUT', url: `${A}/detail`, payload: { ...body({ name: cur.name, kind: 2 }), id } });
    expect(k.status).toBe(409);
    expect((await detail(a.token, id)).body.data.kind).toBe(1);
    // the database itself refuses to drop a scheme a meter points at, and to point at one that does not exist
    await expect(t.owner.query(`DELETE FROM alarm_schemes WHERE id = $1`, [id])).rejects.toMatchObject({ code: '23503' });
    await expect(t.owner.query(`UPDATE meters SET alarm_scheme_id = 999999999 WHERE alarm_scheme_id = $1`, [id])).rejects.toMatchObject({ code: '23503' });
    await expect(t.owner.query(`UPDATE meters SET charging_scheme_id = 999999999 WHERE alarm_scheme_id = $1`, [id])).rejects.toMatchObject({ code: '23503' });
    await t.owner.query(`UPDATE meters SET alarm_scheme_id = NULL WHERE alarm_scheme_id = $1`, [id]);
    expect((await t.call(a.token, { method: 'DELETE', url: `${A}/detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
  });
});
