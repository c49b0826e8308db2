// 类型设置: the company's 诉求类型, 工单类型 and 公告类型 (SPEC §7 AppealType, WorkOrderType, NoticeType),
// each a declared resource rendered from its declaration (CrudPage); an appeal or work-order type
// carries the time limit that sets its deadline.
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { appealTypeResource, noticeTypeResource, workOrderTypeResource } from '@meter/contracts';
import { CrudPage } from '../../components/CrudPage.tsx';
import { E } from '../../api/endpoints.gen.ts';

export type ContentTypeName = 'NoticeType' | 'AppealType' | 'WorkOrderType';

/** The three dictionaries in tabs (诉求类型 first: the appeal pages use it). */
export default function ContentTypes({ only }: { only?: ContentTypeName[] }) {
  const items = [
    { key: 'AppealType' as const, label: '诉求类型', children: <CrudPage resource={appealTypeResource} api={E.appealType} /> },
    { key: 'WorkOrderType' as const, label: '工单类型', children: <CrudPage resource={workOrderTypeResource} api={E.workOrderType} /> },
    { key: 'NoticeType' as const, label: '公告类型', children: <CrudPage resource={noticeTypeResource} api={E.noticeType} /> },
  ].filter((i) => !only || only.includes(i.key));
  return <Tabs items={items} destroyOnHidden size="small" />;
}

/**
 * A content page (业主诉求, 物业公告, 平台诉求): its lists in tabs, then — for whoever may (`types`
 * given) — the tab of its 类型设置 (`label`, the dictionaries `only` names; all three by default).
 */
export function ContentPage({ lists, types }: {
  lists: { key: string; label: string; children: ReactNode }[];
  types?: { label: string; only?: ContentTypeName[] } | false;
}) {
  const typesTab = types ? [{ key: 'types', label: types.label, children: <ContentTypes only={types.only} /> }] : [];
  return <Tabs destroyOnHidden items={[...lists, ...typesTab]} />;
}
