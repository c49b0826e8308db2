// 缴费记录 (/notesPay): money paid in and out at the counter and online — 充值, 退费, 补贴
// (userpaymentlog/Paymentlist), the counter business with its receipts (Paymentlist2, each opens as
// a printable receipt) and the online payment orders (wxpay/list).
import { useMemo, useState } from 'react';
import { Tabs, Tag } from 'antd';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { listTab } from '../../components/listTab.tsx';
import { billingApi, type OnlineOrderRow, type Paged, type ReceiptRow } from '../fee/billingApi.ts';
import { journalColumns, type JournalTableRow } from '../fee/journalColumns.tsx';
import { receiptColumns } from '../fee/BillPrint.tsx';
import { ReceiptModal } from '../fee/Receipt.tsx';
import { moneyColumn, timeColumn, useCompanyPick } from '../fee/common.tsx';
import { useCan, useSession } from '../../app/session.ts';
import { RefundDialog, refundable } from '../fee/RefundDialog.tsx';
import { RefundList } from '../fee/RefundList.tsx';
import { useListReload, withoutReloadKey } from '../../components/useListReload.ts';

type ReceiptTableRow = ReceiptRow & Record<string, unknown>;
type OrderRow = OnlineOrderRow & Record<string, unknown>;

const ORDER_STATUS_COLORS: Record<string, string> = { created: 'processing', paid: 'success', closed: 'default' };

function orderColumns(): ResourceColumn<OrderRow>[] {
  return [
    { title: '订单号', key: 'outTradeNo', dataIndex: 'outTradeNo', copyable: true },
    {
      title: '渠道',
      key: 'channel',
      dataIndex: 'channel',
      search: true,
      valueType: 'select',
      valueEnum: { wechat: { text: '微信支付' }, alipay: { text: '支付宝' } },
      render: (_d, r) => r.channelText,
    },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', render: (_d, r) => r.roomName ?? '-' },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', render: (_d, r) => r.ownerName ?? '-' },
    { title: '账户', key: 'walletText', dataIndex: 'walletText' },
    moneyColumn<OrderRow>('金额', 'amount'),
    moneyColumn<OrderRow>('已退款', 'refunded'),
    {
      title: '状态',
      key: 'status',
      dataIndex: 'status',
      search: true,
      valueType: 'select',
      valueEnum: { created: { text: '待支付' }, paid: { text: '已支付' }, closed: { text: '已关闭' } },
      render: (_d, r) => <Tag color={ORDER_STATUS_COLORS[r.status]}>{r.statusText}</Tag>,
    },
    { title: '支付平台流水号', key: 'providerTradeNo', dataIndex: 'providerTradeNo', render: (_d, r) => r.providerTradeNo ?? '-' },
    timeColumn<OrderRow>('下单时间', 'createdAt'),
    timeColumn<OrderRow>('支付时间', 'paidAt'),
  ];
}

export default function NotesPay() {
  const company = useCompanyPick();
  const [viewing, setViewing] = useState<number | null>(null);
  // receipts open through /billprint's permission
  const canView = useSession()?.routes.includes('billprint') ?? false;
  const payCols = useMemo(() => journalColumns({ kinds: ['prepay', 'refund', 'subsidy', 'reversal'], wallets: ['electric', 'water', 'other'] }), []);
  const counterCols = useMemo(() => receiptColumns(), []);
  const orderCols = useMemo(() => orderColumns(), []);
  const canRefund = useCan('finance.refund');
  const [refunding, setRefunding] = useState<OrderRow | null>(null);
  const [listing, setListing] = useState<OrderRow | null>(null);
  const reloading = useListReload();

  return (
    <>
      <Tabs
        items={[
          listTab('pay', '缴费记录', {
            headerTitle: '充值、退费与补贴', columns: payCols, list: (q) => billingApi.payments(q) as Promise<Paged<JournalTableRow>>,
          }),
          listTab('counter', '柜台业务', {
            headerTitle: '柜台业务与票据', columns: counterCols, list: (q) => billingApi.counterReceipts(q) as Promise<Paged<ReceiptTableRow>>,
            rowActions: canView ? (r) => [<a key="view" onClick={() => setViewing(r.id)}>查看票据</a>] : undefined,
          }),
          listTab('online', '在线支付', {
            headerTitle: '微信、支付宝订单', columns: orderCols, params: reloading.params,
            list: (q) => billingApi.onlineOrders(withoutReloadKey(q)) as Promise<Paged<OrderRow>>,
            rowActions: (r) => [
              canRefund && refundable(r) ? <a key="refund" data-testid={`refund-${r.outTradeNo}`} style={{ color: '#cf1322' }} onClick={() => setRefunding(r)}>退款</a> : null,
              Number(r.refunded) > 0 ? <a key="refunds" data-testid={`refunds-${r.outTradeNo}`} onClick={() => setListing(r)}>退款记录</a> : null,
            ],
          }),
        ]}
      />
      <ReceiptModal id={viewing} company={company} onClose={() => setViewing(null)} />
      <RefundDialog
        order={refunding}
        company={company}
        onCancel={() => setRefunding(null)}
        onDone={(r) => {
          setRefunding(null);
          reloading.reload();
          // refunded: its 退款凭证 opens, ready to print
          if (r.status === 'success' && r.receiptId != null) setViewing(r.receiptId);
        }}
      />
      <RefundList order={listing} company={company} onPrint={setViewing} onClose={() => setListing(null)} onChanged={reloading.reload} />
    </>
  );
}
