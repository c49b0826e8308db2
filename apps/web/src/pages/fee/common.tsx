// Small pieces shared by the fee, notes, report and control pages of billing: the company a platform
// admin picked, money and balance cells, the date-range search column, summary statistic cards.
import type { ReactNode } from 'react';
import { Card, Col, Row, Statistic, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { companyPick } from '../../app/page.tsx';
import { useStore } from '../../app/store.ts';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { fmtTime, money, signOf } from './money.ts';

/** The company a platform admin picked in the header (searchCompanyID), undefined for staff. */
export function useCompanyPick(): string | undefined {
  return useStore(companyPick) || undefined;
}

/** A 元 amount cell: ¥1,234.50, red when negative. */
export function Money({ value, strong, testId }: { value: unknown; strong?: boolean; testId?: string }) {
  const text = money(value);
  if (!text) return <span>-</span>;
  const negative = signOf(value) < 0;
  return (
    <Typography.Text type={negative ? 'danger' : undefined} strong={strong} data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography.Text>
  );
}

const ALARM_COLORS: Record<number, string> = { 1: 'gold', 2: 'orange', 3: 'red' };

/** A balance with its alarm state (低于报警1/2, 欠费 with the supply's real state: 已断电, 待断电（预计 …）, 断电中 …). */
export function Balance({ value, alarm, alarmText, testId }: { value: unknown; alarm?: number; alarmText?: string; testId?: string }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Money value={value} testId={testId} />
      {alarm ? <Tag color={ALARM_COLORS[alarm] ?? 'default'} style={{ marginLeft: 6 }}>{alarmText}</Tag> : null}
    </span>
  );
}

/** A date-range search field → startTime / endTime, or the two keys given (YYYY-MM-DD, whole days). */
export function dayRange(value: unknown, [from, to]: readonly [string, string] = ['startTime', 'endTime']): Record<string, string> {
  if (!Array.isArray(value) || value.length !== 2) return {};
  const day = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : dayjs(v as string).format('YYYY-MM-DD'));
  return { [from]: day(value[0]), [to]: day(value[1]) };
}

/** The search-only column 时间范围 (startTime/endTime, or the two keys the list takes). */
export function rangeColumn<T>(title = '时间范围', keys?: readonly [string, string]): ResourceColumn<T> {
  return { title, key: 'range', dataIndex: 'range', valueType: 'dateRange', hideInTable: true, search: { transform: (v: unknown) => dayRange(v, keys) } };
}

/** A time column shown as YYYY-MM-DD HH:mm:ss. */
export function timeColumn<T>(title: string, key: string, extra: Partial<ResourceColumn<T>> = {}): ResourceColumn<T> {
  return {
    title, key, dataIndex: key, width: 170,
    render: (_d, r) => fmtTime((r as Record<string, unknown>)[key]) || '-',
    ...extra,
  };
}

/** 所属单位: shown only where the rows are of several companies (the platform's view, no company picked). */
export function companyColumn<T extends { companyName?: string | null }>(shown: boolean, extra: Partial<ResourceColumn<T>> = {}): ResourceColumn<T> {
  return {
    title: '所属单位', key: 'companyName', dataIndex: 'companyName', hideInForm: true, hideInTable: !shown,
    render: (_d, r) => r.companyName ?? '-',
    ...extra,
  };
}

/** A money column (元 strings from the server). */
export function moneyColumn<T>(title: string, key: string, extra: Partial<ResourceColumn<T>> = {}): ResourceColumn<T> {
  return {
    title, key, dataIndex: key, align: 'right',
    render: (_d, r) => <Money value={(r as Record<string, unknown>)[key]} />,
    ...extra,
  };
}

export interface Figure {
  title: string;
  value: ReactNode;
  suffix?: string;
  testId?: string;
  danger?: boolean;
}

/** A row of statistic cards (totals above a list). */
export function Figures({ items, loading }: { items: Figure[]; loading?: boolean }) {
  const span = Math.max(4, Math.floor(24 / Math.max(1, items.length)));
  return (
    <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
      {items.map((f) => (
        <Col key={f.title} xs={12} md={8} xl={span}>
          <Card size="small" loading={loading}>
            <Statistic
              title={f.title}
              valueRender={() => <span data-testid={f.testId} style={f.danger ? { color: '#cf1322' } : undefined}>{f.value}</span>}
              suffix={f.suffix}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** Strip paging from a list query: the filters a summary or an export takes. */
export function filtersOf(q: Record<string, unknown> | null): Record<string, unknown> {
  if (!q) return {};
  const { index: _i, size: _s, ...rest } = q;
  void _i;
  void _s;
  return rest;
}
