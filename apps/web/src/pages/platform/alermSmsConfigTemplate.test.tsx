import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import AlermSmsConfigTemplate from './AlermSmsConfigTemplate.tsx';

// 短信模板 (/alermSmsConfigTemplate): the platform admin sees each template with its event, and a new
// one is sent with its event as a number and its content with {variables}.

configure({ asyncUtilTimeout: 8000 });

type Call = { method: string; url: string; body: any };

function mockServer(calls: Call[]) {
  const json = (b: unknown) => new Response(JSON.stringify(b), { status: 200 });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input, init) => {
      const p = new URL(input, 'http://x').pathname;
      calls.push({ method: init.method ?? 'GET', url: p, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (p.endsWith('/alermSmsConfigTemplate/List')) {
        return json({ code: 'SUCCESS', count: 1, data: [{ id: 3, name: '缴费到账通知', event: 4, content: '{owner}缴费¥{amount}', status: 1, memo: '', createdAt: '2026-11-26 10:00:00' }] });
      }
      if (p.endsWith('/alermSmsConfigTemplate/Detail')) return json({ code: 'SUCCESS', data: { id: 9 } });
      return json({ code: 'SUCCESS', data: null });
    }),
  });
}

function session() {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'admin', realName: '', companyId: null, roleId: null, userType: 0 },
    access: 0,
    routes: ['alermSmsConfigTemplate'],
    operations: [],
    company: null,
  };
  saveSession(login);
}

beforeEach(() => resetInflight());

describe('短信模板', { timeout: 120_000 }, () => {
  it('lists templates with their event and creates one', async () => {
    session();
    const calls: Call[] = [];
    mockServer(calls);
    render(
      <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <AlermSmsConfigTemplate />
        </MemoryRouter>
      </Providers>,
    );
    expect(await screen.findByText('缴费到账通知')).toBeTruthy();
    expect(screen.getAllByText('缴费到账').length).toBeGreaterThan(0);
    expect(screen.getByText(/可用变量：\{company\} 单位名称/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增短信模板/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input[id$="_name"]')!, { target: { value: '恢复供电' } });
    fireEvent.mouseDown(dialog.querySelector('input[id$="_event"]')!);
    fireEvent.click(await screen.findByTitle('恢复供应'));
    fireEvent.change(dialog.querySelector('textarea[id$="_content"]')!, { target: { value: '{room}已恢复供电' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    const posts = () => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/alermSmsConfigTemplate/Detail'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toMatchObject({ name: '恢复供电', event: 3, content: '{room}已恢复供电', status: 1 });
  });
});
