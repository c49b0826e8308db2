import { memo, useMemo, useState, useEffect, useRef } from 'react';
import { Menu, type MenuProps } from 'antd';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { buildMenu } from './menu.ts';
import { menuIcon } from './icons.tsx';
import type { Session } from './session.ts';
import { HOVER_DWELL_MS } from './prefetch.ts';

type Item = Required<MenuProps>['items'][number];

export const SideMenu = memo(function SideMenu(props: {
  session: Session;
  activeKey: string;
  collapsed: boolean;
  onOpen(key: string): void;
  /** the pointer rests on a page's item: fetch its chunk and first list ahead of the click */
  onPrefetch?(key: string): void;
}) {
  const { session, activeKey, collapsed, onOpen } = props;
  const groups = useMemo(() => buildMenu(session), [session]);
  const prefetchRef = useRef(props.onPrefetch);
  prefetchRef.current = props.onPrefetch;
  const hover = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hover.current), []);
  const items: Item[] = useMemo(() => {
    const page = (key: string) => ({
      onMouseEnter: () => {
        clearTimeout(hover.current);
        hover.current = setTimeout(() => prefetchRef.current?.(key), HOVER_DWELL_MS);
      },
      onMouseLeave: () => clearTimeout(hover.current),
    });
    return groups.map((g) =>
      g.single
        ? { key: g.routes[0].key, icon: menuIcon(g.icon), label: g.title, ...page(g.routes[0].key) }
        : {
            key: `group:${g.key}`,
            icon: menuIcon(g.icon),
            label: g.title,
            children: g.routes.map((r) => ({ key: r.key, label: r.title, ...page(r.key) })),
          },
    );
  }, [groups]);
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
});
