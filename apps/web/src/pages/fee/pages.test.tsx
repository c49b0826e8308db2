import { describe, expect, it } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { setSaveBlob } from '../../api/request.ts';
import CopyRead, { monthParam } from './CopyRead.tsx';
import FinanceRecode from './FinanceRecode.tsx';
import { arrearsOf } from './BillPayDialog.tsx';
import { businessItems, standardAmount } from './BusinessPayDialog.tsx';
import { readingError, refundPreview } from '../control/AccountCancel.tsx';
import { subsidyBody } from '../control/TimeSubsidy.tsx';
import { ReportTable, defaultPeriod, periodParams } from '../report/reportKit.tsx';
import { CHECK_COLUMNS, checkTotals, type CheckRow } from '../report/ReportCheck.tsx';
import { deductTotals } from '../report/ReportDeduct.tsx';
import { maskAccount } from '../notes/NotesWithdraw.tsx';
import type { ChargeCode } from './billingApi.ts';
import { dayRange } from './common.tsx';
import { mockServer, ok, renderPage, signIn } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// The other billing pages: settlement export and its totals, the finance audit, combined payment
// lines, closing accounts, timed subsidies and the reports' totals rows.

configure({ asyncUtilTimeout: 8000 });

freshPageState();

const code = (id: number, amount: string, name = `项目${id}`): ChargeCode => ({ id, code: `C${id}`, name, schemeType: 3, amount, memo: '' });

describe('pure rules', () => {
  it('combined payment lines: standard amount × quantity exactly, totals in 分, the first problem named', () => {
    expect(standardAmount(code(1, '0.10'), 3)).toBe('0.30');
    expect(standardAmount(code(1, '120.00'), 12)).toBe('1440.00');
    expect(standardAmount(code(1, '0.00'), 1)).toBe('');
    const ok1 = businessItems([
      { code: code(1, '0.10'), quantity: 1, amount: '0.1' },
      { code: code(2, '0.20'), quantity: 1, amount: '0.2' },
    ]);
    expect(ok1).toEqual({ totalFen: 30, items: [{ chargeCodeId: 1, quantity: 1, amount: '0.10' }, { chargeCodeId: 2, quantity: 1, amount: '0.20' }] });
    expect(businessItems([])).toEqual({ error: '请选择缴费项目' });
    expect(businessItems([{ code: code(3, '0', '公摊电费'), quantity: 1, amount: '' }])).toEqual({ error: '请输入「公摊电费」的金额' });
    expect(businessItems([{ code: code(3, '1', '物业费'), quantity: 0, amount: '1' }])).toEqual({ error: '「物业费」的数量须为 1–1000 的整数' });
  });

  it('arrears, final readings and the refund preview of closing an account', () => {
    expect(arrearsOf('-12.30')).toBe('12.30');
    expect(arrearsOf('0.00')).toBeNull();
    expect(arrearsOf('5.00')).toBeNull();
    expect(readingError('', '100.00')).toBeNull();
    expect(readingError('100.00', '100.00')).toBeNull();
    expect(readingError('99.99', '100.00')).toBe('不能小于上次读数 100.00');
    expect(readingError('1.234', null)).toBe('读数须为不小于 0 的数字，最多 2 位小数');
    expect(readingError('abc', null)).toBe('读数须为不小于 0 的数字，最多 2 位小数');
    const accounts = [
      { id: 1, wallet: 'electric', walletText: '电费', balance: '0.10', alarmLevel: 0, alarmText: '', status: 1, closeDeferred: false, updatedAt: '', supply: null, closeAt: null },
      { id: 2, wallet: 'water', walletText: '水费', balance: '0.20', alarmLevel: 0, alarmText: '', status: 1, closeDeferred: false, updatedAt: '', supply: null, closeAt: null },
      { id: 3, wallet: 'other', walletText: '其他费用', balance: '-1.50', alarmLevel: 0, alarmText: '', status: 1, closeDeferred: false, updatedAt: '', supply: null, closeAt: null },
    ];
    const p = refundPreview(accounts);
    expect(p.refundFen).toBe(30);
    expect(p.lines).toEqual([{ text: '电费', fen: 10 }, { text: '水费', fen: 20 }]);
    expect(p.arrears).toEqual([{ text: '其他费用', fen: 150 }]);
  });

  it('timed subsidy body, month and range params, masked bank accounts', () => {
    expect(subsidyBody({ roomId: 3, wallet: 'water', amount: '20.5', dayOfMonth: 5, startMonth: dayjs('2025-03-01'), endMonth: null, memo: ' 低保 ' })).toEqual({
      roomId: 3, wallet: 'water', amount: '20.50', dayOfMonth: 5, startMonth: '2025-03', endMonth: '', memo: '低保',
    });
    expect(monthParam('2025-03-01')).toEqual({ month: '2025-03' });
    expect(monthParam(undefined)).toEqual({});
    expect(dayRange(['2025-03-01', '2025-03-31'], ['start', 'end'])).toEqual({ start: '2025-03-01', end: '2025-03-31' });
    expect(maskAccount('6228480012345678901')).toBe('6228 **** **** 8901');
    expect(maskAccount('')).toBe('-');
    expect(periodParams([dayjs('2025-03-01'), dayjs('2025-03-15')])).toEqual({ startTime: '2025-03-01', endTime: '2025-03-15' });
    const [from, to] = defaultPeriod(dayjs('2025-03-15 10:00:00'));
    expect([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]).toEqual(['2025-03-01', '2025-03-15']);
  });
});

describe('report totals rows', () => {
  const row: CheckRow = {
    day: '2025-03-01', cashCount: 2, cash: '100.00', wechatCount: 1, wechat: '23.45', alipayCount: 0, alipay: '0.00', bankCount: 0, bank: '0.00',
    income: '123.45', refundCount: 1, refund: '10.00', reversalCount: 1, reversal: '-20.00', net: '93.45', subsidyCount: 1, subsidy: '5.00', systemCount: 1, system: '3.00',
    openingCount: 4, opening: '880.00', deduction: '1234.56', fee: '0.00',
  };

  it('the check report shows a 合计 row under the days, in the columns\' order', () => {
    render(<ReportTable<CheckRow> rowKey={(r) => r.day} rows={[row]} columns={CHECK_COLUMNS} loading={false} summary={[checkTotals({ ...row, day: '合计' })]} />);
    const total = document.querySelector('.report-total-row') as HTMLElement;
    const cells = [...total.querySelectorAll('td')].map((c) => c.textContent);
    expect(cells).toEqual([
      '合计', '2', '¥100.00', '1', '¥23.45', '0', '¥0.00', '0', '¥0.00', '¥123.45', '1', '¥10.00', '1', '-¥20.00', '¥93.45',
      '1', '¥5.00', '1', '¥3.00', '4', '¥880.00', '¥1,234.56', '¥0.00',
    ]);
    // opening balances and system credits have their own columns, never inside 收款合计
    expect(screen.getAllByText('期初余额').length).toBeGreaterThan(0);
    expect(screen.getAllByText('系统入账').length).toBeGreaterThan(0);
    expect(screen.getByText('2025-03-01')).toBeTruthy();
  });

  it('the deduct report adds electricity and water subtotals', () => {
    const k = (readings: number, amount: string) => ({ readings, quantity: '12.5', amount, charged: amount, vacant: '0.00' });
    const rows = deductTotals({ electric: k(3, '7.50'), water: k(2, '9.00'), amount: '16.50' });
    expect(rows.map((r) => r[0])).toEqual(['电表合计', '水表合计', '合计']);
    expect(rows[0][4]).toBe('12.5 kWh');
    expect(rows[1][4]).toBe('12.5 m³');
    expect(rows[2][2]).toBe(5);
  });
});

const SETTLEMENT = {
  id: 7, meterId: 31, meterName: '1-101电表', address: '200001000031', meterKind: 1, roomId: 11, roomName: '1-101', ownerId: 21, ownerName: '王伟',
  prevReadAt: '2025-03-01 08:00:00', readAt: '2025-03-02 08:00:00', prevTotal: '100.00', total: '112.50', multiplier: '1.00', quantity: '12.5000',
  amount: '7.50', periodKey: '2025-03', note: '', noteText: '已扣费', unit: 'kWh', settledAt: '2025-03-02 08:01:00',
};
const DATA = {
  electric: { count: 1, quantity: '12.5', amount: '7.50', vacant: 0 }, water: { count: 0, quantity: '0', amount: '0.00', vacant: 0 },
  count: 1, amount: '7.50', pendingMeters: 2, noSchemeMeters: 1, lastSettledAt: '2025-03-02 08:01:00',
};

describe('抄表结算 page', { timeout: 60_000 }, () => {
  it('lists settlements with the totals of the filter and exports the same filter to .xlsx', async () => {
    signIn(['copyread'], ['finance.logExport']);
    const toasts: string[] = [];
    const saved: string[] = [];
    setSaveBlob((_b, name) => saved.push(name));
    const calls = mockServer((c) => {
      if (c.path.endsWith('/CopySettlement/List')) return ok([SETTLEMENT], 1);
      if (c.path.endsWith('/CopySettlement/CopySettlementData')) return ok(DATA);
      if (c.path.endsWith('/CopySettlement/Export')) {
        return new Response(new Uint8Array([80, 75, 3, 4]), {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent('抄表结算.xlsx')}`,
          },
        });
      }
      return undefined;
    }, toasts);
    renderPage('copyread', <CopyRead />);
    expect(await screen.findByText('1-101电表')).toBeTruthy();
    expect(screen.getByText('12.5000 kWh')).toBeTruthy();
    expect((await screen.findByTestId('settlement-amount')).textContent).toBe('¥7.50');
    expect(screen.queryByRole('button', { name: /立即结算/ })).toBeNull();

    // search by address: the list, the totals and the export follow
    fireEvent.change(screen.getByLabelText('表地址'), { target: { value: '200001000031' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/CopySettlementData') && c.query.get('address') === '200001000031')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(saved).toEqual(['抄表结算.xlsx']));
    const exp = calls.find((c) => c.path.endsWith('/CopySettlement/Export'))!;
    expect(exp.query.get('address')).toBe('200001000031');
    expect(exp.query.has('index')).toBe(false);
    expect(toasts).toContain('success:成功！');
  });

  it('a failed export says 失败', async () => {
    signIn(['copyread'], ['finance.logExport']);
    const toasts: string[] = [];
    mockServer((c) => {
      if (c.path.endsWith('/CopySettlement/List')) return ok([SETTLEMENT], 1);
      if (c.path.endsWith('/CopySettlement/CopySettlementData')) return ok(DATA);
      if (c.path.endsWith('/CopySettlement/Export')) return new Response(JSON.stringify({ code: 'FORBIDDEN', message: '没有权限' }), { status: 403, headers: { 'content-type': 'application/json' } });
      return undefined;
    }, toasts);
    renderPage('copyread', <CopyRead />);
    await screen.findByText('1-101电表');
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(toasts).toContain('error:失败'));
  });
});

const JOURNAL = {
  id: 501, createdAt: '2025-03-01 09:00:00', roomId: 11, roomName: '1-101', ownerId: 21, ownerName: '王伟', wallet: 'electric', walletText: '电费',
  kind: 'prepay', kindText: '充值', payMethod: 'wechat', payMethodText: '微信', amount: '100.00', balanceAfter: '112.00', refType: 'counter',
  operatorName: '演示管理员', memo: '', audited: false, auditedBy: null, auditedAt: null, auditMemo: '', receiptNo: 'SJ1',
};

describe('财务对账 page', { timeout: 60_000 }, () => {
  it('shows DataSum totals and audits a row with finance.audit', async () => {
    signIn(['financerecode'], ['finance.audit']);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/userpaymentlog/dataAuditlist')) return ok([JOURNAL, { ...JOURNAL, id: 502, audited: true, auditedBy: '财务', auditedAt: '2025-03-02 10:00:00' }], 2);
      if (c.path.endsWith('/userpaymentlog/DataSum')) {
        return ok({
          count: 2, income: '200.00', expense: '0.00', net: '200.00', auditedCount: 1, audited: '100.00', unauditedCount: 1, unaudited: '100.00',
          byKind: [{ key: 'prepay', text: '充值', count: 2, amount: '200.00' }], byPayMethod: [{ key: 'wechat', text: '微信', count: 2, amount: '200.00' }], byWallet: [],
        });
      }
      if (c.path.endsWith('/userpaymentlog/dataAudit')) return ok({ audited: 1, already: 0 });
      return undefined;
    });
    renderPage('financerecode', <FinanceRecode />);
    expect((await screen.findByTestId('audit-income')).textContent).toBe('¥200.00');
    expect(screen.getByTestId('audit-net').textContent).toBe('¥200.00');
    expect(await screen.findByText('已审核')).toBeTruthy();
    // one 审核 link: the audited row has none
    const links = await screen.findAllByText('审核', { selector: 'a' });
    expect(links).toHaveLength(1);
    fireEvent.click(links[0]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByPlaceholderText(/与银行流水核对一致/), { target: { value: '已核对' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确定审核/ }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/userpaymentlog/dataAudit'))?.body).toEqual({ ids: [501], memo: '已核对' }));
  });
});
