// 综合缴费明细 (/compreProperty, a hidden route): the combined payments made at the counter
// (Paymentlist2 with kind business), each with its items and a printable receipt.
import { useMemo, useState } from 'react';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { billingApi, type Paged, type ReceiptRow } from './billingApi.ts';
import { receiptColumns } from './BillPrint.tsx';
import { ReceiptModal } from './Receipt.tsx';
import { useCompanyPick } from './common.tsx';

type Row = ReceiptRow & Record<string, unknown>;

export default function CompreProperty() {
  const company = useCompanyPick();
  const [viewing, setViewing] = useState<number | null>(null);
  // the kind is fixed here: no 类型 search
  const columns = useMemo(() => receiptColumns().map((c) => (c.key === 'kind' ? { ...c, search: false } : c)), []);
  return (
    <>
      <ResourceTable<Row>
        headerTitle="综合缴费明细"
        columns={columns}
        params={{ kind: 'business' }}
        list={(q) => billingApi.counterReceipts(q) as Promise<Paged<Row>>}
        rowActions={(r) => [<a key="view" onClick={() => setViewing(r.id)}>查看票据</a>]}
      />
      <ReceiptModal id={viewing} company={company} onClose={() => setViewing(null)} />
    </>
  );
}
