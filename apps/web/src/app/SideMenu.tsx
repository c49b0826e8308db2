import { useMemo, useState, useEffect } from 'react';
import { Menu, type MenuProps } from 'antd';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { buildMenu } from './menu.ts';
import { menuIcon } from './icons.tsx';
import type { Session } from './session.ts';

type Item = Required<MenuProps>['items'][number];

export function SideMenu(props: { session: Session; activeKey: string; collapsed: boolean; onOpen(key: string): void }) {
  const { session, activeKey, collapsed, onOpen } = props;
  const groups = useMemo(() => buildMenu(session), [session]);
  const items: Item[] = useMemo(
    () =>
      groups.map((g) =>
        g.single
          ? { key: g.routes[0].key, icon: menuIcon(g.icon), label: g.title }
          : {
              key: `group:${g.key}`,
              icon: menuIcon(g.icon),
              label: g.title,
              children: g.routes.map((r) => ({ key: r.key, label: r.title })),
            },
      ),
    [groups],
  );
  const groupOfActive = ROUTE_BY_KEY[activeKey]?.group;
  const [openKeys, setOpenKeys] = useState<string[]>(groupOfActive ? [`group:${groupOfActive}`] : []);
  useEffect(() => {
    if (groupOfActive && !collapsed) {
      setOpenKeys((keys) => (keys.includes(`group:${groupOfActive}`) ? keys : [...keys, `group:${groupOfActive}`]));
    }
  }, [groupOfActive, collapsed]);

  return (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[activeKey]}
      {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
      onClick={({ key }) => onOpen(String(key))}
    />
  );
}
