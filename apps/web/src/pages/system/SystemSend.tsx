// 短信配置 (/systemSend): 群发短信 (bulk messages to chosen owners), the company's SMS provider
// (短信服务商) and its reminder rules (提醒规则).
import { Space } from 'antd';
import { BulkSendCard } from './BulkSendCard.tsx';
import { SmsConfigCard } from './SmsConfigCard.tsx';
import { SmsRulesCard } from './SmsRulesCard.tsx';

export default function SystemSend() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <BulkSendCard />
      <SmsConfigCard />
      <SmsRulesCard />
    </Space>
  );
}
