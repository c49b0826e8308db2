import { useMemo } from 'react';
import { Tag } from 'antd';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { logApi, type AuditLog } from '../../api/yonghu.ts';

type Row = AuditLog & Record<string, unknown>;

const METHOD_COLORS: Record<string, string> = { POST: 'green', PUT: 'blue', DELETE: 'red', GET: 'default' };

/** 操作日志: the audit log, filtered by user, action and time range. Read-only. */
export default function NotesOperate() {
  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '操作时间', dataIndex: 'createdAt', valueType: 'dateTime', width: 170 },
      {
        title: '操作时间', dataIndex: 'timeRange', valueType: 'dateTimeRange', hideInTable: true,
        search: { transform: (v: [string, string]) => ({ startTime: v?.[0], endTime: v?.[1] }) },
      },
      { title: '用户名', dataIndex: 'username', search: true, width: 120 },
      { title: '操作', dataIndex: 'action', search: true },
      { title: '对象', dataIndex: 'target', ellipsis: true },
      {
        title: '请求方法', dataIndex: 'method', width: 90,
        render: (_d, r) => <Tag color={METHOD_COLORS[r.method] ?? 'default'}>{r.method}</Tag>,
      },
      { title: '请求路径', dataIndex: 'path', ellipsis: true, copyable: true },
      { title: 'IP', dataIndex: 'ip', width: 130 },
    ],
    [],
  );
  return (
    <ResourceTable<Row>
      headerTitle="操作日志"
      columns={columns}
      pageSize={20}
      list={(q) => logApi.list(q) as Promise<{ code: string; data: Row[]; count: number }>}
    />
  );
}
