import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { PageContext } from '../../app/page.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import Task from './Task.tsx';
import { periodText } from './ScheduledJobs.tsx';

configure({ asyncUtilTimeout: 8000 });

function session(access: 0 | 1) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: access === 0 ? null : 1, roleId: 1, userType: access === 0 ? 0 : 1 },
    access,
    routes: ['task'],
    operations: [],
    company: access === 0 ? null : { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

const job = (over: Record<string, unknown>) => ({
  name: 'billing.settlement', label: '抄表结算', role: 'worker', roleText: '指令执行进程', everyMs: 5000,
  lastStartedAt: '2026-11-25T02:00:00Z', lastFinishedAt: '2026-11-25T02:00:00.120Z', lastDurationMs: 120, lastOk: true,
  lastError: '', lastErrorAt: null, nextRunAt: '2026-11-25T02:00:05.120Z', runs: 41, failures: 0, host: 'srv-1:4242',
  state: 'ok', stateText: '正常', ...over,
});

function mockServer(urls: string[]) {
  const ok = (data: unknown, count?: number) =>
    new Response(JSON.stringify({ code: 'SUCCESS', message: '', data, ...(count !== undefined ? { count } : {}) }), { status: 200 });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn(async (input: string) => {
      urls.push(input);
      if (new URL(input, 'http://x').pathname === '/yonghu/api/system/jobs') {
        return ok([
          job({}),
          job({ name: 'notify.outbox', label: '短信/电话提醒发送', lastOk: false, lastError: '短信平台无应答', lastErrorAt: '2026-11-25T01:59:00Z', state: 'failed', stateText: '上次失败', failures: 3 }),
          job({ name: 'worker.partitions', label: '读数分区维护', everyMs: 86_400_000, state: 'overdue', stateText: '未按时运行' }),
        ]);
      }
      return ok([], 0);
    }),
  });
}

function renderTask() {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <PageContext.Provider value={{ routeKey: 'task', active: true }}><Task /></PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
}

beforeEach(() => resetInflight());

describe('/task 定时任务', { timeout: 60_000 }, () => {
  it('a platform administrator sees every timed job with its state, last and next run, counts and last error', async () => {
    session(0);
    const urls: string[] = [];
    mockServer(urls);
    renderTask();
    const row = (await screen.findByText('短信/电话提醒发送')).closest('tr')!;
    expect(within(row).getByText('上次失败')).toBeTruthy();
    expect(within(row).getByText('短信平台无应答')).toBeTruthy();
    expect(within(row).getByText("41 / 3")).toBeTruthy();
    const settle = screen.getByText('抄表结算').closest('tr')!;
    expect(within(settle).getByText('5 秒')).toBeTruthy();
    expect(within(settle).getByText('2026-11-25 10:00:00')).toBeTruthy(); // last run, Beijing time
    expect(within(settle).getByText('2026-11-25 10:00:05')).toBeTruthy(); // next run
    expect(within(settle).getByText('120 毫秒')).toBeTruthy();
    const parts = screen.getByText('读数分区维护').closest('tr')!;
    expect(within(parts).getByText('未按时运行')).toBeTruthy();
    expect(within(parts).getByText('24 小时')).toBeTruthy();
  });

  it('a company user sees the reading tasks only and never asks for the jobs', async () => {
    session(1);
    const urls: string[] = [];
    mockServer(urls);
    renderTask();
    expect(await screen.findByText('抄表任务')).toBeTruthy();
    expect(screen.queryByText('定时任务')).toBeNull();
    expect(urls.some((u) => u.includes('/system/jobs'))).toBe(false);
  });

  it('periods read as people say them', () => {
    expect(periodText(5_000)).toBe('5 秒');
    expect(periodText(600_000)).toBe('10 分钟');
    expect(periodText(86_400_000)).toBe('24 小时');
    expect(periodText(1_500)).toBe('1500 毫秒');
  });
});
