// 区域权限 (AreaPermission): named sets of areas, bound to accounts in one step from the account
// pages. Opened from the area archive's toolbar.
import { useMemo } from 'react';
import { Space, Tag, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { areaPermissionResource } from '@meter/contracts';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { CrudPage, type CrudPageProps } from '../../components/CrudPage.tsx';
import { areaArchiveApi, type AreaPermissionRow, type TreeNodeV2 } from '../../api/area.ts';
import { E } from '../../api/endpoints.gen.ts';

type Row = AreaPermissionRow & Record<string, unknown>;

interface TreeOption {
  value: number;
  title: string;
  children?: TreeOption[];
}

const toOptions = (nodes: TreeNodeV2[]): TreeOption[] =>
  (nodes ?? []).map((n) => ({ value: n.id, title: n.name, children: n.children?.length ? toOptions(n.children) : undefined }));

/** Several areas picked from the tree; each picked area covers what lies below it. */
export function AreaMultiPicker({ value, onChange, company }: { value?: number[]; onChange?: (v: number[]) => void; company?: string }) {
  const { data, isFetching } = useQuery({ queryKey: ['areaParentTree', 'v2', company], queryFn: () => areaArchiveApi.treeV2(company) });
  const options = useMemo(() => toOptions(data ?? []), [data]);
  return (
    <TreeSelect
      aria-label="包含区域"
      multiple
      treeCheckable
      treeCheckStrictly
      showCheckedStrategy={TreeSelect.SHOW_ALL}
      value={(value ?? []).map((v) => ({ value: v, label: undefined }))}
      onChange={(vals) => onChange?.((vals as { value: number }[]).map((x) => Number(x.value)))}
      treeData={options}
      loading={isFetching}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      placeholder="请选择区域（选中的区域含其全部下级）"
      style={{ width: '100%' }}
    />
  );
}

const EXTRA: ResourceColumn<Row>[] = [
  {
    title: '包含区域',
    dataIndex: 'areaNames',
    key: 'areaNames',
    hideInForm: true,
    render: (_d, r) => (
      <Space size={[0, 4]} wrap>
        {r.areaNames.map((n) => (
          <Tag key={n}>{n}</Tag>
        ))}
      </Space>
    ),
  },
];
const ORDER = ['name', 'areaNames', 'areaIds', 'status', 'memo', 'createdAt'];

/** The form → the body: the picked areas, 在用 unless chosen otherwise. */
const body = (v: Record<string, unknown>) => ({
  name: String(v.name ?? '').trim(),
  areaIds: (v.areaIds as number[] | undefined) ?? [],
  status: v.status == null ? 1 : Number(v.status),
  memo: String(v.memo ?? '').trim(),
});

export default function AreaPermissionDrawer({ open, company, onClose }: { open: boolean; company?: string; onClose(): void }) {
  const overrides = useMemo<CrudPageProps<Row>['overrides']>(() => ({
    areaIds: {
      hideInTable: true,
      valueType: undefined,
      fieldProps: undefined,
      colProps: { span: 24 },
      renderFormItem: () => <AreaMultiPicker company={company} />,
    },
    // no default in the search form (it would hide the stopped sets); the create form gets 在用
    status: { initialValue: undefined, render: (_d, r) => (r.status === 1 ? <Tag color="green">在用</Tag> : <Tag>停用</Tag>) },
    memo: { colProps: { span: 24 } },
  }), [company]);

  return (
    <CrudPage<Row>
      resource={areaPermissionResource}
      api={E.areaPermission}
      drawer={{ title: '区域权限', width: 900, open, onClose }}
      overrides={overrides}
      extraColumns={EXTRA}
      order={ORDER}
      modalWidth={640}
      fromForm={body}
      createDefaults={{ status: '1', areaIds: [] }}
    />
  );
}
