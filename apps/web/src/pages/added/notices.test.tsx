import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetInflight } from '../../api/request.ts';
import { mockServer, ok, renderPage, signIn, type Call } from '../../test/harness.tsx';
import AddedNotice from './AddedNotice.tsx';
import AddedAppeal from './AddedAppeal.tsx';
import SystemNotice from '../system/SystemNotice.tsx';

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => resetInflight());

const at = '2026-11-25T02:00:00Z';
const notice = (over: Record<string, unknown>) => ({
  id: 1, companyId: 1, typeId: 4, typeName: '停水停电通知', title: '明日停水', content: '<p>明日 9 点停水</p><script>x</script>', areaIds: [3], areaNames: ['一期'],
  status: 1, statusText: '已发布', pinned: true, sendSms: true, smsCount: 12, readCount: 5, audience: 20, publishedAt: at, withdrawnAt: null,
  createdByName: '演示管理员', createdAt: at, updatedAt: at, ...over,
});

function server(calls: Call[] = []): Call[] {
  return mockServer((c) => {
    calls.push(c);
    if (c.path === '/yewu/api/Notice/List') return ok([notice({}), notice({ id: 2, title: '电梯维保', status: 0, statusText: '草稿', pinned: false, sendSms: false, smsCount: 0, readCount: 0, areaIds: [], areaNames: [], publishedAt: null })], 2);
    if (c.path === '/yewu/api/NoticeType/List') return ok([{ id: 4, name: '停水停电通知', sort: 0, status: 1, memo: '', createdAt: at }], 1);
    if (c.path === '/yewu/api/Notice/Publish') return ok({ smsCount: 20 });
    if (c.path === '/yewu/api/Notice/Detail' && c.method === 'POST') return ok({ id: 3 });
    if (c.path === '/yewu/api/WorkOrder/List') {
      return ok([{
        id: 9, companyId: 1, companyName: '', kind: 3, typeId: null, typeName: '采集器离线', title: '设备离线：1号楼采集器', content: '系统检测到', status: 0,
        statusText: '待受理', areaId: 3, areaName: '一期', roomId: null, roomName: '', ownerId: null, contactName: '系统', contactPhone: '', assigneeId: 7,
        assigneeName: '李四', deadlineAt: at, overdue: false, finishedAt: null, createdByName: '系统', meterId: null, collectorId: 5, exceptionKind: 'offline',
        exceptionText: '设备离线', photos: [], createdAt: at,
      }], 1);
    }
    return undefined;
  });
}

describe('/addedNotice 物业公告', { timeout: 120_000 }, () => {
  it('lists notices with state, scope, read counts and SMS; publishes a draft after confirming', async () => {
    signIn(['addedNotice'], ['notice.publish']);
    const calls = server();
    renderPage('addedNotice', <AddedNotice />);
    const published = (await screen.findByText('明日停水')).closest('tr')!;
    expect(within(published).getByText('已发布')).toBeTruthy();
    expect(within(published).getByText('置顶')).toBeTruthy();
    expect(within(published).getByText('5 / 20')).toBeTruthy();
    expect(within(published).getByText('12 条')).toBeTruthy();
    expect(within(published).getByText('一期')).toBeTruthy();
    expect(within(published).getByText('撤回')).toBeTruthy();
    expect(within(published).queryByText('编辑')).toBeNull();
    const draft = screen.getByText('电梯维保').closest('tr')!;
    expect(within(draft).getByText('全部业主')).toBeTruthy();
    expect(within(draft).getByText('不发送')).toBeTruthy();
    fireEvent.click(within(draft).getByText('发布'));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.path === '/yewu/api/Notice/Publish')?.body).toEqual({ id: 2 }));
  });

  it('writes a draft in the editor and saves it', async () => {
    signIn(['addedNotice'], ['notice.publish']);
    const calls = server();
    renderPage('addedNotice', <AddedNotice />);
    fireEvent.click(await screen.findByRole('button', { name: /新建公告/ }));
    const modal = await screen.findByRole('dialog');
    fireEvent.change(within(modal).getByPlaceholderText(/关于 12 月 1 日停水/), { target: { value: '停电通知' } });
    const box = within(modal).getByRole('textbox', { name: '公告内容' });
    box.innerHTML = '<p>周六 8 点停电</p>';
    fireEvent.input(box);
    expect(within(modal).getByRole('toolbar', { name: '格式' })).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: /保存草稿/ }));
    await waitFor(() => expect(calls.find((c) => c.path === '/yewu/api/Notice/Detail' && c.method === 'POST')?.body).toMatchObject({
      title: '停电通知', content: '<p>周六 8 点停电</p>', pinned: false, sendSms: false, areaIds: [],
    }));
  });

  it('without 物业公告编辑与发布 a user only reads', async () => {
    signIn(['addedNotice'], []);
    server();
    renderPage('addedNotice', <AddedNotice />);
    const row = (await screen.findByText('明日停水')).closest('tr')!;
    expect(within(row).getByText('预览')).toBeTruthy();
    expect(within(row).queryByText('撤回')).toBeNull();
    expect(screen.queryByRole('button', { name: /新建公告/ })).toBeNull();
    fireEvent.click(within(row).getByText('预览'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('明日 9 点停水')).toBeTruthy();
  });
});

describe('/systemNotice 系统公告', { timeout: 120_000 }, () => {
  it('the platform sees how many companies read each notice', async () => {
    signIn(['systemNotice'], [], { access: 0 });
    mockServer((c) => (c.path === '/yewu/api/SystemNotice/List'
      ? ok([{ ...notice({}), category: 2, categoryText: '维护通知', readCompanies: 3, totalCompanies: 8 }], 1)
      : undefined));
    renderPage('systemNotice', <SystemNotice />);
    const row = (await screen.findByText('明日停水')).closest('tr')!;
    expect(within(row).getByText('维护通知')).toBeTruthy();
    expect(within(row).getByText('3 / 8')).toBeTruthy();
  });

  it('a company user reads them from the inbox, unread ones marked', async () => {
    signIn(['systemNotice'], []);
    const calls: Call[] = [];
    mockServer((c) => {
      calls.push(c);
      if (c.path === '/yewu/api/SystemNotice/Inbox') {
        return ok({ unread: 1, rows: [{ id: 5, title: '平台升级', category: 3, categoryText: '版本更新', pinned: false, publishedAt: at, read: false }] });
      }
      if (c.path === '/yewu/api/SystemNotice/Read') return ok({ id: 5, title: '平台升级', content: '<p>新增物业公告功能</p>', categoryText: '版本更新', publishedAt: at });
      return undefined;
    });
    renderPage('systemNotice', <SystemNotice />);
    expect(await screen.findByText('系统公告（1 条未读）')).toBeTruthy();
    expect(screen.getByText('未读')).toBeTruthy();
    fireEvent.click(screen.getByText('平台升级'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('新增物业公告功能')).toBeTruthy();
    expect(calls.find((c) => c.path === '/yewu/api/SystemNotice/Read')?.body).toEqual({ id: 5 });
  });
});

describe('/addedAppeal 设备工单', { timeout: 120_000 }, () => {
  it('lists the work orders device exceptions opened, with the exception and the assignee', async () => {
    signIn(['addedAppeal'], ['appeal.handle']);
    server();
    renderPage('addedAppeal', <AddedAppeal />);
    fireEvent.click(await screen.findByRole('tab', { name: '设备工单' }));
    const row = (await screen.findByText('设备离线：1号楼采集器')).closest('tr')!;
    expect(within(row).getByText('设备离线')).toBeTruthy();
    expect(within(row).getByText('李四')).toBeTruthy();
    expect(within(row).getByText('待受理')).toBeTruthy();
  });
});
