// 对账报表 (/reportCheck): per day of the period, money received by pay method (count and amount),
// refunds, 冲正 (voided receipts), net receipts, and apart from them subsidies, system credits and opening balances (never
// income), and what was charged (Report/Check), a 合计 row, .xlsx export;
// and the transaction detail behind it (Statistics/list, transactionType 0 全部 by default).
import { useMemo } from 'react';
import { Tabs, type TableColumnsType } from 'antd';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { TRANSACTION_TYPES, billingApi, type Paged } from '../fee/billingApi.ts';
import { journalColumns, type JournalTableRow } from '../fee/journalColumns.tsx';
import type { CheckReportRow } from '@meter/contracts';
import { ReportFrame, ReportTable, m, usePeriodReport } from './reportKit.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

export type CheckRow = CheckReportRow;

const pair = (count: keyof CheckRow, amount: keyof CheckRow, title: string) => ({
  title,
  children: [
    { title: '笔数', dataIndex: count, align: 'right' as const },
    { title: '金额', dataIndex: amount, align: 'right' as const, render: m },
  ],
});

export const CHECK_COLUMNS: TableColumnsType<CheckRow> = [
  { title: '日期', dataIndex: 'day', fixed: 'left' },
  pair('cashCount', 'cash', '现金'),
  pair('wechatCount', 'wechat', '微信'),
  pair('alipayCount', 'alipay', '支付宝'),
  pair('bankCount', 'bank', '银行'),
  { title: '收款合计', dataIndex: 'income', align: 'right', render: m },
  pair('refundCount', 'refund', '退费'),
  pair('reversalCount', 'reversal', '冲正'),
  { title: '净收款', dataIndex: 'net', align: 'right', render: m },
  pair('subsidyCount', 'subsidy', '补贴'),
  pair('systemCount', 'system', '系统入账'),
  pair('openingCount', 'opening', '期初余额'),
  { title: '扣费', dataIndex: 'deduction', align: 'right', render: m },
  { title: '费用', dataIndex: 'fee', align: 'right', render: m },
];

/** The totals row in column order (the grouped columns flattened). */
export function checkTotals(t: CheckRow) {
  return [
    '合计', t.cashCount, m(t.cash), t.wechatCount, m(t.wechat), t.alipayCount, m(t.alipay), t.bankCount, m(t.bank), m(t.income),
    t.refundCount, m(t.refund), t.reversalCount, m(t.reversal), m(t.net), t.subsidyCount, m(t.subsidy), t.systemCount, m(t.system), t.openingCount, m(t.opening), m(t.deduction), m(t.fee),
  ];
}

function CheckReport() {
  const { q, frame } = usePeriodReport('check');
  return (
    <ReportFrame title="对账报表" {...frame}>
      <ReportTable<CheckRow>
        rowKey={(r) => r.day}
        rows={q.data?.rows ?? []}
        columns={CHECK_COLUMNS}
        loading={q.isFetching}
        summary={q.data ? [checkTotals(q.data.totals)] : undefined}
      />
    </ReportFrame>
  );
}

function StatisticsList() {
  const columns = useMemo<ResourceColumn<JournalTableRow>[]>(() => [
    {
      title: '交易类型',
      key: 'transactionType',
      dataIndex: 'transactionType',
      hideInTable: true,
      search: true,
      valueType: 'select',
      initialValue: '0',
      fieldProps: { allowClear: false },
      valueEnum: textEnum(TRANSACTION_TYPES),
    },
    ...journalColumns({ wallets: ['electric', 'water', 'subsidy', 'other'] }),
  ], []);
  return (
    <ResourceTable<JournalTableRow>
      headerTitle="交易明细"
      columns={columns}
      list={(q) => billingApi.statistics(q) as Promise<Paged<JournalTableRow>>}
    />
  );
}

export default function ReportCheck() {
  return (
    <Tabs
      items={[
        { key: 'check', label: '对账报表', children: <CheckReport /> },
        { key: 'statistics', label: '交易明细', children: <StatisticsList /> },
      ]}
    />
  );
}
