// 平台诉求 (/systemAppeal): a company's questions and requests to the platform. Platform admins see
// every company's and answer them (受理, 回复, 办结/驳回); company staff submit, follow and add to their own.
import { useCan, useSession } from '../../app/session.ts';
import { AppealList } from './AppealList.tsx';
import { ContentPage } from './ContentTypes.tsx';

export default function SystemAppeal() {
  const platform = useSession()?.access === 0;
  const canTypes = useCan('content.types') && !platform;
  return (
    <ContentPage
      lists={[{ key: 'list', label: '平台诉求', children: <AppealList kind="system" /> }]}
      types={canTypes && { label: '诉求类型', only: ['AppealType'] }}
    />
  );
}
