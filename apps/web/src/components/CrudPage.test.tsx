import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { appealTypeResource, noticeTypeResource, type LoginResult } from '@meter/contracts';
import { resetInflight } from '../api/request.ts';
import { E } from '../api/endpoints.gen.ts';
import { saveSession } from '../app/session.ts';
import { mockServer, ok, renderPage, signIn, type Call } from '../pages/fee/testing.tsx';
import { CrudPage, rowToForm } from './CrudPage.tsx';

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => resetInflight());

const row = { id: 5, name: '水电报修', limitHours: 4, sort: 0, status: 1, memo: '', createdAt: '2026-11-25T02:00:00Z' };
const stopped = { ...row, id: 6, name: '门禁维修', limitHours: 48, status: 0 };

function server(calls: Call[]) {
  return mockServer((c) => {
    calls.push(c);
    if (c.path === '/yewu/api/AppealType/List') return ok([row, stopped], 2);
    if (c.method === 'POST') return ok({ id: 9 });
    return undefined;
  });
}

const modal = () => document.querySelector('.ant-modal') as HTMLElement;

describe('CrudPage: a declared resource as a page', { timeout: 120_000 }, () => {
  it('renders the columns from the fields (enum tags, units) and lists through the declared endpoint', async () => {
    signIn(['addedAppeal'], ['content.types']);
    const calls: Call[] = [];
    server(calls);
    renderPage('addedAppeal', <CrudPage resource={appealTypeResource} api={E.appealType} />);
    const first = (await screen.findByText('水电报修')).closest('tr')!;
    expect(within(first).getByText('4 小时')).toBeTruthy();
    expect(within(first).getByText('在用').closest('.ant-tag')?.className).toMatch(/success/);
    const second = screen.getByText('门禁维修').closest('tr')!;
    expect(within(second).getByText('48 小时')).toBeTruthy();
    expect(within(second).getByText('停用').closest('.ant-tag')).toBeTruthy();
    for (const title of ['诉求类型名称', '处理时限（小时）', '排序', '状态', '创建时间']) expect(screen.getAllByText(title).length).toBeGreaterThan(0);
    const list = calls.find((c) => c.path === E.appealType.list.path)!;
    expect(list.method).toBe('GET');
    expect(list.query.get('index')).toBe('1');
    // the declared search fields: 名称 and 状态
    expect(screen.getByLabelText('诉求类型名称')).toBeTruthy();
  });

  it('the form validates by the declaration, then add / edit / delete call the declared endpoints', async () => {
    signIn(['addedAppeal'], ['content.types']);
    const calls: Call[] = [];
    server(calls);
    renderPage('addedAppeal', <CrudPage resource={appealTypeResource} api={E.appealType} />);
    await screen.findByText('水电报修');

    // add: the declared defaults, the required name, the bounds of the time limit
    fireEvent.click(screen.getByRole('button', { name: /新增诉求类型/ }));
    await screen.findByText('新增诉求类型', { selector: '.ant-modal-title' });
    const hours = within(modal()).getByLabelText('处理时限（小时）') as HTMLInputElement;
    expect(hours.value).toBe('24');
    fireEvent.change(hours, { target: { value: '9999' } });
    fireEvent.click(within(modal()).getByRole('button', { name: /保\s*存/ }));
    expect(await within(modal()).findByText('请输入诉求类型名称')).toBeTruthy();
    expect(await within(modal()).findByText('处理时限（小时）不能大于 8760')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal()).getByLabelText('诉求类型名称'), { target: { value: '绿化养护' } });
    fireEvent.change(hours, { target: { value: '72' } });
    fireEvent.click(within(modal()).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe(E.appealType.create.path);
    expect(post.body).toMatchObject({ name: '绿化养护', limitHours: 72, sort: 0, status: '1' });

    // edit: the row in the form (its status as the select's key), saved with its id
    await waitFor(() => expect(document.querySelector('.ant-modal')).toBeNull());
    const first = screen.getByText('水电报修').closest('tr')!;
    fireEvent.click(within(first).getByText('编辑'));
    await screen.findByText('编辑诉求类型', { selector: '.ant-modal-title' });
    expect((within(modal()).getByLabelText('诉求类型名称') as HTMLInputElement).value).toBe('水电报修');
    fireEvent.change(within(modal()).getByLabelText('诉求类型名称'), { target: { value: '水电维修' } });
    fireEvent.click(within(modal()).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe(E.appealType.update.path);
    expect(put.body).toMatchObject({ id: 5, name: '水电维修', limitHours: 4 });

    // delete: confirmed, the ids in the body as declared
    await waitFor(() => expect(document.querySelector('.ant-modal')).toBeNull());
    fireEvent.click(within(screen.getByText('门禁维修').closest('tr')!).getByText('删除'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    const del = calls.find((c) => c.method === 'DELETE')!;
    expect(del.path).toBe(E.appealType.remove.path);
    expect(del.body).toEqual({ ids: [6] });
  });

  it('without the declared operation key, or at another access level, there is nothing to add, edit or delete', async () => {
    signIn(['addedAppeal'], []);
    server([]);
    const { unmount } = renderPage('addedAppeal', <CrudPage resource={noticeTypeResource} api={E.noticeType} />);
    await waitFor(() => expect(document.querySelector('.ant-table')).toBeTruthy());
    expect(screen.queryByRole('button', { name: /新增公告类型/ })).toBeNull();
    unmount();

    // the platform admin holds the key but the declarations are for company staff (access 1)
    const platform: LoginResult = {
      token: 'k'.repeat(43), user: { id: 1, username: 'admin', realName: '', companyId: 0, roleId: 0, userType: 0 },
      access: 0, routes: ['addedAppeal'], operations: ['content.types'], company: null,
    };
    saveSession(platform);
    renderPage('addedAppeal', <CrudPage resource={appealTypeResource} api={E.appealType} />);
    await screen.findByText('水电报修');
    expect(E.appealType.create.access).toBe(1);
    expect(screen.queryByRole('button', { name: /新增诉求类型/ })).toBeNull();
    expect(screen.queryByText('编辑')).toBeNull();
  });

  it('a row becomes form values with enums as the select keys', () => {
    expect(rowToForm(appealTypeResource, { ...row, status: 0 })).toMatchObject({ status: '0', limitHours: 4, name: '水电报修' });
  });
});
