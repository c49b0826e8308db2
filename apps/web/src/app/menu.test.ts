import { describe, expect, it } from 'vitest';
import { ALWAYS_ALLOWED_ROUTES, MENU_GROUPS, ROUTES } from '@meter/contracts';
import { breadcrumbsFor, buildMenu, routeKeyOf } from './menu.ts';

const keysOf = (m: ReturnType<typeof buildMenu>) => m.flatMap((g) => g.routes.map((r) => r.key));

describe('menu from the route registry', () => {
  it('a company user sees only allowed routes, never platform or hidden ones', () => {
    const menu = buildMenu({ access: 1, routes: ['energy', 'recordsRoom', 'administrator', 'headUser'] });
    expect(keysOf(menu)).toEqual(['home', 'energy', 'recordsRoom']);
    expect(menu.map((g) => g.key)).toEqual(['home', 'fee', 'records']);
    expect(menu[0].single).toBe(true);
  });

  it('access-level routes require the equal access level', () => {
    const all = ROUTES.map((r) => r.key);
    const company = keysOf(buildMenu({ access: 1, routes: all }));
    const platform = keysOf(buildMenu({ access: 0, routes: all }));
    expect(company).not.toContain('administrator');
    expect(platform).toContain('administrator');
    expect(platform).toContain('bankManagement');
  });

  it('with every route allowed, every non-hidden route appears once, in group order', () => {
    const all = ROUTES.map((r) => r.key);
    const menu = buildMenu({ access: 0, routes: all });
    const expected = ROUTES.filter((r) => !r.hidden).map((r) => r.key);
    expect(keysOf(menu).sort()).toEqual(expected.sort());
    const groupOrder = MENU_GROUPS.map((g) => g.key);
    const seen = menu.map((g) => groupOrder.indexOf(g.key));
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(keysOf(menu)).not.toContain('headUser');
  });

  it('an empty route list still shows home (always allowed)', () => {
    expect(ALWAYS_ALLOWED_ROUTES).toContain('home');
    expect(keysOf(buildMenu({ access: 1, routes: [] }))).toEqual(['home']);
  });

  it('breadcrumbs are 首页 / group / page; hidden pages hang under 首页', () => {
    expect(breadcrumbsFor('recordsRoom').map((c) => c.title)).toEqual(['首页', '档案管理', '房间档案']);
    expect(breadcrumbsFor('headUser').map((c) => c.title)).toEqual(['首页', '个人中心']);
    expect(breadcrumbsFor('home').map((c) => c.title)).toEqual(['首页']);
    expect(breadcrumbsFor('screen').map((c) => c.title)).toEqual(['首页', '大屏可视化']);
  });

  it('route key of a path', () => {
    expect(routeKeyOf('/recordsRoom')).toBe('recordsRoom');
    expect(routeKeyOf('/headQuestion/x')).toBe('headQuestion');
    expect(routeKeyOf('/')).toBe('');
  });
});
