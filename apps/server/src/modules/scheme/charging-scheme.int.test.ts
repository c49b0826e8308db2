import { describe, expect, it } from 'vitest';
import { expectEachStatus, fileApp } from '../../../test/helpers.ts';
import { makeArea, makeRoom, uniq } from '../../../test/factories.ts';
import { countRows, expectNameTaken, loginWith, makeMeter, makeTenant, type Tenant } from './fixtures.ts';

// Charging schemes (/recordsFees) against a real database: every endpoint, the pricing validation,
// permissions, tenancy and the in-use refusal.

const C = '/yewu/api/chargingscheme';

const t = await fileApp();
const a: Tenant = await makeTenant(t);
const b: Tenant = await makeTenant(t);
const [demo] = await t.signIn('demo');

const NEXT = `${new Date().getFullYear() + 1}-01-01 00:00:00`;

const TOU = [
  { name: '峰', price: '0.9', ranges: ['08:00-22:00'] },
  { name: '谷', price: '0.3', ranges: ['22:00-08:00'] },
];

function body(over: Record<string, unknown> = {}) {
  return {
    name: uniq('方案'),
    kind: 1,
    memo: '测试',
    versions: [{ effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '0.65' }],
    ...over,
  };
}

async function create(token: string, over: Record<string, unknown> = {}) {
  const r = await t.call(token, { method: 'POST', url: `${C}/detail`, payload: body(over) });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}

const detail = async (token: string, id: number) => t.call(token, { method: 'GET', url: `${C}/detail/${id}` });

describe('charging schemes: happy path', () => {
  it('create → detail with versions → list with search → update versions → delete', async () => {
    const name = uniq('居民阶梯');
    const c = await t.call(a.token, {
      method: 'POST', url: `${C}/detail`,
      payload: {
        name, kind: '1', chargingMonthType: 1, memo: '',
        versions: [
          { effectiveFrom: NEXT, mode: 'tiered', tiers: [{ upTo: '200', price: '0.5283' }, { upTo: 400, price: 0.5783 }, { upTo: null, price: '0.8283' }], monthlyFee: '5' },
          { effectiveFrom: '2024-01-01', mode: 'tou', tou: { periods: TOU }, minimumCharge: '20.5' },
        ],
      },
    });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;

    const d = await detail(a.token, id);
    expect(d.body.data).toMatchObject({ id, name, kind: 1, chargingMonthType: 1, status: 1, companyId: a.companyId });
    const [v1, v2] = d.body.data.versions;
    expect(v1).toMatchObject({
      effectiveFrom: '2024-01-01 00:00:00', mode: 'tou', unitPrice: '0.0000', tiers: [], monthlyFee: '0.00', minimumCharge: '20.50',
      tou: { periods: [{ name: '峰', price: '0.9000', ranges: ['08:00-22:00'] }, { name: '谷', price: '0.3000', ranges: ['22:00-08:00'] }] },
    });
    expect(v2).toMatchObject({
      effectiveFrom: NEXT, mode: 'tiered', monthlyFee: '5.00',
      tiers: [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }],
    });
    // stored in 分 and as instants in Asia/Shanghai
    const stored = await t.owner.query(`SELECT effective_from, monthly_fee_fen, minimum_charge_fen FROM charging_scheme_versions WHERE scheme_id = $1 ORDER BY effective_from`, [id]);
    expect(stored.rows[0].effective_from.toISOString()).toBe('2023-12-31T16:00:00.000Z');
    expect(stored.rows[0].minimum_charge_fen).toBe(2050);
    expect(stored.rows[1].monthly_fee_fen).toBe(500);

    const l = await t.call(a.token, { method: 'GET', url: `${C}/list?index=1&size=10&name=${encodeURIComponent(name)}&kind=1` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({ id, name, versionCount: 2, nextChangeAt: NEXT });
    expect(l.body.data[0].current).toMatchObject({ mode: 'tou', effectiveFrom: '2024-01-01 00:00:00' });
    expect((await t.call(a.token, { method: 'GET', url: `${C}/list?name=${encodeURIComponent(name)}&kind=2` })).body.count).toBe(0);

    // keep the first version (edit its price), drop the second, add a third
    const u = await t.call(a.token, {
      method: 'PUT', url: `${C}/detail`,
      payload: {
        id, name: `${name}改`, kind: 1, chargingMonthType: null, status: 0,
        versions: [
          { id: v1.id, effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '0.7' },
          { effectiveFrom: '2025-07-01 08:00', mode: 'flat', unitPrice: '0.75', monthlyFee: '1.23' },
        ],
      },
    });
    expect(u.body.code, JSON.stringify(u.body)).toBe('SUCCESS');
    const d2 = (await detail(a.token, id)).body.data;
    expect(d2).toMatchObject({ name: `${name}改`, chargingMonthType: null, status: 0 });
    expect(d2.versions.map((v: { id: number; unitPrice: string; effectiveFrom: string }) => [v.effectiveFrom, v.unitPrice])).toEqual([
      ['2024-01-01 00:00:00', '0.7000'], ['2025-07-01 08:00:00', '0.7500'],
    ]);
    expect(d2.versions[0].id).toBe(v1.id);
    expect(await countRows(t.owner, 'charging_scheme_versions WHERE scheme_id = ' + Number(id))).toBe(2);

    const del = await t.call(a.token, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(del.body.code).toBe('SUCCESS');
    expect((await detail(a.token, id)).status).toBe(404);
    expect(await countRows(t.owner, 'charging_scheme_versions WHERE scheme_id = ' + Number(id))).toBe(0);
  });

  it('exchanges effective dates between kept versions', async () => {
    const id = await create(a.token, {
      versions: [
        { effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '1' },
        { effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '2' },
      ],
    });
    const [x, y] = (await detail(a.token, id)).body.data.versions;
    const u = await t.call(a.token, {
      method: 'PUT', url: `${C}/detail`,
      payload: { ...body({ name: uniq('换') }), id, versions: [{ ...x, effectiveFrom: y.effectiveFrom }, { ...y, effectiveFrom: x.effectiveFrom }] },
    });
    expect(u.body.code, JSON.stringify(u.body)).toBe('SUCCESS');
    const vs = (await detail(a.token, id)).body.data.versions;
    expect(vs.map((v: { id: number; unitPrice: string }) => [v.id, v.unitPrice])).toEqual([[y.id, '2.0000'], [x.id, '1.0000']]);
  });

  it('GetAllUsingList and GetListByType list the schemes in use', async () => {
    const elec = await create(a.token, { kind: 1 });
    const water = await create(a.token, { kind: 2 });
    const off = await create(a.token, { kind: 2, status: 0 });
    const all = (await t.call(a.token, { method: 'GET', url: `${C}/GetAllUsingList` })).body.data as { id: number; kind: number }[];
    expect(all.map((s) => s.id)).toEqual(expect.arrayContaining([elec, water]));
    expect(all.map((s) => s.id)).not.toContain(off);
    expect(all[0]).toHaveProperty('name');
    const w = (await t.call(a.token, { method: 'GET', url: `${C}/GetListByType?type=2` })).body.data as { id: number; kind: number }[];
    expect(w.map((s) => s.id)).toContain(water);
    expect(w.every((s) => s.kind === 2)).toBe(true);
    const bad = await t.call(a.token, { method: 'GET', url: `${C}/GetListByType?type=3` });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('参数「type」');
  });

  it('the demo company has a scheme of each pricing mode and a price change', async () => {
    const l = (await t.call(demo, { method: 'GET', url: `${C}/list?size=100` })).body.data as { name: string; current: { mode: string; unitPrice: string } | null; versionCount: number; nextChangeAt: string | null; chargingMonthType: number | null }[];
    const by = Object.fromEntries(l.map((s) => [s.name, s]));
    expect(by['商业用电（统一电价）']).toMatchObject({ versionCount: 2, current: { mode: 'flat', unitPrice: '0.6800' } });
    expect(by['居民阶梯电价']).toMatchObject({ chargingMonthType: 1, current: { mode: 'tiered', tiers: [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }] } });
    expect(by['商业分时电价'].current).toMatchObject({ mode: 'tou' });
    expect(by['居民用水（统一水价）']).toMatchObject({ current: { unitPrice: '4.2000' } });
    expect(by['居民用水（统一水价）'].nextChangeAt).toMatch(/^\d{4}-01-01 00:00:00$/);
    expect(by['居民阶梯水价']).toMatchObject({ chargingMonthType: 2, current: { mode: 'tiered' } });
  });
});

describe('charging schemes: invalid input → 400 naming the field, nothing written', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['no version', { versions: [] }, '参数「versions」请至少添加一个价格版本'],
    ['versions missing', { versions: undefined }, '参数「versions」'],
    ['price with 5 decimals', { versions: [{ effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '0.12345' }] }, '参数「versions.0.unitPrice」单价最多 4 位小数'],
    ['negative price', { versions: [{ effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '-1' }] }, '参数「versions.0.unitPrice」'],
    ['tiers not ascending', {
      chargingMonthType: 1,
      versions: [{ effectiveFrom: '2024-01-01', mode: 'tiered', tiers: [{ upTo: '400', price: '1' }, { upTo: '200', price: '1' }, { upTo: null, price: '1' }] }],
    }, '参数「versions.0.tiers.1.upTo」第 2 档上限须大于第 1 档上限（400）'],
    ['tiered without accumulation', {
      versions: [{ effectiveFrom: '2024-01-01', mode: 'tiered', tiers: [{ upTo: '200', price: '1' }, { upTo: null, price: '1' }] }],
    }, '参数「chargingMonthType」阶梯计价须选择累计方式'],
    ['TOU with a gap', {
      versions: [{ effectiveFrom: '2024-01-01', mode: 'tou', tou: { periods: [{ name: '峰', price: '1', ranges: ['08:00-20:00'] }, { name: '谷', price: '1', ranges: ['22:00-08:00'] }] } }],
    }, '参数「versions.0.tou.periods」分时时段须覆盖全天 24 小时：20:00-22:00 未设置'],
    ['TOU overlap', {
      versions: [{ effectiveFrom: '2024-01-01', mode: 'tou', tou: { periods: [{ name: '峰', price: '1', ranges: ['08:00-23:00'] }, { name: '谷', price: '1', ranges: ['22:00-08:00'] }] } }],
    }, '参数「versions.0.tou.periods.1.ranges.0」'],
    ['duplicate effective dates', {
      versions: [{ effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '1' }, { effectiveFrom: '2024-01-01 00:00', mode: 'flat', unitPrice: '2' }],
    }, '参数「versions.1.effectiveFrom」生效时间 2024-01-01 00:00:00 与第 1 个版本相同'],
    ['impossible date', { versions: [{ effectiveFrom: '2025-02-30', mode: 'flat', unitPrice: '1' }] }, '参数「versions.0.effectiveFrom」'],
    ['fee with 3 decimals', { versions: [{ effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '1', monthlyFee: '1.001' }] }, '参数「versions.0.monthlyFee」月固定费最多 2 位小数'],
    ['empty name', { name: '' }, '参数「name」'],
    ['unknown kind', { kind: 9 }, '参数「kind」'],
  ];
  for (const [what, over, message] of cases) {
    it(what, async () => {
      const before = [await countRows(t.owner, 'charging_schemes'), await countRows(t.owner, 'charging_scheme_versions')];
      const r = await t.call(a.token, { method: 'POST', url: `${C}/detail`, payload: body(over) });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.message).toContain(message);
      expect([await countRows(t.owner, 'charging_schemes'), await countRows(t.owner, 'charging_scheme_versions')]).toEqual(before);
    });
  }

  it('an update with invalid versions changes nothing', async () => {
    const id = await create(a.token);
    const before = (await detail(a.token, id)).body.data;
    const r = await t.call(a.token, {
      method: 'PUT', url: `${C}/detail`,
      payload: { ...body({ name: before.name }), id, versions: [{ effectiveFrom: '2024-01-01', mode: 'tou', tou: { periods: TOU.slice(0, 1) } }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('参数「versions.0.tou.periods」分时计价至少需要两个时段');
    expect((await detail(a.token, id)).body.data).toEqual(before);
  });

  it('an update naming a version of another scheme is refused', async () => {
    const one = await create(a.token);
    const two = await create(a.token);
    const foreign = (await detail(a.token, two)).body.data.versions[0].id;
    const r = await t.call(a.token, {
      method: 'PUT', url: `${C}/detail`,
      payload: { ...body(), id: one, versions: [{ id: foreign, effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '9' }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('参数「versions.0.id」');
    expect((await detail(a.token, two)).body.data.versions[0].unitPrice).toBe('0.6500');
  });

  it('a duplicate name → 409', async () => {
    const name = uniq('重名');
    await create(a.token, { name });
    await expectNameTaken(t, a.token, `${C}/detail`, body({ name }), name);
    // the same name in another company is fine
    expect((await t.call(b.token, { method: 'POST', url: `${C}/detail`, payload: body({ name }) })).body.code).toBe('SUCCESS');
  });
});

describe('charging schemes: not found, permissions, tenancy, in use', () => {
  it('unknown id → 404', async () => {
    await expectEachStatus(t, a.token, [['GET', `${C}/detail/99999999`], ['PUT', `${C}/detail`, { ...body(), id: 99999999 }], ['DELETE', `${C}/detail`, { ids: [99999999] }]], 404);
  });

  it('reader (no /recordsFees) → 403 everywhere; without the operation key writes → 403', async () => {
    const [reader] = await t.signIn('reader');
    await expectEachStatus(t, reader, [
      ['GET', `${C}/list`], ['GET', `${C}/GetAllUsingList`], ['GET', `${C}/GetListByType?type=1`], ['GET', `${C}/detail/1`],
      ['POST', `${C}/detail`, body()], ['PUT', `${C}/detail`, { ...body(), id: 1 }], ['DELETE', `${C}/detail`, { ids: [1] }],
    ], 403);
    const viewer = await loginWith(t, a.companyId, ['recordsFees']);
    expect((await t.call(viewer, { method: 'GET', url: `${C}/list` })).body.code).toBe('SUCCESS');
    const before = await countRows(t.owner, 'charging_schemes', a.companyId);
    expect((await t.call(viewer, { method: 'POST', url: `${C}/detail`, payload: body() })).status).toBe(403);
    expect(await countRows(t.owner, 'charging_schemes', a.companyId)).toBe(before);
    const editor = await loginWith(t, a.companyId, ['recordsFees'], ['finance.chargingScheme']);
    expect((await t.call(editor, { method: 'POST', url: `${C}/detail`, payload: body() })).body.code).toBe('SUCCESS');
  });

  it("another company's scheme: invisible, unchangeable, undeletable", async () => {
    const name = uniq('乙方案');
    const id = await create(b.token, { name });
    expect((await detail(a.token, id)).status).toBe(404);
    const list = await t.call(a.token, { method: 'GET', url: `${C}/list?size=1000` });
    expect(JSON.stringify(list.body)).not.toContain(name);
    expect(JSON.stringify((await t.call(a.token, { method: 'GET', url: `${C}/GetAllUsingList` })).body)).not.toContain(name);
    const u = await t.call(a.token, { method: 'PUT', url: `${C}/detail`, payload: { ...body({ name: 'hacked' }), id } });
    expect(u.status).toBe(404);
    const d = await t.call(a.token, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
    expect(d.status).toBe(404);
    expect((await detail(b.token, id)).body.data).toMatchObject({ name, versions: [{ unitPrice: '0.6500' }] });
  });

  it('delete refused while a meter uses the scheme, even a meter in an area the user cannot see', async () => {
    const id = await create(a.token);
    const other = await makeArea(t.owner, a.companyId, uniq('别区'));
    const hiddenRoom = await makeRoom(t.owner, a.companyId, other, uniq('房'));
    await makeMeter(t.owner, a.companyId, hiddenRoom, { chargingSchemeId: id });
    const restricted = await loginWith(t, a.companyId, ['recordsFees'], ['finance.chargingScheme'], [a.areaId]);
    for (const token of [a.token, restricted]) {
      const r = await t.call(token, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } });
      expect(r.status).toBe(409);
      expect(r.body.message).toMatch(/^收费方案「.+」正被 1 块表具使用/);
    }
    expect((await detail(a.token, id)).status).toBe(200);
    // and its kind (电/水) cannot change while meters use it
    const cur = (await detail(a.token, id)).body.data;
    const k = await t.call(a.token, { method: 'PUT', url: `${C}/detail`, payload: { ...body({ name: cur.name, kind: 2 }), id } });
    expect(k.status).toBe(409);
    expect((await detail(a.token, id)).body.data.kind).toBe(1);
    // once the meter moves to another scheme it can go
    await t.owner.query(`UPDATE meters SET charging_scheme_id = NULL WHERE charging_scheme_id = $1`, [id]);
    expect((await t.call(a.token, { method: 'DELETE', url: `${C}/detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
  });
});
