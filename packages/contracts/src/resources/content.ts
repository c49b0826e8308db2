import { defineResource } from '../resource.ts';

// 公告类型 / 诉求类型 / 工单类型 (SPEC §7 NoticeType, AppealType, WorkOrderType): per-company
// dictionaries. An appeal or work-order type carries a time limit in hours: an order of that type is
// due that many hours after it was registered (overdue when past it and not finished).

/** 在用 / 停用 */
export const CONTENT_TYPE_STATUS: Record<string, string> = { 1: '在用', 0: '停用' };

const common = (nameLabel: string) => [
  { key: 'name', label: nameLabel, type: 'text' as const, required: true, max: 64, search: 'like' as const, unique: true },
];
const tail = [
  { key: 'sort', label: '排序', type: 'int' as const, min: 0, max: 9999, default: 0 },
  { key: 'status', label: '状态', type: 'enum' as const, options: CONTENT_TYPE_STATUS, colors: { 1: 'success' }, default: 1, search: 'eq' as const },
  { key: 'memo', label: '备注', type: 'textarea' as const, max: 200 },
  { key: 'createdAt', label: '创建时间', type: 'datetime' as const, readonly: true },
];
const limitHours = {
  key: 'limitHours', label: '处理时限（小时）', type: 'int' as const, required: true, min: 1, max: 8760, default: 24, unit: '小时',
  tooltip: '登记后超过该时长仍未完成的单据标记为已超时',
};

export const noticeTypeResource = defineResource({
  name: 'noticeType',
  title: '公告类型',
  fields: [...common('公告类型名称'), ...tail],
});

export const appealTypeResource = defineResource({
  name: 'appealType',
  title: '诉求类型',
  fields: [...common('诉求类型名称'), limitHours, ...tail],
});

export const workOrderTypeResource = defineResource({
  name: 'workOrderType',
  title: '工单类型',
  fields: [...common('工单类型名称'), limitHours, ...tail],
});
