// 业主端 用量与账单: usage by day or month (chart and figures), monthly bills, payment history.
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Empty, List, Segmented, Spin, Tabs, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { useMe } from './data.ts';

const UsageChart = lazy(() => import('./UsageChart.tsx'));

function Usage({ roomId }: { roomId: number }) {
  const [by, setBy] = useState<'day' | 'month'>('day');
  const q = useQuery({ queryKey: ['owner', 'usage', roomId, by], queryFn: () => call(E.ownerApp.usage, { query: { roomId, by } }) });
  const rows = q.data?.data ?? [];
  return (
    <>
      <Segmented block value={by} onChange={(v) => setBy(v as 'day' | 'month')} options={[{ value: 'day', label: '按日（近 31 天）' }, { value: 'month', label: '按月（近 12 个月）' }]} />
      {q.isLoading ? <Spin /> : rows.length ? (
        <>
          <Suspense fallback={<div style={{ height: 240 }} />}><UsageChart rows={rows} by={by} /></Suspense>
          <List size="small" dataSource={[...rows].reverse()} renderItem={(r) => (
            <List.Item>
              <span>{r.period}</span>
              <span className="h5-muted">电 {r.electric} kWh ¥{r.electricAmount} · 水 {r.water} m³ ¥{r.waterAmount}</span>
            </List.Item>
          )} />
        </>
      ) : <Empty description="暂无用量记录" />}
    </>
  );
}

function Bills({ roomId }: { roomId: number }) {
  const q = useQuery({ queryKey: ['owner', 'bills', roomId], queryFn: () => call(E.ownerApp.bills, { query: { roomId } }) });
  if (q.isLoading) return <Spin />;
  const rows = q.data?.data ?? [];
  if (!rows.length) return <Empty description="暂无账单" />;
  return (
    <List dataSource={rows} renderItem={(b) => (
      <List.Item>
        <List.Item.Meta title={`${b.month} 账单`} description={`电 ${b.electric} kWh ¥${b.electricAmount} · 水 ${b.water} m³ ¥${b.waterAmount}`} />
        <strong>¥{b.total}</strong>
      </List.Item>
    )} />
  );
}

function Journal({ roomId }: { roomId: number }) {
  const q = useQuery({ queryKey: ['owner', 'journal', roomId], queryFn: () => call(E.ownerApp.journal, { query: { roomId, size: 50 } }) });
  if (q.isLoading) return <Spin />;
  const rows = q.data?.data ?? [];
  if (!rows.length) return <Empty description="暂无缴费记录" />;
  return (
    <List dataSource={rows} renderItem={(j) => (
      <List.Item>
        <List.Item.Meta
          title={<>{j.kindText} <Tag>{j.walletText}</Tag>{j.kind === 'prepay' || j.kind === 'refund' ? <Tag>{j.payMethodText}</Tag> : null}</>}
          description={`${j.createdAt} · 余额 ¥${j.balanceAfter}`}
        />
        <strong style={{ color: j.amount.startsWith('-') ? '#cf1322' : '#389e0d' }}>{j.amount.startsWith('-') ? '' : '+'}{j.amount}</strong>
      </List.Item>
    )} />
  );
}

export default function RoomPage() {
  const roomId = Number(useParams().roomId);
  const me = useMe();
  const room = me.data?.rooms.find((r) => r.roomId === roomId);
  if (me.isLoading) return <div className="h5-loading"><Spin /></div>;
  if (!room) return <Empty description="房间不存在或无权查看" />;
  return (
    <>
      <div className="h5-head"><h1>{room.roomName}</h1><Link to="/h5">返回</Link></div>
      <section className="h5-card">
        <Tabs items={[
          { key: 'usage', label: '用量', children: <Usage roomId={roomId} /> },
          { key: 'bills', label: '账单', children: <Bills roomId={roomId} /> },
          { key: 'journal', label: '缴费记录', children: <Journal roomId={roomId} /> },
        ]} />
      </section>
    </>
  );
}
