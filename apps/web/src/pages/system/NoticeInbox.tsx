// 系统公告 as a company user receives them: the list with unread marks, and one opened in a drawer
// (opening it counts it as read for the platform's read count and clears it from the header badge).
import { useState } from 'react';
import { Badge, Drawer, Empty, List, Space, Spin, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { noticeInbox, readSystemNotice } from '../../api/notice.ts';
import { fmt } from '../added/AppealDrawer.tsx';
import { NoticeReading } from '../added/RichTextEditor.tsx';

export const INBOX_KEY = ['noticeInbox'];

export function NoticeInbox() {
  const client = useQueryClient();
  const { data, isFetching } = useQuery({ queryKey: INBOX_KEY, queryFn: noticeInbox });
  const [open, setOpen] = useState<number>();
  const { data: notice, isFetching: loading } = useQuery({
    queryKey: ['systemNotice', open],
    queryFn: async () => {
      const n = await readSystemNotice(open!);
      void client.invalidateQueries({ queryKey: INBOX_KEY });
      return n;
    },
    enabled: open !== undefined,
  });
  return (
    <>
      <List
        header={<Typography.Title level={5} style={{ margin: 0 }}>系统公告{data?.unread ? `（${data.unread} 条未读）` : ''}</Typography.Title>}
        loading={isFetching && !data}
        dataSource={data?.rows ?? []}
        locale={{ emptyText: <Empty description="暂无系统公告" /> }}
        renderItem={(n) => (
          <List.Item key={n.id} actions={[<a key="o" onClick={() => setOpen(n.id)}>查看</a>]}>
            <List.Item.Meta
              title={(
                <Space size={6}>
                  {!n.read && <Badge status="error" />}
                  {n.pinned && <Tag color="red">置顶</Tag>}
                  <Typography.Link strong={!n.read} onClick={() => setOpen(n.id)}>{n.title}</Typography.Link>
                </Space>
              )}
              description={<Space size={12}><span>{n.categoryText}</span><span>{fmt(n.publishedAt)}</span>{n.read ? <span>已读</span> : <Typography.Text type="danger">未读</Typography.Text>}</Space>}
            />
          </List.Item>
        )}
      />
      <Drawer title={notice?.title ?? '系统公告'} width={720} open={open !== undefined} onClose={() => setOpen(undefined)} destroyOnHidden>
        {loading || !notice ? <Spin /> : (
          <NoticeReading labels={<Typography.Text type="secondary">{notice.categoryText}</Typography.Text>} publishedAt={notice.publishedAt} html={notice.content} />
        )}
      </Drawer>
    </>
  );
}
