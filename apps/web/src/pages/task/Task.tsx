// 任务列表 (/task): reading rounds — scheduled (定时抄表) and bulk on-demand (批量抄表) — and bulk closes
// from /longRange (批量拉闸/关阀), with their progress (GET device/read/task/list); running ones refresh by themselves. Platform administrators
// also see the server's timed jobs (ScheduledJobs) above them.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Progress, Tag } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import type { ReadTask } from '@meter/contracts';
import { controlApi } from '../control/api.ts';
import { rangeColumn, timeText } from '../control/shared.tsx';
import { useSession } from '../../app/session.ts';
import { ScheduledJobs } from './ScheduledJobs.tsx';

type TaskRow = ReadTask & Record<string, unknown>;

export default function Task() {
  const ref = useRef<ActionType | undefined>(undefined);
  const [running, setRunning] = useState(false);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void ref.current?.reload(), 5000);
    return () => clearInterval(t);
  }, [running]);
  const columns = useMemo<ResourceColumn<TaskRow>[]>(
    () => [
      { title: '任务编号', dataIndex: 'id', width: 90 },
      { title: '类型', dataIndex: 'origin', width: 120, search: true, valueEnum: { 1: { text: '定时抄表' }, 2: { text: '批量抄表' }, 3: { text: '批量拉闸/关阀' } }, render: (_d, r) => r.originText },
      { title: '状态', dataIndex: 'status', width: 90, render: (_d, r) => <Tag color={r.status === 'done' ? 'green' : 'processing'}>{r.statusText}</Tag> },
      {
        title: '进度', dataIndex: 'progress', width: 220,
        render: (_d, r) => (
          <Progress
            size="small"
            percent={r.total ? Math.round(((r.succeeded + r.failed) / r.total) * 100) : 100}
            success={{ percent: r.total ? Math.round((r.succeeded / r.total) * 100) : 0 }}
            status={r.status === 'done' ? (r.failed ? 'exception' : 'success') : 'active'}
          />
        ),
      },
      { title: '表具数', dataIndex: 'total', width: 80, align: 'right' },
      { title: '成功', dataIndex: 'succeeded', width: 70, align: 'right' },
      { title: '失败', dataIndex: 'failed', width: 70, align: 'right' },
      { title: '未完成', dataIndex: 'pending', width: 80, align: 'right' },
      { title: '开始时间', dataIndex: 'startedAt', width: 170, render: (_d, r) => timeText(r.startedAt) },
      { title: '结束时间', dataIndex: 'finishedAt', width: 170, render: (_d, r) => timeText(r.finishedAt) || '-' },
      { title: '发起人', dataIndex: 'requestedByName', width: 100, render: (_d, r) => r.requestedByName || '系统' },
      rangeColumn<TaskRow>('开始时间'),
    ],
    [],
  );
  const platform = useSession()?.access === 0;
  return (
    <>
      {platform && <ScheduledJobs />}
      <ResourceTable<TaskRow>
        headerTitle="抄表任务"
        columns={columns}
        actionRef={ref}
        pageSize={20}
        list={async (q) => {
          const r = (await controlApi.tasks(q)) as { code: string; data: TaskRow[]; count: number };
          setRunning(r.data.some((t) => t.status !== 'done'));
          return r;
        }}
      />
    </>
  );
}
