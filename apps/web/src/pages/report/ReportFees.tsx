// 费用报表 (/reportFees): per room, the period's consumption and charges — electricity, water, other
// fees, subsidies, money received (充值实收) and refunds, system credits and opening balances, each
// apart (Report/Fees, paged) — with the period's 合计 row over every
// room (not only the page); .xlsx export of all rooms.
import { useState } from 'react';
import type { TableColumnsType } from 'antd';
import type { FeesReportRow } from '@meter/contracts';
import { ReportFrame, ReportTable, defaultPeriod, m, useReport, useReportParams, type Period } from './reportKit.tsx';

export type FeesRow = FeesReportRow;
type FeesTotals = Omit<FeesRow, 'roomId' | 'roomName' | 'ownerName' | 'electricQuantity' | 'waterQuantity'>;

const COLUMNS: TableColumnsType<FeesRow> = [
  { title: '房间', dataIndex: 'roomName' },
  { title: '业主', dataIndex: 'ownerName', render: (v) => v || '-' },
  { title: '用电量（kWh）', dataIndex: 'electricQuantity', align: 'right' },
  { title: '电费', dataIndex: 'electricAmount', align: 'right', render: m },
  { title: '用水量（m³）', dataIndex: 'waterQuantity', align: 'right' },
  { title: '水费', dataIndex: 'waterAmount', align: 'right', render: m },
  { title: '其他费用', dataIndex: 'fees', align: 'right', render: m },
  { title: '补贴', dataIndex: 'subsidy', align: 'right', render: m },
  { title: '费用合计', dataIndex: 'total', align: 'right', render: m },
  { title: '充值实收', dataIndex: 'prepay', align: 'right', render: m },
  { title: '退费', dataIndex: 'refund', align: 'right', render: m },
  { title: '系统入账', dataIndex: 'system', align: 'right', render: m },
  { title: '期初余额', dataIndex: 'opening', align: 'right', render: m },
];

export function feesTotals(t: FeesTotals) {
  return ['合计', '', '', m(t.electricAmount), '', m(t.waterAmount), m(t.fees), m(t.subsidy), m(t.total), m(t.prepay), m(t.refund), m(t.system), m(t.opening)];
}

export default function ReportFees() {
  const [period, setPeriod] = useState<Period>(defaultPeriod());
  const [page, setPage] = useState({ index: 1, size: 20 });
  const params = useReportParams(period, page);
  const q = useReport('fees', params);
  return (
    <ReportFrame
      which="fees"
      title="费用报表"
      period={period}
      onPeriod={(p) => {
        setPeriod(p);
        setPage((x) => ({ ...x, index: 1 }));
      }}
      params={params}
      loading={q.isFetching}
      data={q.data}
      onReload={() => void q.refetch()}
    >
      <ReportTable<FeesRow>
        rowKey={(r) => String(r.roomId)}
        rows={q.data?.rows ?? []}
        columns={COLUMNS}
        loading={q.isFetching}
        summary={q.data ? [feesTotals(q.data.totals)] : undefined}
        pagination={{ current: page.index, pageSize: page.size, total: q.data?.count ?? 0, onChange: (index, size) => setPage({ index, size }) }}
      />
    </ReportFrame>
  );
}
