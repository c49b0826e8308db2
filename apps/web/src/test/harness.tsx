// Page-test harness (imported by *.test.tsx only): a signed-in session, a mocked server answering by
// path — by hand or through the endpoint declarations (`answer(E.area.childAreas, rows)`) — and a page
// rendered inside the app's providers.
import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, expect, vi } from 'vitest';
import type { Endpoint, LoginResult, ResultOf, RouteRef } from '@meter/contracts';
import { Providers } from '../app/Root.tsx';
import { PageContext, areaSelections } from '../app/page.tsx';
import { saveSession } from '../app/session.ts';
import { configureRequest, resetInflight } from '../api/request.ts';

export interface SessionOptions {
  /** 0: a platform administrator (no company); 1 (default): company staff of 演示物业 */
  access?: 0 | 1;
  edition?: number;
}

/** A staff member of 演示物业 signed in with three pages (what the shell's tests sign in as). */
export const SHELL_LOGIN: LoginResult = {
  token: 't'.repeat(43),
  user: { id: 5, username: 'demo', realName: '演示管理员', companyId: 2, roleId: 3, userType: 1 },
  access: 1,
  routes: ['energy', 'recordsRoom', 'systemRole'],
  operations: [],
  company: { id: 2, name: '演示物业', bankType: 1, edition: 0 },
};

/** Saves a session holding these menu routes and operation keys. */
export function signIn(routes: string[], operations: string[] = [], o: SessionOptions = {}) {
  const platform = o.access === 0;
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'demo', realName: '演示管理员', companyId: platform ? null : 1, roleId: platform ? null : 1, userType: platform ? 0 : 1 },
    access: platform ? 0 : 1,
    routes,
    operations,
    company: platform ? null : { id: 1, name: '演示物业', bankType: 0, edition: o.edition ?? 0 },
  };
  saveSession(login);
}

/** A request the page sent: `url` as fetched, `path` and `query` parsed from it, `body` parsed JSON. */
export interface Call {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  /** parsed JSON (tests read what they sent); an upload's FormData as it is */
  body: any;
}

export type Answer = Response | { data: unknown; count?: number } | { code: string; message: string };
export type Handler = (c: Call) => Answer | undefined;

export const ok = (data: unknown, count?: number) => ({ data, ...(count !== undefined ? { count } : {}) });

/**
 * Mock the server: `handler` answers by path (undefined → an empty success). Success toasts and
 * errors land in `toasts` (`success:…`, `error:…`); every request in the returned `calls`.
 */
export function mockServer(handler: Handler, toasts: string[] = [], calls: Call[] = []): Call[] {
  configureRequest({
    toast: {
      success: (t) => toasts.push(`success:${t}`),
      warning: (t) => toasts.push(`warning:${t}`),
      error: (t) => toasts.push(`error:${t}`),
    },
    fetch: vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://x');
      const call: Call = {
        method: init.method ?? 'GET', url: input, path: url.pathname, query: url.searchParams, body: init.body instanceof FormData ? init.body : init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const a = handler(call) ?? ok(null);
      if (a instanceof Response) return a;
      const body = 'code' in a ? a : { code: 'SUCCESS', message: '', ...a };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  });
  return calls;
}

/** What a fixture gives for a declared answer: its rows (paged or a list) or its object, with (some of) the declared fields. */
type Fields<T> = { [K in keyof T]?: unknown };
type Loose<T> = T extends (infer U)[] ? Fields<U>[] : Fields<T>;
type Reply<E extends Endpoint> = E extends { paged?: true } ? Loose<ResultOf<E>>[] : Loose<ResultOf<E>>;

/** One declared endpoint's answer in a mocked server (see `serve`). */
export interface Route {
  matches: (c: Call) => boolean;
  reply: (c: Call) => Answer;
}

/**
 * `answer(E.area.childAreas, [AREA])`: the declared endpoint (its method and path, `:id` matching any
 * segment) answers these rows — a paged one with `count` (default: their number) — or this Response.
 */
export function answer<E extends Endpoint>(ref: RouteRef<E>, data: Reply<E> | Response | ((c: Call) => Reply<E> | Response), count?: number): Route {
  const path = new RegExp(`^${ref.path.replace(/:[A-Za-z_]\w*/g, '[^/]+')}$`);
  return {
    matches: (c) => c.method === ref.method && path.test(c.path),
    reply: (c) => {
      const d = typeof data === 'function' ? data(c) : data;
      if (d instanceof Response) return d;
      return ref.paged && Array.isArray(d) ? ok(d, count ?? d.length) : ok(d);
    },
  };
}

/** A handler from declared answers; what none of them matches goes to `rest` (then an empty success). */
export function serve(routes: Route[], rest: Handler = () => undefined): Handler {
  return (c) => routes.find((r) => r.matches(c))?.reply(c) ?? rest(c);
}

/** The usual fallback of a list page: reads answer an empty list, writes an id. */
export const emptyList: Handler = (c) => (c.method === 'GET' ? ok([], 0) : ok({ id: 99 }));

export function renderPage(routeKey: string, page: ReactNode, path = `/${routeKey}`) {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <PageContext.Provider value={{ routeKey, active: true }}>{page}</PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
}

/**
 * Before each test of the file: no area picked and no request in flight — module state the pages keep,
 * which the web project's files share (one module graph per worker).
 */
export function freshPageState() {
  beforeEach(() => {
    areaSelections.set({});
    resetInflight();
  });
}

/** The table row that shows `text` (waits for it). */
export async function findRow(text: string): Promise<HTMLElement> {
  return (await screen.findByText(text)).closest('tr')!;
}

/** Clicks `action` in the row that shows `rowText`: the dialog it opens. */
export async function openRowDialog(rowText: string, action: string): Promise<HTMLElement> {
  fireEvent.click(within(await findRow(rowText)).getByText(action));
  return screen.findByRole('dialog');
}

/** Opens the tree select that shows `placeholder` in `dialog` and clicks its node titled `title`. */
export async function pickTreeNode(dialog: HTMLElement, placeholder: string, title: string) {
  fireEvent.mouseDown(within(dialog).getByText(placeholder).closest('.ant-select')!.querySelector('input')!);
  fireEvent.click(await waitFor(() => {
    const node = [...document.querySelectorAll(`.ant-select-tree [title="${title}"]`)][0];
    expect(node).toBeTruthy();
    return node;
  }));
}
