// Reading logs over the control module's GET device/reading/list: 抄表记录 (/notesCopy), 人工抄表记录
// (/rgNotesCopy, source 3, with the entry type and reason) and 抄表日志 (/copyLog, beside the area tree).
// Filters: keyword (表号 / 名称 / 房间), meter kind, source, exceptions, time range.
import { useMemo } from 'react';
import { Tag, Tooltip } from 'antd';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { controlApi, type Reading } from '../control/api.ts';
import { KIND_ENUM, keywordColumn, meterColumns, rangeColumn, timeText } from '../control/shared.tsx';

type Row = LogRow<Reading>;

export const SOURCE_ENUM = { 1: { text: '自动抄表' }, 2: { text: '随机抄表' }, 3: { text: '人工抄表' }, 4: { text: '设备上报' } };
const EXCEPTION_TEXT: Record<string, string> = { backwards: '读数倒走', older: '时间早于上次', jump: '读数跳变' };
const ADJUST_TEXT: Record<number, string> = { 0: '正常抄表', 1: '换表', 2: '读数纠正' };

export default function ReadingLog({ title, manual = false }: { title: string; manual?: boolean }) {
  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      keywordColumn<Row>(),
      ...meterColumns<Row>('meterName'),
      { title: '类别', dataIndex: 'kind', valueEnum: KIND_ENUM, search: true, width: 70, render: (_d, r) => (r.meterKind === 2 ? '水表' : '电表') },
      { title: '房间', dataIndex: 'roomName' },
      { title: '区域', dataIndex: 'areaName' },
      { title: '读数', dataIndex: 'total', align: 'right', width: 120, render: (_d, r) => `${r.total} ${r.meterKind === 2 ? 'm³' : 'kWh'}` },
      { title: '抄表时间', dataIndex: 'readAt', width: 170, render: (_d, r) => timeText(r.readAt) },
      ...(manual
        ? [
            { title: '录入类型', dataIndex: 'adjust', width: 100, render: (_d: unknown, r: Row) => ADJUST_TEXT[Number(r.registers?.adjust ?? 0)] ?? '正常抄表' },
            { title: '原因', dataIndex: 'reason', ellipsis: true, render: (_d: unknown, r: Row) => String(r.registers?.reason ?? '') || '-' },
            { title: '备注', dataIndex: 'memo', ellipsis: true, render: (_d: unknown, r: Row) => String(r.registers?.memo ?? '') || '-' },
            { title: '录入人', dataIndex: 'operatorName', width: 100 },
          ] as ResourceColumn<Row>[]
        : [{ title: '来源', dataIndex: 'source', valueEnum: SOURCE_ENUM, search: true, width: 90, render: (_d: unknown, r: Row) => r.sourceText } as ResourceColumn<Row>]),
      {
        title: '是否异常', dataIndex: 'exception', width: 110, search: true,
        valueEnum: { false: { text: '正常' }, true: { text: '异常' } },
        render: (_d, r) =>
          r.exception ? (
            <Tooltip title="异常读数不参与结算"><Tag color="red">{EXCEPTION_TEXT[r.exception] ?? r.exception}</Tag></Tooltip>
          ) : <Tag color="green">正常</Tag>,
      },
      { title: '接收时间', dataIndex: 'receivedAt', width: 170, render: (_d, r) => timeText(r.receivedAt) },
      rangeColumn<Row>('抄表时间'),
    ],
    [manual],
  );
  const params = useMemo(() => (manual ? { source: 3 } : {}), [manual]);
  return <LogTable<Reading> title={title} columns={columns} params={params} list={controlApi.readings} />;
}

export function NotesCopy() {
  return <ReadingLog title="抄表记录" />;
}

export function RgNotesCopy() {
  return <ReadingLog title="人工抄表记录" manual />;
}
