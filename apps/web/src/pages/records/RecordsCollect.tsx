// 采集器档案 (/recordsCollect): collectors beside the area tree — search by name, IMEI, plan and
// online state; create / edit / delete with the operation keys device.collectorAdd/Edit/Delete.
// Online and last contact are the device gateway's: shown, never edited. 注册密钥 (device.collectorEdit)
// shows or regenerates the secret the collector registers with.
import { useMemo, useState } from 'react';
import { COLLECTOR_PLANS, collectorResource, type CollectorRow } from '@meter/contracts';
import type { CrudPageProps } from '../../components/CrudPage.tsx';
import { E } from '../../api/endpoints.gen.ts';
import { useCan } from '../../app/session.ts';
import { ArchivePage } from './ArchivePage.tsx';
import { CollectorSecretModal } from './CollectorSecret.tsx';
import { AreaPicker, ONLINE_ENUM, OnlineCell, useAllowedPlans, useCompany } from './deviceFields.tsx';

type Row = CollectorRow & Record<string, unknown>;

const ORDER = ['name', 'imei', 'plan', 'areaName', 'meterCount', 'online', 'lastSeenAt', 'simNo', 'installAddress', 'areaId', 'memo', 'createdAt'];

export function collectorBody(v: Record<string, unknown>): Record<string, unknown> {
  return {
    name: String(v.name ?? '').trim(),
    imei: String(v.imei ?? '').trim(),
    plan: v.plan,
    areaId: v.areaId,
    simNo: String(v.simNo ?? '').trim(),
    installAddress: String(v.installAddress ?? '').trim(),
    memo: String(v.memo ?? '').trim(),
  };
}

export default function RecordsCollect() {
  const company = useCompany();
  const plans = useAllowedPlans();
  const canEdit = useCan('device.collectorEdit');
  const [secretOf, setSecretOf] = useState<Row | null>(null);

  const overrides = useMemo<CrudPageProps<Row>['overrides']>(
    () => ({
      imei: { copyable: true },
      plan: {
        valueEnum: Object.fromEntries(plans.collector.map((o) => [String(o.value), { text: o.label }])),
        render: (_d, r) => COLLECTOR_PLANS[r.plan] ?? String(r.plan),
      },
      areaId: {
        hideInTable: true,
        valueType: 'treeSelect',
        request: undefined,
        fieldProps: undefined,
        renderFormItem: () => <AreaPicker rooms={false} />,
      },
      simNo: { hideInTable: true },
      online: {
        valueType: 'select',
        valueEnum: ONLINE_ENUM,
        render: (_d, r) => <OnlineCell online={r.online} />,
      },
      areaName: { render: (_d, r) => r.areaPath ?? r.areaName ?? '-' },
      meterCount: { width: 80 },
      memo: { hideInTable: true },
      createdAt: { hideInTable: true },
    }),
    [plans],
  );

  return (
    <>
      <ArchivePage<Row>
        importKind="collector"
        resource={collectorResource}
        api={E.collector}
        overrides={overrides}
        order={ORDER}
        loadDetail
        fromForm={collectorBody}
        createDefaults={{ plan: plans.collector[0] ? String(plans.collector[0].value) : undefined }}
        rowActions={canEdit ? (r) => [<a key="secret" onClick={() => setSecretOf(r)}>注册密钥</a>] : undefined}
      />
      {secretOf && <CollectorSecretModal collector={secretOf} company={company} onClose={() => setSecretOf(null)} />}
    </>
  );
}
