// What the four finance reports share: a period of whole days (default this month), the area of the
// tree where the route has one, the report query, a totals row under the table and the .xlsx export
// (finance.logExport; 成功！/失败 from the download wrapper).
import { useState, type ReactNode } from 'react';
import { Button, Card, DatePicker, Space, Table, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useAreaFilter, usePageRefresh } from '../../app/page.tsx';
import { useCan } from '../../app/session.ts';
import { billingApi, type ReportKind, type ReportResult } from '../fee/billingApi.ts';
import { Money } from '../fee/common.tsx';

export type Period = [Dayjs, Dayjs];

/** This month so far (the server's default too). */
export function defaultPeriod(now = dayjs()): Period {
  return [now.startOf('month'), now.startOf('day')];
}

export function periodParams(p: Period): { startTime: string; endTime: string } {
  return { startTime: p[0].format('YYYY-MM-DD'), endTime: p[1].format('YYYY-MM-DD') };
}

/** The report's query parameters: period, area filter (where the page has the tree) and extras. */
export function useReportParams(period: Period, extra: Record<string, unknown> = {}) {
  const area = useAreaFilter();
  return { ...area, ...periodParams(period), ...extra };
}

export function useReport<K extends ReportKind>(which: K, params: Record<string, unknown>) {
  const q = useQuery({ queryKey: ['report', which, params], queryFn: () => billingApi.report(which, params) });
  usePageRefresh(() => void q.refetch());
  return q;
}

/**
 * A report of the period picked in its frame (default: defaultPeriod()) and the page's area: the query,
 * and the frame's props (`<ReportFrame title="…" {...frame}>`).
 */
export function usePeriodReport<K extends ReportKind>(which: K) {
  const [period, setPeriod] = useState<Period>(defaultPeriod());
  const params = useReportParams(period);
  const q = useReport(which, params);
  const frame = { which, period, onPeriod: setPeriod, params, loading: q.isFetching, data: q.data, onReload: () => void q.refetch() };
  return { q, frame };
}

/** A money cell. */
export const m = (v: unknown) => <Money value={v} />;

export function ReportFrame({ which, title, period, onPeriod, params, loading, data, children, onReload }: {
  which: ReportKind;
  title: string;
  period: Period;
  onPeriod(p: Period): void;
  params: Record<string, unknown>;
  loading: boolean;
  data?: ReportResult;
  children: ReactNode;
  onReload(): void;
}) {
  const canExport = useCan('finance.logExport');
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    try {
      const { index: _i, size: _s, ...rest } = params;
      void _i;
      void _s;
      await billingApi.exportReport(which, rest);
    } catch {
      // 失败 was shown
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card
      title={title}
      extra={
        <Space wrap>
          <span>统计区间：</span>
          <DatePicker.RangePicker
            allowClear={false}
            value={period}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            onChange={(v) => {
              if (v && v[0] && v[1]) onPeriod([v[0], v[1]]);
            }}
            presets={[
              { label: '本月', value: defaultPeriod() },
              { label: '上月', value: [dayjs().subtract(1, 'month').startOf('month'), dayjs().subtract(1, 'month').endOf('month').startOf('day')] },
              { label: '近 7 天', value: [dayjs().subtract(6, 'day').startOf('day'), dayjs().startOf('day')] },
              { label: '今年', value: [dayjs().startOf('year'), dayjs().startOf('day')] },
            ]}
          />
          <Button icon={<ReloadOutlined />} onClick={onReload}>刷新</Button>
          {canExport && (
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()}>导出</Button>
          )}
        </Space>
      }
    >
      {data && (
        <Typography.Paragraph type="secondary">
          {data.period.startTime} 至 {data.period.endTime}{data.bankName ? `，结算银行：${data.bankName}` : ''}
        </Typography.Paragraph>
      )}
      <div aria-busy={loading}>{children}</div>
    </Card>
  );
}

/** A report table with a 合计 row (the server's totals) fixed under it. */
export function ReportTable<R extends object>({ rows, columns, summary, loading, rowKey, pagination }: {
  rows: R[];
  columns: TableColumnsType<R>;
  /** cells of the totals row, one per column (index 0 is the label cell) */
  summary?: ReactNode[][];
  loading: boolean;
  rowKey: (r: R) => string;
  pagination?: false | { current: number; pageSize: number; total: number; onChange(page: number, size: number): void };
}) {
  return (
    <Table<R>
      size="small"
      bordered
      rowKey={rowKey}
      loading={loading}
      dataSource={rows}
      columns={columns}
      scroll={{ x: 'max-content' }}
      pagination={pagination ? { ...pagination, showSizeChanger: true, showTotal: (t) => `共 ${t} 条` } : false}
      locale={{ emptyText: '该区间暂无数据' }}
      summary={
        summary && rows.length > 0
          ? () => (
              <Table.Summary fixed>
                {summary.map((cells, i) => (
                  <Table.Summary.Row key={i} className="report-total-row">
                    {cells.map((c, j) => (
                      <Table.Summary.Cell key={j} index={j} align={j === 0 ? 'left' : 'right'}>
                        <b>{c}</b>
                      </Table.Summary.Cell>
                    ))}
                  </Table.Summary.Row>
                ))}
              </Table.Summary>
            )
          : undefined
      }
    />
  );
}
