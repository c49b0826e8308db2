// 短信配置 (/systemSend): the company's SMS provider (短信服务商) and its reminder rules (提醒规则).
import { Space } from 'antd';
import { SmsConfigCard } from './SmsConfigCard.tsx';
import { SmsRulesCard } from './SmsRulesCard.tsx';

export default function SystemSend() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <SmsConfigCard />
      <SmsRulesCard />
    </Space>
  );
}
