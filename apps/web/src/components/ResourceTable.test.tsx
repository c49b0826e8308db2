import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../app/Root.tsx';
import { PageContext, setAreaSelection, areaSelections } from '../app/page.tsx';
import { saveSession } from '../app/session.ts';
import { configureRequest, http, resetInflight } from '../api/request.ts';
import { ResourceTable, formColumns, requiredMessage, tableColumns, type ResourceColumn } from './ResourceTable.tsx';

configure({ asyncUtilTimeout: 8000 });

type Row = { id: number; name: string; kind: number } & Record<string, unknown>;

const columns: ResourceColumn<Row>[] = [
  { title: '名称', dataIndex: 'name', search: true, required: true },
  { title: '类型', dataIndex: 'kind', valueType: 'select', valueEnum: { 1: '电表', 2: '水表' }, required: true },
  { title: '密码', dataIndex: 'password', valueType: 'password', formOnly: true, hideInEdit: true, required: true },
  { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime', hideInForm: true },
];

function session(operations: string[]) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 },
    access: 1,
    routes: ['recordsTable'],
    operations,
    company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

function renderTable(props: Partial<Parameters<typeof ResourceTable<Row>>[0]> = {}) {
  const list = vi.fn(async () => ({ code: 'SUCCESS', data: [{ id: 1, name: '1号表', kind: 1 }], count: 1 }));
  const utils = render(
    <Providers>
      <MemoryRouter>
        <PageContext.Provider value={{ routeKey: 'recordsTable', active: true }}>
          <ResourceTable<Row>
            entityName="表具"
            rowKey="id"
            columns={columns}
            list={list}
            create={vi.fn(async () => ({}))}
            update={vi.fn(async () => ({}))}
            remove={vi.fn(async () => ({}))}
            permissions={{ create: 'device.add', update: 'device.edit', remove: 'device.delete' }}
            {...props}
          />
        </PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
  return { list, ...utils };
}

beforeEach(() => {
  areaSelections.set({});
});

describe('column derivation', () => {
  it('required rules carry Chinese messages: 请输入 for inputs, 请选择 for pickers and enums', () => {
    expect(requiredMessage({ title: '名称' })).toBe('请输入名称');
    expect(requiredMessage({ title: '类型', valueEnum: { 1: 'x' } })).toBe('请选择类型');
    expect(requiredMessage({ title: '安装日期', valueType: 'date' })).toBe('请选择安装日期');
  });

  it('search is opt-in; form-only columns stay out of the table', () => {
    const t = tableColumns(columns);
    expect(t.map((c) => c.dataIndex)).toEqual(['name', 'kind', 'createdAt']);
    expect(t.map((c) => !!c.search)).toEqual([true, false, false]);
  });

  it('a fixed column without a width fits its content instead of ProTable\'s 200 px', () => {
    const t = tableColumns<Row>([
      { title: '房间', dataIndex: 'name', fixed: 'left' },
      { title: '日期', dataIndex: 'createdAt', fixed: 'left', width: 120 },
      { title: '类型', dataIndex: 'kind' },
    ]);
    expect(t.map((c) => c.width)).toEqual([1, 120, undefined]);
    const cell = (t[0].onCell as () => { style: { whiteSpace: string } })();
    expect(cell.style.whiteSpace).toBe('nowrap');
  });

  it('create and edit forms differ by hideInEdit / hideInForm', () => {
    const create = formColumns(columns, 'create');
    const edit = formColumns(columns, 'edit');
    expect(create.map((c) => c.dataIndex)).toEqual(['name', 'kind', 'password']);
    expect(edit.map((c) => c.dataIndex)).toEqual(['name', 'kind']);
    const rules = (c: (typeof create)[number]) => (c.formItemProps as { rules: { message: string }[] }).rules;
    expect(rules(create[0])[0].message).toBe('请输入名称');
    expect(rules(create[1])[0].message).toBe('请选择类型');
  });
});

describe('ResourceTable', { timeout: 60_000 }, () => {
  it('queries the server with index/size and the page\'s area filter', async () => {
    session(['device.add']);
    setAreaSelection('recordsTable', { searchArea: '7', searchClassify: '', areaName: 'A栋' });
    const { list } = renderTable();
    await screen.findByText('1号表');
    expect(list).toHaveBeenCalled();
    const q = (list.mock.calls as unknown as [Record<string, unknown>][])[0][0];
    expect(q).toMatchObject({ index: 1, size: 10, searchArea: '7', areaName: 'A栋' });
    expect(q).not.toHaveProperty('current');
    expect(q).not.toHaveProperty('pageSize');

    // picking another area re-queries with it
    act(() => setAreaSelection('recordsTable', { searchArea: '9', searchClassify: '', areaName: 'B栋' }));
    await waitFor(() => expect((list.mock.calls as unknown as [Record<string, unknown>][]).at(-1)![0]).toMatchObject({ searchArea: '9', areaName: 'B栋' }));
  });

  it('shows create / edit / delete only with the operation keys', async () => {
    session([]);
    renderTable();
    await screen.findByText('1号表');
    expect(screen.queryByRole('button', { name: /新增表具/ })).toBeNull();
    expect(screen.queryByText('编辑')).toBeNull();
    expect(screen.queryByText('删除')).toBeNull();
  });

  it('with the keys: create opens the form and a missing field warns in Chinese', async () => {
    session(['device.add', 'device.edit', 'device.delete']);
    const create = vi.fn(async () => ({}));
    renderTable({ create });
    await screen.findByText('1号表');
    expect(screen.getByText('编辑')).toBeTruthy();
    expect(screen.getByText('删除')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增表具/ }));
    expect(await screen.findByText('新增表具', { selector: '.ant-modal-title' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('请输入名称')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    // the first field in error is scrolled to and focused, so its message is in view
    await waitFor(() => expect((document.activeElement as HTMLElement | null)?.id).toMatch(/_name$/));
  });

  it('a double-clicked save sends one request; the second is refused with 请勿重复操作', async () => {
    session(['device.add']);
    resetInflight();
    const warnings: string[] = [];
    let release!: () => void;
    const fetchMock = vi.fn(
      () =>
        new Promise<Response>((r) => {
          release = () => r(new Response(JSON.stringify({ code: 'SUCCESS', message: '', data: { id: 2 } }), { status: 200 }));
        }),
    );
    configureRequest({
      fetch: fetchMock,
      toast: { success: () => {}, error: () => {}, warning: (t) => void warnings.push(t) },
    });
    renderTable({ create: (v) => http.post('/device/api/v1/device', v) });
    await screen.findByText('1号表');
    fireEvent.click(screen.getByRole('button', { name: /新增表具/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input[id$="_name"]')!, { target: { value: '2号表' } });
    fireEvent.mouseDown(dialog.querySelector('input[id$="_kind"]')!);
    fireEvent.click(await screen.findByTitle('水表'));
    fireEvent.change(dialog.querySelector('input[id$="_password"]')!, { target: { value: 'secret1' } });
    const save = screen.getByRole('button', { name: /保\s*存/ });
    fireEvent.click(save);
    fireEvent.click(save);
    await waitFor(() => expect(warnings).toContain('请勿重复操作'), { timeout: 3000 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => release());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('the search form of a ProTable list', { timeout: 60_000 }, () => {
  it('查询 while the list is still loading (a reload after a save) searches with the new value', async () => {
    session([]);
    const rows = [{ id: 1, name: '1号表', kind: 1 }];
    // the first load answers; the reload hangs, as a reload after a save does on a busy machine
    const list = vi.fn((_q: Record<string, unknown>) =>
      list.mock.calls.length === 2
        ? new Promise<never>(() => undefined)
        : Promise.resolve({ code: 'SUCCESS', data: rows, count: 1 }));
    const actionRef: { current: { reload(): void | Promise<void> } | undefined } = { current: undefined };
    // tableProps: ProTable (ProTableView), not the light table
    renderTable({ list, actionRef, tableProps: {} });
    await screen.findByText('1号表', {}, { timeout: 30_000 });
    await waitFor(() => expect(actionRef.current).toBeTruthy());
    act(() => void actionRef.current!.reload());
    await waitFor(() => expect(list).toHaveBeenCalledTimes(2));

    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '2号表' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(list.mock.calls.at(-1)![0]).toMatchObject({ name: '2号表', index: 1 }));
  });
});

describe('two lists in one document (kept-alive pages stay, hidden)', { timeout: 60_000 }, () => {
  it('each search form names its fields apart: a label reaches its own page\'s input', async () => {
    session([]);
    const list = vi.fn(async () => ({ code: 'SUCCESS', data: [{ id: 1, name: '1号表', kind: 1 }], count: 1 }));
    render(
      <Providers>
        <MemoryRouter>
          <PageContext.Provider value={{ routeKey: 'recordsTable', active: true }}>
            <ResourceTable<Row> rowKey="id" columns={columns} list={list} />
            <ResourceTable<Row> rowKey="id" columns={columns} list={list} tableProps={{}} />
          </PageContext.Provider>
        </MemoryRouter>
      </Providers>,
    );
    await waitFor(() => expect(screen.getAllByText('1号表')).toHaveLength(2), { timeout: 30_000 });
    const labels = screen.getAllByText('名称', { selector: 'label' });
    expect(labels).toHaveLength(2);
    const targets = labels.map((l) => l.getAttribute('for'));
    expect(new Set(targets).size).toBe(2);
    for (const id of targets) expect(document.querySelectorAll(`[id="${id}"]`)).toHaveLength(1);
  });
});

describe('formColumns field names', () => {
  it('a form-only column whose key differs from its dataIndex submits under the dataIndex', () => {
    const form = formColumns<Record<string, unknown>>(
      [{ title: '菜单权限', dataIndex: 'routes', key: 'routesForm', formOnly: true }],
      'create',
    ) as { name?: unknown }[];
    expect(form[0].name).toBe('routes');
  });
});
