// 业主诉求 (/addedAppeal): owners' requests to the property company, handled as work orders
// (待受理 → 处理中 → 已完成 / 已驳回), the 设备工单 that device exceptions open and close by themselves,
// and the company's 类型设置 (诉求/工单/公告类型).
import { useCan } from '../../app/session.ts';
import { AppealList } from './AppealList.tsx';
import { ContentPage } from './ContentTypes.tsx';

export default function AddedAppeal() {
  const canTypes = useCan('content.types');
  return (
    <ContentPage
      lists={[
        { key: 'list', label: '业主诉求', children: <AppealList kind="owner" /> },
        { key: 'device', label: '设备工单', children: <AppealList kind="device" /> },
      ]}
      types={canTypes && { label: '类型设置' }}
    />
  );
}
