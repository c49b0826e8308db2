// 提现记录 (/noteswithdraw): withdrawals of the company's collected money to its bank account —
// the pay-application withdrawals (AdaPayApplication/FindWithdrawalLog: amount, fee, bank account,
// state; filters: account, status and the time asked) — and the 提现 rows of the ledger (Statistics/list,
// transactionType 7). 申请提现 (finance.withdraw) picks an opened account and opens the withdrawal
// dialog of /huifu. A failed withdrawal shows its reason; its amount and fee went back to the balance.
import { useMemo, useRef } from 'react';
import type { ActionType } from '@ant-design/pro-components';
import { Tabs, Tag } from 'antd';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { listTab } from '../../components/listTab.tsx';
import { payAppApi } from '../../api/payapp.ts';
import { billingApi, type Paged, type WithdrawalRow } from '../fee/billingApi.ts';
import { moneyColumn, rangeColumn, timeColumn, useCompanyPick } from '../fee/common.tsx';
import { WithdrawLauncher } from '../platform/WithdrawDialog.tsx';
import { journalColumns, type JournalTableRow } from '../fee/journalColumns.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = WithdrawalRow & Record<string, unknown>;

export const WITHDRAW_STATUS: Record<string, { text: string; color: string }> = {
  '0': { text: '处理中', color: 'processing' },
  '1': { text: '提现成功', color: 'success' },
  '2': { text: '提现失败', color: 'error' },
};

/** Bank account numbers are shown masked: 6228 **** **** 1234. */
export function maskAccount(no: string | undefined | null): string {
  const s = String(no ?? '').replace(/\s+/g, '');
  if (s.length <= 8) return s || '-';
  return `${s.slice(0, 4)} **** **** ${s.slice(-4)}`;
}

export function withdrawColumns(): ResourceColumn<Row>[] {
  return [
    timeColumn<Row>('申请时间', 'createdAt'),
    { title: '收款账户', key: 'applicationName', dataIndex: 'applicationName', render: (_d, r) => r.applicationName ?? '-' },
    {
      title: '收款账户', key: 'applicationId', dataIndex: 'applicationId', hideInTable: true, search: true, valueType: 'select',
      fieldProps: { showSearch: true, optionFilterProp: 'label' },
      request: async () => (await payAppApi.list({ index: 1, size: 1000 })).data.map((a) => ({ value: a.id, label: a.name })),
    },
    moneyColumn<Row>('提现金额', 'amount'),
    moneyColumn<Row>('手续费', 'fee'),
    { title: '开户银行', key: 'bankName', dataIndex: 'bankName', render: (_d, r) => r.bankName ?? '-' },
    { title: '银行账号', key: 'bankAccount', dataIndex: 'bankAccount', render: (_d, r) => maskAccount(r.bankAccount) },
    {
      title: '状态',
      key: 'status',
      dataIndex: 'status',
      search: true,
      valueType: 'select',
      valueEnum: textEnum(WITHDRAW_STATUS),
      render: (_d, r) => {
        const s = WITHDRAW_STATUS[String(r.status)];
        return s ? <Tag color={s.color}>{r.statusText ?? s.text}</Tag> : <Tag>{r.statusText ?? String(r.status)}</Tag>;
      },
    },
    { title: '失败原因', key: 'reason', dataIndex: 'reason', ellipsis: true, render: (_d, r) => r.reason || '-' },
    { title: '操作人', key: 'operatorName', dataIndex: 'operatorName', render: (_d, r) => r.operatorName || '-' },
    { title: '备注', key: 'memo', dataIndex: 'memo', ellipsis: true },
    timeColumn<Row>('到账时间', 'finishedAt'),
    rangeColumn<Row>('申请时间'),
  ];
}

export default function NotesWithdraw() {
  const columns = useMemo(() => withdrawColumns(), []);
  const ledger = useMemo(() => journalColumns({ wallets: ['electric', 'water', 'other'] }), []);
  const company = useCompanyPick();
  const actionRef = useRef<ActionType | undefined>(undefined);
  return (
    <Tabs
      items={[
        listTab('merchant', '商户提现', {
          headerTitle: '商户提现记录', columns, actionRef, list: (q) => billingApi.withdrawals(q) as Promise<Paged<Row>>,
          toolBar: () => [<WithdrawLauncher key="withdraw" company={company} onDone={() => void actionRef.current?.reload()} />],
        }),
        listTab('ledger', '账户提现流水', {
          headerTitle: '业主账户提现流水', columns: ledger, params: { transactionType: 7 }, list: (q) => billingApi.statistics(q) as Promise<Paged<JournalTableRow>>,
        }),
      ]}
    />
  );
}
