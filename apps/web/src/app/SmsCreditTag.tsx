// 短信余额 warning in the header for company users: a red 短信余额不足 (messages held until the
// platform tops up) or an orange 短信余额偏低 tag, with the reason on hover; nothing when the credit is
// enough or not kept. Checked every 5 minutes.
import { Tag, Tooltip } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { smsApi } from '../api/sms.ts';

export default function SmsCreditTag() {
  const { data } = useQuery({ queryKey: ['smsCredit', ''], queryFn: () => smsApi.credit(), refetchInterval: 5 * 60_000, staleTime: 60_000 });
  if (!data?.state) return null;
  return (
    <Tooltip title={data.warning}>
      <Tag color={data.state === 'out' ? 'red' : 'orange'} icon={<WarningOutlined />} data-testid="sms-credit-tag">
        {data.state === 'out' ? '短信余额不足' : '短信余额偏低'}
      </Tag>
    </Tooltip>
  );
}
