// 短信配置 (/systemSend): 群发短信 (bulk messages to chosen owners), the company's SMS provider
// (短信服务商), its reminder rules (提醒规则) and its SMS credit (短信余额, with the platform's top-up).
import { Space } from 'antd';
import { BulkSendCard } from './BulkSendCard.tsx';
import { SmsConfigCard } from './SmsConfigCard.tsx';
import { SmsCreditCard } from './SmsCreditCard.tsx';
import { SmsRulesCard } from './SmsRulesCard.tsx';

export default function SystemSend() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <SmsCreditCard />
      <BulkSendCard />
      <SmsConfigCard />
      <SmsRulesCard />
    </Space>
  );
}
