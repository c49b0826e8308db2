// 设备上报日志 (/deviceReportLog): raw frames to and from devices with what they decoded to, beside the
// area tree (GET device/report/list); frames that could not be decoded are marked.
import { Tag, Typography } from 'antd';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import type { DeviceReport } from '@meter/contracts';
import { controlApi } from '../control/api.ts';
import { keywordColumn, rangeColumn, timeText } from '../control/shared.tsx';

type ReportRow = LogRow<DeviceReport>;

/** A short reading of a decoded frame. */
export function decodedText(d: Record<string, unknown> | null): string {
  if (!d) return '';
  const label = typeof d.label === 'string' ? d.label : typeof d.kind === 'string' ? d.kind : '';
  const rest = Object.entries(d).filter(([k]) => !['label', 'kind', 'address', 'frame'].includes(k)).slice(0, 4);
  return [label, ...rest.map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)].filter(Boolean).join(' ');
}

const COLUMNS: ResourceColumn<ReportRow>[] = [
  keywordColumn('表号 / 名称 / 采集器IMEI'),
  { title: '时间', dataIndex: 'createdAt', width: 170, render: (_d, r) => timeText(r.createdAt) },
  { title: '方向', dataIndex: 'direction', width: 80, render: (_d, r) => <Tag color={r.direction === 'up' ? 'blue' : 'purple'}>{r.direction === 'up' ? '上行' : '下行'}</Tag> },
  { title: '通道', dataIndex: 'channel', width: 70, render: (_d, r) => r.channel.toUpperCase() },
  { title: '表号', dataIndex: 'address', width: 150, render: (_d, r) => r.address || '-' },
  { title: '表具', dataIndex: 'meterName', render: (_d, r) => r.meterName || '-' },
  { title: '采集器', dataIndex: 'collectorName', render: (_d, r) => (r.collectorName ? `${r.collectorName}（${r.collectorImei}）` : '-') },
  { title: '报文', dataIndex: 'hex', width: 260, render: (_d, r) => <Typography.Text code copyable={{ text: r.hex }} ellipsis style={{ maxWidth: 240 }}>{r.hex}</Typography.Text> },
  { title: '解析', dataIndex: 'decoded', ellipsis: true, render: (_d, r) => decodedText(r.decoded) || '-' },
  {
    title: '解析结果', dataIndex: 'errorsOnly', width: 100, search: true, valueEnum: { true: { text: '仅看错误' } },
    render: (_d, r) => (r.error ? <Tag color="red" title={r.error}>{r.error}</Tag> : <Tag color="green">正常</Tag>),
  },
  rangeColumn<ReportRow>('时间'),
];

export default function DeviceReportLog() {
  return <LogTable<DeviceReport> title="设备上报日志" columns={COLUMNS} list={controlApi.reports} />;
}
