// 业主端 公告: the published notices addressed to my rooms (unread marked); opening one marks it read.
import { Link, useParams } from 'react-router';
import { Empty, Tag } from 'antd';
import Loading from './Loading.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { LinkList, when } from './LinkList.tsx';

export default function Notices() {
  const q = useQuery({ queryKey: ['owner', 'notices'], queryFn: () => call(E.notice.ownerList, { query: { size: 100 } }) });
  const rows = q.data?.data ?? [];
  return (
    <>
      <div className="h5-head"><h1>物业公告</h1>{q.data ? <span className="h5-muted">未读 {rows.filter((r) => !r.read).length}</span> : null}</div>
      <LinkList loading={q.isLoading} rows={rows} to={(n) => `/h5/notices/${n.id}`} empty="暂无公告">
        {(n) => (
          <>
            <div>{!n.read && <span className="h5-dot" aria-label="未读" />}{n.pinned && <Tag color="red">置顶</Tag>}<strong>{n.title}</strong></div>
            <div className="h5-muted">{n.typeName ? `${n.typeName} · ` : ''}{when(n.publishedAt)}{n.read ? ' · 已读' : ''}</div>
          </>
        )}
      </LinkList>
    </>
  );
}

export function NoticeView() {
  const id = Number(useParams().id);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['owner', 'notice', id],
    queryFn: async () => {
      const n = await call(E.notice.ownerRead, { body: { id } });
      void client.invalidateQueries({ queryKey: ['owner', 'notices'] });
      return n;
    },
  });
  return (
    <>
      <div className="h5-head"><h1>公告详情</h1><Link to="/h5/notices">返回</Link></div>
      <section className="h5-card">
        {q.isLoading ? <Loading /> : q.data ? (
          <article>
            <h2>{q.data.title}</h2>
            <div className="h5-muted">{q.data.typeName ? `${q.data.typeName} · ` : ''}{when(q.data.publishedAt)}</div>
            {/* the server sanitized the notice's HTML when it was saved (content/notice-html.ts) */}
            <div className="h5-content" dangerouslySetInnerHTML={{ __html: q.data.content }} />
          </article>
        ) : <Empty description="公告不存在或已撤回" />}
      </section>
    </>
  );
}
