// Per-page context: which route a page renders for and whether its tab is the active one (pages stay
// mounted while hidden), the per-page refresh hook, and the area filter of SPEC §2/§7.
import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { KEYS, session as sessionStore } from './storage.ts';
import { createStore, useStore } from './store.ts';
import { onSessionCleared } from './session.ts';

export interface PageContextValue {
  routeKey: string;
  active: boolean;
}

export const PageContext = createContext<PageContextValue>({ routeKey: 'home', active: true });

/**
 * Whether the page's tab is the active one, as the shell gives it (it overrides PageContext's `active`):
 * apart from PageContext so that switching tabs re-renders only the components that read `active`
 * (usePage), not every table that only needs its route key (usePageKey).
 */
export const PageActiveContext = createContext<boolean | undefined>(undefined);

export function usePage(): PageContextValue {
  const page = useContext(PageContext);
  const active = useContext(PageActiveContext);
  return active === undefined || active === page.active ? page : { routeKey: page.routeKey, active };
}

/** The route a page renders for (does not re-render the caller when its tab is shown or hidden). */
export function usePageKey(): string {
  return useContext(PageContext).routeKey;
}

// ---- per-page refresh -------------------------------------------------------------------------

const refreshHandlers = new Map<string, Set<() => void>>();

/** Register what "refresh this page" does (e.g. reload the table). Without one the page is remounted. */
export function usePageRefresh(handler: () => void): void {
  const routeKey = usePageKey();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const fn = () => ref.current();
    let set = refreshHandlers.get(routeKey);
    if (!set) refreshHandlers.set(routeKey, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
    };
  }, [routeKey]);
}

/** Run the page's refresh handlers; false when it has none (the caller remounts the page). */
export function refreshPage(routeKey: string): boolean {
  const set = refreshHandlers.get(routeKey);
  if (!set || set.size === 0) return false;
  for (const fn of set) fn();
  return true;
}

// ---- area filter ------------------------------------------------------------------------------

export interface AreaSelection {
  searchArea: string;
  searchClassify: string;
  areaName: string;
}

export interface AreaFilter extends AreaSelection {
  searchCompanyID: string;
}

export const EMPTY_SELECTION: AreaSelection = { searchArea: '', searchClassify: '', areaName: '' };

/** The area picked in the tree, per page: each page keeps its own filter while tabs switch. */
export const areaSelections = createStore<Record<string, AreaSelection>>({});

/** The company a platform admin picked in the header (searchCompanyID), '' for all. */
export const companyPick = createStore<string>(sessionStore.get(KEYS.companyPick) ?? '');

export function setCompanyPick(id: string): void {
  if (id) sessionStore.set(KEYS.companyPick, id);
  else sessionStore.remove(KEYS.companyPick);
  companyPick.set(id);
  // a different company has a different area tree: drop the area picks
  areaSelections.set({});
}

export function setAreaSelection(routeKey: string, sel: AreaSelection): void {
  areaSelections.set((m) => ({ ...m, [routeKey]: sel }));
}

onSessionCleared(() => {
  areaSelections.set({});
  companyPick.set('');
});

/** Rows on a list's first page unless the list says otherwise. */
export const DEFAULT_PAGE_SIZE = 10;

/** The filter a list adds to its query: the area filter on routes with the area tree (unless the list
 * says otherwise), else only the company pick. ResourceTable and the route prefetch (pages/loaders.ts)
 * both build their first request from it, so the prefetched URL is the one the table asks. */
export function listFilter(routeKey: string, area: AreaFilter, areaFilter?: boolean): Record<string, string> {
  const withArea = areaFilter ?? ROUTE_BY_KEY[routeKey]?.areaTree === true;
  return withArea ? { ...area } : { searchCompanyID: area.searchCompanyID };
}

/** The area filter of a route now, outside React (what useAreaFilter gives the page). */
export function areaFilterOf(routeKey: string): AreaFilter {
  const withTree = ROUTE_BY_KEY[routeKey]?.areaTree === true;
  const sel = (withTree && areaSelections.get()[routeKey]) || EMPTY_SELECTION;
  return { ...sel, searchCompanyID: companyPick.get() };
}

/** The filter a page adds to its GET queries: {searchArea, searchClassify, searchCompanyID, areaName}. */
export function useAreaFilter(): AreaFilter {
  const routeKey = usePageKey();
  const selections = useStore(areaSelections);
  const company = useStore(companyPick);
  const withTree = ROUTE_BY_KEY[routeKey]?.areaTree === true;
  const sel = (withTree && selections[routeKey]) || EMPTY_SELECTION;
  return useMemo(() => ({ ...sel, searchCompanyID: company }), [sel, company]);
}
