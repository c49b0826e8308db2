import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setAreaSelection } from '../../app/page.tsx';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, ok, renderPage, serve, signIn, type Call, freshPageState } from '../../test/harness.tsx';
import RecordsArea, { areaBody, areaForm } from './RecordsArea.tsx';
import { addressFields, addressGap, addressOf, setLevel, suggestions } from './areaAddress.ts';
import { parentOptions } from './areaFields.tsx';

configure({ asyncUtilTimeout: 8000 });

const session = (access: 0 | 1 = 1) => signIn(['recordsArea'], [], { access });

const AREA = {
  id: 2, name: '1号楼', title: '1号楼', parentId: 1, parentName: '阳光园区', deep: 1, areaType: 0, areaTypeName: '普通区域',
  province: '广东省', city: '深圳市', district: '南山区', town: '', address: '广东省深圳市南山区', addressCodes: ['广东省', '深圳市', '南山区'],
  sort: 1, companyId: 1, companyID: 1, companyName: '演示物业', classifyId: null, companyClassifyID: null, childCount: 3, roomCount: 0,
  createdAt: '2025-01-01T00:00:00Z',
};
const TREE = [{ id: 1, Parent: null, name: '阳光园区', deep: 0, areaType: 0, kind: 'area', children: [
  { id: 2, Parent: 1, name: '1号楼', deep: 1, areaType: 0, kind: 'area', children: [{ id: 5, Parent: 2, name: '1层', deep: 2, areaType: 0, kind: 'area', children: [] }] },
  { id: 3, Parent: 1, name: '2号楼', deep: 1, areaType: 0, kind: 'area', children: [] },
] }];


function server(calls: Call[] = []): Call[] {
  return mockServer(
    serve(
      [
        answer(E.area.list, [AREA], 1),
        answer(E.area.addressOptions, [{ province: '广东省', city: '深圳市', district: '南山区', town: '粤海街道' }]),
        answer(E.area.tree, TREE),
        answer(E.area.treeNoRoom, TREE),
        answer(E.area.treeNoRoomV2, TREE),
      ],
      (c) => (c.method !== 'GET' ? ok({ id: 9, deep: 2 }) : ok([], 0)),
    ),
    [],
    calls,
  );
}

const show = () => renderPage('recordsArea', <RecordsArea />);

/** signed in as company staff, the server mocked, the page shown: the requests it sends */
function open(): Call[] {
  session();
  const calls = server();
  show();
  return calls;
}

freshPageState();

describe('address helpers (four cascader levels)', () => {
  it('a changed level clears the levels below it', () => {
    expect(setLevel(['广东省', '深圳市', '南山区', '粤海街道'], 1, '广州市')).toEqual(['广东省', '广州市', '', '']);
  });
  it('suggests provinces first, then names used under the same upper levels', () => {
    const used = [
      { province: '广东省', city: '深圳市', district: '南山区', town: '粤海街道' },
      { province: '广东省', city: '深圳市', district: '福田区', town: '' },
      { province: '浙江省', city: '杭州市', district: '西湖区', town: '' },
    ];
    const p = suggestions(used, ['', '', '', ''], 0);
    expect(p[0]).toBe('广东省');
    expect(p).toContain('北京市');
    expect(new Set(p).size).toBe(p.length);
    expect(suggestions(used, ['广东省', '深圳市', '', ''], 2)).toEqual(['南山区', '福田区']);
    expect(suggestions(used, ['广东省', '', '', ''], 1)).toEqual(['深圳市']);
  });
  it('finds a gap (a lower level without the one above)', () => {
    expect(addressGap(['广东省', '', '南山区', ''])).toBe(1);
    expect(addressGap(['广东省', '深圳市', '', ''])).toBe(-1);
  });
  it('row ↔ form ↔ body', () => {
    expect(addressOf(AREA)).toEqual(['广东省', '深圳市', '南山区', '']);
    expect(addressFields([' 广东省 ', '深圳市'])).toEqual({ province: '广东省', city: '深圳市', district: '', town: '' });
    const form = areaForm(AREA);
    expect(form).toMatchObject({ __self: 2, name: '1号楼', parentId: 1, areaType: '0', addressForm: ['广东省', '深圳市', '南山区', ''] });
    expect(areaBody({ ...form, name: ' 1号楼A ' })).toEqual({
      name: '1号楼A', parentId: 1, areaType: 0, sort: 1, province: '广东省', city: '深圳市', district: '南山区', town: '',
    });
    expect(areaBody({ name: '顶级', addressForm: undefined })).toMatchObject({ parentId: null, areaType: 0, sort: 0, province: '' });
  });
  it('the parent picker blocks the edited area and everything below it', () => {
    const o = parentOptions(TREE as never, 2);
    expect(o[0].disabled).toBeUndefined();
    expect(o[0].children![0]).toMatchObject({ value: 2, disabled: true });
    expect(o[0].children![0].children![0]).toMatchObject({ value: 5, disabled: true });
    expect(o[0].children![1].disabled).toBeUndefined();
  });
});

describe('区域档案 page', { timeout: 60_000 }, () => {
  it('lists the areas below the picked one, with parent, level, address and counts', async () => {
    session();
    setAreaSelection('recordsArea', { searchArea: '1', searchClassify: '', areaName: '阳光园区' });
    const calls = server();
    show();
    expect(await screen.findByText('广东省深圳市南山区')).toBeTruthy();
    expect(screen.getByText('第 2 级')).toBeTruthy();
    expect(screen.getByText('阳光园区')).toBeTruthy();
    const list = calls.find((c) => c.url.includes('/Area/GetAllChildArea'))!;
    expect(list.url).toMatch(/index=1&size=10/);
    expect(list.url).toMatch(/searchArea=1/);
    expect(screen.getByRole('button', { name: /新增区域/ })).toBeTruthy();
    expect(screen.getByText('新增下级')).toBeTruthy();
    expect(screen.getByText('编辑')).toBeTruthy();
    expect(screen.getByText('删除')).toBeTruthy();
  });

  it('新增下级 opens the form under the row and posts the child', async () => {
    const calls = open();
    await screen.findByText('广东省深圳市南山区');
    fireEvent.click(screen.getByText('新增下级'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('新增下级区域 — 1号楼')).toBeTruthy();
    fireEvent.change([...dialog.querySelectorAll('input')].find((i) => i.id === 'name')!, { target: { value: '2层' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.includes('/Area/Detail'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ name: '2层', parentId: 2, areaType: 0, province: '广东省', city: '深圳市', district: '南山区' });
  });

  it('delete asks first, then calls DELETE Area/Detail/{id}', async () => {
    const calls = open();
    await screen.findByText('广东省深圳市南山区');
    fireEvent.click(screen.getByText('删除'));
    expect(await screen.findByText('确定删除该区域吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.includes('/Area/Detail/2'))).toBe(true));
  });

  it('a platform admin without a picked company is told to pick one', async () => {
    session(0);
    server([]);
    show();
    expect(await screen.findByText(/请先在页面顶部选择单位/)).toBeTruthy();
    expect(await screen.findByText('演示物业')).toBeTruthy();
  });
});
