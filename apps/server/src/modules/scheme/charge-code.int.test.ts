import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';
import { countRows, loginWith, makeTenant, type Tenant } from './fixtures.ts';

// Company charge codes (sys_companychargecode): amounts in 元 on the wire, 分 in the database.

const K = '/yewu/api/sys_companychargecode';

const t = await fileApp();
const a: Tenant = await makeTenant(t);
const b: Tenant = await makeTenant(t);

const code = () => uniq('C').replace(/[^A-Za-z0-9]/g, '').slice(0, 30).toUpperCase();

async function create(token: string, over: Record<string, unknown> = {}) {
  const r = await t.call(token, { method: 'POST', url: `${K}/Detail`, payload: { code: code(), name: '物业费', schemeType: 3, amount: '150', ...over } });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}

describe('charge codes', () => {
  it('SchemeEnum lists the five kinds', async () => {
    const r = await t.call(a.token, { method: 'GET', url: `${K}/SchemeEnum` });
    expect(r.body.data).toEqual([
      { id: 1, name: '电费' }, { id: 2, name: '水费' }, { id: 3, name: '物业费' }, { id: 4, name: '公摊费' }, { id: 5, name: '其他' },
    ]);
  });

  it('create → list with search → detail → update → delete; 元 in, 分 stored, 元 out', async () => {
    const c = code();
    const id = await create(a.token, { code: c, name: '公摊电费', schemeType: '4', amount: '12.5' });
    const stored = await t.owner.query(`SELECT amount_fen, company_id FROM company_charge_codes WHERE id = $1`, [id]);
    expect(stored.rows[0]).toEqual({ amount_fen: 1250, company_id: a.companyId });
    const l = await t.call(a.token, { method: 'GET', url: `${K}/List?index=1&size=10&code=${c}&schemeType=4` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, code: c, name: '公摊电费', schemeType: 4, amount: '12.50' });
    expect(l.body.data[0]).not.toHaveProperty('amountFen');
    const d = await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=${id}` });
    expect(d.body.data).toMatchObject({ code: c, amount: '12.50' });
    const u = await t.call(a.token, { method: 'PUT', url: `${K}/Detail`, payload: { id, code: c, name: '公摊水费', schemeType: 4, amount: 0.1 } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=${id}` })).body.data).toMatchObject({ name: '公摊水费', amount: '0.10' });
    expect((await t.owner.query(`SELECT amount_fen FROM company_charge_codes WHERE id = $1`, [id])).rows[0].amount_fen).toBe(10);
    expect((await t.call(a.token, { method: 'DELETE', url: `${K}/Detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=${id}` })).status).toBe(404);
  });

  it('an empty amount is 0', async () => {
    const id = await create(a.token, { amount: '' });
    expect((await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=${id}` })).body.data.amount).toBe('0.00');
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['amount with 3 decimals', { amount: '1.234' }, '参数「amount」金额（元）格式不正确（最多 2 位小数）'],
    ['negative amount', { amount: '-1' }, '参数「amount」金额（元）不能小于 0'],
    ['float error', { amount: 0.1 + 0.2 }, '参数「amount」'],
    ['code with spaces', { code: 'A B' }, '参数「code」收费码只能包含字母、数字、下划线和短横线'],
    ['no code', { code: '' }, '参数「code」请输入收费码'],
    ['unknown kind', { schemeType: 6 }, '参数「schemeType」收费类别取值无效'],
  ];
  for (const [what, over, message] of invalid) {
    it(`invalid: ${what} → 400, nothing written`, async () => {
      const before = await countRows(t.owner, 'company_charge_codes');
      const r = await t.call(a.token, { method: 'POST', url: `${K}/Detail`, payload: { code: code(), name: 'x', schemeType: 1, amount: '1', ...over } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(message);
      expect(await countRows(t.owner, 'company_charge_codes')).toBe(before);
    });
  }

  it('a code is unique per company → 409; another company may use it', async () => {
    const c = code();
    await create(a.token, { code: c });
    const r = await t.call(a.token, { method: 'POST', url: `${K}/Detail`, payload: { code: c, name: 'x', schemeType: 1 } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(`收费码「${c}」已存在`);
    await create(b.token, { code: c });
    // renaming onto a taken code is refused too
    const other = await create(a.token);
    const u = await t.call(a.token, { method: 'PUT', url: `${K}/Detail`, payload: { id: other, code: c, name: 'x', schemeType: 1 } });
    expect(u.status).toBe(409);
  });

  it('unknown id → 404', async () => {
    expect((await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=99999999` })).status).toBe(404);
    expect((await t.call(a.token, { method: 'PUT', url: `${K}/Detail`, payload: { id: 99999999, code: code(), name: 'x', schemeType: 1 } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${K}/Detail`, payload: { ids: [99999999] } })).status).toBe(404);
  });

  it('reader → 403; without the operation key writes → 403', async () => {
    const reader = await t.login('reader', 'reader123');
    expect((await t.call(reader, { method: 'GET', url: `${K}/List` })).status).toBe(403);
    expect((await t.call(reader, { method: 'GET', url: `${K}/Detail?id=1` })).status).toBe(403);
    expect((await t.call(reader, { method: 'POST', url: `${K}/Detail`, payload: { code: code(), name: 'x', schemeType: 1 } })).status).toBe(403);
    const viewer = await loginWith(t, a.companyId, ['recordsFees']);
    expect((await t.call(viewer, { method: 'GET', url: `${K}/List` })).body.code).toBe('SUCCESS');
    const before = await countRows(t.owner, 'company_charge_codes');
    expect((await t.call(viewer, { method: 'POST', url: `${K}/Detail`, payload: { code: code(), name: 'x', schemeType: 1 } })).status).toBe(403);
    expect(await countRows(t.owner, 'company_charge_codes')).toBe(before);
  });

  it("another company's code: invisible, unchangeable, undeletable", async () => {
    const c = code();
    const id = await create(b.token, { code: c, amount: '9.99' });
    expect((await t.call(a.token, { method: 'GET', url: `${K}/Detail?id=${id}` })).status).toBe(404);
    expect(JSON.stringify((await t.call(a.token, { method: 'GET', url: `${K}/List?size=1000` })).body)).not.toContain(c);
    expect((await t.call(a.token, { method: 'PUT', url: `${K}/Detail`, payload: { id, code: c, name: 'hacked', schemeType: 1, amount: '0' } })).status).toBe(404);
    expect((await t.call(a.token, { method: 'DELETE', url: `${K}/Detail`, payload: { ids: [id] } })).status).toBe(404);
    expect((await t.call(b.token, { method: 'GET', url: `${K}/Detail?id=${id}` })).body.data).toMatchObject({ code: c, name: '物业费', amount: '9.99' });
  });
});
