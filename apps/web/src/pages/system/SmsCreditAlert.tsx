// 短信余额 on the SMS pages (/systemSend, /notesMessage): the warning when the company's SMS credit is
// out (messages held, 余额不足) or low; nothing when it is enough or not kept.
import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useStore } from '../../app/store.ts';
import { companyPick } from '../../app/page.tsx';
import { smsApi } from '../../api/sms.ts';

export function SmsCreditAlert() {
  const company = useStore(companyPick) || undefined;
  const { data } = useQuery({ queryKey: ['smsCredit', company ?? ''], queryFn: () => smsApi.credit(company), staleTime: 30_000 });
  if (!data?.warning) return null;
  return <Alert type={data.state === 'out' ? 'error' : 'warning'} showIcon message={data.warning} style={{ marginBottom: 12 }} />;
}
