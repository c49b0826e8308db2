// 类型设置: the company's 诉求类型, 工单类型 and 公告类型 (SPEC §7 AppealType, WorkOrderType, NoticeType),
// each a declared resource; an appeal or work-order type carries the time limit that sets its deadline.
import { useMemo } from 'react';
import { Tabs, Tag } from 'antd';
import { appealTypeResource, noticeTypeResource, workOrderTypeResource, type ResourceDef } from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { columnsFromResource } from '../../components/resourceColumns.tsx';
import { contentTypeApi, type ContentTypeName, type ContentTypeRow } from '../../api/appeal.ts';
import { useCompany } from '../records/deviceFields.tsx';

type Row = ContentTypeRow & Record<string, unknown>;

export function typeBody(v: Record<string, unknown>, limited: boolean) {
  return {
    name: String(v.name ?? '').trim(),
    ...(limited && { limitHours: v.limitHours }),
    sort: v.sort ?? 0,
    status: v.status ?? 1,
    memo: String(v.memo ?? '').trim(),
  };
}

function TypeTable({ def, name }: { def: ResourceDef; name: ContentTypeName }) {
  const company = useCompany();
  const api = contentTypeApi(name);
  const limited = name !== 'NoticeType';
  const columns = useMemo<ResourceColumn<Row>[]>(
    () =>
      columnsFromResource<Row>(def, {
        status: { render: (_d, r) => (r.status === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>) },
        limitHours: { render: (_d, r) => `${r.limitHours} 小时` },
        createdAt: { hideInForm: true },
      }),
    [def],
  );
  return (
    <ResourceTable<Row>
      entityName={def.title}
      headerTitle={def.title}
      rowKey="id"
      columns={columns}
      areaFilter={false}
      permissions={{ create: 'content.types', update: 'content.types', remove: 'content.types' }}
      list={(q) => api.list(q) as Promise<{ code: string; data: Row[]; count: number }>}
      create={(v) => api.create(typeBody(v, limited), company)}
      update={(r, v) => api.update(r.id, typeBody(v, limited), company)}
      remove={(r) => api.remove([r.id], company)}
      toForm={(r) => ({ ...r, status: String(r.status) })}
      createDefaults={{ status: '1', sort: 0, ...(limited && { limitHours: 24 }) }}
      formColumns={1}
      modalWidth={480}
    />
  );
}

/** The three dictionaries in tabs (诉求类型 first: the appeal pages use it). */
export default function ContentTypes({ only }: { only?: ContentTypeName[] }) {
  const items = [
    { key: 'AppealType' as const, label: '诉求类型', children: <TypeTable def={appealTypeResource} name="AppealType" /> },
    { key: 'WorkOrderType' as const, label: '工单类型', children: <TypeTable def={workOrderTypeResource} name="WorkOrderType" /> },
    { key: 'NoticeType' as const, label: '公告类型', children: <TypeTable def={noticeTypeResource} name="NoticeType" /> },
  ].filter((i) => !only || only.includes(i.key));
  return <Tabs items={items} destroyOnHidden size="small" />;
}
