// 系统公告 (/systemNotice): platform admins write, publish and withdraw the notices every company
// receives and see how many companies have read each; company users read them here (unread first marked).
import { Card } from 'antd';
import { useSession } from '../../app/session.ts';
import { NoticeList } from '../added/NoticeList.tsx';
import { NoticeInbox } from './NoticeInbox.tsx';

export default function SystemNotice() {
  const platform = useSession()?.access === 0;
  return platform ? <NoticeList kind="system" /> : <Card><NoticeInbox /></Card>;
}
