// The menu-permission editor of a role: every grantable route, grouped by MENU_GROUPS, with a
// select-all per group. Always-allowed routes (首页, 个人中心 …) need no grant and are not listed.
import { Checkbox, Space, Typography } from 'antd';
import { ALWAYS_ALLOWED_ROUTES, MENU_GROUPS, ROUTES, type RouteDef } from '@meter/contracts';

export interface RouteGroupOption {
  key: string;
  title: string;
  routes: RouteDef[];
}

/** Routes a user with this access level (and, when given, this route list) may grant, by group. */
export function grantableRouteGroups(user: { access: number; routes?: string[] }): RouteGroupOption[] {
  return MENU_GROUPS.map((g) => ({
    key: g.key,
    title: g.title,
    routes: ROUTES.filter(
      (r) =>
        r.group === g.key &&
        !r.hidden &&
        !ALWAYS_ALLOWED_ROUTES.includes(r.key) &&
        (r.access === undefined || r.access === user.access) &&
        (!user.routes || user.access === 0 || user.routes.includes(r.key)),
    ),
  })).filter((g) => g.routes.length > 0);
}

export function RouteChecklist(props: {
  groups: RouteGroupOption[];
  value?: string[];
  onChange?: (v: string[]) => void;
}) {
  const { groups, onChange } = props;
  const value = props.value ?? [];
  const set = new Set(value);
  const update = (keys: string[], on: boolean) => {
    const next = new Set(value);
    for (const k of keys) {
      if (on) next.add(k);
      else next.delete(k);
    }
    // keep registry order
    onChange?.(ROUTES.map((r) => r.key).filter((k) => next.has(k)));
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} className="route-checklist">
      {groups.map((g) => {
        const keys = g.routes.map((r) => r.key);
        const n = keys.filter((k) => set.has(k)).length;
        return (
          <div key={g.key} style={{ borderBottom: '1px dashed #f0f0f0', paddingBottom: 6 }}>
            <Checkbox
              checked={n === keys.length}
              indeterminate={n > 0 && n < keys.length}
              onChange={(e) => update(keys, e.target.checked)}
            >
              <Typography.Text strong>{g.title}</Typography.Text>
            </Checkbox>
            <div style={{ paddingLeft: 24, marginTop: 4 }}>
              <Checkbox.Group
                value={value.filter((k) => keys.includes(k))}
                options={g.routes.map((r) => ({ label: r.title, value: r.key }))}
                onChange={(checked) => {
                  const on = new Set(checked as string[]);
                  update(keys.filter((k) => on.has(k)), true);
                  update(keys.filter((k) => !on.has(k)), false);
                }}
              />
            </div>
          </div>
        );
      })}
    </Space>
  );
}
