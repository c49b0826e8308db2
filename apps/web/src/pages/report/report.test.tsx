import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import ReportDeduct from './ReportDeduct.tsx';
import ReportCheck from './ReportCheck.tsx';
import { freshPageState, mockServer, ok, renderPage, signIn, type Call } from '../../test/harness.tsx';

// The report pages: this month so far by default (startTime / endTime), the rows and 合计 rows under
// the frame's title, 刷新 asks again with the same period.

configure({ asyncUtilTimeout: 8000 });
freshPageState();

const KIND = { readings: 3, quantity: '12.50', amount: '10.00', charged: '8.00', vacant: '2.00' };
const PERIOD = { startTime: '2026-11-01', endTime: '2026-11-25' };
const DEDUCT = {
  period: PERIOD,
  rows: [{ day: '2026-11-25', meterKind: 1, meterKindText: '电表', readings: 3, meters: 2, quantity: '12.50', unit: 'kWh', amount: '10.00', charged: '8.00', vacant: '2.00' }],
  totals: { electric: KIND, water: { readings: 0, quantity: '0.00', amount: '0.00', charged: '0.00', vacant: '0.00' }, amount: '10.00' },
};

const reports = (calls: Call[], path: string) => calls.filter((c) => c.path.endsWith(path));

describe('report pages', { timeout: 60_000 }, () => {
  it('扣费报表 asks this month so far, shows the rows with the subtotals, and 刷新 asks again', async () => {
    signIn(['reportDeduct']);
    const calls = mockServer((c) => (c.path.endsWith('/Deduct') ? ok(DEDUCT) : undefined));
    renderPage('reportDeduct', <ReportDeduct />);
    expect(await screen.findByText('扣费报表')).toBeTruthy();
    expect(await screen.findByText('2026-11-01 至 2026-11-25')).toBeTruthy();
    const row = screen.getByText('2026-11-25').closest('tr')!;
    expect(within(row).getByText('12.50 kWh')).toBeTruthy();
    expect(screen.getByText('电表合计')).toBeTruthy();
    expect(screen.getByText('水表合计')).toBeTruthy();
    const first = reports(calls, '/Deduct')[0];
    expect(first.query.get('startTime')).toBe(dayjs().startOf('month').format('YYYY-MM-DD'));
    expect(first.query.get('endTime')).toBe(dayjs().format('YYYY-MM-DD'));
    fireEvent.click(screen.getByRole('button', { name: /刷\s*新/ }));
    await waitFor(() => expect(reports(calls, '/Deduct').length).toBe(2));
    expect(reports(calls, '/Deduct')[1].query.get('startTime')).toBe(first.query.get('startTime'));
  });

  it('对账报表 shows the answered period under its title', async () => {
    signIn(['reportCheck']);
    const calls = mockServer((c) => (c.path.endsWith('/Check') ? ok({ period: PERIOD, rows: [], totals: {} }) : c.method === 'GET' ? ok([], 0) : undefined));
    renderPage('reportCheck', <ReportCheck />);
    // the tab and the frame's title
    await waitFor(() => expect(screen.getAllByText('对账报表').length).toBe(2));
    expect(await screen.findByText('2026-11-01 至 2026-11-25')).toBeTruthy();
    await waitFor(() => expect(reports(calls, '/Check').length).toBe(1));
    expect(reports(calls, '/Check')[0].query.get('startTime')).toBe(dayjs().startOf('month').format('YYYY-MM-DD'));
  });
});
