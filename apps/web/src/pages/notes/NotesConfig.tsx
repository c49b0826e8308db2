// 水表配置记录 (/notesConfig): every parameter read from or written to a meter (GET config/list).
import { Tag } from 'antd';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import type { MeterConfig } from '@meter/contracts';
import { controlApi } from '../control/api.ts';
import { COMMAND_STATUS_ENUM, CommandTag, KIND_ENUM, keywordColumn, meterColumns, rangeColumn, timeText } from '../control/shared.tsx';

type ConfigRow = LogRow<MeterConfig>;

export const PARAM_LABELS: Record<string, string> = {
  alarm1Money: '报警金额1', alarm2Money: '报警金额2', overdraftLimit: '透支限额', hoardLimit: '囤积限额', closeAllowMoney: '合闸允许金额',
  ctRatio: 'CT变比', ptRatio: 'PT变比', meterNumber: '表号', settleDay: '结算日', syncTime: '校时',
};

export function paramsText(p: Record<string, unknown>): string {
  return Object.entries(p ?? {}).map(([k, v]) => `${PARAM_LABELS[k] ?? k}：${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('；');
}

const COLUMNS: ResourceColumn<ConfigRow>[] = [
  keywordColumn(),
  ...meterColumns<ConfigRow>('meterName'),
  { title: '类别', dataIndex: 'kind', valueEnum: KIND_ENUM, search: true, width: 70 },
  { title: '房间', dataIndex: 'roomName' },
  { title: '操作', dataIndex: 'op', width: 90, search: true, valueEnum: { read: { text: '参数读取' }, set: { text: '参数设置' } }, render: (_d, r) => <Tag color={r.op === 'set' ? 'blue' : 'default'}>{r.opText}</Tag> },
  { title: '参数', dataIndex: 'params', ellipsis: true, render: (_d, r) => paramsText(r.params) || '-' },
  { title: '指令状态', dataIndex: 'commandStatus', width: 90, valueEnum: COMMAND_STATUS_ENUM, render: (_d, r) => (r.commandStatus ? <CommandTag status={r.commandStatus} /> : '-') },
  { title: '操作人', dataIndex: 'operatorName', width: 110 },
  { title: '时间', dataIndex: 'createdAt', width: 170, render: (_d, r) => timeText(r.createdAt) },
  rangeColumn<ConfigRow>('时间'),
];

export default function NotesConfig() {
  return <LogTable<MeterConfig> title="表具参数记录" columns={COLUMNS} list={controlApi.configs} />;
}
