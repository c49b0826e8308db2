// Kept-alive tabs stay cheap (issue 16 item 2): a navigation re-renders neither the hidden pages nor the
// page shown, only what reads the page's `active`; the pages keep their state across tab switches.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState, type ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { SHELL_LOGIN } from '../test/harness.tsx';
import { Providers } from './Root.tsx';
import { routes } from './router.tsx';
import { configureRequest } from '../api/request.ts';
import { saveSession, getSession } from './session.ts';
import { tabsStore } from './tabsInstance.ts';
import { usePage, usePageKey } from './page.tsx';

// the shell's chunk is transformed on first use: give async queries time
configure({ asyncUtilTimeout: 8000 });

/** renders of each probe page's body (which reads no page context) */
const renders: Record<string, number> = {};

function Body({ name }: { name: string }) {
  renders[name] = (renders[name] ?? 0) + 1;
  const [n, setN] = useState(0);
  return <button onClick={() => setN(n + 1)}>{`${name} 点击 ${n}`}</button>;
}

function ActiveLabel() {
  const { routeKey, active } = usePage();
  return <span data-testid={`active-${routeKey}`}>{active ? '显示' : '隐藏'}</span>;
}

function Probe() {
  const key = usePageKey();
  return (
    <div>
      <ActiveLabel />
      <Body name={key} />
    </div>
  );
}

vi.mock('../pages/index.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../pages/index.ts')>();
  const probe = Object.assign(Probe as ComponentType, { preload: () => undefined });
  return {
    ...real,
    pageFor: (key: string) => (['energy', 'recordsRoom', 'systemRole'].includes(key) ? probe : real.pageFor(key)),
    preloadPage: () => undefined,
  };
});

const login = SHELL_LOGIN;

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 'SUCCESS', message: '', data }), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  tabsStore.reset();
  for (const k of Object.keys(renders)) delete renders[k];
  configureRequest({
    getToken: () => getSession()?.token ?? null,
    fetch: vi.fn(async (url: string) => {
      if (url.startsWith('/yonghu/api/admin/user/token')) {
        const { token: _t, ...info } = login;
        void _t;
        return ok(info);
      }
      if (url.startsWith('/yewu/api/GetAreaTree')) return ok([]);
      return ok({ data: [], count: 0 });
    }),
  });
});

describe('kept-alive tabs', { timeout: 30_000 }, () => {
  it('a navigation re-renders no kept page; each keeps its state and sees whether it is shown', async () => {
    saveSession(login);
    const router = createMemoryRouter(routes, { initialEntries: ['/energy'] });
    render(
      <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </Providers>,
    );
    fireEvent.click(await screen.findByText('energy 点击 0'));
    expect(await screen.findByText('energy 点击 1')).toBeTruthy();
    await act(() => router.navigate('/recordsRoom'));
    await screen.findByText('recordsRoom 点击 0');
    await act(() => router.navigate('/systemRole'));
    await screen.findByText('systemRole 点击 0');
    await waitFor(() => expect(tabsStore.get().keys).toEqual(['home', 'energy', 'recordsRoom', 'systemRole']));
    const before = { ...renders };

    // switching through the tabs, the menu collapsed and opened: the shell renders again and again
    for (const path of ['/energy', '/recordsRoom', '/systemRole', '/energy']) {
      await act(() => router.navigate(path));
    }
    fireEvent.click(screen.getByRole('button', { name: '收起菜单' }));
    fireEvent.click(await screen.findByRole('button', { name: '展开菜单' }));
    await screen.findByRole('button', { name: '收起菜单' });
    expect(renders).toEqual(before);

    expect(screen.getByTestId('active-energy').textContent).toBe('显示');
    expect(screen.getByTestId('active-recordsRoom').textContent).toBe('隐藏');
    expect(screen.getByTestId('active-systemRole').textContent).toBe('隐藏');
    expect((document.querySelector('[data-page="energy"]') as HTMLElement).hidden).toBe(false);
    expect((document.querySelector('[data-page="systemRole"]') as HTMLElement).hidden).toBe(true);
    // state kept across the switches
    expect(screen.getByText('energy 点击 1')).toBeTruthy();
  });
});
