// 票据打印 (/billprint): the receipts of the counter operations (BillPrinting/List) beside the area
// tree, searched by number, room, owner, kind and time; each opens as a printable receipt with its
// amount in Chinese capitals and a QR code. /billprint?id=N opens receipt N at once (the link shown
// after a top-up or refund on /energy).
import { useEffect, useMemo, useState } from 'react';
import { Tag } from 'antd';
import { useSearchParams } from 'react-router';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { usePage } from '../../app/page.tsx';
import { RECEIPT_KIND_TEXT, billingApi, type Paged, type ReceiptRow } from './billingApi.ts';
import { moneyColumn, rangeColumn, timeColumn, useCompanyPick } from './common.tsx';
import { ReceiptModal } from './Receipt.tsx';

type Row = ReceiptRow & Record<string, unknown>;

export function receiptColumns(): ResourceColumn<Row>[] {
  return [
    { title: '票据号', key: 'no', dataIndex: 'no', search: true, copyable: true },
    {
      title: '类型',
      key: 'kind',
      dataIndex: 'kind',
      search: true,
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(RECEIPT_KIND_TEXT).map(([k, v]) => [k, { text: v }])),
      render: (_d, r) => <Tag color={r.kind === 'refund' || r.kind === 'close' ? 'orange' : 'blue'}>{r.kindText}</Tag>,
    },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, render: (_d, r) => r.roomName ?? '-' },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? '-' },
    { title: '项目', key: 'items', dataIndex: 'items', ellipsis: true, render: (_d, r) => r.items.map((i) => i.item).join('、') },
    moneyColumn<Row>('金额', 'amount'),
    { title: '支付方式', key: 'payMethodText', dataIndex: 'payMethodText' },
    { title: '经办人', key: 'operatorName', dataIndex: 'operatorName' },
    timeColumn<Row>('开票时间', 'createdAt'),
    { title: '打印次数', key: 'printCount', dataIndex: 'printCount', width: 90, render: (_d, r) => (r.printCount > 0 ? r.printCount : <Tag>未打印</Tag>) },
    rangeColumn<Row>('开票时间'),
  ];
}

export default function BillPrint() {
  const company = useCompanyPick();
  const { active } = usePage();
  const [params, setParams] = useSearchParams();
  const [viewing, setViewing] = useState<number | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const columns = useMemo(() => receiptColumns(), []);
  const wanted = active ? Number(params.get('id') ?? '') : NaN;

  useEffect(() => {
    if (Number.isInteger(wanted) && wanted > 0) setViewing(wanted);
  }, [wanted]);

  const close = () => {
    setViewing(null);
    if (params.has('id')) {
      const next = new URLSearchParams(params);
      next.delete('id');
      setParams(next, { replace: true });
    }
  };

  return (
    <>
      <ResourceTable<Row>
        entityName="票据"
        headerTitle="票据列表"
        rowKey="id"
        columns={columns}
        params={{ reloadKey }}
        list={(q) => {
          const { reloadKey: _r, ...rest } = q;
          void _r;
          return billingApi.receipts(rest as typeof q) as Promise<Paged<Row>>;
        }}
        rowActions={(r) => [<a key="view" data-testid={`receipt-${r.id}`} onClick={() => setViewing(r.id)}>查看打印</a>]}
      />
      <ReceiptModal id={viewing} company={company} onClose={close} onPrinted={() => setReloadKey((k) => k + 1)} />
    </>
  );
}
