import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { uniq } from '../../../test/factories.ts';

// CompanyClassify is the first declared resource: these tests cover the generic CRUD mechanism too.
const t = await fileApp();
const [admin, demo] = await t.signIn('admin', 'demo');

const U = '/yewu/api/CompanyClassify';

describe('CompanyClassify (declared resource)', () => {
  it('create → list with search → detail → update → delete', async () => {
    const name = uniq('分类');
    const c = await t.call(admin, { method: 'POST', url: `${U}/Detail`, payload: { name, sort: 5, memo: '测试' } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const l = await t.call(admin, { method: 'GET', url: `${U}/List?index=1&size=10&name=${encodeURIComponent(name)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, name, sort: 5, memo: '测试' });
    const g = await t.call(admin, { method: 'GET', url: `${U}/Detail?id=${id}` });
    expect(g.body.data.name).toBe(name);
    const u = await t.call(admin, { method: 'PUT', url: `${U}/Detail`, payload: { id, name: `${name}改`, sort: 1 } });
    expect(u.body.code).toBe('SUCCESS');
    expect((await t.call(admin, { method: 'GET', url: `${U}/Detail?id=${id}` })).body.data).toMatchObject({ name: `${name}改`, sort: 1, memo: '' });
    expect((await t.call(admin, { method: 'DELETE', url: `${U}/Detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(admin, { method: 'GET', url: `${U}/Detail?id=${id}` })).status).toBe(404);
  });
  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = (await t.owner.query('SELECT count(*)::int AS n FROM company_classifies')).rows[0].n;
    const r = await t.call(admin, { method: 'POST', url: `${U}/Detail`, payload: { name: '', sort: -1 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/参数「(name|sort)」/);
    expect((await t.owner.query('SELECT count(*)::int AS n FROM company_classifies')).rows[0].n).toBe(before);
  });
  it('a duplicate name → 409 with the label', async () => {
    const r = await t.call(admin, { method: 'POST', url: `${U}/Detail`, payload: { name: '物业公司' } });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('分类名称「物业公司」已存在');
  });
  it('unknown id → 404; in use → refused', async () => {
    expect((await t.call(admin, { method: 'GET', url: `${U}/Detail?id=999999` })).status).toBe(404);
    expect((await t.call(admin, { method: 'PUT', url: `${U}/Detail`, payload: { id: 999999, name: 'x' } })).status).toBe(404);
    const inUse = (await t.owner.query(`SELECT id FROM company_classifies WHERE name = '物业公司'`)).rows[0].id;
    const d = await t.call(admin, { method: 'DELETE', url: `${U}/Detail`, payload: { ids: [inUse] } });
    expect(d.status).toBe(409);
    expect(d.body.message).toMatch(/还有 \d+ 个单位/);
  });
  it('company staff read it but cannot write it (403)', async () => {
    expect((await t.call(demo, { method: 'GET', url: `${U}/List` })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: '/yewu/api/Company/GetCompanyClassifyList' })).body.data.length).toBeGreaterThan(0);
    const r = await t.call(demo, { method: 'POST', url: `${U}/Detail`, payload: { name: uniq('x') } });
    expect(r.status).toBe(403);
  });
});
