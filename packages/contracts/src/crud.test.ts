import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { crudEndpoints, rowSchema } from './crud.ts';
import { defineResource } from './resource.ts';
import { API } from './endpoints/index.ts';

const thing = defineResource({
  name: 'thing',
  title: '物品',
  fields: [
    { key: 'name', label: '名称', type: 'text', required: true, max: 8, search: 'like' },
    { key: 'kind', label: '类别', type: 'enum', options: { 1: '甲', 2: '乙' }, required: true, search: 'eq' },
    { key: 'price', label: '单价', type: 'money' },
    { key: 'memo', label: '备注', type: 'textarea', max: 20 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});
const read = { routes: ['things'] };
const write = { routes: ['things'], op: 'thing.edit' };

describe('crudEndpoints', () => {
  it('derives the five declarations at the SPEC §7 paths from a base, with the resource\'s schemas and permissions', () => {
    const E = crudEndpoints(thing, { paths: '/yewu/api/Thing', read, write, writes: { remove: { op: 'thing.delete' } }, tags: ['物品'] });
    expect(Object.entries(E).map(([k, e]) => `${k} ${e.method} ${e.path} ${e.summary}`)).toEqual([
      'list GET /yewu/api/Thing/List 物品列表',
      'detail GET /yewu/api/Thing/Detail 物品详情',
      'create POST /yewu/api/Thing/Detail 新增物品',
      'update PUT /yewu/api/Thing/Detail 编辑物品',
      'remove DELETE /yewu/api/Thing/Detail 删除物品',
    ]);
    expect(E.list.paged).toBe(true);
    expect([E.list.perm, E.detail.perm, E.create.perm, E.update.perm, E.remove.perm]).toEqual([read, read, write, write, { op: 'thing.delete' }]);
    expect(E.list.tags).toEqual(['物品']);

    // list: paging plus the searchable fields
    expect(E.list.query!.parse({ index: '2', name: ' 灯 ', kind: '1', memo: 'x' })).toEqual({ index: 2, size: 20, name: '灯', kind: 1 });
    // detail: ?id=
    expect(E.detail.query!.parse({ id: '7' })).toEqual({ id: 7 });
    expect(E.detail.params).toBeUndefined();
    // create: the form's rules, in Chinese
    const bad = E.create.body!.safeParse({ name: '', kind: '3', price: '1.234' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual(expect.arrayContaining(['请输入名称', '类别取值无效', '单价格式不正确（最多 2 位小数）']));
    expect(E.create.body!.parse({ name: '灯', kind: 2 })).toEqual({ name: '灯', kind: 2, price: null, memo: '' });
    // update: the same with the id; remove: the ids in the body
    expect(E.update.body!.parse({ id: '3', name: '灯', kind: 1 })).toMatchObject({ id: 3, name: '灯' });
    expect(E.update.body!.safeParse({ name: '灯', kind: 1 }).success).toBe(false);
    expect(E.remove.body?.parse({ ids: [1, '2'] })).toEqual({ ids: [1, 2] });
    expect(E.remove.body?.safeParse({ ids: [] }).error?.issues[0].message).toBe('请选择要删除的记录');
  });

  it('takes explicit paths: an id in the path, a delete by ?id=', () => {
    const E = crudEndpoints(thing, {
      paths: { list: '/yewu/api/thing/list', detail: '/yewu/api/thing/detail/:id', create: '/yewu/api/thing/detail', update: '/yewu/api/thing/detail', remove: '/yewu/api/thing/detail' },
      removeBy: 'query', read, write, tags: [],
    });
    expect(E.detail.path).toBe('/yewu/api/thing/detail/:id');
    expect(E.detail.params?.parse({ id: '5' })).toEqual({ id: 5 });
    expect(E.remove.body).toBeUndefined();
    expect(E.remove.query!.parse({ id: '9' })).toEqual({ id: 9 });
    expect(E.remove.query!.safeParse({}).success).toBe(false);
  });

  it('answers rows of id + declared fields (+ extra): a drifting row fails', () => {
    const row = rowSchema(thing, { tagNames: z.array(z.string()) });
    const ok = { id: 1, name: '灯', kind: 1, price: null, memo: '', createdAt: new Date(), tagNames: [], companyId: 3 };
    expect(row.safeParse(ok).success).toBe(true);
    expect(row.safeParse({ ...ok, kind: '1' }).success).toBe(false);
    expect(row.safeParse({ ...ok, name: null }).success).toBe(false);
    expect(row.safeParse({ ...ok, id: undefined }).success).toBe(false);
    expect(row.safeParse({ ...ok, tagNames: undefined }).success).toBe(false);
  });

  it('every registered CRUD resource gives its five endpoints to the registry', () => {
    for (const group of ['noticeType', 'appealType', 'workOrderType', 'areaPermission', 'chargingType', 'companyClassify', 'deviceLookup', 'chargeCode', 'alarmScheme'] as const) {
      expect(Object.keys(API[group]), group).toEqual(['list', 'detail', 'create', 'update', 'remove']);
    }
  });
});
