// 退款记录 of an online order (/notesPay 在线支付): each refund with its state; a succeeded one prints
// its 退款凭证 (the receipt the server made when the provider confirmed it, also on /billprint); one
// still 处理中 (its answer or notification lost) can be asked again — 重新查询/重发 (finance.refund):
// the server asks the provider and settles it, or sends it again under the same refund number.
import { Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { billingApi, type OnlineOrderRow } from './billingApi.ts';
import { money } from './money.ts';

type Refund = Awaited<ReturnType<typeof billingApi.onlineRefunds>>[number];
const STATUS_COLOR: Record<string, string> = { processing: 'processing', success: 'success', failed: 'error' };

export function RefundList({ order, company, onPrint, onClose, onChanged }: {
  order: OnlineOrderRow | null; company?: string; onPrint(receiptId: number): void; onClose(): void; onChanged(): void;
}) {
  const canRefund = useCan('finance.refund');
  const [asking, setAsking] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['onlineRefunds', order?.outTradeNo, company],
    queryFn: () => billingApi.onlineRefunds(order!.outTradeNo, company),
    enabled: order != null,
  });

  const retry = async (f: Refund) => {
    setAsking(f.outRefundNo);
    try {
      const r = await billingApi.retryRefund(f.outRefundNo, company);
      if (r.status === 'success') toast.success(`支付平台已确认退款 ${money(r.amount)}`);
      else if (r.status === 'failed') toast.error(`退款失败：${r.providerMessage || '支付平台拒绝'}，已退回账户余额`);
      else toast.warning(`退款 ${money(r.amount)} 仍在处理中${r.providerMessage ? `（${r.providerMessage}）` : ''}`);
      await list.refetch();
      onChanged();
    } catch {
      // the request wrapper showed why
    } finally {
      setAsking(null);
    }
  };

  return (
    <Modal open={order != null} title={`退款记录 ${order?.outTradeNo ?? ''}`} width={860} footer={<Button onClick={onClose}>关闭</Button>} onCancel={onClose} destroyOnHidden>
      <Table<Refund>
        rowKey="outRefundNo"
        size="small"
        pagination={false}
        loading={list.isFetching}
        dataSource={list.data ?? []}
        locale={{ emptyText: '暂无退款记录' }}
        columns={[
          { title: '退款单号', dataIndex: 'outRefundNo', render: (v: string) => <Typography.Text copyable style={{ fontSize: 12 }}>{v}</Typography.Text> },
          { title: '金额', dataIndex: 'amount', align: 'right', render: (v: string) => money(v) },
          { title: '状态', dataIndex: 'status', render: (_v, r) => <Tag color={STATUS_COLOR[r.status]} data-testid={`refund-status-${r.id}`}>{r.statusText}</Tag> },
          { title: '原因', dataIndex: 'reason' },
          { title: '说明', dataIndex: 'providerMessage', render: (v: string) => v || '-' },
          { title: '申请时间', dataIndex: 'createdAt' },
          {
            title: '操作',
            key: 'actions',
            render: (_v, r) => (
              <Space>
                {r.status === 'success' && r.receiptId != null
                  ? <a data-testid={`refund-print-${r.id}`} onClick={() => onPrint(r.receiptId!)}>打印凭证</a>
                  : null}
                {r.status === 'processing' && canRefund
                  ? <Button size="small" loading={asking === r.outRefundNo} data-testid={`refund-retry-${r.id}`} onClick={() => void retry(r)}>重新查询</Button>
                  : null}
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}
