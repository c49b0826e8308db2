// 银行报表 (/reportBank): per day and channel, the money received through the bank (named by the
// company's bank type) and online payments (微信支付, 支付宝), with how many were audited
// (Report/Bank); totals per channel and a 合计 row; the bank sub-accounts' withdrawals (子账户提现) of
// the period with their state; .xlsx export.
import { Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { BankReportRow, BankReportWithdrawal } from '@meter/contracts';
import { ReportFrame, ReportTable, m, usePeriodReport } from './reportKit.tsx';

export type BankRow = BankReportRow;

const COLUMNS: TableColumnsType<BankRow> = [
  { title: '日期', dataIndex: 'day' },
  { title: '渠道', dataIndex: 'channelText' },
  { title: '笔数', dataIndex: 'count', align: 'right' },
  { title: '金额', dataIndex: 'amount', align: 'right', render: m },
  { title: '已审核笔数', dataIndex: 'auditedCount', align: 'right' },
];

const WD_STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

const WD_COLUMNS: TableColumnsType<BankReportWithdrawal> = [
  { title: '申请时间', dataIndex: 'createdAt', width: 170 },
  { title: '二级商户', dataIndex: 'propertyName' },
  { title: '子商户号', dataIndex: 'subMerId' },
  { title: '金额', dataIndex: 'amount', align: 'right', render: m },
  { title: '状态', dataIndex: 'statusText', render: (v: string, r) => <Tag color={WD_STATUS_COLOR[r.status]}>{v}</Tag> },
  { title: '银行流水号', dataIndex: 'bankSerial' },
  { title: '完成时间', dataIndex: 'finishedAt', render: (v: string | null) => v ?? '—' },
  { title: '说明', dataIndex: 'reason', ellipsis: true },
  { title: '操作人', dataIndex: 'operatorName' },
];

export default function ReportBank() {
  const { q, frame } = usePeriodReport('bank');
  const t = q.data?.totals;
  const w = q.data?.withdrawalTotals;
  return (
    <ReportFrame title="银行报表" {...frame}>
      {t && (
        <Space wrap style={{ marginBottom: 12 }}>
          <Tag color="blue">银行 {t.bank.count} 笔 {m(t.bank.amount)}</Tag>
          <Tag color="green">微信支付 {t.wechat.count} 笔 {m(t.wechat.amount)}</Tag>
          <Tag color="cyan">支付宝 {t.alipay.count} 笔 {m(t.alipay.amount)}</Tag>
        </Space>
      )}
      <ReportTable<BankRow>
        rowKey={(r) => `${r.day}-${r.channel}`}
        rows={q.data?.rows ?? []}
        columns={COLUMNS}
        loading={q.isFetching}
        summary={t ? [['合计', '', t.count, m(t.amount), '']] : undefined}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>子账户提现</Typography.Title>
      {w && (
        <Space wrap style={{ marginBottom: 12 }}>
          <Tag color="green">已到账 {w.succeeded.count} 笔 {m(w.succeeded.amount)}</Tag>
          <Tag color="blue">处理中 {w.processing.count} 笔 {m(w.processing.amount)}</Tag>
          <Tag color="red">失败 {w.failed.count} 笔 {m(w.failed.amount)}</Tag>
        </Space>
      )}
      <Table<BankReportWithdrawal>
        rowKey="id"
        size="small"
        dataSource={q.data?.withdrawals ?? []}
        columns={WD_COLUMNS}
        loading={q.isFetching}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: '本期无子账户提现' }}
      />
    </ReportFrame>
  );
}
