// 短信配置 (/systemSend): the company's SMS provider (短信服务商).
import { Space } from 'antd';
import { SmsConfigCard } from './SmsConfigCard.tsx';

export default function SystemSend() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <SmsConfigCard />
    </Space>
  );
}
