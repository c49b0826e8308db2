// 阀控记录 (/notesControl): every command to a device — kind, status, who asked (or the system:
// balance, timed control, scheduled reading), memo, override reason and the device's reply — over the
// control module's GET device/order/list.
import { Tag, Tooltip, Typography } from 'antd';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import type { CommandListItem } from '@meter/contracts';
import { controlApi, type Command } from '../control/api.ts';
import { COMMAND_STATUS_ENUM, CommandTag, keywordColumn, meterColumns, rangeColumn, timeText } from '../control/shared.tsx';

type Row = LogRow<CommandListItem>;

export const COMMAND_KIND_ENUM = {
  open: { text: '合闸/开阀' }, close: { text: '拉闸/关阀' }, limit: { text: '透支限额下发' }, read: { text: '抄表' },
  config_read: { text: '参数读取' }, config_set: { text: '参数设置' }, time_sync: { text: '校时' }, protect_on: { text: '保电' }, protect_off: { text: '保电解除' },
};
export const ORIGIN_ENUM = { 1: { text: '人工' }, 2: { text: '自动（余额）' }, 3: { text: '定时阀控' }, 4: { text: '定时抄表' } };

/** What the device answered, or why it failed. */
export function resultText(c: Command): string {
  if (c.status === 'succeeded') {
    const r = c.reply ?? {};
    if (typeof r.text === 'string') return r.text;
    if (r.total != null) return `读数 ${String(r.total)}`;
    return '成功';
  }
  return c.error;
}

const COLUMNS: ResourceColumn<Row>[] = [
  keywordColumn('表号 / 名称 / 房间 / 操作人'),
  { title: '指令编号', dataIndex: 'id', width: 90 },
  ...meterColumns<Row>('meterName'),
  { title: '房间', dataIndex: 'roomName' },
  { title: '类型', dataIndex: 'type', valueEnum: COMMAND_KIND_ENUM, search: true, width: 100, render: (_d, r) => r.kindText },
  { title: '状态', dataIndex: 'status', valueEnum: COMMAND_STATUS_ENUM, search: true, width: 90, render: (_d, r) => <CommandTag status={r.status} text={r.statusText} /> },
  { title: '来源', dataIndex: 'origin', valueEnum: ORIGIN_ENUM, search: true, width: 100, render: (_d, r) => ORIGIN_ENUM[r.origin as 1]?.text ?? r.origin },
  { title: '操作人', dataIndex: 'requesterName', width: 120 },
  {
    title: '备注', dataIndex: 'memo', ellipsis: true,
    render: (_d, r) => (
      <>
        {r.memo || '-'}
        {r.overrideReason ? <Tooltip title={`强制操作原因：${r.overrideReason}`}><Tag color="orange" style={{ marginLeft: 4 }}>强制</Tag></Tooltip> : null}
      </>
    ),
  },
  { title: '结果', dataIndex: 'reply', ellipsis: true, render: (_d, r) => <Typography.Text type={r.status === 'succeeded' ? undefined : 'danger'}>{resultText(r) || '-'}</Typography.Text> },
  { title: '尝试', dataIndex: 'attempts', width: 70, render: (_d, r) => `${r.attempts}/${r.maxAttempts}` },
  { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (_d, r) => timeText(r.createdAt) },
  { title: '完成时间', dataIndex: 'finishedAt', width: 170, render: (_d, r) => timeText(r.finishedAt) || '-' },
  rangeColumn<Row>('创建时间'),
];

export default function NotesControl() {
  return <LogTable<CommandListItem> title="阀控记录" columns={COLUMNS} list={controlApi.commands} />;
}
