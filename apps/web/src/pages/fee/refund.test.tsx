import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import NotesPay from '../notes/NotesPay.tsx';
import { mockServer, ok, renderPage, signIn, type Answer } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// 退款 on /notesPay 在线支付: a paid order with something left to refund has 退款 (finance.refund); the
// dialog asks for the amount (not above what is left) and a reason, sends one request id, and shows
// the server's refusal in Chinese.

configure({ asyncUtilTimeout: 8000 });
freshPageState();
afterEach(() => vi.restoreAllMocks());

const ORDER = (no: string, status: string, amount: string, refunded: string) => ({
  id: Number(no.slice(-3)), outTradeNo: no, channel: 'wechat', channelText: '微信支付', wallet: 'electric', walletText: '电费', amount, status,
  statusText: status === 'paid' ? '已支付' : '待支付', providerTradeNo: status === 'paid' ? '4200001' : null, subject: '1-101 电费充值', roomId: 1, roomName: '1-101',
  ownerId: 1, ownerName: '张三', journalId: 1, receiptId: null, refunded, createdAt: '2026-11-25 10:00:00', paidAt: '2026-11-25 10:01:00', expiresAt: '2026-11-25 12:00:00',
});
const PAID = 'WX2026112510000000000101';
const FULL = 'WX2026112510000000000102';
const OPEN = 'WX2026112510000000000103';
const ORDERS = [ORDER(PAID, 'paid', '50.00', '20.00'), ORDER(FULL, 'paid', '10.00', '10.00'), ORDER(OPEN, 'created', '5.00', '0.00')];

describe('退款 on /notesPay', { timeout: 60_000 }, () => {
  it('only a paid order with something left; the amount is checked against it; one request id; the refusal shown', async () => {
    signIn(['notesPay'], ['finance.refund']);
    let answer: Answer = { code: 'INSUFFICIENT_BALANCE', message: '电费账户余额 ¥5.00 不足以退款 ¥30.00：已消费的金额不能退回' };
    const calls = mockServer((c) => {
      if (c.path.endsWith('/wxpay/api/wxpay/list')) return ok(ORDERS, ORDERS.length);
      if (c.path.endsWith('/wxpay/api/wxpay/refund')) return answer;
      return undefined;
    });
    renderPage('notesPay', <NotesPay />);
    fireEvent.click(await screen.findByRole('tab', { name: '在线支付' }));
    fireEvent.click(await screen.findByTestId(`refund-${PAID}`));
    expect(screen.queryByTestId(`refund-${FULL}`)).toBeNull();
    expect(screen.queryByTestId(`refund-${OPEN}`)).toBeNull();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('¥30.00')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('退款金额（元）'), { target: { value: '30.01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认退款' }));
    expect(await within(dialog).findByText('退款金额须大于 0 且不超过可退金额 30.00 元')).toBeTruthy();
    expect(await within(dialog).findByText('请填写退款原因')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/refund'))).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('退款金额（元）'), { target: { value: '30' } });
    fireEvent.change(within(dialog).getByPlaceholderText(/业主搬离/), { target: { value: '业主搬离' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认退款' }));
    expect(await within(dialog).findByText(/不足以退款/, { selector: '.ant-alert-description' })).toBeTruthy();
    const first = calls.find((c) => c.path.endsWith('/wxpay/api/wxpay/refund'))!.body as Record<string, string>;
    expect(first).toMatchObject({ outTradeNo: PAID, amount: '30', reason: '业主搬离' });
    expect(first.requestId).toMatch(/^[A-Za-z0-9_-]{8,32}$/);

    // a smaller amount tried from the same dialog: the same request id (a refused request left nothing; a lost answer is refunded once)
    fireEvent.change(within(dialog).getByLabelText('退款金额（元）'), { target: { value: '5' } });
    answer = ok({ id: 1, outTradeNo: PAID, outRefundNo: `${PAID}R${first.requestId}`, channel: 'wechat', amount: '5.00', reason: '业主搬离', status: 'success', statusText: '已退款', providerRefundNo: '50001', providerMessage: '', createdByName: '财务', createdAt: '2026-11-25 11:00:00', finishedAt: '2026-11-25 11:00:01' });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认退款' }));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/wxpay/api/wxpay/refund'))).toHaveLength(2));
    const sent = calls.filter((c) => c.path.endsWith('/wxpay/api/wxpay/refund')).map((c) => (c.body as Record<string, string>).requestId);
    expect(sent).toEqual([first.requestId, first.requestId]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('without finance.refund there is no 退款', async () => {
    signIn(['notesPay'], []);
    mockServer((c) => (c.path.endsWith('/wxpay/api/wxpay/list') ? ok(ORDERS, ORDERS.length) : undefined));
    renderPage('notesPay', <NotesPay />);
    fireEvent.click(await screen.findByRole('tab', { name: '在线支付' }));
    await screen.findByText(PAID);
    expect(screen.queryByTestId(`refund-${PAID}`)).toBeNull();
  });

  const REFUND = (id: number, status: string, receiptId: number | null) => ({
    id, outTradeNo: PAID, outRefundNo: `${PAID}Rweb0000000${id}`, channel: 'wechat', amount: '20.00', reason: '业主搬离', status,
    statusText: { success: '已退款', processing: '退款中', failed: '退款失败' }[status]!, providerRefundNo: status === 'success' ? '50001' : '', providerMessage: status === 'processing' ? '支付平台未应答，稍后查询：socket hang up' : '',
    createdByName: '财务', createdAt: '2026-11-25 11:00:00', finishedAt: status === 'success' ? '2026-11-25 11:00:01' : null, receiptId, receiptNo: receiptId ? 'SJ2026112500000077' : '',
  });
  const VOUCHER = {
    id: 77, no: 'SJ2026112500000077', kind: 'refund', kindText: '退费', payMethod: 'wechat', payMethodText: '微信', amount: '20.00',
    items: [{ item: '电费退款（微信支付原路退回）', amount: '20.00' }], printCount: 0, online: true, lastPrintedAt: null, createdAt: '2026-11-25 11:00:01', operatorName: '财务',
    memo: `订单号 ${PAID}`, journalId: 70, roomId: 1, roomName: '1-101', ownerId: 1, ownerName: '张三', ownerPhone: '13800001111', companyId: 1, areaName: '1号楼',
    company: { id: 1, name: '阳光物业', address: '', phone: '', bankName: '', receiptTitle: '阳光物业', receiptFooter: '' },
    room: { id: 1, name: '1-101', areaName: '1号楼' }, owner: { id: 1, name: '张三', phone: '13800001111' }, amountChinese: '贰拾元整', qrCode: 'data:image/png;base64,AAAA',
  };

  it('a succeeded refund opens its 退款凭证 (amount in capitals), which prints', async () => {
    signIn(['notesPay'], ['finance.refund', 'finance.receiptPrint']);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    const calls = mockServer((c) => {
      if (c.path.endsWith('/wxpay/api/wxpay/list')) return ok(ORDERS, ORDERS.length);
      if (c.path.endsWith('/wxpay/api/wxpay/refund')) return ok(REFUND(1, 'success', 77));
      if (c.path.endsWith('/BillPrinting/Detail')) return ok(VOUCHER);
      if (c.path.endsWith('/BillPrinting/Voids')) return ok([]);
      if (c.path.endsWith('/BillPrinting/Print/77')) return ok({ id: 77, printCount: 1 });
      return undefined;
    });
    renderPage('notesPay', <NotesPay />);
    fireEvent.click(await screen.findByRole('tab', { name: '在线支付' }));
    fireEvent.click(await screen.findByTestId(`refund-${PAID}`));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByPlaceholderText(/业主搬离/), { target: { value: '业主搬离' } });
    fireEvent.change(within(dialog).getByLabelText('退款金额（元）'), { target: { value: '20' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认退款' }));
    expect((await screen.findByTestId('receipt-capitals')).textContent).toBe('贰拾元整');
    expect(screen.getByText('退款凭证')).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/BillPrinting/Detail'))!.query.get('id')).toBe('77');
    fireEvent.click(screen.getByRole('button', { name: /打\s*印/ }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/BillPrinting/Print/77'))).toBe(true);
  });

  it('退款记录: a succeeded refund prints its voucher; one 处理中 is asked again (重新查询) by its refund number', async () => {
    signIn(['notesPay'], ['finance.refund']);
    let pending = REFUND(2, 'processing', null);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/wxpay/api/wxpay/list')) return ok(ORDERS, ORDERS.length);
      if (c.path.endsWith('/wxpay/api/wxpay/refunds')) return ok([pending, REFUND(1, 'success', 77)]);
      if (c.path.endsWith('/wxpay/api/wxpay/refundRetry')) {
        pending = REFUND(2, 'success', 78);
        return ok(pending);
      }
      if (c.path.endsWith('/BillPrinting/Detail')) return ok(VOUCHER);
      if (c.path.endsWith('/BillPrinting/Voids')) return ok([]);
      return undefined;
    });
    renderPage('notesPay', <NotesPay />);
    fireEvent.click(await screen.findByRole('tab', { name: '在线支付' }));
    // only an order with something refunded has 退款记录
    fireEvent.click(await screen.findByTestId(`refunds-${PAID}`));
    expect(screen.queryByTestId(`refunds-${OPEN}`)).toBeNull();
    expect(calls.find((c) => c.path.endsWith('/wxpay/api/wxpay/refunds'))!.query.get('outTradeNo')).toBe(PAID);
    expect((await screen.findByTestId('refund-status-2')).textContent).toBe('退款中');
    expect(screen.queryByTestId('refund-print-2')).toBeNull();
    fireEvent.click(screen.getByTestId('refund-retry-2'));
    await waitFor(() => expect(screen.getByTestId('refund-status-2').textContent).toBe('已退款'));
    expect(calls.filter((c) => c.path.endsWith('/refundRetry')).map((c) => c.body)).toEqual([{ outRefundNo: `${PAID}Rweb00000002` }]);
    expect(screen.queryByTestId('refund-retry-2')).toBeNull();
    fireEvent.click(screen.getByTestId('refund-print-1'));
    expect((await screen.findByTestId('receipt-capitals')).textContent).toBe('贰拾元整');
    expect(calls.find((c) => c.path.endsWith('/BillPrinting/Detail'))!.query.get('id')).toBe('77');
  });

  it('without finance.refund 退款记录 shows, with no 重新查询', async () => {
    signIn(['notesPay'], []);
    mockServer((c) => {
      if (c.path.endsWith('/wxpay/api/wxpay/list')) return ok(ORDERS, ORDERS.length);
      if (c.path.endsWith('/wxpay/api/wxpay/refunds')) return ok([REFUND(2, 'processing', null)]);
      return undefined;
    });
    renderPage('notesPay', <NotesPay />);
    fireEvent.click(await screen.findByRole('tab', { name: '在线支付' }));
    fireEvent.click(await screen.findByTestId(`refunds-${PAID}`));
    await screen.findByTestId('refund-status-2');
    expect(screen.queryByTestId('refund-retry-2')).toBeNull();
  });
});
