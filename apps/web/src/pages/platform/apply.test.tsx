import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, renderPage, serve, signIn, type Call, freshPageState } from '../../test/harness.tsx';
import NoteBocLog from '../notes/NoteBocLog.tsx';
import Apply, { propertyBody } from './Apply.tsx';
import BankManagement from './BankManagement.tsx';
import { bankWithdrawError, randomAmountError } from './SubMerDialogs.tsx';

// /apply (二级商户申请), /noteBocLog (银行验证日志), /bankManagement (银行管理): the actions each state
// allows, the verification dialog, the sub-account with its withdrawal, the log and the bank list.

configure({ asyncUtilTimeout: 8000 });

freshPageState();

const base = {
  companyId: 1, companyName: '演示物业', shortName: '科技园', licenseNo: '91440300MA5FABCD1K', legalPerson: '张三', legalIdNo: '11010519491231002X',
  contactName: '李四', phone: '13812345678', address: '深圳', bankId: 1, bankName: '中国农业银行', settleBankName: '中国农业银行', accountName: '演示物业',
  accountNo: '6228480012345678', reason: '', memo: '', activatedAt: null, createdAt: '2026-11-22 09:00:00',
};
const rows = [
  { ...base, id: 1, name: '草稿商户', status: 'draft', subMerId: '' },
  { ...base, id: 2, name: '待验证商户', status: 'code_sent', subMerId: 'ABC0000000002' },
  { ...base, id: 3, name: '已开通商户', status: 'active', subMerId: 'ABC0000000003' },
  { ...base, id: 4, name: '驳回商户', status: 'rejected', subMerId: 'ABC0000000004', reason: '验证失败次数已达 3 次' },
];

describe('pure rules', () => {
  it('the random amount is under one 元; a withdrawal fits the available balance', () => {
    expect(randomAmountError('0.37')).toBeNull();
    expect(randomAmountError('1.00')).toBe('随机金额在 0.01 至 0.99 元之间');
    expect(randomAmountError('')).toBe('请输入随机金额');
    expect(bankWithdrawError('100', 10_000)).toBeNull();
    expect(bankWithdrawError('100.01', 10_000)).toBe('提现金额超过子账户可用余额 ¥100.00');
  });

  it('the form becomes the Property_Info body', () => {
    expect(propertyBody({ name: ' 商户 ', shortName: '简', licenseNo: '91440300ma5fabcd1k', legalIdNo: '11010519491231002x', accountNo: '6228 4800 1234 5678', bankId: '3' }))
      .toMatchObject({ name: '商户', licenseNo: '91440300MA5FABCD1K', legalIdNo: '11010519491231002X', accountNo: '6228480012345678', bankId: 3, memo: '' });
  });
});

describe('Apply page', () => {
  it('offers each state only its own actions, submits to the bank, and verifies with code and amount', async () => {
    signIn(['apply'], ['finance.withdraw'], { access: 0 });
    const toasts: string[] = [];
    let verifyCalls = 0;
    const calls = mockServer(serve([
      answer(E.propertyInfo.list, rows),
      answer(E.agricultureBank.register, { id: 1, subMerId: 'ABC0000000001', status: 'applied', statusText: '已提交', bankName: '中国农业银行', message: '', attemptsLeft: null, phone: null, demoInboxUrl: null }),
      answer(E.agricultureBank.verify, () => {
        verifyCalls++;
        return verifyCalls === 1
          ? new Response(JSON.stringify({ code: 'CODE_WRONG', message: '短信验证码不正确，还可尝试 2 次' }), { status: 200, headers: { 'content-type': 'application/json' } })
          : { id: 2, subMerId: 'ABC0000000002', status: 'verified', statusText: '已验证', bankName: '中国农业银行', message: '', attemptsLeft: 2, phone: null, demoInboxUrl: null };
      }),
    ]), toasts);
    renderPage('apply', <Apply />);
    expect(await screen.findByText('草稿商户')).toBeTruthy();
    expect(screen.getByTestId('status-4').textContent).toBe('未通过');
    expect(screen.getByText('验证失败次数已达 3 次')).toBeTruthy();
    // the state machine decides what is offered
    expect(screen.getByTestId('register-1')).toBeTruthy();
    expect(screen.getByTestId('register-4')).toBeTruthy();
    expect(screen.queryByTestId('register-2')).toBeNull();
    expect(screen.getByTestId('verify-2')).toBeTruthy();
    expect(screen.queryByTestId('verify-3')).toBeNull();
    expect(screen.getByTestId('disable-3')).toBeTruthy();
    expect(screen.getByTestId('account-3')).toBeTruthy();
    expect(screen.getAllByText('6228 **** **** 5678').length).toBe(4);

    fireEvent.click(screen.getByTestId('register-1'));
    fireEvent.click(await screen.findByRole('button', { name: '确 定' }));
    await waitFor(() => expect(calls.some((c) => c.path === E.agricultureBank.register.path && c.query.get('propertyID') === '1')).toBe(true));
    await waitFor(() => expect(calls.filter((c) => c.path === E.propertyInfo.list.path).length).toBeGreaterThanOrEqual(2));

    fireEvent.click(screen.getByTestId('verify-2'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/138\*\*\*\*5678/)).toBeTruthy();
    fireEvent.change(within(dialog).getByPlaceholderText('6 位数字'), { target: { value: '123456' } });
    fireEvent.change(within(dialog).getByPlaceholderText('如 0.37'), { target: { value: '0.37' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提交验证/ }));
    expect((await within(dialog).findByTestId('verify-refusal')).textContent).toBe('短信验证码不正确，还可尝试 2 次');
    // the merchant corrects the code (a typed change also clears the refusal)
    fireEvent.change(within(dialog).getByPlaceholderText('6 位数字'), { target: { value: '654321' } });
    await waitFor(() => expect(within(dialog).queryByTestId('verify-refusal')).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: /提交验证/ }));
    await waitFor(() => expect(calls.filter((c: Call) => c.path === E.agricultureBank.verify.path)).toHaveLength(2));
    expect(toasts).toEqual(['warning:短信验证码不正确，还可尝试 2 次']);
    const posts = calls.filter((c: Call) => c.path === E.agricultureBank.verify.path);
    expect(posts).toHaveLength(2);
    expect(posts[0].body).toEqual({ subMerId: 'ABC0000000002', code: '123456', amount: '0.37' });
    expect(posts[1].body).toEqual({ subMerId: 'ABC0000000002', code: '654321', amount: '0.37' });
  }, 90_000);

  it('子账户 shows the bank balance and withdraws once per request, refusing more than is available', async () => {
    signIn(['apply'], ['finance.withdraw'], { access: 0 });
    const toasts: string[] = [];
    const calls = mockServer(serve([
      answer(E.propertyInfo.list, rows),
      answer(E.agricultureBank.balance, { subMerId: 'ABC0000000003', bankName: '中国农业银行', balance: '128.50', available: '128.50', availableFen: 12850, processing: '0.00', accountName: '演示物业', accountNo: '6228480012345678' }),
      answer(E.agricultureBank.withdrawals, [{ id: 7, amount: '20.00', status: 1, statusText: '已到账', bankSerial: 'W1', reason: '', operatorName: '张三', createdAt: '2026-11-22 10:00:00' }]),
      answer(E.agricultureBank.withdraw, { id: 8, amount: '100.00', status: 1, statusText: '已到账', duplicate: false, reason: '' }),
    ]), toasts);
    renderPage('apply', <Apply />);
    fireEvent.click(await screen.findByTestId('account-3'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('subacc-available').textContent).toBe('¥128.50'));
    expect(await within(dialog).findByText('W1')).toBeTruthy();
    const input = within(dialog).getAllByRole('textbox')[0];
    fireEvent.change(input, { target: { value: '128.51' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提现到结算账户/ }));
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(await within(dialog).findByText('提现金额超过子账户可用余额 ¥128.50')).toBeTruthy();
    expect(calls.some((c) => c.path === E.agricultureBank.withdraw.path)).toBe(false);
    fireEvent.change(input, { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提现到结算账户/ }));
    await waitFor(() => expect(calls.filter((c) => c.path === E.agricultureBank.withdraw.path)).toHaveLength(1));
    const posts = calls.filter((c) => c.path === E.agricultureBank.withdraw.path);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({ subMerId: 'ABC0000000003', amount: '100.00', memo: '' });
    expect(String((posts[0].body as { requestId: string }).requestId)).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  }, 90_000);
});

describe('NoteBocLog and BankManagement', () => {
  it('the log shows each exchange with its result and state change; the bank list is the declared resource', async () => {
    signIn(['noteBocLog', 'bankManagement'], [], { access: 0 });
    const calls = mockServer(serve([
      answer(E.agricultureBank.logs, [
        { id: 2, companyName: '演示物业', propertyName: '科技园管理处', subMerId: 'ABC1', bankName: '中国农业银行', action: 'VerifyMessageCodeAndRandomAmount', actionText: '验证码与随机金额验证', ok: false, errCode: 'CODE_WRONG', message: '短信验证码不正确，还可尝试 2 次', statusFrom: 'code_sent', statusTo: 'code_sent', request: '{"code":"1"}', response: '', operatorName: '平台管理员', createdAt: '2026-11-22 10:01:00' },
        { id: 1, companyName: '演示物业', propertyName: '科技园管理处', subMerId: 'ABC1', bankName: '中国农业银行', action: 'RegSubMerInfo', actionText: '子商户进件', ok: true, errCode: '', message: '已提交', statusFrom: 'draft', statusTo: 'applied', request: '', response: '', operatorName: '平台管理员', createdAt: '2026-11-22 10:00:00' },
      ]),
      answer(E.bank.list, [{ id: 1, name: '中国农业银行', code: '103', bankType: 0, sort: 1, status: 1, memo: '', createdAt: '2026-11-22 09:00:00' }]),
    ]));
    const page = renderPage('noteBocLog', <NoteBocLog />);
    expect(await screen.findByText('短信验证码不正确，还可尝试 2 次')).toBeTruthy();
    expect(screen.getByText('待提交 → 已提交')).toBeTruthy();
    expect(screen.getByText('待验证')).toBeTruthy();
    expect(screen.getByText('失败', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('验证码与随机金额验证')).toBeTruthy();
    page.unmount();

    renderPage('bankManagement', <BankManagement />);
    expect((await screen.findAllByText('中国农业银行')).length).toBeGreaterThan(0);
    expect(screen.getByText('103')).toBeTruthy();
    expect(calls.some((c) => c.path === E.bank.list.path)).toBe(true);
  }, 90_000);
});
