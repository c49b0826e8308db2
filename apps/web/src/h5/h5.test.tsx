import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { Providers } from '../app/Root.tsx';
import { resetInflight, sessionToken } from '../api/request.ts';
import { E } from '../api/endpoints.gen.ts';
import { answer, mockServer, serve, type Call } from '../test/harness.tsx';
import { clearOwnerSession, ownerSession, saveOwnerSession } from './session.ts';

// 业主端 H5 in jsdom: sign-in by SMS code, my rooms with balance and supply, notices read marking, a
// top-up with the simulated provider. Requests go with the owner's token, not the back-office's.

configure({ asyncUtilTimeout: 8000 });
vi.mock('./live.ts', () => ({ onOwnerEvent: () => () => {} }));
vi.mock('./UsageChart.tsx', () => ({ default: () => <div data-testid="usage-chart" /> }));

const { default: OwnerApp } = await import('./OwnerApp.tsx');

const OWNER_TOKEN = 'o'.repeat(43);
const ROOM = {
  roomId: 11, roomName: '1-101', path: '阳光园区/1号楼/1层/1-101', ownerId: 5, ownerName: '王伟',
  accounts: [
    { wallet: 'electric', walletText: '电费', balance: '-68.00', alarmLevel: 3, alarmText: '欠费·已断电', supply: 'off', status: 1 },
    { wallet: 'water', walletText: '水费', balance: '12.50', alarmLevel: 0, alarmText: '正常', supply: null, status: 1 },
  ],
  meters: [{ id: 3, name: '电表', kind: 1, valveState: 0, online: true }],
};
const ME = { owner: { id: 5, name: '王伟', phone: '13900000001' }, companyName: '阳光物业演示公司', rooms: [ROOM] };

function mount(path: string) {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes><Route path="/h5/*" element={<OwnerApp />} /></Routes>
      </MemoryRouter>
    </Providers>,
  );
}

let calls: Call[];
beforeEach(() => {
  resetInflight();
  clearOwnerSession();
});
afterEach(() => clearOwnerSession());

describe('业主端 H5', () => {
  it('signs in by phone + SMS code and keeps the owner session apart', async () => {
    calls = mockServer(serve([
      answer(E.ownerApp.sendCode, { expiresIn: 300, cooldown: 60 }),
      answer(E.ownerApp.loginPhone, { token: OWNER_TOKEN, owner: ME.owner, companyId: 1, companyName: ME.companyName }),
      answer(E.ownerApp.me, ME),
    ]));
    mount('/h5');
    // not signed in: the login page
    fireEvent.change(await screen.findByLabelText('手机号'), { target: { value: '13900000001' } });
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByRole('button', { name: /60 秒后重发/ })).toBeTruthy();
    expect(calls.find((c) => c.path === E.ownerApp.sendCode.path)?.body).toEqual({ phone: '13900000001' });
    fireEvent.change(screen.getByPlaceholderText('6 位验证码'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('我的房间')).toBeTruthy();
    expect(calls.find((c) => c.path === E.ownerApp.loginPhone.path)?.body).toEqual({ phone: '13900000001', code: '123456' });
    expect(ownerSession()?.token).toBe(OWNER_TOKEN);
    expect(sessionToken()).toBe(OWNER_TOKEN);
  }, 45_000);

  it('a phone of owners in two companies chooses one after the code: company, name and rooms shown, the choice sent with the code', async () => {
    const choose = [
      { companyId: 1, companyName: '阳光物业演示公司', ownerName: '王伟', rooms: ['阳光园区/1号楼/1层/1-101', '阳光园区/1号楼/1层/1-102'] },
      { companyId: 2, companyName: '绿城物业', ownerName: '王伟', rooms: ['绿城小区/3栋/3-201'] },
    ];
    calls = mockServer(serve([
      answer(E.ownerApp.loginPhone, (c) => (c.body.companyId
        ? { token: OWNER_TOKEN, owner: { id: 9, name: '王伟', phone: '13900000001' }, companyId: 2, companyName: '绿城物业' }
        : { choose })),
      answer(E.ownerApp.me, { ...ME, companyName: '绿城物业' }),
    ]));
    mount('/h5/login');
    fireEvent.change(await screen.findByLabelText('手机号'), { target: { value: '13900000001' } });
    fireEvent.change(screen.getByPlaceholderText('6 位验证码'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('选择物业')).toBeTruthy();
    expect(screen.getByText(/在 2 家物业登记为业主/)).toBeTruthy();
    expect(screen.getByText('房间：阳光园区/1号楼/1层/1-101、阳光园区/1号楼/1层/1-102')).toBeTruthy();
    expect(ownerSession()).toBeNull();
    // choosing sends the same phone and code with the company
    fireEvent.click(screen.getByRole('button', { name: /绿城物业/ }));
    expect(await screen.findByText('我的房间')).toBeTruthy();
    const logins = calls.filter((c) => c.path === E.ownerApp.loginPhone.path).map((c) => c.body);
    expect(logins).toEqual([{ phone: '13900000001', code: '654321' }, { phone: '13900000001', code: '654321', companyId: 2 }]);
    expect(ownerSession()).toMatchObject({ token: OWNER_TOKEN, companyName: '绿城物业' });
  }, 45_000);

  it('changes the room password in 我的: sent with the old one, then signed out to sign in again', async () => {
    saveOwnerSession({ token: OWNER_TOKEN, owner: ME.owner, companyName: ME.companyName });
    const toasts: string[] = [];
    calls = mockServer(serve([answer(E.ownerApp.me, ME), answer(E.ownerApp.password, {})]), toasts);
    mount('/h5/me');
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: 'Old-pass-1' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'New-pass-2' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'New-pass-3' } });
    fireEvent.click(screen.getByRole('button', { name: /修改密码/ }));
    expect(await screen.findByText('两次输入的新密码不一致')).toBeTruthy();
    expect(calls.some((c) => c.path === E.ownerApp.password.path)).toBe(false);
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'New-pass-2' } });
    fireEvent.click(screen.getByRole('button', { name: /修改密码/ }));
    expect(await screen.findByText('业主服务')).toBeTruthy();
    expect(calls.find((c) => c.path === E.ownerApp.password.path)?.body).toEqual({ roomId: 11, oldPassword: 'Old-pass-1', newPassword: 'New-pass-2' });
    expect(ownerSession()).toBeNull();
  }, 45_000);

  it('shows my rooms with balances, the supply cut by arrears and the meters\' state', async () => {
    saveOwnerSession({ token: OWNER_TOKEN, owner: ME.owner, companyName: ME.companyName });
    mockServer(serve([answer(E.ownerApp.me, ME)]));
    mount('/h5');
    expect(await screen.findByText('阳光园区/1号楼/1层/1-101')).toBeTruthy();
    const electric = screen.getByTestId('balance-11-electric');
    expect(electric.textContent).toContain('¥-68.00');
    expect(electric.textContent).toContain('欠费·已断电');
    expect(electric.querySelector('.amount.neg')).toBeTruthy();
    expect(screen.getByTestId('balance-11-water').textContent).toContain('¥12.50');
    expect(screen.getByText('断电')).toBeTruthy();
    expect(screen.getByRole('link', { name: /充\s*值/ }).getAttribute('href')).toBe('/h5/pay/11');
  }, 20_000);

  it('lists notices with the unread ones marked, and opening one marks it read', async () => {
    saveOwnerSession({ token: OWNER_TOKEN, owner: ME.owner, companyName: ME.companyName });
    let read = false;
    const notice = { id: 7, title: '停水通知', typeName: '停水停电', pinned: false, publishedAt: '2026-11-26T01:00:00.000Z' };
    calls = mockServer(serve([
      answer(E.notice.ownerList, () => [{ ...notice, read }]),
      answer(E.notice.ownerRead, () => {
        read = true;
        return { ...notice, read: true, content: '<p>周六上午停水</p>' };
      }),
    ]));
    mount('/h5/notices');
    expect(await screen.findByText('停水通知')).toBeTruthy();
    expect(screen.getByLabelText('未读')).toBeTruthy();
    expect(screen.getByText('未读 1')).toBeTruthy();
    fireEvent.click(screen.getByText('停水通知'));
    expect(await screen.findByText('周六上午停水')).toBeTruthy();
    expect(calls.find((c) => c.path === E.notice.ownerRead.path)?.body).toEqual({ id: 7 });
    fireEvent.click(screen.getByRole('link', { name: '返回' }));
    await waitFor(() => expect(screen.queryByLabelText('未读')).toBeNull());
    expect(screen.getByText('未读 0')).toBeTruthy();
  });

  it('tops up with the simulated provider: the order, the confirmation, then 充值成功', async () => {
    saveOwnerSession({ token: OWNER_TOKEN, owner: ME.owner, companyName: ME.companyName });
    const order = {
      id: 1, outTradeNo: 'WX2026112610000012345678', channel: 'wechat', channelText: '微信支付', amount: '100.00', subject: '1-101 电费充值',
      codeUrl: 'weixin://sim', qrCode: '', expiresAt: '2026-11-26T03:00:00.000Z', status: 'created', simulated: true, emulated: false,
    };
    calls = mockServer(serve([
      answer(E.ownerApp.me, ME),
      answer(E.ownerApp.pay, order),
      answer(E.ownerApp.simulatePaid, { outTradeNo: order.outTradeNo, channelText: '微信支付', amount: '100.00', status: 'paid', statusText: '已支付', paidAt: null }),
    ]));
    mount('/h5/pay/11');
    fireEvent.click(await screen.findByRole('button', { name: /确认充值/ }));
    fireEvent.click(await screen.findByRole('button', { name: /模拟支付成功/ }));
    expect(await screen.findByText('充值成功')).toBeTruthy();
    expect(calls.find((c) => c.path === E.ownerApp.pay.path)?.body).toEqual({ roomId: 11, wallet: 'electric', amount: '100', channel: 'wechat' });
    expect(calls.find((c) => c.path === E.ownerApp.simulatePaid.path)?.body).toEqual({ outTradeNo: order.outTradeNo });
  }, 20_000);
});
