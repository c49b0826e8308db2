// Route prefetch: a page's chunk and its first list request start together, on a short hover over its
// menu item, on the click and on route match, so the table's rows no longer wait for chunk → mount →
// request in turn. Off when localStorage meter.prefetch = off (bench/web-nav.ts measures with and without).
import { routeAllowed } from '@meter/contracts';
import { prefetch } from '../api/request.ts';
import { PAGE_LOADERS, firstListQuery } from '../pages/loaders.ts';
import { preloadPage } from '../pages/index.ts';
import { local } from './storage.ts';
import type { Session } from './session.ts';

export const PREFETCH_FLAG = 'meter.prefetch';
/** how long the pointer rests on a menu item before its page is fetched (passing over fetches nothing) */
export const HOVER_DWELL_MS = 80;

export function prefetchEnabled(): boolean {
  return local.get(PREFETCH_FLAG) !== 'off';
}

/** Start a page's chunk and first list request (nothing for a route the user may not open). */
export function prefetchRoute(routeKey: string, session: Session): void {
  if (!prefetchEnabled() || !routeAllowed(routeKey, session)) return;
  preloadPage(routeKey);
  const loader = PAGE_LOADERS[routeKey];
  if (loader) prefetch(() => loader.list(firstListQuery(routeKey, loader)));
}
