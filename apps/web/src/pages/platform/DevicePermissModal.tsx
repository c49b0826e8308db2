// 设备权限 (CompanyDevicePermiss): which collector, electric and water meter types a company may use.
// The lists apply only while 设备类型校验 is on (SPEC §5); off, every type is allowed.
import { useCallback } from 'react';
import { Alert, Checkbox, Divider, Space, Switch, Typography } from 'antd';
import { ALL_COLLECTOR_PLANS, ALL_ELECTRIC_PLANS, ALL_WATER_PLANS, DEVICE_PLAN_OPTIONS, type PlanGroup } from '@meter/contracts';
import { companyAdminApi, type DevicePermiss } from '../../api/company.ts';
import { toast } from '../../app/feedback.tsx';
import { groupState, normalisePlans, toggleGroup } from './devicePermiss.ts';
import SettingsModal, { useCompanySettings } from './SettingsModal.tsx';
import { useBusyRun } from '../../components/busyRun.ts';

interface Props {
  company: { id: number; name: string } | null;
  onClose(saved: boolean): void;
}

function GroupChecklist({ groups, value, onChange }: { groups: PlanGroup[]; value: number[]; onChange(v: number[]): void }) {
  return (
    <div>
      {groups.map((g) => {
        const values = g.options.map((o) => o.value);
        const state = groupState(value, values);
        return (
          <div key={g.kind} style={{ display: 'flex', alignItems: 'flex-start', gap: 12, marginBottom: 6 }}>
            <Checkbox
              style={{ width: 96, flex: 'none' }}
              checked={state === 'all'}
              indeterminate={state === 'some'}
              onChange={(e) => onChange(toggleGroup(value, values, e.target.checked))}
            >
              <Typography.Text strong>{g.label}</Typography.Text>
            </Checkbox>
            <Space wrap size={[4, 4]}>
              {g.options.map((o) => (
                <Checkbox
                  key={o.value}
                  checked={value.includes(o.value)}
                      onChange={(e) => onChange(toggleGroup(value, [o.value], e.target.checked))}
                >
                  {o.value}
                </Checkbox>
              ))}
            </Space>
          </div>
        );
      })}
    </div>
  );
}

export default function DevicePermissModal({ company, onClose }: Props) {
  const failed = useCallback(() => onClose(false), [onClose]);
  const [data, setData] = useCompanySettings<DevicePermiss>(company, companyAdminApi.devicePermiss, failed);
  const { busy: saving, run } = useBusyRun();

  const set = (patch: Partial<DevicePermiss>) => setData((d) => (d ? { ...d, ...patch } : d));

  const save = async () => {
    if (!data || !company) return;
    await run(async () => {
      await companyAdminApi.saveDevicePermiss({
        companyId: company.id,
        deviceCheck: data.deviceCheck,
        collectorPlans: normalisePlans(data.collectorPlans, ALL_COLLECTOR_PLANS),
        electricPlans: normalisePlans(data.electricPlans, ALL_ELECTRIC_PLANS),
        waterPlans: normalisePlans(data.waterPlans, ALL_WATER_PLANS),
      });
      toast.success('保存成功');
      onClose(true);
    });
  };

  const off = !data?.deviceCheck;
  return (
    <SettingsModal title={company ? `设备权限 — ${company.name}` : '设备权限'} open={!!company} ready={!!data} saving={saving} onOk={() => void save()} onCancel={() => onClose(false)}>
      {data && (
        <>
          <Space style={{ marginBottom: 12 }}>
            <span>设备类型校验</span>
            <Switch checked={data.deviceCheck} checkedChildren="开启" unCheckedChildren="关闭" onChange={(v) => set({ deviceCheck: v })} />
          </Space>
          {off && <Alert type="info" showIcon style={{ marginBottom: 12 }} message="未开启校验：该单位可以使用全部采集器、电表和水表类型，下面的勾选在开启后生效。" />}
          <Divider orientation="left" plain style={{ margin: '8px 0' }}>
            采集器类型
          </Divider>
          <Space wrap>
            {DEVICE_PLAN_OPTIONS.collector.map((o) => (
              <Checkbox
                key={o.value}
                checked={data.collectorPlans.includes(o.value)}
                onChange={(e) => set({ collectorPlans: toggleGroup(data.collectorPlans, [o.value], e.target.checked) })}
              >
                {o.label}（{o.value}）
              </Checkbox>
            ))}
          </Space>
          <Divider orientation="left" plain style={{ margin: '12px 0 8px' }}>
            电表类型
          </Divider>
          <GroupChecklist groups={DEVICE_PLAN_OPTIONS.electric} value={data.electricPlans} onChange={(v) => set({ electricPlans: v })} />
          <Divider orientation="left" plain style={{ margin: '12px 0 8px' }}>
            水表类型
          </Divider>
          <GroupChecklist groups={DEVICE_PLAN_OPTIONS.water} value={data.waterPlans} onChange={(v) => set({ waterPlans: v })} />
        </>
      )}
    </SettingsModal>
  );
}
