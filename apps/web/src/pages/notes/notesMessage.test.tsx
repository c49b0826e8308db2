import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import NotesMessage from './NotesMessage.tsx';

// 短信记录 (/notesMessage): each message with its provider, delivery receipt, tries, price and cost.

configure({ asyncUtilTimeout: 8000 });

const row = (o: Record<string, unknown>) => ({
  id: 1, ownerId: 1, ownerName: '业主1', meterId: null, level: 1, channel: 'sms', phone: '13800000000', content: '余额不足', status: 'sent',
  provider: 'aliyun', priceFen: 7, costFen: 7, error: '', attempts: 1, providerRef: '123^0', answer: '{}', receipt: 'delivered', receiptText: 'DELIVERED',
  receiptAt: '2026-11-26 10:00:05', nextTryAt: null, createdAt: '2026-11-26 10:00:00', sentAt: '2026-11-26 10:00:01', ...o,
});

beforeEach(() => resetInflight());

function renderNotesMessage() {
  render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <NotesMessage />
      </MemoryRouter>
    </Providers>,
  );
}

describe('短信记录', { timeout: 120_000 }, () => {
  it('shows provider, receipt, tries, price and cost', async () => {
    const login: LoginResult = {
      token: 'k'.repeat(43), user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 }, access: 1,
      routes: ['notesMessage'], operations: [], company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
    };
    saveSession(login);
    configureRequest({
      toast: { success: () => {}, error: () => {}, warning: () => {} },
      fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async () => new Response(JSON.stringify({
        code: 'SUCCESS', count: 2,
        data: [
          row({}),
          row({ id: 2, ownerName: '业主2', provider: 'tencent', status: 'queued', level: 5, costFen: 0, attempts: 2, receipt: '', error: '腾讯云短信拒绝（InternalError）（将于稍后重试）' }),
        ],
      }), { status: 200 })),
    });
    renderNotesMessage();
    expect(await screen.findByText('阿里云短信')).toBeTruthy();
    expect(screen.getByText('腾讯云短信')).toBeTruthy();
    expect(screen.getByText('已送达')).toBeTruthy();
    expect(screen.getByText('缴费到账')).toBeTruthy();
    expect(screen.getAllByText('¥0.07').length).toBe(3);
    expect(screen.getByText('¥0.00')).toBeTruthy();
    expect(screen.getByText('待发送')).toBeTruthy();
  });

  it('a company out of SMS credit is warned, and a held message shows 余额不足', async () => {
    const login: LoginResult = {
      token: 'k'.repeat(43), user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 }, access: 1,
      routes: ['notesMessage'], operations: [], company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
    };
    saveSession(login);
    const warning = '短信余额不足（余额 ¥0.00，1 条消息暂停发送），请联系平台充值，充值后自动发送';
    configureRequest({
      toast: { success: () => {}, error: () => {}, warning: () => {} },
      fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input) => new Response(JSON.stringify(String(input).includes('/sms/credit')
        ? { code: 'SUCCESS', data: { companyId: 1, kept: true, balanceFen: 0, balance: '0.00', smsPriceFen: 7, phonePriceFen: 15, heldCount: 1, state: 'out', warning } }
        : { code: 'SUCCESS', count: 1, data: [row({ status: 'held', content: '您的电费余额偏低', costFen: 0, attempts: 0, receipt: '', error: '短信余额不足，已暂停发送；平台充值后自动发送' })] }), { status: 200 })),
    });
    renderNotesMessage();
    expect(await screen.findByText(warning)).toBeTruthy();
    expect(await screen.findByText('余额不足')).toBeTruthy();
  });
});
