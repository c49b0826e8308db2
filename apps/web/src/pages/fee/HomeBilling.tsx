// The billing figures of /home (Home/BillingSummary): today's top-ups (money received only: opening
// balances and system credits named apart) and deductions, this month's, the rooms in arrears (how
// many are really off, how many wait for the no-disconnect hours) or below an alarm threshold, the balances held, and a 7-day trend chart
// (SVG, loaded lazily). Shown to users who may open a fee or report page.
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Card, Col, Row, Skeleton, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useAreaFilter } from '../../app/page.tsx';
import { useSession } from '../../app/session.ts';
import { billingApi } from './billingApi.ts';
import { money } from './money.ts';

const TrendChart = lazy(() => import('./TrendChart.tsx'));

/** A chart that fails (a chunk that cannot load, a canvas error) never takes the home page down. */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <div style={{ color: 'rgba(0,0,0,0.45)' }}>趋势图加载失败，请刷新页面重试</div> : this.props.children;
  }
}

/** Routes whose users may read the billing summary (as the server's permission). */
export const HOME_BILLING_ROUTES = ['energy', 'compre', 'copyread', 'financerecode', 'billprint', 'reportCheck', 'reportFees', 'reportDeduct', 'reportBank'];

function Figure({ title, value, sub, testId, danger, onClick }: { title: string; value: string | number; sub?: string; testId: string; danger?: boolean; onClick?(): void }) {
  return (
    <Col xs={12} md={8} xl={4}>
      <Card size="small" hoverable={!!onClick} onClick={onClick}>
        <Statistic
          title={title}
          valueRender={() => <span data-testid={testId} style={danger ? { color: '#cf1322' } : undefined}>{value}</span>}
        />
        {sub ? <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>{sub}</div> : null}
      </Card>
    </Col>
  );
}

/** 充值 is money received; opening balances and system credits are named apart, never added to it. */
function apart(f: { opening: string; systemCredit: string }) {
  const parts = [Number(f.opening) ? `期初余额 ${money(f.opening)}` : '', Number(f.systemCredit) ? `系统入账 ${money(f.systemCredit)}` : ''].filter(Boolean);
  return parts.length ? `；另有${parts.join('、')}（不计入充值）` : '';
}

export default function HomeBilling() {
  const session = useSession();
  const navigate = useNavigate();
  const area = useAreaFilter();
  const allowed = !!session?.routes.some((r) => HOME_BILLING_ROUTES.includes(r));
  const { data, isLoading } = useQuery({
    queryKey: ['homeBilling', area],
    queryFn: () => billingApi.homeSummary({ searchArea: area.searchArea, searchCompanyID: area.searchCompanyID }),
    enabled: allowed,
    refetchInterval: 60_000,
  });
  if (!allowed) return null;
  if (isLoading || !data) return <Card title="财务概况"><Skeleton active /></Card>;
  const go = (key: string) => (session!.routes.includes(key) ? () => navigate(`/${key}`) : undefined);
  return (
    <Card title="财务概况">
      <Row gutter={[12, 12]}>
        <Figure title="今日充值" value={money(data.today.prepay)} sub={`实收 ${data.today.payments} 笔${apart(data.today)}`} testId="home-today-prepay" onClick={go('notesPay')} />
        <Figure title="今日扣费" value={money(data.today.deduction)} sub={`费用 ${money(data.today.fee)}`} testId="home-today-deduction" onClick={go('copyread')} />
        <Figure title="本月充值" value={money(data.month.prepay)} sub={`退费 ${money(data.month.refund)}${apart(data.month)}`} testId="home-month-prepay" onClick={go('reportCheck')} />
        <Figure title="本月扣费" value={money(data.month.deduction)} sub={`补贴 ${money(data.month.subsidy)}`} testId="home-month-deduction" onClick={go('reportDeduct')} />
        <Figure
          title="欠费房间"
          value={data.accounts.arrearsCount}
          sub={`欠费 ${money(data.accounts.arrears)}，已断电/关阀 ${data.accounts.closedByArrearsCount} 户${data.accounts.pendingCloseCount ? `，待断电/关阀 ${data.accounts.pendingCloseCount} 户` : ''}`}
          testId="home-arrears"
          danger={data.accounts.arrearsCount > 0}
          onClick={go('energy')}
        />
        <Figure
          title="余额不足房间"
          value={data.accounts.lowBalanceCount}
          sub={`电费余额 ${money(data.accounts.electricBalance)}，水费余额 ${money(data.accounts.waterBalance)}`}
          testId="home-low-balance"
          onClick={go('energy')}
        />
      </Row>
      <Card size="small" title="近 7 天充值与扣费" style={{ marginTop: 12 }}>
        <ChartBoundary>
          <Suspense fallback={<Skeleton active />}>
            <TrendChart trend={data.trend} />
          </Suspense>
        </ChartBoundary>
      </Card>
    </Card>
  );
}
