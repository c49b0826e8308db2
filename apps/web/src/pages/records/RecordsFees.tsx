// 收费方案 (/recordsFees): charging schemes with their price versions (统一单价 / 阶梯 / 尖峰平谷 分时,
// fees, effective dates), and the company's charge codes (收费码). Writes need finance.chargingScheme.
import { Form, Space, Tabs, Tag, Tooltip } from 'antd';
import type { Rule, RuleObject } from 'antd/es/form';
import { chargeCodeResource, chargingSchemeResource, type ChargingScheme, type ChargingSchemeRow } from '@meter/contracts';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { yuanColumn } from '../../components/resourceColumns.tsx';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import type { ChargeCodeRow } from '../../api/scheme.ts';
import { E } from '../../api/endpoints.gen.ts';
import { VersionsEditor, draftOf, priceSummary, versionBody, versionsProblem, type VersionDraft } from './schemeVersions.tsx';

/** A list row; the opened (loaded) record also carries its versions. */
type SchemeRow = ChargingSchemeRow & Partial<Pick<ChargingScheme, 'versions'>> & Record<string, unknown>;

const hasTiered = (versions: unknown) => Array.isArray(versions) && (versions as VersionDraft[]).some((v) => v.mode === 'tiered');

/** The form value of the charging-scheme modal → the POST/PUT body. */
export function schemeBody(v: Record<string, unknown>): Record<string, unknown> {
  const versions = ((v.versions as VersionDraft[] | undefined) ?? []).map(versionBody);
  const tiered = versions.some((x) => x.mode === 'tiered');
  const cmt = v.chargingMonthType;
  return {
    name: String(v.name ?? '').trim(),
    kind: v.kind,
    chargingMonthType: tiered && cmt !== undefined && cmt !== null && cmt !== '' ? cmt : null,
    status: v.status ?? 1,
    memo: String(v.memo ?? '').trim(),
    versions,
  };
}

/** The versions editor bound to the form: the unit follows the scheme's kind (kWh / m³). */
function VersionsField(props: { value?: VersionDraft[]; onChange?: (v: VersionDraft[]) => void }) {
  const form = Form.useFormInstance();
  const kind = Form.useWatch('kind', form);
  return <VersionsEditor {...props} kind={Number(kind)} />;
}

const SCHEME_OVERRIDES: CrudPageProps<SchemeRow>['overrides'] = {
  name: { width: 180 },
  chargingMonthType: {
    render: (_d, r) => (r.chargingMonthType ? (r.chargingMonthType === 1 ? '月累计' : '年累计') : '-'),
    formFieldProps: { allowClear: true, placeholder: '阶梯计价时选择' },
    rules: [
      (({ getFieldValue }) => ({
        validator: (_r: RuleObject, value: unknown) =>
          hasTiered(getFieldValue('versions')) && (value === undefined || value === null || value === '')
            ? Promise.reject(new Error('阶梯计价须选择累计方式（月累计或年累计）'))
            : Promise.resolve(),
      })) as Rule,
    ],
  },
  status: { initialValue: '1', render: (_d, r) => <Tag color={r.status === 1 ? 'green' : 'default'}>{r.status === 1 ? '在用' : '停用'}</Tag> },
  memo: { hideInTable: true, colProps: { span: 24 } },
  createdAt: { hideInTable: true },
  updatedAt: { hideInTable: true },
};

const SCHEME_EXTRA: ResourceColumn<SchemeRow>[] = [
  {
    title: '当前价格', dataIndex: 'current', key: 'current', hideInForm: true, ellipsis: true,
    render: (_d, r) => {
      const unit = r.kind === 2 ? '/m³' : '/kWh';
      return r.current ? <Tooltip title={priceSummary(r.current, unit)}>{priceSummary(r.current, unit)}</Tooltip> : <Tag>尚未生效</Tag>;
    },
  },
  { title: '版本数', dataIndex: 'versionCount', key: 'versionCount', hideInForm: true, width: 80 },
  {
    title: '下次调价', dataIndex: 'nextChangeAt', key: 'nextChangeAt', hideInForm: true,
    render: (_d, r) => (r.nextChangeAt ? <Tag color="blue">{r.nextChangeAt}</Tag> : '-'),
  },
  {
    // the form field's name is its key (pro-form: name = key ?? dataIndex)
    title: '价格版本', dataIndex: 'versions', key: 'versions', formOnly: true, colProps: { span: 24 },
    tooltip: '调价时新增一个版本并设置生效时间；抄表结算按读数时间所在的版本计价',
    renderFormItem: () => <VersionsField />,
    rules: [{ validator: (_r: RuleObject, value: VersionDraft[] | undefined) => {
      const p = versionsProblem(value);
      return p ? Promise.reject(new Error(p)) : Promise.resolve();
    } }],
  },
];

const SCHEME_ORDER = ['name', 'kind', 'current', 'chargingMonthType', 'versionCount', 'nextChangeAt', 'status', 'memo', 'createdAt', 'updatedAt', 'versions'];

/** The opened scheme (with its versions) as the modal's values. */
const schemeForm = (d: SchemeRow) => ({
  name: d.name,
  kind: String(d.kind),
  chargingMonthType: d.chargingMonthType == null ? undefined : String(d.chargingMonthType),
  status: String(d.status),
  memo: d.memo,
  versions: (d.versions ?? []).map(draftOf),
});

function ChargingSchemes() {
  return (
    <CrudPage<SchemeRow>
      resource={chargingSchemeResource}
      api={E.scheme}
      overrides={SCHEME_OVERRIDES}
      extraColumns={SCHEME_EXTRA}
      order={SCHEME_ORDER}
      formColumns={2}
      modalWidth={980}
      loadDetail
      fromForm={schemeBody}
      createDefaults={{ kind: '1', versions: [] }}
      toForm={schemeForm}
    />
  );
}

/** The form value of the charge-code modal → the body (amount stays a 元 string). */
export function chargeCodeBody(v: Record<string, unknown>): Record<string, unknown> {
  return {
    code: String(v.code ?? '').trim(),
    name: String(v.name ?? '').trim(),
    schemeType: v.schemeType,
    amount: v.amount === undefined || v.amount === null ? '' : String(v.amount),
    memo: String(v.memo ?? '').trim(),
  };
}

const CODE_OVERRIDES: CrudPageProps<ChargeCodeRow>['overrides'] = {
  code: { copyable: true },
  amount: yuanColumn('amount'),
  memo: { colProps: { span: 24 } },
};

function ChargeCodes() {
  return (
    <CrudPage<ChargeCodeRow>
      resource={chargeCodeResource}
      api={E.chargeCode}
      overrides={CODE_OVERRIDES}
      formColumns={2}
      fromForm={chargeCodeBody}
      createDefaults={{ schemeType: '3' }}
    />
  );
}

export default function RecordsFees() {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Tabs
        items={[
          { key: 'schemes', label: '收费方案', children: <ChargingSchemes /> },
          { key: 'codes', label: '收费码', children: <ChargeCodes /> },
        ]}
      />
    </Space>
  );
}
