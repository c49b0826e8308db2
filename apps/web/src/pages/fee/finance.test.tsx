import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import type { ReceiptDetail } from './billingApi.ts';
import BillPrint from './BillPrint.tsx';
import { ClosingSlip } from './ClosingSlip.tsx';
import DailyClose from './DailyClose.tsx';
import type { DayDetail, MethodFigures } from './financeApi.ts';
import { OnlinePayDialog } from './OnlinePayDialog.tsx';
import { Receipt } from './Receipt.tsx';
import { mockServer, ok, renderPage, signIn } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// The finance day on the web: /dailyClose lists the business days with their state and figures, 日结
// asks for a confirmation that shows what will be locked and then shows the slip; the slip prints;
// /billprint voids a receipt with a reason (finance.reverse) and marks it 已作废 (the receipt prints
// with the 作废 stamp); a counter QR order is cancelled while unpaid and prints its receipt once paid.

configure({ asyncUtilTimeout: 8000 });

freshPageState();
afterEach(() => {
  vi.restoreAllMocks();
});

const today = dayjs().format('YYYY-MM-DD');
const m = (method: MethodFigures['method'], methodText: string, receipt: string, refund = '0.00', reversal = '0.00', count = 1): MethodFigures => ({
  method, methodText, receipt, refund, reversal, count,
  net: ((Math.round(Number(receipt) * 100) - Math.round(Number(refund) * 100) + Math.round(Number(reversal) * 100)) / 100).toFixed(2),
});
const METHODS = [m('cash', '现金', '100.00', '20.00', '-40.00', 4), m('wechat', '微信', '50.00'), m('alipay', '支付宝', '0.00', '0.00', '0.00', 0), m('bank', '银行卡/转账', '30.50')];
const DETAIL = (state: 'open' | 'closed'): DayDetail => ({
  day: today, companyName: '阳光物业', state, stateText: state === 'closed' ? '已日结' : '未日结',
  closing: state === 'closed' ? { id: 1, closedByName: '财务张', closedAt: `${today} 18:00:00`, memo: '今日结账' } : null,
  totals: {
    methods: METHODS,
    operators: [{ operatorId: null, operatorName: '线上支付', methods: METHODS, net: '0.00', count: 0 }],
    nonCash: [{ kind: 'subsidy', kindText: '补贴', amount: '10.00', count: 1 }],
    net: '120.50', count: 6,
  },
  operators: [
    { operatorId: 7, operatorName: '收银员甲', methods: METHODS, net: '40.00', count: 4, handover: { state: 'closed', stateText: '已交班', closedByName: '收银员甲', closedAt: `${today} 12:00:00`, memo: '' } },
    { operatorId: 8, operatorName: '收银员乙', methods: METHODS, net: '80.50', count: 2, handover: { state: 'open', stateText: '未交班', closedByName: '', closedAt: '', memo: '' } },
  ],
  printedByName: '演示管理员',
});
const ROW = (state: 'open' | 'closed') => ({
  day: today, state, stateText: state === 'closed' ? '已日结' : '未日结', net: '120.50', count: 6, cash: '40.00', wechat: '50.00', alipay: '0.00', bank: '30.50',
  handovers: 1, closedByName: state === 'closed' ? '财务张' : '', closedAt: state === 'closed' ? `${today} 18:00:00` : '', memo: '',
});

describe('日结单', () => {
  it('shows the money per pay method, per operator with the hand-over, the non-cash credits apart', () => {
    render(<ClosingSlip detail={DETAIL('closed')} />);
    const cash = screen.getByTestId('slip-method-cash');
    expect(within(cash).getByText('¥100.00')).toBeTruthy();
    expect(within(cash).getByText('¥20.00')).toBeTruthy();
    expect(within(cash).getByText('-¥40.00')).toBeTruthy();
    expect(within(cash).getByText('¥40.00')).toBeTruthy();
    expect(screen.getByTestId('slip-net').textContent).toBe('¥120.50');
    expect(screen.getByTestId('slip-operator-7').textContent).toContain('已交班');
    expect(screen.getByTestId('slip-operator-8').textContent).toContain('未交班');
    expect(screen.getByTestId('slip-noncash').textContent).toContain('补贴 ¥10.00（1 笔）');
    expect(screen.getByText(/日结人：财务张/)).toBeTruthy();
    expect(screen.getByText('已日结')).toBeTruthy();
  });

  it('an open day prints as a preview', () => {
    render(<ClosingSlip detail={DETAIL('open')} />);
    expect(screen.getByText('未日结（预览）')).toBeTruthy();
    expect(screen.getByText('本营业日尚未日结，金额以日结时为准')).toBeTruthy();
  });
});

describe('日结交班 page', { timeout: 60_000 }, () => {
  it('lists the days; 日结 confirms with the figures, closes, then shows the slip, which prints', async () => {
    signIn(['dailyClose'], ['finance.dailyClose']);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    let closed = false;
    const calls = mockServer((c) => {
      if (c.path.endsWith('/DailyClosing/List')) return ok([ROW(closed ? 'closed' : 'open')], 1);
      if (c.path.endsWith('/DailyClosing/Detail')) return ok(DETAIL(closed ? 'closed' : 'open'));
      if (c.path.endsWith('/DailyClosing/Close')) {
        closed = true;
        return ok(DETAIL('closed'));
      }
      return undefined;
    });
    renderPage('dailyClose', <DailyClose />);
    expect((await screen.findByTestId(`day-state-${today}`)).textContent).toBe('未日结');
    fireEvent.click(screen.getByTestId(`day-close-${today}`));
    await waitFor(() => expect(screen.getByTestId('close-confirm-net').textContent).toBe('¥120.50'));
    expect(screen.getByText(/日结后该营业日锁定/)).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('备注（选填）'), { target: { value: '今日结账' } });
    fireEvent.click(screen.getByRole('button', { name: '确认日结' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/DailyClosing/Close'))?.body).toEqual({ day: today, memo: '今日结账' }));
    expect(await screen.findByText(/日结人：财务张/)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId(`day-state-${today}`).textContent).toBe('已日结'));
    expect(screen.queryByTestId(`day-close-${today}`)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /打\s*印/ }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
  });

  it('交班 of an operator from the slip; without finance.dailyClose neither 日结 nor 交班 shows', async () => {
    signIn(['dailyClose'], ['finance.dailyClose']);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/DailyClosing/List')) return ok([ROW('open')], 1);
      if (c.path.endsWith('/DailyClosing/Detail')) return ok(DETAIL('open'));
      return undefined;
    });
    const view = renderPage('dailyClose', <DailyClose />);
    fireEvent.click(await screen.findByTestId(`day-view-${today}`));
    await screen.findByTestId('closing-slip');
    fireEvent.click(await screen.findByRole('button', { name: '收银员乙 交班' }));
    expect(await screen.findByText(/交班后 收银员乙 在该营业日的收款锁定/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确认交班' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/DailyClosing/Handover'))?.body).toEqual({ day: today, memo: '', operatorId: 8 }));
    view.unmount();

    signIn(['dailyClose'], []);
    mockServer((c) => {
      if (c.path.endsWith('/DailyClosing/List')) return ok([ROW('open')], 1);
      if (c.path.endsWith('/DailyClosing/Detail')) return ok(DETAIL('open'));
      return undefined;
    });
    renderPage('dailyClose', <DailyClose />);
    fireEvent.click(await screen.findByTestId(`day-view-${today}`));
    await screen.findByTestId('closing-slip');
    expect(screen.queryByTestId(`day-close-${today}`)).toBeNull();
    expect(screen.queryByRole('button', { name: /交班/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '日 结' })).toBeNull();
  });
});

const RECEIPT: ReceiptDetail = {
  id: 5, no: 'SJ2025030100000009', kind: 'prepay', kindText: '充值', payMethod: 'cash', payMethodText: '现金', amount: '40.00',
  items: [{ item: '电费充值', amount: '40.00' }], printCount: 0, online: false, lastPrintedAt: null, createdAt: '2025-03-01 09:30:00', operatorName: '演示管理员',
  memo: '', journalId: 9, roomId: 11, roomName: '1-101', ownerId: 21, ownerName: '王伟', ownerPhone: '13800001111', companyId: 1, areaName: '阳光园区',
  company: { id: 1, name: '阳光物业服务有限公司', address: null, phone: null, bankName: '', receiptTitle: '阳光物业服务有限公司', receiptFooter: '' },
  room: { id: 11, name: '1-101', areaName: '阳光园区' }, owner: { id: 21, name: '王伟', phone: null }, amountChinese: '肆拾元整', qrCode: 'data:image/png;base64,AAAA',
};
const VOID = { receiptId: 5, reversalJournalId: 30, reason: '金额录错', voidedByName: '财务张', voidedAt: '2025-03-01 10:00:00', amount: '-40.00', businessDay: '2025-03-01' };

describe('作废 on /billprint', { timeout: 60_000 }, () => {
  it('asks for a reason, voids, and the receipt is then marked 已作废 with no 作废 action', async () => {
    signIn(['billprint'], ['finance.receiptPrint', 'finance.reverse']);
    let voided = false;
    const calls = mockServer((c) => {
      if (c.path.endsWith('/BillPrinting/List')) {
        return ok([{ ...RECEIPT }, { ...RECEIPT, id: 6, kind: 'business', kindText: '综合缴费' }, { ...RECEIPT, id: 7, kind: 'refund', kindText: '退费', online: true }], 3);
      }
      if (c.path.endsWith('/BillPrinting/Voids')) return ok(voided ? [VOID] : []);
      if (c.path.endsWith('/BillPrinting/Void')) {
        voided = true;
        return ok({ receiptId: 5, no: RECEIPT.no, reversalJournalId: 30, amount: '-40.00', balance: '12.00' });
      }
      return undefined;
    });
    renderPage('billprint', <BillPrint />);
    fireEvent.click(await screen.findByTestId('receipt-void-5'));
    // 综合缴费 spans several postings, and an online refund's money went back through the provider: no 作废
    expect(screen.queryByTestId('receipt-void-6')).toBeNull();
    expect(screen.getByTestId('receipt-7')).toBeTruthy();
    expect(screen.queryByTestId('receipt-void-7')).toBeNull();
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认作废' }));
    expect(await within(dialog).findByText('请填写作废原因')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/BillPrinting/Void'))).toBe(false);
    fireEvent.change(within(dialog).getByPlaceholderText(/金额录入错误/), { target: { value: '金额录错' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认作废' }));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/BillPrinting/Void'))?.body).toEqual({ receiptId: 5, reason: '金额录错' }));
    expect(await screen.findByTestId('receipt-voided-5')).toBeTruthy();
    expect(screen.queryByTestId('receipt-void-5')).toBeNull();
  });

  it('a refused void shows the server\'s reason in the dialog; without finance.reverse there is no 作废', async () => {
    signIn(['billprint'], ['finance.reverse']);
    mockServer((c) => {
      if (c.path.endsWith('/BillPrinting/List')) return ok([{ ...RECEIPT }], 1);
      if (c.path.endsWith('/BillPrinting/Void')) return { code: 'DAY_CLOSED', message: '票据所属营业日 2025-03-01 已日结，不能作废；如需更正请办理退费（记入当前营业日）' };
      return undefined;
    });
    const view = renderPage('billprint', <BillPrint />);
    fireEvent.click(await screen.findByTestId('receipt-void-5'));
    fireEvent.change(await screen.findByPlaceholderText(/金额录入错误/), { target: { value: '重复收款' } });
    fireEvent.click(screen.getByRole('button', { name: '确认作废' }));
    expect(await screen.findByText(/已日结，不能作废/, { selector: '.ant-alert-description' })).toBeTruthy();
    view.unmount();

    signIn(['billprint'], ['finance.receiptPrint']);
    mockServer((c) => (c.path.endsWith('/BillPrinting/List') ? ok([{ ...RECEIPT }], 1) : undefined));
    renderPage('billprint', <BillPrint />);
    await screen.findByTestId('receipt-5');
    expect(screen.queryByTestId('receipt-void-5')).toBeNull();
  });

  it('a voided receipt prints with the 作废 stamp and why', () => {
    render(<Receipt detail={RECEIPT} voided={VOID} />);
    expect(screen.getByTestId('receipt-void-stamp').textContent).toBe('作废');
    expect(screen.getByText('【已作废】')).toBeTruthy();
    expect(screen.getByTestId('receipt-void-info').textContent).toBe('作废：金额录错（财务张，2025-03-01 10:00:00，冲正 -¥40.00，记入营业日 2025-03-01）');
  });
});

const ROOM = { roomId: 11, roomName: '1-101', ownerName: '王伟', electricBalance: '10.00', waterBalance: '5.00' };
const ORDER = {
  id: 3, outTradeNo: 'WX2025030112000000000001', channel: 'wechat', channelText: '微信支付', amount: '50.00', subject: '1-101 电费充值',
  qrCode: 'data:image/png;base64,AAAA', expiresAt: '2025-03-01 12:30:00', status: 'created', simulated: false, emulated: false,
};

describe('扫码收款 at the counter', { timeout: 60_000 }, () => {
  it('取消订单 while unpaid closes the order', async () => {
    signIn(['energy'], ['finance.prepay']);
    const calls = mockServer((c) => {
      if (c.path === '/wxpay/api/wxpay/pay') return ok(ORDER);
      if (c.path === '/wxpay/api/wxpay/query') return ok({ status: 'created', statusText: '待支付', paidAt: null });
      if (c.path === '/wxpay/api/wxpay/close') return ok({ status: 'closed', statusText: '已关闭' });
      return undefined;
    });
    renderPage('energy', <OnlinePayDialog room={ROOM as never} onPaid={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/充值金额/), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: /生成收款码/ }));
    await screen.findByTestId('online-qr');
    fireEvent.click(screen.getByRole('button', { name: /取消订单/ }));
    fireEvent.click(await screen.findByRole('button', { name: '确认取消' }));
    expect((await screen.findByTestId('online-closed')).textContent).toContain('订单已取消，业主无法再支付');
    expect(calls.find((c) => c.path === '/wxpay/api/wxpay/close')!.body).toEqual({ outTradeNo: ORDER.outTradeNo });
    expect(screen.getByTestId('online-status').textContent).toBe('状态：已取消');
    expect(screen.queryByRole('button', { name: /取消订单/ })).toBeNull();
  });

  it('once paid, 打印票据 opens the order\'s receipt', async () => {
    signIn(['energy'], ['finance.prepay', 'finance.receiptPrint']);
    mockServer((c) => {
      if (c.path === '/wxpay/api/wxpay/pay') return ok(ORDER);
      if (c.path === '/wxpay/api/wxpay/query') return ok({ status: 'paid', statusText: '已支付', paidAt: '2025-03-01 12:01:00', receiptId: 5 });
      if (c.path.endsWith('/BillPrinting/Detail')) return ok({ ...RECEIPT, payMethod: 'wechat', payMethodText: '微信', amount: '50.00', amountChinese: '伍拾元整' });
      return undefined;
    });
    renderPage('energy', <OnlinePayDialog room={ROOM as never} onPaid={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/充值金额/), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: /生成收款码/ }));
    fireEvent.click(await screen.findByTestId('online-receipt'));
    expect((await screen.findByTestId('receipt-capitals')).textContent).toBe('伍拾元整');
  });
});
