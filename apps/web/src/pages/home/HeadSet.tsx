import { Button, Card, Form, Space, Switch, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { ROUTE_BY_KEY } from '@meter/contracts';
import { updateSettings, useSettings } from '../../app/settings.ts';
import { useSession } from '../../app/session.ts';
import { ValvePasswordCard, canSetValvePassword } from './ValvePasswordCard.tsx';
import { tabsStore } from '../../app/tabsInstance.ts';
import { toast } from '../../app/feedback.tsx';
import { CompanySettings } from './CompanySettings.tsx';

/** Settings a company keeps on pages of their own: linked here for whoever may open them. */
const ELSEWHERE: { key: string; what: string }[] = [
  { key: 'systemSend', what: '短信服务商与余额提醒短信' },
  { key: 'recordsPolice', what: '报警金额、断闸金额与不断闸时段' },
  { key: 'recordsFees', what: '收费方案与单价' },
  { key: 'chargeCode', what: '业务缴费的收费码' },
];

/** One 开/关 preference of this browser. */
function SettingSwitch({ label, extra, checked, onChange }: { label: string; extra?: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <Form.Item label={label} extra={extra}>
      <Switch aria-label={label} checked={checked} checkedChildren="开" unCheckedChildren="关" onChange={onChange} />
    </Form.Item>
  );
}

/** Saves a preference of this browser (then does what it needs at once) and says so. */
function saveSetting(patch: Parameters<typeof updateSettings>[0], then?: () => void) {
  updateSettings(patch);
  then?.();
  toast.success('设置已保存');
}

/**
 * 设置: preferences kept in this browser; the company's 系统配置 and 导出配置 (CompanySettings.tsx);
 * for a company admin also the company's valve-control password; links to the settings kept elsewhere.
 */
export default function HeadSet() {
  const s = useSettings();
  const session = useSession();
  const navigate = useNavigate();
  const links = ELSEWHERE.filter((l) => session?.routes.includes(l.key));
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title="系统设置" extra={<Typography.Text type="secondary">仅对本浏览器生效</Typography.Text>}>
        <Form layout="horizontal" labelCol={{ flex: '160px' }} style={{ maxWidth: 640 }}>
          <SettingSwitch
            label="保存已打开页签"
            extra="开启后，刷新浏览器会恢复已打开的页签"
            checked={s.persistTabs}
            onChange={(v) => saveSetting({ persistTabs: v }, () => tabsStore.sync() /* write (or drop) the current tabs at once */)}
          />
          <SettingSwitch
            label="提示框自动关闭"
            extra="操作结果提示框在 3 秒倒计时后自动关闭"
            checked={s.noticeAutoClose}
            onChange={(v) => saveSetting({ noticeAutoClose: v })}
          />
          <SettingSwitch label="收起侧边菜单" checked={s.menuCollapsed} onChange={(v) => updateSettings({ menuCollapsed: v })} />
        </Form>
      </Card>
      <CompanySettings />
      {canSetValvePassword(session) && <ValvePasswordCard />}
      {links.length > 0 && (
        <Card title="其他设置">
          <Space direction="vertical">
            {links.map((l) => (
              <Space key={l.key}>
                <Button type="link" style={{ padding: 0 }} onClick={() => navigate(`/${l.key}`)}>{ROUTE_BY_KEY[l.key]?.title ?? l.key}</Button>
                <Typography.Text type="secondary">{l.what}</Typography.Text>
              </Space>
            ))}
          </Space>
        </Card>
      )}
    </Space>
  );
}
