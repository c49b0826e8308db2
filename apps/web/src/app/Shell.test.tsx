import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure } from '@testing-library/react';

// lazy route chunks are transformed on first use: give async queries time
configure({ asyncUtilTimeout: 8000 });
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { SHELL_LOGIN } from '../test/harness.tsx';
import { Providers } from './Root.tsx';
import { routes } from './router.tsx';
import { configureRequest } from '../api/request.ts';
import { saveSession, getSession } from './session.ts';
import { setLocked } from './lock.ts';
import { KEYS } from './storage.ts';
import { tabsStore } from './tabsInstance.ts';

const login = SHELL_LOGIN;

/** what the server answers for the session (GET admin/user/token) */
let serverLogin: LoginResult = login;

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 'SUCCESS', message: '', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  serverLogin = login;
  tabsStore.reset();
  configureRequest({
    getToken: () => getSession()?.token ?? null,
    fetch: vi.fn(async (url: string) => {
      if (url.startsWith('/yonghu/api/admin/user/token')) {
        const { token: _t, ...info } = serverLogin;
        void _t;
        return ok(info);
      }
      if (url.startsWith('/yewu/api/GetAreaTree')) {
        return ok([{ id: 1, Parent: null, name: '一号园区', deep: 0, areaType: 0, children: [{ id: 2, Parent: 1, name: 'A栋', deep: 1, areaType: 0, children: [] }] }]);
      }
      return ok(null);
    }),
  });
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('shell guards', { timeout: 30_000 }, () => {
  it('no session → the login page', async () => {
    const router = renderAt('/home');
    expect(await screen.findByRole('button', { name: /登\s*录/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a tampered session → the login page', async () => {
    saveSession(login);
    window.sessionStorage.setItem(KEYS.routes, JSON.stringify([...login.routes, 'administrator']));
    const router = renderAt('/energy');
    await screen.findByRole('button', { name: /登\s*录/ });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('a route outside the user\'s list → 403; an access-level route → 403; unknown → 404', async () => {
    saveSession(login);
    const router = renderAt('/notesPay');
    expect(await screen.findByText('抱歉，您没有权限访问该页面')).toBeTruthy();
    await act(() => router.navigate('/administrator'));
    expect(await screen.findByText('抱歉，您没有权限访问该页面')).toBeTruthy();
    await act(() => router.navigate('/noSuchPage'));
    expect(await screen.findByText('抱歉，您访问的页面不存在')).toBeTruthy();
  });

  it('"/" goes home; the header shows the edition title, company and bank', async () => {
    saveSession(login);
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByText('智能水电表物联网管理平台')).toBeTruthy();
    expect(screen.getAllByText('演示物业').length).toBeGreaterThan(0);
    expect(screen.getByText('中国银行')).toBeTruthy();
    for (const t of ['视频教程', '文字教程', '设置', '个人中心', '退出']) expect(screen.getByRole('button', { name: new RegExp(t) })).toBeTruthy();
    expect(screen.getByTestId('shell-logo').textContent).toBe('水电表平台');
    expect((await screen.findByTestId('company-name')).parentElement!.textContent).toBe('物业名称：演示物业');
  });

  it('the market edition: one platform name in header and side menu; the home names the market', async () => {
    serverLogin = { ...login, company: { id: 2, name: '东门农贸市场', bankType: 1, edition: 1 } };
    saveSession(serverLogin);
    renderAt('/home');
    expect(await screen.findByText('智慧市场管理平台', { selector: '.shell-title' })).toBeTruthy();
    expect(screen.getByTestId('shell-logo').textContent).toBe('智慧市场管理平台');
    expect((await screen.findByTestId('company-name')).parentElement!.textContent).toBe('市场名称：东门农贸市场');
    expect(document.body.textContent).not.toContain('水电表平台');
    expect(document.body.textContent).not.toContain('出租屋名称');
  });

  it('the menu holds only allowed routes', async () => {
    saveSession(login);
    renderAt('/home');
    await screen.findByText('快捷入口');
    const menu = document.querySelector('.shell-sider')!;
    expect(menu.textContent).toContain('费用管理');
    expect(menu.textContent).toContain('档案管理');
    expect(menu.textContent).not.toContain('平台管理');
    expect(menu.textContent).not.toContain('报表统计');
  });

  it('while locked every route redirects to /locking; /locking when unlocked goes home', async () => {
    saveSession(login);
    setLocked(true, '/energy');
    const router = renderAt('/energy');
    expect(await screen.findByRole('button', { name: /解\s*锁/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/locking');
    setLocked(false);
    await act(() => router.navigate('/locking'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('pages stay mounted while another tab is active (keep-alive) and tabs follow navigation', async () => {
    saveSession(login);
    const router = renderAt('/headSet');
    await screen.findByText('系统设置');
    await act(() => router.navigate('/energy'));
    await waitFor(() => expect((document.querySelector('[data-page="energy"]') as HTMLElement | null)?.hidden).toBe(false));
    const headSet = document.querySelector('[data-page="headSet"]') as HTMLElement;
    expect(headSet).toBeTruthy();
    expect(headSet.hidden).toBe(true);
    expect(tabsStore.get().keys).toEqual(['home', 'headSet', 'energy']);
    // the area tree shows on energy, with top levels expanded
    expect(await screen.findByText('A栋')).toBeTruthy();
    // close others from the tabs menu
    fireEvent.click(screen.getByRole('button', { name: /页签操作/ }));
    fireEvent.click(await screen.findByText('关闭其他'));
    await waitFor(() => expect(tabsStore.get().keys).toEqual(['home', 'energy']));
    expect(document.querySelector('[data-page="headSet"]')).toBeNull();
  });

  it('two menu clicks in quick succession open both tabs, even before the first page has loaded', async () => {
    saveSession(login);
    renderAt('/home');
    await screen.findByText('快捷入口');
    const menu = document.querySelector('.shell-sider') as HTMLElement;
    const item = async (group: string, title: string) => {
      fireEvent.click(within(menu).getByText(group));
      return within(menu).findByText(title);
    };
    const room = await item('档案管理', '房间档案');
    const role = await item('系统管理', '角色管理');
    // plain clicks outside act(): nothing is flushed between them, as with a fast user in a browser
    // where the first route's transition is still suspended on its chunk when the second click lands
    const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    env.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      room.click();
      role.click();
      expect(tabsStore.get().keys).toEqual(['home', 'recordsRoom', 'systemRole']);
    } finally {
      env.IS_REACT_ACT_ENVIRONMENT = true;
    }
    await waitFor(() => expect(document.querySelector('[data-page="systemRole"]')).toBeTruthy());
    expect(tabsStore.get()).toEqual({ keys: ['home', 'recordsRoom', 'systemRole'], active: 'systemRole' });
  });
});
