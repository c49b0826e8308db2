// 票据打印 (/billprint): the receipts of the counter operations (BillPrinting/List) beside the area
// tree, searched by number, room, owner, kind and time; each opens as a printable receipt with its
// amount in Chinese capitals and a QR code. /billprint?id=N opens receipt N at once (the link shown
// after a top-up or refund on /energy). 作废 (finance.reverse) voids a counter receipt by a reversal;
// a voided receipt is marked 已作废 here and prints with the 作废 stamp (BillPrinting/Voids).
import { useEffect, useMemo, useState } from 'react';
import { Tag } from 'antd';
import { useSearchParams } from 'react-router';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { usePage } from '../../app/page.tsx';
import { useCan } from '../../app/session.ts';
import { RECEIPT_KIND_TEXT, billingApi, type Paged, type ReceiptRow } from './billingApi.ts';
import { financeApi, type ReceiptVoid } from './financeApi.ts';
import { VOIDABLE_KINDS, VoidDialog } from './VoidDialog.tsx';
import { moneyColumn, rangeColumn, timeColumn, useCompanyPick } from './common.tsx';
import { ReceiptModal } from './Receipt.tsx';
import { useListReload, withoutReloadKey } from '../../components/useListReload.ts';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = ReceiptRow & Record<string, unknown> & { voided?: ReceiptVoid | null };

export function receiptColumns(): ResourceColumn<Row>[] {
  return [
    { title: '票据号', key: 'no', dataIndex: 'no', search: true, copyable: true },
    {
      title: '类型',
      key: 'kind',
      dataIndex: 'kind',
      search: true,
      valueType: 'select',
      valueEnum: textEnum(RECEIPT_KIND_TEXT),
      render: (_d, r) => (
        <>
          <Tag color={r.kind === 'refund' || r.kind === 'close' ? 'orange' : 'blue'}>{r.kindText}</Tag>
          {r.voided ? <Tag color="red" data-testid={`receipt-voided-${r.id}`}>已作废</Tag> : null}
        </>
      ),
    },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, render: (_d, r) => r.roomName ?? '-' },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? '-' },
    { title: '项目', key: 'items', dataIndex: 'items', ellipsis: true, render: (_d, r) => r.items.map((i) => i.item).join('、') },
    moneyColumn<Row>('金额', 'amount'),
    // whether it was printed beside the amount: at 1440×900 the 操作 column (查看打印, 作废) covers the table's end
    { title: '打印次数', key: 'printCount', dataIndex: 'printCount', render: (_d, r) => (r.printCount > 0 ? r.printCount : <Tag>未打印</Tag>) },
    { title: '支付方式', key: 'payMethodText', dataIndex: 'payMethodText' },
    { title: '经办人', key: 'operatorName', dataIndex: 'operatorName' },
    timeColumn<Row>('开票时间', 'createdAt'),
    rangeColumn<Row>('开票时间'),
  ];
}

export default function BillPrint() {
  const company = useCompanyPick();
  const { active } = usePage();
  const [params, setParams] = useSearchParams();
  const [viewing, setViewing] = useState<number | null>(null);
  const reloading = useListReload();
  const [voiding, setVoiding] = useState<Row | null>(null);
  const canVoid = useCan('finance.reverse');
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
        headerTitle="票据列表"
        columns={columns}
        params={reloading.params}
        list={(q) => withVoids(billingApi.receipts(withoutReloadKey(q)) as Promise<Paged<Row>>, company)}
        rowActions={(r) => [
          <a key="view" data-testid={`receipt-${r.id}`} onClick={() => setViewing(r.id)}>查看打印</a>,
          canVoid && !r.voided && !r.online && VOIDABLE_KINDS.has(r.kind) ? <a key="void" data-testid={`receipt-void-${r.id}`} style={{ color: '#cf1322' }} onClick={() => setVoiding(r)}>作废</a> : null,
        ].filter(Boolean)}
      />
      <VoidDialog
        receipt={voiding}
        company={company}
        onCancel={() => setVoiding(null)}
        onDone={() => {
          setVoiding(null);
          reloading.reload();
        }}
      />
      <ReceiptModal id={viewing} company={company} onClose={close} onPrinted={reloading.reload} />
    </>
  );
}

/** The page of receipts with each one's void (作废), if any. */
async function withVoids(page: Promise<Paged<Row>>, company?: string): Promise<Paged<Row>> {
  const p = await page;
  const voids = await financeApi.voids(p.data.map((r) => r.id), company);
  const by = new Map((voids ?? []).map((v) => [v.receiptId, v]));
  return { ...p, data: p.data.map((r) => ({ ...r, voided: by.get(r.id) ?? null })) };
}
