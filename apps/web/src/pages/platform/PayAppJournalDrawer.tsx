// 账户流水: one pay-application account's statement (FindJournal) — collected online payments,
// withdrawals, their fees and failed withdrawals credited back — newest first, with the balance after
// each row, filtered by kind and time.
import { useMemo } from 'react';
import { Drawer, Tag } from 'antd';
import type { Paged } from '../../api/request.ts';
import { payAppApi, type PayAppJournalRow } from '../../api/payapp.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { moneyColumn, rangeColumn, timeColumn } from '../fee/common.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = PayAppJournalRow & Record<string, unknown>;

export const JOURNAL_KINDS: Record<string, { text: string; color: string }> = {
  collect: { text: '收款', color: 'green' },
  withdrawal: { text: '提现', color: 'blue' },
  fee: { text: '提现手续费', color: 'orange' },
  reversal: { text: '提现失败退回', color: 'purple' },
};

export function PayAppJournalDrawer({ app, company, onClose }: { app: { id: number; name: string }; company?: string; onClose(): void }) {
  const columns = useMemo<ResourceColumn<Row>[]>(() => [
    timeColumn<Row>('时间', 'createdAt'),
    {
      title: '类型', key: 'kind', dataIndex: 'kind', search: true, valueType: 'select', width: 120,
      valueEnum: textEnum(JOURNAL_KINDS),
      render: (_d, r) => <Tag color={JOURNAL_KINDS[r.kind]?.color}>{r.kindText}</Tag>,
    },
    moneyColumn<Row>('金额', 'amount'),
    moneyColumn<Row>('余额', 'balanceAfter'),
    { title: '操作人', key: 'operatorName', dataIndex: 'operatorName', render: (_d, r) => r.operatorName || '-' },
    { title: '说明', key: 'memo', dataIndex: 'memo', ellipsis: true },
    rangeColumn<Row>('时间范围'),
  ], []);
  return (
    <Drawer open width={960} title={`账户流水：${app.name}`} onClose={onClose} destroyOnHidden>
      <ResourceTable<Row>
        headerTitle="账户流水"
        columns={columns}
        areaFilter={false}
        params={{ id: app.id, ...(company ? { searchCompanyID: company } : {}) }}
        list={(q) => payAppApi.journal(q) as Promise<Paged<Row>>}
      />
    </Drawer>
  );
}
