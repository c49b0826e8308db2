import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetInflight } from '../../api/request.ts';
import FinanceRecode from './FinanceRecode.tsx';
import { mockServer, ok, renderPage, signIn } from './testing.tsx';

// 支付平台对账 on /financerecode: the tab shows the counts and amounts per outcome and the rows with
// their Chinese outcome tags; 对账 runs the picked day and provider; 补单 appears on 本地缺单 rows only
// and posts the row; without finance.reconcile neither 对账 nor 补单 is offered.

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => resetInflight());

const SUMMARY = {
  day: '2026-11-25', channel: 'wechat', channelText: '微信支付', ranAt: '2026-11-26 10:00:00', ranBy: '定时任务',
  outcomes: [
    { outcome: 'matched', text: '已匹配', count: 1, amount: '10.00' },
    { outcome: 'missing_here', text: '本地缺单', count: 1, amount: '20.00' },
    { outcome: 'missing_there', text: '平台缺单', count: 1, amount: '40.00' },
    { outcome: 'amount_differs', text: '金额不符', count: 1, amount: '31.00' },
  ],
};
const row = (id: number, outTradeNo: string, outcome: string, outcomeText: string) => ({
  id, companyId: 1, companyName: '演示物业', channel: 'wechat', day: '2026-11-25', outTradeNo, tradeNo: `4200${id}`, tradeTime: '2026-11-25 10:00:00',
  providerAmount: '10.00', ourAmount: '10.00', ourStatus: 'paid', ourStatusText: '已入账', roomName: '1-101', ownerName: '张三', outcome, outcomeText,
  recoveredAt: null, recoveredBy: '',
});
const ROWS = [row(1, 'WX1', 'matched', '已匹配'), row(2, 'WX2', 'missing_here', '本地缺单'), row(3, 'WX3', 'amount_differs', '金额不符')];

const openTab = () => fireEvent.click(screen.getByRole('tab', { name: '支付平台对账' }));

describe('支付平台对账 tab', { timeout: 120_000 }, () => {
  it('summary, outcome tags, 对账 and 补单', async () => {
    signIn(['financerecode'], ['finance.reconcile']);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/Reconcile/Summary') || c.path.endsWith('/Reconcile/Run')) return ok(SUMMARY);
      if (c.path.endsWith('/Reconcile/Rows')) return ok(ROWS, ROWS.length);
      if (c.path.endsWith('/Reconcile/Recover')) return ok({ ...ROWS[1], outcome: 'matched', outcomeText: '已匹配' });
      return /sum/i.test(c.path) ? ok(null) : ok([], 0);
    });
    renderPage('financerecode', <FinanceRecode />);
    openTab();
    expect(await screen.findByTestId('outcome-WX2')).toBeTruthy();
    expect(screen.getByTestId('outcome-WX1').textContent).toBe('已匹配');
    expect(screen.getByTestId('outcome-WX3').textContent).toBe('金额不符');
    expect(screen.getByTestId('reconcile-missing_here').textContent).toBe('¥20.00');
    expect(screen.getByText('本地缺单（1 笔）')).toBeTruthy();
    expect(screen.getByTestId('reconcile-ran').textContent).toContain('定时任务');
    expect(screen.queryByTestId('recover-WX1')).toBeNull();
    expect(screen.queryByTestId('recover-WX3')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /对\s*账/ }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/Reconcile/Run'))).toBe(true));
    const runCall = calls.find((c) => c.path.endsWith('/Reconcile/Run'))!;
    expect(runCall.body).toMatchObject({ channel: 'wechat' });
    expect((runCall.body as { day: string }).day).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    fireEvent.click(screen.getByTestId('recover-WX2'));
    const pop = await screen.findByRole('tooltip');
    fireEvent.click(within(pop).getByRole('button', { name: '确定补单' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/Reconcile/Recover'))?.body).toEqual({ id: 2 }));
  });

  it('without 支付平台对账 the page reads but offers neither 对账 nor 补单', async () => {
    signIn(['financerecode'], []);
    mockServer((c) => {
      if (c.path.endsWith('/Reconcile/Summary')) return ok(SUMMARY);
      if (c.path.endsWith('/Reconcile/Rows')) return ok(ROWS, ROWS.length);
      return /sum/i.test(c.path) ? ok(null) : ok([], 0);
    });
    renderPage('financerecode', <FinanceRecode />);
    openTab();
    expect(await screen.findByTestId('outcome-WX2')).toBeTruthy();
    expect(screen.queryByTestId('recover-WX2')).toBeNull();
    expect(screen.queryByRole('button', { name: /对\s*账/ })).toBeNull();
  });
});
