// 短信余额 on /systemSend: the company's SMS credit kept by the platform (balance, messages held for
// want of it, the journal of top-ups, charges and refunds). A platform admin tops up the company picked
// at the top; held messages are then sent again.
import { useState } from 'react';
import { Button, Card, Descriptions, Form, Input, Space, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ACCESS, formatMoney } from '@meter/contracts';
import { smsApi, type SmsCreditJournal } from '../../api/sms.ts';
import { toast } from '../../app/feedback.tsx';
import { companyPick } from '../../app/page.tsx';
import { getSession } from '../../app/session.ts';
import { useStore } from '../../app/store.ts';
import { SmsCreditAlert } from './SmsCreditAlert.tsx';

export function SmsCreditCard() {
  const company = useStore(companyPick) || undefined;
  const platform = getSession()?.access === ACCESS.platform;
  const [page, setPage] = useState(1);
  const credit = useQuery({ queryKey: ['smsCredit', company ?? ''], queryFn: () => smsApi.credit(company) });
  const journal = useQuery({ queryKey: ['smsCreditJournal', company ?? '', page], queryFn: () => smsApi.creditJournal({ index: page, size: 10 }, company) });
  const [form] = Form.useForm<{ amount: string; memo: string }>();
  const [saving, setSaving] = useState(false);
  const d = credit.data;

  const topUp = async (v: { amount: string; memo: string }) => {
    if (!company) return void toast.warning('请先在页面顶部选择单位');
    setSaving(true);
    try {
      const r = await smsApi.topUp({ companyId: Number(company), amount: v.amount, memo: v.memo });
      toast.success(`已充值，短信余额 ¥${r.balance}${r.released ? `，${r.released} 条暂停的消息将重新发送` : ''}`);
      form.resetFields();
      void credit.refetch();
      void journal.refetch();
    } catch {
      // the wrapper showed the server's reason
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="短信余额" loading={credit.isLoading}>
      <SmsCreditAlert />
      {d && (
        <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
          <Descriptions.Item label="余额">{d.kept ? `¥${d.balance}` : <Tag>未启用余额管理（不限制发送）</Tag>}</Descriptions.Item>
          <Descriptions.Item label="单价">短信 {formatMoney(d.smsPriceFen)}/条，电话 {formatMoney(d.phonePriceFen)}/次</Descriptions.Item>
          <Descriptions.Item label="余额不足暂停">{d.heldCount} 条</Descriptions.Item>
        </Descriptions>
      )}
      {platform && (
        <Form form={form} layout="inline" name="sms-topup" onFinish={topUp} style={{ marginBottom: 12 }}>
          <Form.Item name="amount" label="充值金额（元）" rules={[{ required: true, message: '请填写充值金额' }]}>
            <Input style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="memo" label="备注">
            <Input style={{ width: 200 }} maxLength={200} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} disabled={!company}>充值</Button>
            {!company && <span>请先在页面顶部选择单位</span>}
          </Space>
        </Form>
      )}
      <Table<SmsCreditJournal>
        rowKey="id"
        size="small"
        loading={journal.isFetching}
        dataSource={journal.data?.data ?? []}
        pagination={{ current: page, pageSize: 10, total: journal.data?.count ?? 0, onChange: setPage, hideOnSinglePage: true }}
        locale={{ emptyText: '暂无余额流水' }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 170 },
          { title: '类型', dataIndex: 'kindText', render: (v: string, r) => <Tag color={r.kind === 'topup' ? 'green' : r.kind === 'refund' ? 'blue' : 'default'}>{v}</Tag> },
          { title: '金额（元）', dataIndex: 'amount', align: 'right' },
          { title: '余额（元）', dataIndex: 'balance', align: 'right' },
          { title: '消息', dataIndex: 'notificationId', render: (v: number | null) => v ?? '-' },
          { title: '备注', dataIndex: 'memo' },
          { title: '操作人', dataIndex: 'operatorName' },
        ]}
      />
    </Card>
  );
}
