// 定时任务 on /task (platform administrators): every timed job of the server — settlement, calendar
// postings, the SMS outbox, timed control, scheduled reading… — with its last and next run, how long
// it took, how often it ran and failed, and its last error (GET /yonghu/api/system/jobs).
import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Table, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { jobsApi, type ScheduledJob } from '../../api/yonghu.ts';
import { timeText } from '../control/shared.tsx';

const STATE_COLOR = { ok: 'green', failed: 'red', overdue: 'orange' } as const;

/** 5 秒, 10 分钟, 24 小时 */
export function periodText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} 小时`;
  if (ms % 60_000 === 0) return `${ms / 60_000} 分钟`;
  return ms % 1000 === 0 ? `${ms / 1000} 秒` : `${ms} 毫秒`;
}

export function ScheduledJobs() {
  const [rows, setRows] = useState<ScheduledJob[]>([]);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await jobsApi.list());
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), 15_000);
    return () => clearInterval(t);
  }, [load]);
  return (
    <Card
      size="small"
      title="定时任务"
      style={{ marginBottom: 12 }}
      extra={<Button size="small" icon={<ReloadOutlined />} onClick={() => void load()} aria-label="刷新定时任务">刷新</Button>}
    >
      <Table<ScheduledJob>
        rowKey="name"
        size="small"
        loading={loading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1200 }}
        locale={{ emptyText: '暂无运行记录（定时任务在指令执行进程启动后开始记录）' }}
        columns={[
          { title: '任务', dataIndex: 'label', width: 220 },
          { title: '状态', dataIndex: 'state', width: 110, render: (_v, r) => <Tag color={STATE_COLOR[r.state]}>{r.stateText}</Tag> },
          { title: '周期', dataIndex: 'everyMs', width: 90, render: (v: number) => periodText(v) },
          { title: '上次运行', dataIndex: 'lastStartedAt', width: 170, render: (v) => timeText(v) || '-' },
          { title: '耗时', dataIndex: 'lastDurationMs', width: 90, align: 'right', render: (v: number | null) => (v == null ? '-' : `${v} 毫秒`) },
          { title: '下次运行', dataIndex: 'nextRunAt', width: 170, render: (v) => timeText(v) || '-' },
          { title: '运行/失败', dataIndex: 'runs', width: 100, align: 'right', render: (_v, r) => `${r.runs} / ${r.failures}` },
          {
            title: '最近错误', dataIndex: 'lastError', width: 260,
            render: (_v, r) =>
              r.lastError ? (
                <Tooltip title={`${timeText(r.lastErrorAt)} ${r.lastError}`}>
                  <Typography.Text type={r.lastOk === false ? 'danger' : 'secondary'} ellipsis style={{ maxWidth: 240 }}>{r.lastError}</Typography.Text>
                </Tooltip>
              ) : '-',
          },
          { title: '进程', dataIndex: 'host', width: 160, render: (_v, r) => <Tooltip title={r.roleText}>{r.host}</Tooltip> },
        ]}
      />
    </Card>
  );
}
