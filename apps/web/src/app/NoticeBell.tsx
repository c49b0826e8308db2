// The header's 系统公告 bell for company users: the number of published system notices they have not
// opened (checked every 5 minutes and after each opening); a click opens /systemNotice.
import { Badge, Button, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { noticeInbox } from '../api/notice.ts';

export default function NoticeBell() {
  const navigate = useNavigate();
  const { data } = useQuery({ queryKey: ['noticeInbox'], queryFn: noticeInbox, refetchInterval: 5 * 60_000, staleTime: 60_000 });
  const unread = data?.unread ?? 0;
  return (
    <Tooltip title={unread ? `${unread} 条系统公告未读` : '系统公告'}>
      <Badge count={unread} size="small" offset={[-4, 4]}>
        <Button type="text" aria-label="系统公告" icon={<BellOutlined />} onClick={() => navigate('/systemNotice')} />
      </Badge>
    </Tooltip>
  );
}
