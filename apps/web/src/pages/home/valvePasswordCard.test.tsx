import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import HeadSet from './HeadSet.tsx';

// 系统设置 (/headSet): a company admin sets or changes the company's valve-control password (issue 12 §3);
// changing a set one sends the current one; staff without administration do not see the card.

configure({ asyncUtilTimeout: 8000 });

function session(routes: string[], operations: string[], access = 1) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 },
    access,
    routes,
    operations,
    company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

type Call = { method: string; url: string; body: any };

function mockServer(calls: Call[], hasValveControlPwd: boolean, warnings: string[] = []) {
  const json = (b: unknown) => new Response(JSON.stringify(b), { status: 200 });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: (m: string) => void warnings.push(m) },
    fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input, init) => {
      const p = new URL(input, 'http://x').pathname;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init.method ?? 'GET', url: p, body });
      if (p.endsWith('/Company/CompanyInfo')) return json({ code: 'SUCCESS', data: { id: 1, name: '演示物业', hasValveControlPwd } });
      if (p.endsWith('/Company/setValveControlPwd')) {
        if (hasValveControlPwd && body.currentPassword !== '123456') return json({ code: 'VALVE_PWD_WRONG', message: '当前阀控密码不正确' });
        return json({ code: 'SUCCESS', data: null });
      }
      return json({ code: 'SUCCESS', data: null });
    }),
  });
}

const renderPage = () =>
  render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <HeadSet />
      </MemoryRouter>
    </Providers>,
  );

const sets = (calls: Call[]) => calls.filter((c) => c.method === 'PUT' && c.url.endsWith('/Company/setValveControlPwd'));
const type = (card: HTMLElement, label: string, value: string) => fireEvent.change(within(card).getByLabelText(label), { target: { value } });

beforeEach(() => resetInflight());

describe('阀控密码 on 系统设置', { timeout: 120_000 }, () => {
  it('a company admin changes a set password: the current one is required and sent; a wrong one is the server’s refusal', async () => {
    session(['systemRecords', 'longRange'], ['device.valve']);
    const calls: Call[] = [];
    const warnings: string[] = [];
    mockServer(calls, true, warnings);
    renderPage();
    const card = (await screen.findByText('当前阀控密码')).closest('.ant-card') as HTMLElement;
    expect(within(card).getByText('已设置')).toBeTruthy();
    const submit = () => fireEvent.click(within(card).getByRole('button', { name: '修改阀控密码' }));

    submit();
    expect(await within(card).findByText('请输入当前阀控密码')).toBeTruthy();
    type(card, '当前阀控密码', '000000');
    type(card, '新阀控密码', 'ab c');
    type(card, '确认新阀控密码', 'ab c');
    submit();
    expect(await within(card).findByText('阀控密码不能包含空格')).toBeTruthy();
    type(card, '新阀控密码', 'next5678');
    type(card, '确认新阀控密码', 'next567');
    submit();
    expect(await within(card).findByText('两次输入的阀控密码不一致')).toBeTruthy();
    expect(sets(calls)).toHaveLength(0);

    type(card, '确认新阀控密码', 'next5678');
    submit();
    await waitFor(() => expect(sets(calls)).toHaveLength(1));
    expect(sets(calls)[0].body).toEqual({ password: 'next5678', currentPassword: '000000' });
    // the request wrapper shows the server's refusal
    await waitFor(() => expect(warnings).toContain('当前阀控密码不正确'));

    type(card, '当前阀控密码', ' 123456 ');
    submit();
    await waitFor(() => expect(sets(calls)).toHaveLength(2));
    expect(sets(calls)[1].body).toEqual({ password: 'next5678', currentPassword: '123456' });
    expect(await screen.findByText('阀控密码已修改')).toBeTruthy();
  });

  it('with no password set there is no current-password field', async () => {
    session(['systemRole'], ['device.valve']);
    const calls: Call[] = [];
    mockServer(calls, false);
    renderPage();
    const card = (await screen.findByText('新阀控密码')).closest('.ant-card') as HTMLElement;
    expect(within(card).getByText('未设置')).toBeTruthy();
    expect(within(card).queryByLabelText('当前阀控密码')).toBeNull();
    type(card, '新阀控密码', '4321');
    type(card, '确认新阀控密码', '4321');
    fireEvent.click(within(card).getByRole('button', { name: '设置阀控密码' }));
    await waitFor(() => expect(sets(calls)).toHaveLength(1));
    expect(sets(calls)[0].body).toEqual({ password: '4321' });
    expect(await screen.findByText('阀控密码已设置')).toBeTruthy();
  });

  it('staff without account/role administration, or without device.valve, do not see it', async () => {
    for (const [routes, ops] of [[['longRange'], ['device.valve']], [['systemRecords'], []]] as const) {
      session([...routes], [...ops]);
      mockServer([], true);
      const { unmount } = renderPage();
      expect(await screen.findByText('系统设置')).toBeTruthy();
      expect(screen.queryByText('阀控密码')).toBeNull();
      unmount();
    }
  });
});
