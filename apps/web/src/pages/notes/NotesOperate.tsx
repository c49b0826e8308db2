import { Tag } from 'antd';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { timeRangeColumn } from '../../components/resourceColumns.tsx';
import { logApi, type AuditLog } from '../../api/yonghu.ts';

type Row = LogRow<AuditLog>;

const METHOD_COLORS: Record<string, string> = { POST: 'green', PUT: 'blue', DELETE: 'red', GET: 'default' };

/** 操作日志: the audit log, filtered by user, action and time range. Read-only. */
const COLUMNS: ResourceColumn<Row>[] = [
  { title: '操作时间', dataIndex: 'createdAt', valueType: 'dateTime', width: 170 },
  timeRangeColumn<Row>('操作时间'),
  { title: '用户名', dataIndex: 'username', search: true, width: 120 },
  { title: '操作', dataIndex: 'action', search: true },
  { title: '对象', dataIndex: 'target', ellipsis: true },
  {
    title: '请求方法', dataIndex: 'method', width: 90,
    render: (_d, r) => <Tag color={METHOD_COLORS[r.method] ?? 'default'}>{r.method}</Tag>,
  },
  { title: '请求路径', dataIndex: 'path', ellipsis: true, copyable: true },
  { title: 'IP', dataIndex: 'ip', width: 130 },
];

export default function NotesOperate() {
  return <LogTable<AuditLog> title="操作日志" columns={COLUMNS} list={logApi.list} />;
}
