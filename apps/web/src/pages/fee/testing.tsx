// Test helpers of the billing pages (imported by *.test.tsx only): a signed-in session, a mocked
// server answering by path, and a page rendered inside the app's providers.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { PageContext } from '../../app/page.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest } from '../../api/request.ts';

export function signIn(routes: string[], operations: string[]) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'demo', realName: '演示管理员', companyId: 1, roleId: 1, userType: 1 },
    access: 1,
    routes,
    operations,
    company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type Answer = Response | { data: unknown; count?: number } | { code: string; message: string };
export type Handler = (c: Call) => Answer | undefined;

export const ok = (data: unknown, count?: number) => ({ data, ...(count !== undefined ? { count } : {}) });

/** Mock the server: `handler` answers by path (undefined → an empty success). */
export function mockServer(handler: Handler, toasts: string[] = []): Call[] {
  const calls: Call[] = [];
  configureRequest({
    toast: {
      success: (t) => toasts.push(`success:${t}`),
      warning: (t) => toasts.push(`warning:${t}`),
      error: (t) => toasts.push(`error:${t}`),
    },
    fetch: vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://x');
      const call: Call = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      const a = handler(call) ?? ok(null);
      if (a instanceof Response) return a;
      const body = 'code' in a ? a : { code: 'SUCCESS', message: '', ...a };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as (input: string, init: RequestInit) => Promise<Response>,
  });
  return calls;
}

export function renderPage(routeKey: string, page: ReactNode, path = `/${routeKey}`) {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <PageContext.Provider value={{ routeKey, active: true }}>{page}</PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
}
