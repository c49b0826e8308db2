import { describe, expect, it } from 'vitest';
import { fileApp, signedInStaff } from '../../../test/helpers.ts';
import { makeCompany, uniq } from '../../../test/factories.ts';

// NoticeType, AppealType and WorkOrderType: declared CRUD resources at the SPEC §7 paths, per company.

const t = await fileApp();
const [demo] = await t.signIn('demo');
const { token: reader } = await signedInStaff(t, await makeCompany(t.owner), ['addedAppeal']);

describe.each(['NoticeType', 'AppealType', 'WorkOrderType'])('%s', (name) => {
  const U = `/yewu/api/${name}`;
  const limited = name !== 'NoticeType';
  it('create → list → detail → update → delete; duplicates and bad input refused', async () => {
    const n = uniq('类型');
    const c = await t.call(demo, { method: 'POST', url: `${U}/Detail`, payload: { name: n, sort: 2, ...(limited && { limitHours: 8 }) } });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const l = await t.call(demo, { method: 'GET', url: `${U}/List?index=1&size=10&name=${encodeURIComponent(n)}` });
    expect(l.body.count).toBe(1);
    expect(l.body.data[0]).toMatchObject({ id, name: n, sort: 2, status: 1, ...(limited && { limitHours: 8 }) });
    const dup = await t.call(demo, { method: 'POST', url: `${U}/Detail`, payload: { name: n, ...(limited && { limitHours: 8 }) } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/类型名称「.*」已存在/);
    if (limited) {
      const bad = await t.call(demo, { method: 'POST', url: `${U}/Detail`, payload: { name: uniq('x'), limitHours: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('处理时限（小时）不能小于 1');
    }
    expect((await t.call(demo, { method: 'PUT', url: `${U}/Detail`, payload: { id, name: `${n}改`, status: 0, ...(limited && { limitHours: 12 }) } })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${U}/Detail?id=${id}` })).body.data).toMatchObject({ name: `${n}改`, status: 0 });
    expect((await t.call(demo, { method: 'DELETE', url: `${U}/Detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${U}/Detail?id=${id}` })).status).toBe(404);
  });
  it('a user without 类型设置 reads but cannot write; another company sees none of them', async () => {
    expect((await t.call(reader, { method: 'GET', url: `${U}/List` })).body.code).toBe('SUCCESS');
    const w = await t.call(reader, { method: 'POST', url: `${U}/Detail`, payload: { name: uniq('x'), limitHours: 1 } });
    expect(w.status).toBe(403);
    const n = uniq('甲方类型');
    await t.call(demo, { method: 'POST', url: `${U}/Detail`, payload: { name: n, ...(limited && { limitHours: 8 }) } });
    const other = await t.call(reader, { method: 'GET', url: `${U}/List?index=1&size=100&name=${encodeURIComponent(n)}` });
    expect(other.body.count).toBe(0);
  });
});
