import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { Providers } from '../app/Root.tsx';
import { configureRequest, resetInflight } from '../api/request.ts';
import UserAreaBindModal, { bindTreeData } from './UserAreaBindModal.tsx';

configure({ asyncUtilTimeout: 8000 });

const TREE = [{ id: 1, Parent: null, name: '阳光园区', deep: 0, areaType: 0, checked: false, children: [
  { id: 2, Parent: 1, name: '1号楼', deep: 1, areaType: 0, checked: true, children: [] },
  { id: 3, Parent: 1, name: '2号楼', deep: 1, areaType: 0, checked: false, children: [] },
] }];

type Call = { method: string; url: string; body: unknown };

function mockServer(calls: Call[]) {
  const ok = (data: unknown) => new Response(JSON.stringify({ code: 'SUCCESS', message: '', data }), { status: 200 });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn(async (input: string, init: RequestInit) => {
      const p = new URL(input, 'http://x').pathname;
      calls.push({ method: init.method ?? 'GET', url: input, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (p.endsWith('/GetNoUserBindAreaTreeV2')) return ok(TREE);
      if (p.endsWith('/AreaPermission/GetUsingList')) return ok([{ id: 7, name: '全园区', areaIds: [1], areaNames: ['阳光园区'], memo: '' }]);
      if (p.endsWith('/AreaPermission/BindUser')) return ok({ userId: 5, areaIds: [2, 3] });
      return ok(null);
    }) as unknown as (input: string, init: RequestInit) => Promise<Response>,
  });
}

beforeEach(() => resetInflight());

describe('UserAreaBindModal', { timeout: 60_000 }, () => {
  it('maps the tree and the bound ids', () => {
    const t = bindTreeData(TREE as never);
    expect(t.checked).toEqual([2]);
    expect(t.data[0]).toMatchObject({ key: 1, title: '阳光园区' });
  });

  it('starts with the bound areas checked (replace mode) and saves the new choice', async () => {
    const calls: Call[] = [];
    mockServer(calls);
    const onClose = vi.fn();
    render(
      <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <UserAreaBindModal user={{ id: 5, username: 'li', realName: '李四' }} onClose={onClose} />
        </MemoryRouter>
      </Providers>,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('绑定区域 — 李四')).toBeTruthy();
    await within(dialog).findByText('2号楼');
    const tree = calls.find((c) => c.url.includes('GetNoUserBindAreaTreeV2'))!;
    expect(tree.url).toMatch(/userId=5/);
    expect(tree.url).toMatch(/notReplace=false/);
    const box = within(dialog).getByText('2号楼').closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!;
    fireEvent.click(box);
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ userId: 5, areaIds: [2, 3], areaPermissionIds: [], notReplace: false });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });
});
