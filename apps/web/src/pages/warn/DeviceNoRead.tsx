// 设备未抄读 (/deviceNoRead): meters in use with no good reading since a day (today by default), over
// the control module's GET device/read/unread/list.
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { warningApi, type MeterListRow } from '../control/api.ts';
import { KIND_ENUM, keywordColumn, meterColumns, meterStateColumns, timeText } from '../control/shared.tsx';

type Row = LogRow<MeterListRow>;

const COLUMNS: ResourceColumn<Row>[] = [
  keywordColumn(),
  { title: '未抄读起始日', dataIndex: 'date', valueType: 'date', hideInTable: true, search: true, tooltip: '自该日 0 点起没有成功读数（默认今天）' },
  ...meterColumns<Row>(),
  { title: '类别', dataIndex: 'kind', valueEnum: KIND_ENUM, search: true, width: 70 },
  { title: '房间', dataIndex: 'roomName' },
  { title: '区域', dataIndex: 'areaName' },
  ...meterStateColumns<Row>(),
  { title: '最后读数', dataIndex: 'lastTotal', width: 110, align: 'right', render: (_d, r) => r.lastTotal ?? '-' },
  { title: '最后抄读', dataIndex: 'lastReadAt', width: 170, render: (_d, r) => timeText(r.lastReadAt) || '从未抄读' },
  { title: '最后通信', dataIndex: 'lastSeenAt', width: 170, render: (_d, r) => timeText(r.lastSeenAt) || '-' },
];

export default function DeviceNoRead() {
  return <LogTable<MeterListRow> title="设备未抄读" columns={COLUMNS} list={warningApi.unread} />;
}
