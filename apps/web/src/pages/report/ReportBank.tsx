// 银行报表 (/reportBank): per day and channel, the money received through the bank (named by the
// company's bank type) and online payments (微信支付, 支付宝), with how many were audited
// (Report/Bank); totals per channel and a 合计 row; .xlsx export.
import { useState } from 'react';
import { Space, Tag, type TableColumnsType } from 'antd';
import type { BankReportRow } from '@meter/contracts';
import { ReportFrame, ReportTable, defaultPeriod, m, useReport, useReportParams, type Period } from './reportKit.tsx';

export type BankRow = BankReportRow;

const COLUMNS: TableColumnsType<BankRow> = [
  { title: '日期', dataIndex: 'day' },
  { title: '渠道', dataIndex: 'channelText' },
  { title: '笔数', dataIndex: 'count', align: 'right' },
  { title: '金额', dataIndex: 'amount', align: 'right', render: m },
  { title: '已审核笔数', dataIndex: 'auditedCount', align: 'right' },
];

export default function ReportBank() {
  const [period, setPeriod] = useState<Period>(defaultPeriod());
  const params = useReportParams(period);
  const q = useReport('bank', params);
  const t = q.data?.totals;
  return (
    <ReportFrame which="bank" title="银行报表" period={period} onPeriod={setPeriod} params={params} loading={q.isFetching} data={q.data} onReload={() => void q.refetch()}>
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
    </ReportFrame>
  );
}
