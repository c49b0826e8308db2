// 表具档案 (/recordsTable): electricity and water meters beside the area tree — filters by kind,
// plan, address, room, collector and online state; create / edit / delete with the operation keys
// device.add/edit/delete; 关注 / 取消关注 per row and the 关注设备 list; platform admins also keep
// the device dictionaries here. Online, valve state and last contact are the device gateway's.
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Drawer, Popconfirm, Radio } from 'antd';
import { BookOutlined, StarOutlined } from '@ant-design/icons';
import {
  METER_KINDS, deviceLookupResource, focusResource, meterResource,
  type FocusRow, type LookupRow, type MeterRow,
} from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { columnsFromResource } from '../../components/resourceColumns.tsx';
import { focusApi } from '../../api/device.ts';
import { E } from '../../api/endpoints.gen.ts';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import { alarmSchemeApi, chargingSchemeApi } from '../../api/scheme.ts';
import { toast } from '../../app/feedback.tsx';
import { useSession } from '../../app/session.ts';
import {
  AreaPicker, ONLINE_ENUM, OnlineCell, PlanSelect, ValveCell, collectorOptions, planSearchEnum, useAllowedPlans, useCompany,
} from './deviceFields.tsx';
import { ArchivePage } from './ArchivePage.tsx';

type Row = MeterRow & Record<string, unknown>;
type FocusRowT = FocusRow & Record<string, unknown>;
type LookupRowT = LookupRow & Record<string, unknown>;

/** the declared fields the form has and the table hides */
const FORM_ONLY = [
  'imei', 'protocolId', 'baudId', 'gatewayId', 'portId', 'caliberId', 'typeId', 'initialReading', 'chargingSchemeId',
  'alarmSchemeId', 'installDate', 'reportInterval', 'memo', 'createdAt',
];
/** the table's columns, the form-only fields, then the form's status (plan and status are named twice: their form twins) */
const ORDER = [
  'address', 'name', 'kind', 'plan', 'plan', 'roomId', 'roomName', 'areaName', 'ownerName', 'collectorId', 'collectorName',
  'online', 'valveState', 'phaseId', 'brandId', 'multiplier', 'status', 'lastSeenAt', ...FORM_ONLY, 'status',
];

const STATUS_VIEW = {
  1: { text: '在用', status: 'Success' },
  0: { text: '停用', status: 'Default' },
  2: { text: '已销表', status: 'Error' },
} as const;

function dateText(v: unknown): string {
  if (v == null || v === '') return '';
  if (typeof v === 'object' && v && 'format' in v) return (v as { format(f: string): string }).format('YYYY-MM-DD');
  return String(v);
}

export function meterBody(v: Record<string, unknown>): Record<string, unknown> {
  const text = (k: string) => String(v[k] ?? '').trim();
  const keys = [
    'kind', 'plan', 'roomId', 'collectorId', 'protocolId', 'baudId', 'phaseId', 'gatewayId', 'portId', 'brandId', 'caliberId',
    'typeId', 'multiplier', 'initialReading', 'chargingSchemeId', 'alarmSchemeId', 'status',
  ];
  return {
    ...Object.fromEntries(keys.map((k) => [k, v[k] ?? null])),
    name: text('name'),
    address: text('address'),
    imei: text('imei'),
    memo: text('memo'),
    installDate: dateText(v.installDate),
    // 上报周期 (minutes; 0 = by the meter's channel): sent always, so an edit never resets it
    reportInterval: v.reportInterval == null || v.reportInterval === '' ? 0 : Number(v.reportInterval),
  };
}

/** Charging / alarm scheme options of the current company, for the meter's kind when known. */
/** the schemes a meter may use, as options (charging schemes name their meter kind) */
const schemeOptions = (rows: { id: number; name: string; kind?: number }[]) =>
  rows.map((r) => ({ label: r.kind ? `${r.name}（${METER_KINDS[r.kind] ?? ''}）` : r.name, value: r.id }));

export default function RecordsTable() {
  const company = useCompany();
  const plans = useAllowedPlans();
  const session = useSession();
  const [focusOpen, setFocusOpen] = useState(false);
  const [lookupOpen, setLookupOpen] = useState(false);

  const overrides = useMemo<CrudPageProps<Row>['overrides']>(() => ({
    ...Object.fromEntries(FORM_ONLY.map((k) => [k, { hideInTable: true }])),
    address: { copyable: true, fieldProps: { maxLength: 14 } },
    kind: { formFieldProps: { allowClear: false } },
    // the table and search column; the form has its own plan picker (below), which follows the kind
    plan: {
      valueType: 'select',
      valueEnum: planSearchEnum(plans),
      fieldProps: undefined,
      hideInForm: true,
      render: (_d, r) => r.planName,
    },
    roomId: {
      hideInTable: true,
      search: false,
      valueType: 'treeSelect',
      request: undefined,
      fieldProps: undefined,
      colProps: { span: 24 },
      renderFormItem: () => <AreaPicker rooms />,
    },
    roomName: { title: '房间' },
    areaName: { title: '区域', render: (_d, r) => r.areaPath ?? r.areaName ?? '-' },
    collectorId: {
      hideInTable: true,
      request: () => collectorOptions(company),
      params: { company },
    },
    collectorName: { title: '采集器' },
    online: { valueType: 'select', valueEnum: ONLINE_ENUM, render: (_d, r) => <OnlineCell online={r.online} /> },
    valveState: { render: (_d, r) => <ValveCell kind={r.kind} state={r.valveState} /> },
    phaseId: { render: (_d, r) => r.phaseName ?? '-' },
    brandId: { render: (_d, r) => r.brandName ?? '-' },
    chargingSchemeId: {
      hideInTable: true, request: async () => schemeOptions(await chargingSchemeApi.using(company)), params: { company },
    },
    alarmSchemeId: {
      hideInTable: true,
      request: async () => schemeOptions((await alarmSchemeApi.list({ index: 1, size: 1000, searchCompanyID: company })).data),
      params: { company },
    },
    // a filter, not preset: the list shows every status until one is picked
    status: { hideInForm: true, valueEnum: STATUS_VIEW, initialValue: undefined },
    lastSeenAt: { width: 160 },
  }), [plans, company]);

  // the form's plan picker and status: same keys as the table's columns (the form field's name is its
  // key); the two never meet, one is table-only, the other form-only (ORDER names each key twice)
  const formTwins = useMemo<ResourceColumn<Row>[]>(() => [
    {
      title: '表具方案', dataIndex: 'plan', key: 'plan', formOnly: true, required: true, valueType: 'select',
      renderFormItem: (_s, _c, form) => <PlanSelect form={form} plans={plans} />,
    },
    // 已销表 is set only by 销表: the form offers 在用 / 停用
    {
      title: '状态', dataIndex: 'status', key: 'status', formOnly: true,
      renderFormItem: () => <Radio.Group options={[{ label: '在用', value: 1 }, { label: '停用', value: 0 }]} />,
    },
  ], [plans]);

  const isPlatform = session?.access === 0;

  return (
    <>
      <ArchivePage<Row>
        importKind="meter"
        resource={meterResource}
        api={E.meter}
        overrides={overrides}
        extraColumns={formTwins}
        order={ORDER}
        modalWidth={820}
        loadDetail
        fromForm={meterBody}
        rowCan={(r, action) => action === 'remove' || r.status !== 2}
        createDefaults={{ kind: '1', status: 1, multiplier: 1, initialReading: 0, protocolId: 11, baudId: 22, phaseId: 1 }}
        toForm={(r) => ({ ...r, kind: String(r.kind) })}
        rowActions={(r, { reload }) => [
          r.focusId ? (
            <Popconfirm
              key="unfocus"
              title="确定取消关注该表具吗？"
              okText="确定"
              cancelText="取消"
              onConfirm={async () => {
                await focusApi.remove(r.focusId!, company);
                toast.success('已取消关注');
                reload();
              }}
            >
              <a>取消关注</a>
            </Popconfirm>
          ) : (
            <a
              key="focus"
              onClick={async () => {
                try {
                  await focusApi.create(r.id, '', company);
                  toast.success('已加入关注设备');
                  reload();
                } catch {
                  // the request wrapper showed why
                }
              }}
            >
              关注
            </a>
          ),
        ]}
        toolBar={() => [
          <Button key="focus" icon={<StarOutlined />} onClick={() => setFocusOpen(true)}>关注设备</Button>,
          isPlatform && <Button key="lookups" icon={<BookOutlined />} onClick={() => setLookupOpen(true)}>设备字典</Button>,
        ].filter(Boolean) as ReactNode[]}
      />
      <Drawer title="关注设备" width={960} open={focusOpen} onClose={() => setFocusOpen(false)} destroyOnHidden>
        <FocusTable company={company} />
      </Drawer>
      {isPlatform && (
        <CrudPage<LookupRowT>
          resource={deviceLookupResource}
          api={E.deviceLookup}
          drawer={{ title: '设备字典', width: 860, open: lookupOpen, onClose: () => setLookupOpen(false) }}
          entityName="字典项"
          overrides={LOOKUP_OVERRIDES}
          formColumns={2}
          fromForm={lookupBody}
        />
      )}
    </>
  );
}

/** 关注设备: the company's focused meters with why; edit the reason or unfocus. */
function FocusTable({ company }: { company: string | undefined }) {
  const columns = useMemo<ResourceColumn<FocusRowT>[]>(
    () =>
      columnsFromResource<FocusRowT>(focusResource, {
        meterId: { hideInTable: true, hideInForm: true },
        online: { render: (_d, r) => <OnlineCell online={r.online} /> },
        valveState: { render: (_d, r) => <ValveCell kind={r.kind} state={r.valveState} /> },
        kind: { render: (_d, r) => METER_KINDS[r.kind] },
      }, [{ title: '区域', dataIndex: 'areaPath', hideInForm: true }]),
    [],
  );
  return (
    <ResourceTable<FocusRowT>
      entityName="关注设备"
      columns={columns}
      formColumns={1}
      list={(q) => focusApi.list(q)}
      update={(r, v) => focusApi.update(r.id, r.meterId, String(v.memo ?? '').trim(), company)}
      remove={(r) => focusApi.remove(r.id, company)}
    />
  );
}

/** 设备字典 (platform admins): protocols, baud rates, phases, gateways, ports, brands, calibers, types. */
const LOOKUP_OVERRIDES: CrudPageProps<LookupRowT>['overrides'] = { createdAt: { hideInTable: true } };
const lookupBody = (v: Record<string, unknown>) => ({
  kind: v.kind, name: String(v.name ?? '').trim(), code: String(v.code ?? '').trim(), sort: v.sort ?? 0, memo: String(v.memo ?? '').trim(),
});
