import { Card, Form, Space, Switch } from 'antd';
import { updateSettings, useSettings } from '../../app/settings.ts';
import { useSession } from '../../app/session.ts';
import { ValvePasswordCard, canSetValvePassword } from './ValvePasswordCard.tsx';
import { tabsStore } from '../../app/tabsInstance.ts';
import { toast } from '../../app/feedback.tsx';

/** 设置: preferences kept in this browser; for a company admin also the company's valve-control password. */
export default function HeadSet() {
  const s = useSettings();
  const session = useSession();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title="系统设置">
        <Form layout="horizontal" labelCol={{ flex: '160px' }} style={{ maxWidth: 640 }}>
          <Form.Item label="保存已打开页签" extra="开启后，刷新浏览器会恢复已打开的页签">
            <Switch
              aria-label="保存已打开页签"
              checked={s.persistTabs}
              checkedChildren="开"
              unCheckedChildren="关"
              onChange={(v) => {
                updateSettings({ persistTabs: v });
                tabsStore.sync(); // write (or drop) the current tabs at once
                toast.success('设置已保存');
              }}
            />
          </Form.Item>
          <Form.Item label="提示框自动关闭" extra="操作结果提示框在 3 秒倒计时后自动关闭">
            <Switch
              aria-label="提示框自动关闭"
              checked={s.noticeAutoClose}
              checkedChildren="开"
              unCheckedChildren="关"
              onChange={(v) => {
                updateSettings({ noticeAutoClose: v });
                toast.success('设置已保存');
              }}
            />
          </Form.Item>
          <Form.Item label="收起侧边菜单">
            <Switch
              aria-label="收起侧边菜单"
              checked={s.menuCollapsed}
              checkedChildren="开"
              unCheckedChildren="关"
              onChange={(v) => updateSettings({ menuCollapsed: v })}
            />
          </Form.Item>
        </Form>
      </Card>
      {canSetValvePassword(session) && <ValvePasswordCard />}
    </Space>
  );
}
