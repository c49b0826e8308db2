// 通断记录 (/notesElectricity): the valve and relay switchings — 拉闸/关阀 and 合闸/开阀 — with who or
// what asked (automatic by balance, a person, timed control), the command's lifecycle state, its
// attempts and failure reason (device/order/list, types open and close). Automatic ones first:
// the 来源 filter starts on 自动（余额）.
import { useMemo } from 'react';
import { Tag, Tooltip } from 'antd';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { billingApi, type CommandRow, type Paged } from '../fee/billingApi.ts';
import { rangeColumn, timeColumn } from '../fee/common.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = CommandRow & Record<string, unknown> & { roomName?: string | null; areaName?: string | null };

export const ORIGIN_TEXT: Record<number, string> = { 1: '人工', 2: '自动（余额）', 3: '定时控制', 4: '定时抄表' };
const STATUS_COLORS: Record<string, string> = { queued: 'default', sent: 'processing', succeeded: 'success', failed: 'error', timed_out: 'warning', expired: 'default' };
const STATUS_TEXT: Record<string, string> = { queued: '排队中', sent: '已下发', succeeded: '成功', failed: '失败', timed_out: '超时', expired: '已过期' };

export function electricityColumns(): ResourceColumn<Row>[] {
  return [
    timeColumn<Row>('时间', 'createdAt'),
    { title: '表具', key: 'keyword', dataIndex: 'meterName', search: true, render: (_d, r) => r.meterName || r.address || '-' },
    { title: '表地址', key: 'address', dataIndex: 'address' },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', render: (_d, r) => r.roomName ?? '-' },
    { title: '表具类型', key: 'kind', dataIndex: 'meterKind', hideInTable: true, search: true, valueType: 'select', valueEnum: { 1: { text: '电表' }, 2: { text: '水表' } } },
    {
      title: '动作',
      key: 'type',
      dataIndex: 'type',
      search: true,
      valueType: 'select',
      valueEnum: { close: { text: '拉闸/关阀' }, open: { text: '合闸/开阀' } },
      render: (_d, r) => <Tag color={r.kind === 'close' ? 'red' : 'green'}>{r.kindText}</Tag>,
    },
    {
      title: '来源',
      key: 'origin',
      dataIndex: 'origin',
      search: true,
      valueType: 'select',
      initialValue: '2',
      valueEnum: { 1: { text: ORIGIN_TEXT[1] }, 2: { text: ORIGIN_TEXT[2] }, 3: { text: ORIGIN_TEXT[3] } },
      render: (_d, r) => ORIGIN_TEXT[r.origin] ?? r.origin,
    },
    {
      title: '状态',
      key: 'status',
      dataIndex: 'status',
      search: true,
      valueType: 'select',
      valueEnum: textEnum(STATUS_TEXT),
      render: (_d, r) =>
        r.error ? (
          <Tooltip title={r.error}>
            <Tag color={STATUS_COLORS[r.status]}>{r.statusText}</Tag>
          </Tooltip>
        ) : (
          <Tag color={STATUS_COLORS[r.status]}>{r.statusText}</Tag>
        ),
    },
    { title: '尝试', key: 'attempts', dataIndex: 'attempts', render: (_d, r) => `${r.attempts}/${r.maxAttempts}` },
    { title: '发起人', key: 'requesterName', dataIndex: 'requesterName', render: (_d, r) => r.requesterName || '系统' },
    { title: '原因', key: 'memo', dataIndex: 'memo', ellipsis: true },
    { title: '失败原因', key: 'error', dataIndex: 'error', ellipsis: true, render: (_d, r) => r.error || '-' },
    timeColumn<Row>('完成时间', 'finishedAt'),
    // device/order/list names the range start / end
    rangeColumn<Row>('时间范围', ['start', 'end']),
  ];
}

export default function NotesElectricity() {
  const columns = useMemo(() => electricityColumns(), []);
  return (
    <ResourceTable<Row>
      headerTitle="通断记录"
      columns={columns}
      areaFilter={false}
      list={(q) => billingApi.commands({ type: 'open,close', ...q }) as Promise<Paged<Row>>}
    />
  );
}
