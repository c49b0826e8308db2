import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LoginResult } from '@meter/contracts';
import { resetInflight } from '../../api/request.ts';
import { saveSession } from '../../app/session.ts';
import { mockServer, ok, renderPage, signIn, type Call } from '../fee/testing.tsx';
import AddedAppeal from './AddedAppeal.tsx';
import SystemAppeal from './SystemAppeal.tsx';
import { stepsFor } from './AppealDrawer.tsx';

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => resetInflight());

const appeal = (over: Record<string, unknown>) => ({
  id: 1, companyId: 1, companyName: '演示物业', kind: 1, typeId: 5, typeName: '水电报修', title: '卫生间漏水', content: '水管滴水',
  status: 0, statusText: '待受理', areaId: 3, areaName: '阳光园区/1号楼', roomId: 9, roomName: '101', ownerId: 2, contactName: '张三',
  contactPhone: '13800138000', assigneeId: null, assigneeName: '', deadlineAt: '2026-11-25T06:00:00Z', overdue: false, finishedAt: null,
  createdByName: '演示管理员', createdAt: '2026-11-25T02:00:00Z', photos: [], ...over,
});

function server(calls: Call[] = []) {
  return mockServer((c) => {
    calls.push(c);
    if (c.path === '/yewu/api/Appeal/List') {
      return ok([appeal({}), appeal({ id: 2, title: '门禁坏了', status: 1, statusText: '处理中', overdue: true, assigneeName: '李四' })], 2);
    }
    if (c.path === '/yewu/api/Appeal/Detail' && c.method === 'GET') {
      return ok({ ...appeal({}), events: [{ id: 1, action: 'create', actionText: '登记', fromStatus: null, toStatus: 0, content: '水管滴水', byName: '演示管理员', byAccess: 1, createdAt: '2026-11-25T02:00:00Z' }] });
    }
    if (c.path === '/yewu/api/AppealType/List') return ok([{ id: 5, name: '水电报修', limitHours: 4, sort: 0, status: 1, memo: '', createdAt: '2026-11-25T02:00:00Z' }], 1);
    if (c.path === '/yewu/api/Appeal/Assignees') return ok([{ id: 1, name: '演示管理员' }, { id: 7, name: '李四' }]);
    if (c.path === '/yewu/api/SystemAppeal/List') {
      return ok([appeal({ id: 3, kind: 2, companyName: '乙物业', title: '开通短信', areaId: null, areaName: '', roomId: null, roomName: '' })], 1);
    }
    return undefined;
  });
}

describe('/addedAppeal 业主诉求', { timeout: 60_000 }, () => {
  it('lists appeals with state and overdue marks, and the type settings tab for 类型设置 holders', async () => {
    signIn(['addedAppeal'], ['appeal.create', 'appeal.handle', 'content.types']);
    const calls = server();
    renderPage('addedAppeal', <AddedAppeal />);
    const late = (await screen.findByText('门禁坏了')).closest('tr')!;
    expect(within(late).getByText('处理中')).toBeTruthy();
    expect(within(late).getByText('已超时')).toBeTruthy();
    const fresh = screen.getByText('卫生间漏水').closest('tr')!;
    expect(within(fresh).queryByText('已超时')).toBeNull();
    expect(within(fresh).getByText('未指派')).toBeTruthy();
    expect(within(fresh).getByText('阳光园区/1号楼 / 101')).toBeTruthy();
    expect(screen.getByRole('button', { name: /登记诉求/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '漏水' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.some((c) => c.path === '/yewu/api/Appeal/List' && c.query.get('q') === '漏水')).toBe(true));
    fireEvent.click(screen.getByRole('tab', { name: '类型设置' }));
    expect(await screen.findByRole('tab', { name: '工单类型' })).toBeTruthy();
    expect(await screen.findByText('4 小时')).toBeTruthy();
    expect(calls.some((c) => c.path === '/yewu/api/AppealType/List')).toBe(true);
  });

  it('opens an appeal with its history and accepts it', async () => {
    signIn(['addedAppeal'], ['appeal.handle']);
    const calls: Call[] = [];
    server(calls);
    renderPage('addedAppeal', <AddedAppeal />);
    expect(screen.queryByRole('tab', { name: '类型设置' })).toBeNull();
    fireEvent.click(await screen.findByText('卫生间漏水'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('处理记录')).toBeTruthy();
    expect(within(drawer).getByText('登记')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: /办\s*结/ })).toBeNull();
    fireEvent.click(within(drawer).getByRole('button', { name: /受\s*理/ }));
    const modal = (await screen.findAllByRole('dialog')).at(-1)!;
    fireEvent.change(within(modal).getByLabelText('受理说明（选填）'), { target: { value: '今天下午上门' } });
    fireEvent.click(within(modal).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.path === '/yewu/api/Appeal/Accept')?.body).toEqual({ id: 1, content: '今天下午上门' }));
  });

  it('refuses to send an empty reject reason', async () => {
    signIn(['addedAppeal'], ['appeal.handle']);
    const calls: Call[] = [];
    mockServer((c) => {
      calls.push(c);
      if (c.path === '/yewu/api/Appeal/List') return ok([appeal({})], 1);
      if (c.path === '/yewu/api/Appeal/Detail') return ok({ ...appeal({}), events: [] });
      return undefined;
    });
    renderPage('addedAppeal', <AddedAppeal />);
    fireEvent.click(await screen.findByText('卫生间漏水'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(await within(drawer).findByRole('button', { name: /驳\s*回/ }));
    const modal = (await screen.findAllByRole('dialog')).at(-1)!;
    fireEvent.click(within(modal).getByRole('button', { name: /确\s*定/ }));
    expect((await within(modal).findByRole('alert')).textContent).toBe('请填写驳回原因');
    expect(calls.some((c) => c.path === '/yewu/api/Appeal/Reject')).toBe(false);
  });
});

describe('/systemAppeal 平台诉求', { timeout: 60_000 }, () => {
  it('a platform admin sees the company column and no submit button', async () => {
    const login: LoginResult = {
      token: 'k'.repeat(43), user: { id: 1, username: 'admin', realName: '平台', companyId: null, roleId: 1, userType: 0 },
      access: 0, routes: ['systemAppeal'], operations: ['appeal.create', 'appeal.handle', 'content.types'], company: null,
    };
    saveSession(login);
    server();
    renderPage('systemAppeal', <SystemAppeal />);
    const row = (await screen.findByText('开通短信')).closest('tr')!;
    expect(within(row).getByText('乙物业')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /提交诉求/ })).toBeNull();
    expect(screen.queryByRole('tab', { name: '诉求类型' })).toBeNull();
  });

  it('steps offered follow the flow and the role', () => {
    expect(stepsFor('system', 0, { platform: true, canHandle: true })).toEqual(['accept', 'reply', 'reject']);
    expect(stepsFor('system', 1, { platform: false, canHandle: true })).toEqual(['reply']);
    expect(stepsFor('owner', 1, { platform: false, canHandle: true })).toEqual(['assign', 'reply', 'complete', 'reject']);
    expect(stepsFor('owner', 2, { platform: false, canHandle: true })).toEqual([]);
    expect(stepsFor('owner', 0, { platform: false, canHandle: false })).toEqual([]);
  });
});
