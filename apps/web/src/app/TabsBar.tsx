import { memo } from 'react';
import { Button, Dropdown, Tabs } from 'antd';
import { DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { HOME_KEY } from './tabs.ts';

export interface TabsBarProps {
  keys: string[];
  active: string;
  onSelect(key: string): void;
  onClose(key: string): void;
  onCloseOthers(): void;
  onCloseAll(): void;
  onRefresh(): void;
}

/** Open-page tabs (SPEC §2): close current / others / all, home pinned, per-page refresh. */
export const TabsBar = memo(function TabsBar(props: TabsBarProps) {
  const { keys, active, onSelect, onClose, onCloseOthers, onCloseAll, onRefresh } = props;
  const activeInTabs = keys.includes(active);
  return (
    <div className="shell-tabs">
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activeInTabs ? active : ''}
        onChange={onSelect}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') onClose(key);
        }}
        items={keys.map((k) => ({ key: k, label: ROUTE_BY_KEY[k]?.title ?? k, closable: k !== HOME_KEY }))}
        tabBarExtraContent={{
          right: (
            <div className="shell-tabs-actions">
              <Button size="small" type="text" icon={<ReloadOutlined />} aria-label="刷新当前页" onClick={onRefresh} />
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'refresh', label: '刷新当前' },
                    { key: 'current', label: '关闭当前', disabled: !activeInTabs || active === HOME_KEY },
                    { key: 'others', label: '关闭其他' },
                    { key: 'all', label: '关闭全部' },
                  ],
                  onClick: ({ key }) => {
                    if (key === 'refresh') onRefresh();
                    if (key === 'current') onClose(active);
                    if (key === 'others') onCloseOthers();
                    if (key === 'all') onCloseAll();
                  },
                }}
              >
                <Button size="small">页签操作 <DownOutlined /></Button>
              </Dropdown>
            </div>
          ),
        }}
      />
    </div>
  );
});
