// 物业公告 (/addedNotice): the company's notices to its owners (all, or by area), drafted in a rich-text
// editor, published (optionally with an SMS to each owner addressed) and withdrawn, with read counts;
// and the company's 公告类型 for 类型设置 holders.
import { useCan } from '../../app/session.ts';
import { ContentPage } from './ContentTypes.tsx';
import { NoticeList } from './NoticeList.tsx';

export default function AddedNotice() {
  const canTypes = useCan('content.types');
  return (
    <ContentPage
      lists={[{ key: 'list', label: '物业公告', children: <NoticeList kind="company" /> }]}
      types={canTypes && { label: '公告类型', only: ['NoticeType'] }}
    />
  );
}
