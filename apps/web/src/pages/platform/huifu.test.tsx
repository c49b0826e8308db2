import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockServer, ok, renderPage, signIn } from '../fee/testing.tsx';
import NotesWithdraw from '../notes/NotesWithdraw.tsx';
import Huifu, { payAppBody } from './Huifu.tsx';
import { withdrawAmountError } from './WithdrawDialog.tsx';
import { freshPageState } from '../../test/harness.tsx';

// /huifu: the pay-application accounts with their balances, and the withdrawal dialog (amount
// checked as text against balance − fee, a confirmation step, one requestId per opening).

configure({ asyncUtilTimeout: 8000 });

freshPageState();

const P = '/pay/api/AdaPayApplication';
const row = {
  id: 5, companyId: 1, companyName: '演示物业', name: '物业收款户', kind: 1, kindText: '企业', legalPerson: '张三', contactName: '', idNo: '91310000MA1FL0000X',
  phone: '13800138000', bankName: '中国银行', bankAccountName: '演示物业', bankAccountNo: '6217000012345678', status: 'opened', statusText: '已开通',
  providerAppId: 'SIMAPP5', reason: '', balance: '100.00', balanceFen: 10000, processing: '0.00', processingCount: 0, maxWithdrawal: '99.00', memo: '',
  openedAt: '2026-11-22 10:00:00', createdAt: '2026-11-22 09:00:00',
};

describe('pure rules', () => {
  it('the withdrawal amount must leave room for its fee', () => {
    expect(withdrawAmountError('99', 10000)).toBeNull();
    expect(withdrawAmountError('99.01', 10000)).toBe('提现金额加手续费 ¥1.00 超过可用余额 ¥100.00');
    expect(withdrawAmountError('', 10000)).toBe('请输入提现金额');
    expect(withdrawAmountError('1.234', 10000)).toBe('提现金额最多 2 位小数');
    expect(withdrawAmountError('0', 10000)).toBe('提现金额须大于 0');
    expect(withdrawAmountError('0.1+0.2', 10000)).toBe('提现金额须为数字，如 100 或 100.50');
  });

  it('the application form becomes the request body (account number without spaces, kind a number)', () => {
    expect(payAppBody({ name: ' 收款户 ', kind: '2', legalPerson: '李四', idNo: '11010519491231002x', phone: '13800138000', bankName: '工行', bankAccountName: '李四', bankAccountNo: '6222 0000 1111 2222' }))
      .toEqual({ name: '收款户', kind: 2, legalPerson: '李四', contactName: '', idNo: '11010519491231002X', phone: '13800138000', bankName: '工行', bankAccountName: '李四', bankAccountNo: '6222000011112222', memo: '' });
  });
});

describe('Huifu page', () => {
  it('lists accounts with their balance; 提现 validates, shows the fee, asks for confirmation, then withdraws once', async () => {
    signIn(['huifu', 'noteswithdraw'], ['finance.withdraw']);
    const toasts: string[] = [];
    const calls = mockServer((c) => {
      if (c.path === `${P}/GetAdaPayApplicationAllList`) return ok([row], 1);
      if (c.path === `${P}/GetBalance`) return ok({ ...row, fee: { rateBp: 5, min: '1.00', max: '25.00', text: '提现手续费：提现金额的 0.05%' } });
      if (c.path === `${P}/Withdrawal`) return ok({ id: 9, requestId: 'r', amount: '50.00', fee: '1.00', status: 0, statusText: '处理中', balance: '49.00', duplicate: false });
      return undefined;
    }, toasts);
    renderPage('huifu', <Huifu />);
    expect(await screen.findByText('物业收款户')).toBeTruthy();
    expect(screen.getByText('¥100.00')).toBeTruthy();
    expect(screen.getByText('6217 **** **** 5678')).toBeTruthy();

    fireEvent.click(screen.getByTestId('withdraw-5'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('withdraw-balance').textContent).toBe('¥100.00'));
    const input = within(dialog).getByPlaceholderText('如 100 或 100.50');
    fireEvent.change(input, { target: { value: '99.01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /下一步/ }));
    expect(await within(dialog).findByText('提现金额加手续费 ¥1.00 超过可用余额 ¥100.00')).toBeTruthy();
    expect(calls.some((c) => c.path === `${P}/Withdrawal`)).toBe(false);

    fireEvent.change(input, { target: { value: '50' } });
    await waitFor(() => expect(within(dialog).getByTestId('withdraw-fee').textContent).toBe('手续费 ¥1.00，合计扣除 ¥51.00'));
    fireEvent.click(within(dialog).getByRole('button', { name: /下一步/ }));
    expect((await screen.findByTestId('confirm-amount')).textContent).toBe('¥50.00');
    expect(screen.getByTestId('confirm-fee').textContent).toBe('¥1.00');
    fireEvent.click(screen.getByRole('button', { name: /确认提现/ }));
    expect((await screen.findByTestId('withdraw-result')).textContent).toContain('状态：处理中');
    const posts = calls.filter((c) => c.path === `${P}/Withdrawal`);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({ id: 5, amount: '50.00', memo: '' });
    expect(String((posts[0].body as { requestId: string }).requestId)).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(toasts.filter((t) => t.startsWith('warning') || t.startsWith('error'))).toEqual([]);
  }, 30_000);

  it('no 提现 without the finance.withdraw operation', async () => {
    signIn(['huifu'], []);
    mockServer((c) => (c.path === `${P}/GetAdaPayApplicationAllList` ? ok([row], 1) : undefined));
    renderPage('huifu', <Huifu />);
    expect(await screen.findByText('物业收款户')).toBeTruthy();
    expect(screen.queryByTestId('withdraw-5')).toBeNull();
    expect(screen.getByText('修改结算卡')).toBeTruthy();
  });
});

describe('statement and withdrawal log', () => {
  it('流水 opens the account\'s statement; /noteswithdraw lists withdrawals with state, fee and failure reason', async () => {
    signIn(['huifu', 'noteswithdraw'], ['finance.withdraw']);
    const calls = mockServer((c) => {
      if (c.path === `${P}/GetAdaPayApplicationAllList`) return ok([row], 1);
      if (c.path === `${P}/GetBalance`) return ok({ ...row, fee: { rateBp: 5, min: '1.00', max: '25.00', text: '提现手续费' } });
      if (c.path === `${P}/FindJournal`) {
        return ok([
          { id: 3, applicationId: 5, kind: 'reversal', kindText: '提现失败退回', amount: '26.00', balanceAfter: '40.00', refType: 'withdrawal', refId: 9, operatorName: '系统', memo: '提现失败退回', createdAt: '2026-11-22 10:02:00' },
          { id: 1, applicationId: 5, kind: 'collect', kindText: '收款', amount: '40.00', balanceAfter: '40.00', refType: 'payment', refId: 2, operatorName: '微信支付', memo: '在线支付收款', createdAt: '2026-11-22 10:00:00' },
        ], 2);
      }
      if (c.path === `${P}/FindWithdrawalLog`) {
        return ok([{ id: 9, applicationId: 5, applicationName: '物业收款户', amount: '25.00', fee: '1.00', bankName: '中国银行', bankAccount: '6217000000004444', status: 2, statusText: '提现失败', reason: '银行退票：收款账户信息有误', operatorName: '张三', memo: '', createdAt: '2026-11-22 10:01:00', finishedAt: '2026-11-22 10:02:00' }], 1);
      }
      return undefined;
    });
    const page = renderPage('huifu', <Huifu />);
    fireEvent.click(await screen.findByText('流水'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('提现失败退回', { selector: '.ant-tag' })).toBeTruthy();
    expect(within(drawer).getAllByText('¥40.00').length).toBeGreaterThanOrEqual(2);
    expect(calls.find((c) => c.path === `${P}/FindJournal`)!.query.get('id')).toBe('5');
    page.unmount();

    renderPage('noteswithdraw', <NotesWithdraw />);
    expect(await screen.findByText('银行退票：收款账户信息有误')).toBeTruthy();
    expect(screen.getByText('6217 **** **** 4444')).toBeTruthy();
    expect(screen.getByText('提现失败', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('¥25.00')).toBeTruthy();
    expect(calls.some((c) => c.path === `${P}/FindWithdrawalLog` && c.query.get('index') === '1')).toBe(true);

    // 申请提现: pick an opened account, then the withdrawal dialog
    fireEvent.click(screen.getByRole('button', { name: /申请提现/ }));
    const picker = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(picker).getByRole('combobox', { name: '收款账户' }));
    fireEvent.click(await screen.findByText('物业收款户（可用余额 ¥100.00）', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(picker).getByRole('button', { name: /下一步/ }));
    await waitFor(() => expect(screen.getByTestId('withdraw-balance').textContent).toBe('¥100.00'));
    expect(calls.some((c) => c.path === `${P}/GetAdaPayApplicationAllList` && c.query.get('status') === 'opened')).toBe(true);
  }, 30_000);

  it('no 申请提现 on /noteswithdraw without finance.withdraw', async () => {
    signIn(['noteswithdraw'], []);
    mockServer((c) => (c.path === `${P}/FindWithdrawalLog` ? ok([], 0) : undefined));
    renderPage('noteswithdraw', <NotesWithdraw />);
    expect(await screen.findByText('商户提现记录')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /申请提现/ })).toBeNull();
  });
});
