import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { areaSelections } from '../../app/page.tsx';
import { resetInflight } from '../../api/request.ts';
import NotesPay from '../notes/NotesPay.tsx';
import { mockServer, ok, renderPage, signIn, type Answer } from './testing.tsx';

// 退款 on /notesPay 在线支付: a paid order with something left to refund has 退款 (finance.refund); the
// dialog asks for the amount (not above what is left) and a reason, sends one request id, and shows
// the server's refusal in Chinese.

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => {
  areaSelections.set({});
  resetInflight();
});
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
});
