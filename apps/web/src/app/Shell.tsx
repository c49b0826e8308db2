// The main shell (SPEC §2): guards, side menu, header, open-page tabs with keep-alive, breadcrumbs,
// the area tree on area-filtered routes, and the pages themselves.
import { lazy, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Breadcrumb, Layout, Spin } from 'antd';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ROUTE_BY_KEY, routeAllowed, PRODUCT_VERSION } from '@meter/contracts';
import { SideMenu } from './SideMenu.tsx';
import { HeaderBar, editionLogo, editionTitle } from './HeaderBar.tsx';
import { TabsBar } from './TabsBar.tsx';
import { breadcrumbsFor, routeKeyOf } from './menu.ts';
import { updateSessionInfo, useSession, type Session } from './session.ts';
import { isLocked } from './lock.ts';
import { tabsStore } from './tabsInstance.ts';
import { useTabs } from './tabs.ts';
import { updateSettings, useSettings } from './settings.ts';
import { PageActiveContext, PageContext, refreshPage } from './page.tsx';
import { prefetchRoute } from './prefetch.ts';
import { pageFor } from '../pages/index.ts';
import { ErrorResult } from '../components/ErrorResult.tsx';
import { authApi } from '../api/yonghu.ts';

// the area tree (antd Tree) loads only with the first area-filtered page
const AreaTreePanel = lazy(() => import('./AreaTreePanel.tsx'));

export const MENU_WIDTH = 166;
export const MENU_COLLAPSED_WIDTH = 50;

type Status = 'ok' | 403 | 404;

function statusOf(key: string, session: Session): Status {
  if (!ROUTE_BY_KEY[key]) return 404;
  return routeAllowed(key, session) ? 'ok' : 403;
}

/** Guards: no session → /login; locked → /locking; "/" → /home. */
export default function Shell() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace />;
  if (isLocked()) return <Navigate to="/locking" replace />;
  const key = routeKeyOf(location.pathname);
  if (!key) return <Navigate to="/home" replace />;
  return <ShellLayout session={session} routeKey={key} />;
}

function PageFallback() {
  return (
    <div className="page-loading">
      <Spin />
    </div>
  );
}

/**
 * A page kept alive in its tab. Memoised: the shell renders again on every navigation and tab change,
 * and a hidden page (or the one shown) has nothing to render for that; switching tabs changes `active`,
 * which only the components that read it (usePage) see — the page element itself is the same.
 */
const KeptPage = memo(function KeptPage({ routeKey, active }: { routeKey: string; active: boolean }) {
  const page = useMemo(() => {
    const Page = pageFor(routeKey);
    return (
      <PageContext.Provider value={{ routeKey, active: true }}>
        <Suspense fallback={<PageFallback />}>
          <Page />
        </Suspense>
      </PageContext.Provider>
    );
  }, [routeKey]);
  return (
    <div className="shell-page" hidden={!active} data-page={routeKey}>
      <PageActiveContext.Provider value={active}>{page}</PageActiveContext.Provider>
    </div>
  );
});

const ShellBreadcrumb = memo(function ShellBreadcrumb({ routeKey }: { routeKey: string }) {
  const crumbs = breadcrumbsFor(routeKey);
  return (
    <div className="shell-breadcrumb">
      <Breadcrumb
        items={crumbs.map((c, i) => ({
          title: c.path && i < crumbs.length - 1 ? <Link to={c.path}>{c.title}</Link> : c.title,
        }))}
      />
    </div>
  );
});

function ShellLayout({ session, routeKey }: { session: Session; routeKey: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const settings = useSettings();
  const collapsed = settings.menuCollapsed;
  const tabs = useTabs(tabsStore);
  const status = statusOf(routeKey, session);
  const def = ROUTE_BY_KEY[routeKey];

  // the search string each tab was last shown with, so switching back returns to the same URL
  const searches = useRef(new Map<string, string>());
  if (status === 'ok') searches.current.set(routeKey, location.search);

  // keep-alive: pages visited in this load stay mounted (hidden when inactive) until their tab closes
  const visited = useRef(new Set<string>());
  // a page opened by URL (reload, link, back): its first list request starts with its chunk
  if (status === 'ok' && !visited.current.has(routeKey)) prefetchRoute(routeKey, session);
  if (status === 'ok') visited.current.add(routeKey);
  const [nonces, setNonces] = useState<Record<string, number>>({});

  useEffect(() => {
    if (status === 'ok') tabsStore.open(routeKey);
  }, [routeKey, status]);

  // refresh the session info (routes and operations may have changed since login)
  useEffect(() => {
    authApi.sessionInfo().then(updateSessionInfo).catch(() => undefined);
  }, []);

  useEffect(() => {
    document.title = def ? `${def.title} - ${editionTitle(session)}` : editionTitle(session);
  }, [def, session]);

  const go = (key: string) => navigate(`/${key}${searches.current.get(key) ?? ''}`);
  // the tab opens at the click, not when the route commits: a navigation to a page whose chunk is
  // still loading can be superseded by the next click, and its tab must not be lost
  const openFromMenu = (key: string) => {
    if (routeAllowed(key, session)) tabsStore.open(key);
    prefetchFromMenu(key);
    go(key);
  };
  // a page still mounted in its tab asks nothing when shown again
  const prefetchFromMenu = (key: string) => {
    if (!visited.current.has(key)) prefetchRoute(key, session);
  };
  const allowedTabs = useMemo(() => tabs.keys.filter((k) => routeAllowed(k, session)), [tabs.keys, session]);
  const rendered = allowedTabs.filter((k) => visited.current.has(k));
  if (status === 'ok' && !rendered.includes(routeKey)) rendered.push(routeKey);

  const closeTab = (key: string) => {
    const wasActive = key === routeKey;
    const next = tabsStore.close(key);
    visited.current.delete(key);
    if (wasActive) go(next);
  };
  const closeOthers = () => {
    for (const k of tabs.keys) if (k !== routeKey) visited.current.delete(k);
    const next = tabsStore.closeOthers(status === 'ok' ? routeKey : 'home');
    if (next !== routeKey) go(next);
  };
  const closeAll = () => {
    for (const k of tabs.keys) if (k !== 'home') visited.current.delete(k);
    tabsStore.closeAll();
    go('home');
  };
  const refresh = () => {
    if (status !== 'ok') return;
    if (!refreshPage(routeKey)) setNonces((n) => ({ ...n, [routeKey]: (n[routeKey] ?? 0) + 1 }));
  };
  const toggleMenu = () => updateSettings({ menuCollapsed: !collapsed });

  // the menu, header and tabs get handlers that stay the same across renders (they call this render's
  // functions), so that a navigation re-renders only what it changes
  const live = useRef({ openFromMenu, prefetchFromMenu, go, closeTab, closeOthers, closeAll, refresh, toggleMenu });
  live.current = { openFromMenu, prefetchFromMenu, go, closeTab, closeOthers, closeAll, refresh, toggleMenu };
  const handlers = useMemo(
    () => ({
      openFromMenu: (key: string) => live.current.openFromMenu(key),
      prefetchFromMenu: (key: string) => live.current.prefetchFromMenu(key),
      go: (key: string) => live.current.go(key),
      closeTab: (key: string) => live.current.closeTab(key),
      closeOthers: () => live.current.closeOthers(),
      closeAll: () => live.current.closeAll(),
      refresh: () => live.current.refresh(),
      toggleMenu: () => live.current.toggleMenu(),
    }),
    [],
  );

  const width = collapsed ? MENU_COLLAPSED_WIDTH : MENU_WIDTH;

  return (
    <Layout className="shell" style={{ minHeight: '100vh' }}>
      <Layout.Sider
        className="shell-sider"
        width={MENU_WIDTH}
        collapsedWidth={MENU_COLLAPSED_WIDTH}
        collapsed={collapsed}
        trigger={null}
        collapsible
        style={{ position: 'fixed', insetInlineStart: 0, top: 0, bottom: 0, overflow: 'auto' }}
      >
        <div className="shell-logo" title={editionTitle(session)} data-testid="shell-logo">{editionLogo(session, collapsed)}</div>
        <SideMenu session={session} activeKey={routeKey} collapsed={collapsed} onOpen={handlers.openFromMenu} onPrefetch={handlers.prefetchFromMenu} />
        {!collapsed && <div className="shell-version">{PRODUCT_VERSION}</div>}
      </Layout.Sider>
      <Layout style={{ marginInlineStart: width, transition: 'margin 0.2s' }}>
        <Layout.Header className="shell-header-wrap">
          <HeaderBar session={session} collapsed={collapsed} onToggle={handlers.toggleMenu} />
        </Layout.Header>
        <TabsBar
          keys={allowedTabs}
          active={routeKey}
          onSelect={handlers.go}
          onClose={handlers.closeTab}
          onCloseOthers={handlers.closeOthers}
          onCloseAll={handlers.closeAll}
          onRefresh={handlers.refresh}
        />
        <ShellBreadcrumb routeKey={routeKey} />
        <Layout.Content className="shell-content">
          {status === 'ok' && def?.areaTree && (
            <Suspense fallback={<aside className="area-tree" />}>
              <AreaTreePanel routeKey={routeKey} />
            </Suspense>
          )}
          <div className="shell-pages">
            {status !== 'ok' && <ErrorResult status={status} />}
            {rendered.map((k) => (
              <KeptPage key={`${k}:${nonces[k] ?? 0}`} routeKey={k} active={status === 'ok' && k === routeKey} />
            ))}
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
