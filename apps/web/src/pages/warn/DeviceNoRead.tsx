// 设备未抄读 (/deviceNoRead): meters in use with no good reading since a day (today by default), over
// the control module's GET device/read/unread/list.
import { useMemo } from 'react';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { OnlineCell, ValveCell } from '../records/deviceFields.tsx';
import { warningApi, type MeterListRow } from '../control/api.ts';
import { KIND_ENUM, timeText } from '../control/shared.tsx';

type Row = MeterListRow & Record<string, unknown>;

export default function DeviceNoRead() {
  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '关键字', dataIndex: 'kw', hideInTable: true, search: true, fieldProps: { placeholder: '表号 / 名称 / 房间' } },
      { title: '未抄读起始日', dataIndex: 'date', valueType: 'date', hideInTable: true, search: true, tooltip: '自该日 0 点起没有成功读数（默认今天）' },
      { title: '表号', dataIndex: 'address', copyable: true, width: 150 },
      { title: '名称', dataIndex: 'name' },
      { title: '类别', dataIndex: 'kind', valueEnum: KIND_ENUM, search: true, width: 70 },
      { title: '房间', dataIndex: 'roomName' },
      { title: '区域', dataIndex: 'areaName' },
      { title: '采集器', dataIndex: 'collectorName', render: (_d, r) => r.collectorName || '-' },
      { title: '在线', dataIndex: 'online', width: 80, render: (_d, r) => <OnlineCell online={r.online} /> },
      { title: '通断', dataIndex: 'valveState', width: 90, render: (_d, r) => <ValveCell kind={r.kind} state={r.valveState} /> },
      { title: '最后读数', dataIndex: 'lastTotal', width: 110, align: 'right', render: (_d, r) => r.lastTotal ?? '-' },
      { title: '最后抄读', dataIndex: 'lastReadAt', width: 170, render: (_d, r) => timeText(r.lastReadAt) || '从未抄读' },
      { title: '最后通信', dataIndex: 'lastSeenAt', width: 170, render: (_d, r) => timeText(r.lastSeenAt) || '-' },
    ],
    [],
  );
  return (
    <ResourceTable<Row>
      headerTitle="设备未抄读"
      columns={columns}
      pageSize={20}
      list={(q) => warningApi.unread(q) as Promise<{ code: string; data: Row[]; count: number }>}
    />
  );
}
