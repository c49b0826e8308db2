// 业主端 用量与账单: usage by day or month (chart and figures), monthly bills, payment history.
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Empty, Segmented, Tabs, Tag } from 'antd';
import Loading from './Loading.tsx';
import { useQuery } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { useMe } from './data.ts';

const UsageChart = lazy(() => import('./UsageChart.tsx'));

function Usage({ roomId }: { roomId: number }) {
  const [by, setBy] = useState<'day' | 'month'>('day');
  const q = useQuery({ queryKey: ['owner', 'usage', roomId, by], queryFn: () => call(E.ownerApp.usage, { query: { roomId, by } }) });
  const rows = q.data ?? [];
  return (
    <>
      <Segmented block value={by} onChange={(v) => setBy(v as 'day' | 'month')} options={[{ value: 'day', label: '按日（近 31 天）' }, { value: 'month', label: '按月（近 12 个月）' }]} />
      {q.isLoading ? <Loading /> : rows.length ? (
        <>
          <Suspense fallback={<div style={{ height: 240 }} />}><UsageChart rows={rows} by={by} /></Suspense>
          <div>{[...rows].reverse().map((r) => (
            <div key={r.period} className="h5-row">
              <span>{r.period}</span>
              <span className="h5-muted">电 {r.electric} kWh ¥{r.electricAmount} · 水 {r.water} m³ ¥{r.waterAmount}</span>
            </div>
          ))}</div>
        </>
      ) : <Empty description="暂无用量记录" />}
    </>
  );
}

function Bills({ roomId }: { roomId: number }) {
  const q = useQuery({ queryKey: ['owner', 'bills', roomId], queryFn: () => call(E.ownerApp.bills, { query: { roomId } }) });
  if (q.isLoading) return <Loading />;
  const rows = q.data ?? [];
  if (!rows.length) return <Empty description="暂无账单" />;
  return (
    <div>{rows.map((b) => (
      <div key={b.month} className="h5-row">
        <div><div>{b.month} 账单</div><div className="h5-muted">电 {b.electric} kWh ¥{b.electricAmount} · 水 {b.water} m³ ¥{b.waterAmount}</div></div>
        <strong>¥{b.total}</strong>
      </div>
    ))}</div>
  );
}

function Journal({ roomId }: { roomId: number }) {
  const q = useQuery({ queryKey: ['owner', 'journal', roomId], queryFn: () => call(E.ownerApp.journal, { query: { roomId, size: 50 } }) });
  if (q.isLoading) return <Loading />;
  const rows = q.data?.data ?? [];
  if (!rows.length) return <Empty description="暂无缴费记录" />;
  return (
    <div>{rows.map((j) => (
      <div key={j.id} className="h5-row">
        <div>
          <div>{j.kindText} <Tag>{j.walletText}</Tag>{j.kind === 'prepay' || j.kind === 'refund' ? <Tag>{j.payMethodText}</Tag> : null}</div>
          <div className="h5-muted">{j.createdAt} · 余额 ¥{j.balanceAfter}</div>
        </div>
        <strong style={{ color: j.amount.startsWith('-') ? '#cf1322' : '#389e0d' }}>{j.amount.startsWith('-') ? '' : '+'}{j.amount}</strong>
      </div>
    ))}</div>
  );
}

export default function RoomPage() {
  const roomId = Number(useParams().roomId);
  const me = useMe();
  const room = me.data?.rooms.find((r) => r.roomId === roomId);
  if (me.isLoading) return <Loading block />;
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
