// The side menu, derived from the shared route registry (SPEC §2, §6): every group of MENU_GROUPS with
// its non-hidden routes the user may open (access level and allowed routes via routeAllowed).
import { MENU_GROUPS, ROUTES, ROUTE_BY_KEY, routeAllowed, type MenuGroup, type RouteDef } from '@meter/contracts';

export interface MenuGroupView extends MenuGroup {
  routes: RouteDef[];
  /** a group whose only page has the group's own title (首页, 大屏可视化) shows as a single item */
  single: boolean;
}

export function buildMenu(user: { access: number; routes: string[] }): MenuGroupView[] {
  const out: MenuGroupView[] = [];
  for (const g of MENU_GROUPS) {
    const routes = ROUTES.filter((r) => r.group === g.key && !r.hidden && routeAllowed(r.key, user));
    if (routes.length === 0) continue;
    out.push({ ...g, routes, single: routes.length === 1 && routes[0].title === g.title });
  }
  return out;
}

export interface Crumb {
  title: string;
  path?: string;
}

/** 首页 / group / page (SPEC §2); hidden pages hang directly under 首页. */
export function breadcrumbsFor(key: string): Crumb[] {
  const def = ROUTE_BY_KEY[key];
  const crumbs: Crumb[] = [{ title: '首页', path: '/home' }];
  if (!def || key === 'home') return crumbs;
  const group = MENU_GROUPS.find((g) => g.key === def.group);
  if (group && group.key !== 'home' && group.title !== def.title) crumbs.push({ title: group.title });
  crumbs.push({ title: def.title, path: `/${key}` });
  return crumbs;
}

/** The route key of a pathname: "/recordsRoom" → "recordsRoom", "/" → "". */
export function routeKeyOf(pathname: string): string {
  return pathname.replace(/^\/+/, '').split('/')[0] ?? '';
}
