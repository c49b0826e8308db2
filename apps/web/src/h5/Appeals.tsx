// 业主端 诉求: my appeals with their state (待受理 → 处理中 → 已完成 / 已驳回), and one appeal's
// photos and history (what the property office did and answered).
import { Link, useParams } from 'react-router';
import { Button, Empty, Tag } from 'antd';
import Loading from './Loading.tsx';
import { useQuery } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import Photo from './Photo.tsx';
import { LinkList, when } from './LinkList.tsx';

export const STATUS_COLOR: Record<number, string> = { 0: 'orange', 1: 'blue', 2: 'green', 3: 'default' };

export default function Appeals() {
  const q = useQuery({ queryKey: ['owner', 'appeals'], queryFn: () => call(E.ownerApp.appeals, { query: { size: 100 } }) });
  const rows = q.data?.data ?? [];
  return (
    <>
      <div className="h5-head"><h1>我的诉求</h1><Link to="/h5/appeals/new"><Button type="primary">提交诉求</Button></Link></div>
      <LinkList loading={q.isLoading} rows={rows} to={(a) => `/h5/appeals/${a.id}`} empty="暂无诉求">
        {(a) => (
          <>
            <div><Tag color={STATUS_COLOR[a.status]}>{a.statusText}</Tag><strong>{a.title}</strong></div>
            <div className="h5-muted">{a.typeName} · {a.roomName} · {when(a.createdAt)}</div>
          </>
        )}
      </LinkList>
    </>
  );
}

export function AppealView() {
  const id = Number(useParams().id);
  const q = useQuery({ queryKey: ['owner', 'appeal', id], queryFn: () => call(E.ownerApp.appeal, { query: { id } }), refetchInterval: 30_000 });
  const a = q.data;
  return (
    <>
      <div className="h5-head"><h1>诉求详情</h1><Link to="/h5/appeals">返回</Link></div>
      {q.isLoading ? <Loading /> : a ? (
        <>
          <section className="h5-card">
            <h2>{a.title}</h2>
            <div><Tag color={STATUS_COLOR[a.status]} data-testid="appeal-status">{a.statusText}</Tag><span className="h5-muted">{a.typeName} · {a.roomName}</span></div>
            <p style={{ whiteSpace: 'pre-wrap' }}>{a.content}</p>
            {a.photos.length > 0 && <div className="h5-photos">{a.photos.map((k, i) => <Photo key={k} fileKey={k} alt={`照片 ${i + 1}`} />)}</div>}
            <div className="h5-muted">提交于 {when(a.createdAt)}{a.finishedAt ? ` · 办结于 ${when(a.finishedAt)}` : ''}</div>
          </section>
          <section className="h5-card">
            <h2>处理记录</h2>
            {a.events.map((e) => (
              <div key={e.id} className="h5-event">
                <div><strong>{e.actionText}</strong> · <span className="h5-muted">{e.byName} · {when(e.createdAt)}</span></div>
                {e.content && <div style={{ whiteSpace: 'pre-wrap' }}>{e.content}</div>}
              </div>
            ))}
          </section>
        </>
      ) : <Empty description="诉求不存在或无权查看" />}
    </>
  );
}
