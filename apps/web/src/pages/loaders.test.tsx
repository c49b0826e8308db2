// Each route loader prefetches exactly the request its page's table sends first: render the page, record
// what it asks, and compare with what the loader sent (query order aside). A loader that drifts from its
// page (another URL, page size or filter) fails here instead of silently prefetching for nothing.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configure, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { OPERATION_KEYS, ROUTE_BY_KEY, ROUTES, type LoginResult } from '@meter/contracts';
import { Providers } from '../app/Root.tsx';
import { PageContext, areaSelections, setAreaSelection } from '../app/page.tsx';
import { saveSession } from '../app/session.ts';
import { configureRequest, prefetch, resetInflight, resetPrefetch } from '../api/request.ts';
import { PAGE_LOADERS, firstListQuery } from './loaders.ts';
import { pageFor } from './index.ts';

configure({ asyncUtilTimeout: 60_000 });

const normal = (url: string) => {
  const [path, q = ''] = url.split('?');
  const sp = new URLSearchParams(q);
  sp.sort();
  return `${path}?${sp.toString()}`;
};

function signIn(access: number) {
  const login: LoginResult = {
    token: 't'.repeat(43),
    user: { id: 1, username: 'u', realName: '测试', companyId: access === 0 ? null : 1, roleId: 1, userType: 1 },
    access,
    routes: ROUTES.map((r) => r.key),
    operations: [...OPERATION_KEYS],
    company: access === 0 ? null : { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  } as LoginResult;
  saveSession(login);
}

let asked: string[] = [];
beforeEach(() => {
  resetInflight();
  resetPrefetch();
  areaSelections.set({});
  asked = [];
  configureRequest({
    getToken: () => 't'.repeat(43),
    fetch: async (url) => {
      asked.push(url);
      const path = url.split('?')[0];
      const paged = /list|List|GetAll|history/.test(path);
      const data = path.endsWith('/device/plans') ? { electric: [], water: [], collector: [] } : [];
      return new Response(JSON.stringify(paged ? { code: 'SUCCESS', data: [], count: 0 } : { code: 'SUCCESS', data }), {
        headers: { 'Content-Type': 'application/json' },
      });
    },
  });
});

async function firstAskOf(key: string, expectedPath: string): Promise<string> {
  const Page = pageFor(key);
  render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/${key}`]}>
        <PageContext.Provider value={{ routeKey: key, active: true }}>
          <Page />
        </PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
  await waitFor(() => expect(asked.some((u) => u.split('?')[0] === expectedPath)).toBe(true));
  return asked.find((u) => u.split('?')[0] === expectedPath)!;
}

// the table stack is large: load it once before the timed renders
beforeAll(async () => {
  await import('../components/ResourceTable.tsx');
}, 120_000);

describe('route loaders', () => {
  for (const key of Object.keys(PAGE_LOADERS)) {
    it(`${key}: the prefetched request is the one the page asks first`, async () => {
      signIn(ROUTE_BY_KEY[key]?.access ?? 1);
      // an area picked in the tree before the page opens is part of both
      if (ROUTE_BY_KEY[key]?.areaTree && PAGE_LOADERS[key].areaFilter !== false) {
        setAreaSelection(key, { searchArea: '7', searchClassify: '1', areaName: '一号楼' });
      }
      const loader = PAGE_LOADERS[key];
      const sent = prefetch(() => loader.list(firstListQuery(key, loader)));
      expect(sent).toHaveLength(1);
      resetPrefetch(); // the page must send its own request, to be recorded
      asked = [];
      const path = sent[0].split('?')[0];
      const pageAsked = await firstAskOf(key, path);
      expect(normal(pageAsked)).toBe(normal(sent[0]));
    }, 120_000);
  }
});
