// 扣费报表 (/reportDeduct): per day and meter kind, the settlements of the period — readings
// settled, meters, consumption, the amount, what was charged and what vacant rooms left uncharged
// (Report/Deduct); 电表 / 水表 subtotals and a 合计 row; .xlsx export.
import type { TableColumnsType } from 'antd';
import type { DeductReportRow } from '@meter/contracts';
import type { ReportAnswer } from '../fee/billingApi.ts';
import { ReportFrame, ReportTable, m, usePeriodReport } from './reportKit.tsx';

export type DeductRow = DeductReportRow;
type DeductTotals = ReportAnswer<'deduct'>['totals'];
type KindTotals = DeductTotals['electric'];

const COLUMNS: TableColumnsType<DeductRow> = [
  { title: '日期', dataIndex: 'day' },
  { title: '表具类型', dataIndex: 'meterKindText' },
  { title: '结算笔数', dataIndex: 'readings', align: 'right' },
  { title: '表具数', dataIndex: 'meters', align: 'right' },
  { title: '用量', dataIndex: 'quantity', align: 'right', render: (v, r) => `${v} ${r.unit}` },
  { title: '金额', dataIndex: 'amount', align: 'right', render: m },
  { title: '已扣费', dataIndex: 'charged', align: 'right', render: m },
  { title: '空置未扣', dataIndex: 'vacant', align: 'right', render: m },
];

export function deductTotals(t: DeductTotals) {
  const row = (label: string, k: KindTotals, unit: string) => [label, '', k.readings, '', `${k.quantity} ${unit}`, m(k.amount), m(k.charged), m(k.vacant)];
  return [row('电表合计', t.electric, 'kWh'), row('水表合计', t.water, 'm³'), ['合计', '', t.electric.readings + t.water.readings, '', '', m(t.amount), '', '']];
}

export default function ReportDeduct() {
  const { q, frame } = usePeriodReport('deduct');
  return (
    <ReportFrame title="扣费报表" {...frame}>
      <ReportTable<DeductRow>
        rowKey={(r) => `${r.day}-${r.meterKind}`}
        rows={q.data?.rows ?? []}
        columns={COLUMNS}
        loading={q.isFetching}
        summary={q.data ? deductTotals(q.data.totals) : undefined}
      />
    </ReportFrame>
  );
}
