import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { PageContext, areaSelections } from '../../app/page.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import TimeChangeControl from './TimeChangeControl.tsx';
import { openRowDialog } from '../../test/harness.tsx';

// 定时阀控 (/timeChangeControl) and the valve-control password (issue 12 §3): a timed close of a
// single-phase meter asks the password in the form and sends it; switching such a stopped task back on
// asks it in the dialog. The comparison is the server's (mocked here as checkValveControlPwd).

configure({ asyncUtilTimeout: 8000 });

function session() {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 },
    access: 1,
    routes: ['timeChangeControl'],
    operations: ['device.timedValve'],
    company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

const task = (id: number, phaseId: number | null, extra: Record<string, unknown> = {}) => ({
  id, meterId: 10 + id, meterName: `1-10${id}电表`, address: `20000100000${id}`, kind: 1, phaseId, roomName: `1-10${id}`, areaName: '1层',
  action: 'close', actionText: '拉闸', repeat: 'once', repeatText: '单次', runAt: '2099-01-01T02:00:00Z', timeOfDay: '', scheduleText: '2099-01-01 10:00:00',
  enabled: true, lastRunAt: null, nextRunAt: '2099-01-01T02:00:00Z', memo: '', createdByName: '测试', createdAt: '2025-06-01T02:00:00Z',
  needsValvePassword: phaseId === 1, lastCommand: null, ...extra,
});

type Call = { method: string; url: string; body: any };

function mockServer(rows: unknown[], calls: Call[] = []): Call[] {
  const json = (b: unknown) => new Response(JSON.stringify(b), { status: 200 });
  const ok = (data: unknown, count?: number) => json({ code: 'SUCCESS', message: '', data, ...(count !== undefined ? { count } : {}) });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input, init) => {
      const p = new URL(input, 'http://x').pathname;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init.method ?? 'GET', url: p, body });
      if (p.endsWith('/timed/list')) return ok(rows, rows.length);
      if (p.endsWith('/Company/checkValveControlPwd')) return body.password === '123456' ? ok(null) : json({ code: 'VALVE_PWD_WRONG', message: '密码输入不正确' });
      if (p.endsWith('/timed/enable')) return ok({ changed: 1, message: '已启用 1 个定时任务' });
      if (p.endsWith('/timed')) return ok(null);
      return ok([], 0);
    }),
  });
  return calls;
}

function renderPage() {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <PageContext.Provider value={{ routeKey: 'timeChangeControl', active: true }}>
          <TimeChangeControl />
        </PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
}

const writes = (calls: Call[], method: string, suffix: string) => calls.filter((c) => c.method === method && c.url.endsWith(suffix));

beforeEach(() => {
  areaSelections.set({});
  resetInflight();
  session();
});

describe('定时阀控 page and the valve password', { timeout: 120_000 }, () => {
  it('editing a timed close of a phaseId-1 meter asks the password in the form: empty and wrong save nothing, the right one is sent', async () => {
    const calls = mockServer([task(1, 1)]);
    renderPage();
    const dialog = await openRowDialog('200001000001', '编辑');
    expect(within(dialog).getByText('所选表具中有单相表，定时拉闸须输入阀控密码')).toBeTruthy();
    const save = () => fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));

    save();
    expect(await within(dialog).findByText('请输入阀控密码')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: 'wrong' } });
    save();
    expect(await screen.findByText('密码输入不正确')).toBeTruthy();
    expect(writes(calls, 'PUT', '/timed')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: ' 123456 ' } });
    save();
    await waitFor(() => expect(writes(calls, 'PUT', '/timed')).toHaveLength(1));
    expect(writes(calls, 'PUT', '/timed')[0].body).toMatchObject({ id: 1, action: 'close', repeat: 'once', password: '123456' });
  });

  it('a timed close of a meter without phaseId 1 saves without the password field', async () => {
    const calls = mockServer([task(2, 2)]);
    renderPage();
    const dialog = await openRowDialog('200001000002', '编辑');
    expect(within(dialog).queryByLabelText('阀控密码')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(writes(calls, 'PUT', '/timed')).toHaveLength(1));
    expect('password' in writes(calls, 'PUT', '/timed')[0].body).toBe(false);
    expect(calls.some((c) => c.url.includes('checkValveControlPwd'))).toBe(false);
  });

  it('switching a stopped timed close of a phaseId-1 meter back on asks the password; cancel sends nothing', async () => {
    const calls = mockServer([task(3, 1, { enabled: false })]);
    renderPage();
    const row = (await screen.findByText('200001000003')).closest('tr')!;
    fireEvent.click(within(row).getByRole('switch', { name: '启用' }));
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(await screen.findByText('已取消，未启用')).toBeTruthy();
    expect(writes(calls, 'POST', '/timed/enable')).toHaveLength(0);

    fireEvent.click(within(row).getByRole('switch', { name: '启用' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes(calls, 'POST', '/timed/enable')).toHaveLength(1));
    expect(writes(calls, 'POST', '/timed/enable')[0].body).toEqual({ ids: [3], enabled: true, password: '123456' });
  });
});
