import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { amountInputError, compareYuan, fmtTime, money, normalizeAmount, parseAmountFen } from './money.ts';
import { CounterDialog, counterBody } from './CounterDialog.tsx';
import Energy, { withBalances } from './Energy.tsx';
import { OnlinePayDialog } from './OnlinePayDialog.tsx';
import { mockServer, ok, renderPage, signIn, type Call } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// The money dialogs of /energy: amounts parsed as text into 分 (never floats), the validation
// messages, the request bodies, a server refusal shown in the dialog, and the row's new balance.

configure({ asyncUtilTimeout: 8000 });

freshPageState();

describe('amounts without floats', () => {
  it('validation messages', () => {
    expect(amountInputError('')).toBe('请输入金额');
    expect(amountInputError('   ')).toBe('请输入金额');
    expect(amountInputError(undefined, '充值金额')).toBe('请输入充值金额');
    expect(amountInputError('abc')).toBe('金额须为数字，如 100 或 100.50');
    expect(amountInputError('-5')).toBe('金额须为数字，如 100 或 100.50');
    expect(amountInputError('1e3')).toBe('金额须为数字，如 100 或 100.50');
    expect(amountInputError('12.345')).toBe('金额最多 2 位小数');
    expect(amountInputError('0')).toBe('金额须大于 0');
    expect(amountInputError('0.00')).toBe('金额须大于 0');
    expect(amountInputError('1000000.01')).toBe('金额不能大于 1,000,000 元');
    expect(amountInputError('1000000')).toBeNull();
    expect(amountInputError('12.340')).toBeNull();
    expect(amountInputError(' 0.01 ')).toBeNull();
  });

  it('parses 元 text into exact 分', () => {
    expect(parseAmountFen('0.1') + parseAmountFen('0.2')).toBe(30); // 0.1 + 0.2 as floats is 0.30000000000000004
    expect(parseAmountFen('19.99')).toBe(1999);
    expect(parseAmountFen('1.005'.slice(0, 4))).toBe(100);
    expect(parseAmountFen('999999.99')).toBe(99999999);
    expect(parseAmountFen('12.340')).toBe(1234);
    expect(() => parseAmountFen('1.234')).toThrow('金额最多 2 位小数');
    expect(normalizeAmount('100')).toBe('100.00');
    expect(normalizeAmount('100.5')).toBe('100.50');
    expect(normalizeAmount('0.07')).toBe('0.07');
    expect(normalizeAmount('  8.10 ')).toBe('8.10');
  });

  it('formats and compares 元 strings', () => {
    expect(money('1234.50')).toBe('¥1,234.50');
    expect(money('-3.00')).toBe('-¥3.00');
    expect(money('0.00')).toBe('¥0.00');
    expect(money(null)).toBe('');
    expect(compareYuan('10.00', '9.99')).toBe(1);
    expect(compareYuan('0.30', '0.3')).toBe(0);
    expect(fmtTime('2025-03-01 08:00:00')).toBe('2025-03-01 08:00:00');
    expect(fmtTime('')).toBe('');
  });

  it('builds the request bodies (no pay method for a subsidy)', () => {
    const v = { wallet: 'water' as const, payMethod: 'wechat' as const, amount: '50.5', memo: ' 前台 ' };
    expect(counterBody('prepay', 7, v, 'req-12345678')).toEqual({
      roomId: 7, wallet: 'water', amount: '50.50', payMethod: 'wechat', memo: '前台', requestId: 'req-12345678',
    });
    expect(counterBody('subsidy', 7, v, 'req-12345678')).not.toHaveProperty('payMethod');
  });

  it('a row takes the balances a counter operation returned', () => {
    const row = { roomId: 3, electricBalance: '10.00', waterBalance: '2.00' } as Parameters<typeof withBalances>[0];
    expect(withBalances(row, { 3: { electric: '110.00' } })).toMatchObject({ electricBalance: '110.00', waterBalance: '2.00' });
    expect(withBalances(row, { 4: { water: '1.00' } })).toBe(row);
  });
});

const ROOM = { roomId: 11, roomName: '1-101', areaName: '阳光园区/1号楼/1层', ownerName: '王伟', electricBalance: '12.00', waterBalance: '3.50' };

function dialog(op: 'prepay' | 'refund' | 'subsidy', handler: Parameters<typeof mockServer>[0], toasts: string[] = []) {
  signIn(['energy'], ['finance.prepay', 'finance.refund', 'finance.subsidy']);
  const calls = mockServer(handler, toasts);
  const results: unknown[] = [];
  renderPage('energy', <CounterDialog op={op} room={ROOM} onDone={(r, w) => results.push([r, w])} onClose={() => {}} />);
  return { calls, results };
}

const amountInput = () => screen.getByLabelText(/金额（元）/) as HTMLInputElement;
const confirm = (name: RegExp) => fireEvent.click(screen.getByRole('button', { name }));

describe('充值 / 退费 / 补贴 dialog', { timeout: 60_000 }, () => {
  it('shows the validation message and sends nothing for a bad amount', async () => {
    const { calls } = dialog('prepay', () => undefined);
    expect(screen.getByTestId('counter-balance').textContent).toBe('¥12.00');
    fireEvent.change(amountInput(), { target: { value: '12.345' } });
    expect(await screen.findByText('充值金额最多 2 位小数')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '0' } });
    expect(await screen.findByText('充值金额须大于 0')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '' } });
    expect(await screen.findByText('请输入充值金额')).toBeTruthy();
    confirm(/确定充值/);
    await waitFor(() => expect(screen.getAllByText('请输入充值金额').length).toBeGreaterThan(0));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('tops up the water account by WeChat: the body carries the 元 string, the result the new balance', async () => {
    const { calls, results } = dialog('prepay', (c) =>
      c.path.endsWith('/Energy/Prepay') ? ok({ journalId: 9, receiptId: 5, receiptNo: 'SJ2025030100000009', amount: '100.50', balance: '104.00', duplicate: false }) : undefined,
    );
    fireEvent.click(screen.getByText('水费（¥3.50）'));
    fireEvent.click(screen.getByText('微信'));
    expect(screen.getByTestId('counter-balance').textContent).toBe('¥3.50');
    fireEvent.change(amountInput(), { target: { value: '100.5' } });
    fireEvent.change(screen.getByLabelText('备注'), { target: { value: '前台充值' } });
    confirm(/确定充值/);
    expect((await screen.findByTestId('counter-result')).textContent).toBe('水费充值 ¥100.50，当前余额 ¥104.00');
    const post = calls.find((c: Call) => c.path.endsWith('/Energy/Prepay'))!;
    expect(post.method).toBe('POST');
    expect(post.body).toMatchObject({ roomId: 11, wallet: 'water', amount: '100.50', payMethod: 'wechat', memo: '前台充值' });
    expect(String((post.body as { requestId: string }).requestId)).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(screen.getByText('票据号：SJ2025030100000009')).toBeTruthy();
    expect(screen.getByRole('button', { name: /打印票据/ })).toBeTruthy();
    expect(results).toEqual([[expect.objectContaining({ balance: '104.00' }), 'water']]);
  });

  it('a refund above the balance shows the server refusal and stays open', async () => {
    const refusal = '退费金额不能超过账户余额（当前余额 ¥12.00）';
    const toasts: string[] = [];
    const { calls, results } = dialog('refund', (c) => (c.path.endsWith('/Energy/Refund') ? { code: 'INSUFFICIENT_BALANCE', message: refusal } : undefined), toasts);
    expect(screen.getByText('退款方式')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '50' } });
    confirm(/确定退费/);
    expect((await screen.findByTestId('counter-refusal')).textContent).toBe(refusal);
    expect(toasts).toContain(`warning:${refusal}`);
    expect(calls.find((c) => c.path.endsWith('/Energy/Refund'))!.body).toMatchObject({ amount: '50.00', payMethod: 'cash', wallet: 'electric' });
    expect(results).toHaveLength(0);
    expect(screen.getByRole('button', { name: /确定退费/ })).toBeTruthy();
  });

  it('a double-clicked 确定充值 sends one request and shows no 表单验证失败!', async () => {
    const { calls } = dialog('prepay', (c) =>
      c.path.endsWith('/Energy/Prepay') ? ok({ journalId: 9, receiptId: 5, receiptNo: 'SJ9', amount: '100.00', balance: '112.00', duplicate: false }) : undefined,
    );
    fireEvent.change(amountInput(), { target: { value: '100' } });
    confirm(/确定充值/);
    confirm(/确定充值/);
    await screen.findByTestId('counter-result');
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.filter((c) => c.path.endsWith('/Energy/Prepay'))).toHaveLength(1);
    expect(document.body.textContent).not.toContain('表单验证失败');
  });

  it('a subsidy has no pay method', async () => {
    const { calls } = dialog('subsidy', (c) =>
      c.path.endsWith('/Energy/Subsidy') ? ok({ journalId: 10, receiptId: 6, receiptNo: 'SJ1', amount: '20.00', balance: '32.00', duplicate: false }) : undefined,
    );
    expect(screen.queryByText('支付方式')).toBeNull();
    fireEvent.change(amountInput(), { target: { value: '20' } });
    confirm(/确定补贴/);
    await screen.findByTestId('counter-result');
    expect(calls.find((c) => c.path.endsWith('/Energy/Subsidy'))!.body).not.toHaveProperty('payMethod');
  });
});

describe('水电缴费 page', { timeout: 60_000 }, () => {
  const ROWS = [
    {
      roomId: 11, roomName: '1-101', areaId: 3, areaName: '阳光园区/1号楼/1层', sizeM2: '56.50', ownerId: 21, ownerName: '王伟', ownerPhone: '13800001111',
      electricBalance: '12.00', waterBalance: '-3.50', electricAlarm: 0, waterAlarm: 3, electricAlarmText: '正常', waterAlarmText: '欠费断电/关阀',
      electricMeters: 1, waterMeters: 1, closedMeters: 1,
    },
    {
      roomId: 12, roomName: '1-102', areaId: 3, areaName: '阳光园区/1号楼/1层', sizeM2: null, ownerId: null, ownerName: null, ownerPhone: null,
      electricBalance: '0.00', waterBalance: '0.00', electricAlarm: 0, waterAlarm: 0, electricAlarmText: '正常', waterAlarmText: '正常',
      electricMeters: 1, waterMeters: 0, closedMeters: 0,
    },
  ];
  const SUM = { rooms: 2, occupied: 1, electricBalance: '12.00', waterBalance: '-3.50', arrearsRooms: 1, arrears: '3.50', alarmRooms: 1 };

  it('clips a long room name and area path, whole in a tooltip, so 表具 stays clear of 操作 at 1440×900', async () => {
    signIn(['energy'], ['finance.prepay']);
    const name = '超长房间名称'.repeat(10);
    const area = '阳光园区/一号楼一单元/地下一层附属储藏间'.repeat(2);
    mockServer((c) => {
      if (c.path.endsWith('/RoomInfo/GetEnergyRoom')) return ok([{ ...ROWS[0], roomName: name, areaName: area }], 1);
      if (c.path.endsWith('/RoomInfo/GetEnergyRoomSum')) return ok(SUM);
      return undefined;
    });
    renderPage('energy', <Energy />);
    for (const [text, width] of [[name, '140px'], [area, '160px']] as const) {
      const cell = await screen.findByText(text);
      expect(cell.title).toBe(text);
      expect([cell.style.maxWidth, cell.style.overflow, cell.style.textOverflow, cell.style.whiteSpace]).toEqual([width, 'hidden', 'ellipsis', 'nowrap']);
    }
  });

  it('lists balances with totals; a top-up updates the row', async () => {
    signIn(['energy'], ['finance.prepay']);
    const calls = mockServer((c) => {
      if (c.path.endsWith('/RoomInfo/GetEnergyRoom')) return ok(ROWS, 2);
      if (c.path.endsWith('/RoomInfo/GetEnergyRoomSum')) return ok(SUM);
      if (c.path.endsWith('/Energy/Prepay')) return ok({ journalId: 9, receiptId: 5, receiptNo: 'SJ9', amount: '100.00', balance: '112.00', duplicate: false });
      return undefined;
    });
    renderPage('energy', <Energy />);
    expect((await screen.findByTestId('electric-11')).textContent).toBe('¥12.00');
    expect(screen.getByTestId('water-11').textContent).toBe('-¥3.50');
    expect(screen.getByText('欠费断电/关阀')).toBeTruthy();
    expect(screen.getByText('空置')).toBeTruthy();
    expect((await screen.findByTestId('sum-electric')).textContent).toBe('¥12.00');
    // only 充值 is allowed; a vacant room cannot be charged
    expect(screen.queryByTestId('refund-11')).toBeNull();
    expect(screen.queryByTestId('prepay-12')).toBeNull();

    fireEvent.click(screen.getByTestId('prepay-11'));
    const modal = await screen.findByRole('dialog');
    fireEvent.change(within(modal).getByLabelText(/金额（元）/), { target: { value: '100' } });
    fireEvent.click(within(modal).getByRole('button', { name: /确定充值/ }));
    await screen.findByTestId('counter-result');
    await waitFor(() => expect(screen.getByTestId('electric-11').textContent).toBe('¥112.00'));
    expect(calls.filter((c) => c.path.endsWith('/GetEnergyRoomSum')).length).toBeGreaterThanOrEqual(2);
  });
});

describe('扫码充值 dialog', { timeout: 60_000 }, () => {
  it('creates an order, shows its QR code, and turns paid when the (simulated) provider confirms', async () => {
    signIn(['energy'], ['finance.prepay']);
    let paid = false;
    const calls = mockServer((c) => {
      if (c.path === '/alipay/api/alipay/pay') {
        return ok({
          id: 3, outTradeNo: 'ALI2025030112000000000001', channel: 'alipay', channelText: '支付宝', amount: '50.00', subject: '1-101 电费充值',
          qrCode: 'data:image/png;base64,AAAA', expiresAt: '2025-03-01 12:30:00', status: 'created', simulated: true,
        });
      }
      if (c.path === '/alipay/api/alipay/simulatePaid') {
        paid = true;
        return ok({ outTradeNo: 'ALI2025030112000000000001', status: 'paid' });
      }
      if (c.path === '/wxpay/api/wxpay/query') return ok(paid ? { status: 'paid', statusText: '已支付', paidAt: '2025-03-01 12:01:00' } : { status: 'created', statusText: '待支付', paidAt: null });
      return undefined;
    });
    const paidRooms: number[] = [];
    renderPage('energy', <OnlinePayDialog room={ROOM} onPaid={() => paidRooms.push(ROOM.roomId)} onClose={() => {}} />);
    fireEvent.click(screen.getByText('支付宝'));
    fireEvent.change(screen.getByLabelText(/充值金额/), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: /生成收款码/ }));
    expect(((await screen.findByTestId('online-qr')) as HTMLImageElement).src).toBe('data:image/png;base64,AAAA');
    expect(calls.find((c) => c.path === '/alipay/api/alipay/pay')!.body).toEqual({ roomId: 11, wallet: 'electric', amount: '50.00' });
    await waitFor(() => expect(screen.getByTestId('online-status').textContent).toBe('状态：待支付'));
    fireEvent.click(screen.getByRole('button', { name: /模拟支付成功/ }));
    expect((await screen.findByTestId('online-paid')).textContent).toBe('支付宝 ¥50.00 已入账（订单号 ALI2025030112000000000001）');
    expect(paidRooms).toEqual([11]);
  });

  it('with the local payment emulator, the QR comes with a link to the emulator\'s payer page and no simulated button', async () => {
    signIn(['energy'], ['finance.prepay']);
    mockServer((c) => {
      if (c.path === '/wxpay/api/wxpay/pay') {
        return ok({
          id: 4, outTradeNo: 'WX2025030112000000000002', channel: 'wechat', channelText: '微信支付', amount: '20.00', subject: '1-101 电费充值',
          qrCode: 'data:image/png;base64,BBBB', codeUrl: 'http://127.0.0.1:8091/scan/wechat/abc', expiresAt: '2025-03-01 12:30:00', status: 'created', simulated: false, emulated: true,
        });
      }
      if (c.path === '/wxpay/api/wxpay/query') return ok({ status: 'created', statusText: '待支付', paidAt: null });
      return undefined;
    });
    renderPage('energy', <OnlinePayDialog room={ROOM} onPaid={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/充值金额/), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: /生成收款码/ }));
    expect((await screen.findByTestId('online-emulator')).getAttribute('href')).toBe('http://127.0.0.1:8091/scan/wechat/abc');
    expect(screen.queryByRole('button', { name: /模拟支付成功/ })).toBeNull();
  });
});
