import { beforeEach, describe, expect, it } from 'vitest';
import { configure, screen, within } from '@testing-library/react';
import { resetInflight } from '../../api/request.ts';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, ok, renderPage, serve, signIn } from '../../test/harness.tsx';
import Task from './Task.tsx';
import { periodText } from './ScheduledJobs.tsx';

configure({ asyncUtilTimeout: 8000 });

const session = (access: 0 | 1) => signIn(['task'], [], { access });

const job = (over: Record<string, unknown>) => ({
  name: 'billing.settlement', label: '抄表结算', role: 'worker', roleText: '指令执行进程', everyMs: 5000,
  lastStartedAt: '2026-11-25T02:00:00Z', lastFinishedAt: '2026-11-25T02:00:00.120Z', lastDurationMs: 120, lastOk: true,
  lastError: '', lastErrorAt: null, nextRunAt: '2026-11-25T02:00:05.120Z', runs: 41, failures: 0, host: 'srv-1:4242',
  state: 'ok', stateText: '正常', ...over,
});

const JOBS = [
  job({}),
  job({ name: 'notify.outbox', label: '短信/电话提醒发送', lastOk: false, lastError: '短信平台无应答', lastErrorAt: '2026-11-25T01:59:00Z', state: 'failed', stateText: '上次失败', failures: 3 }),
  job({ name: 'worker.partitions', label: '分区维护（读数、流水、结算）', everyMs: 86_400_000, state: 'overdue', stateText: '未按时运行' }),
];

/** the platform's timed jobs; anything else an empty list */
const mockJobs = () => mockServer(serve([answer(E.system.jobs, JOBS)], () => ok([], 0)));

const renderTask = () => renderPage('task', <Task />);

beforeEach(() => resetInflight());

describe('/task 定时任务', { timeout: 60_000 }, () => {
  it('a platform administrator sees every timed job with its state, last and next run, counts and last error', async () => {
    session(0);
    mockJobs();
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
    const parts = screen.getByText('分区维护（读数、流水、结算）').closest('tr')!;
    expect(within(parts).getByText('未按时运行')).toBeTruthy();
    expect(within(parts).getByText('24 小时')).toBeTruthy();
  });

  it('a company user sees the reading tasks only and never asks for the jobs', async () => {
    session(1);
    const calls = mockJobs();
    renderTask();
    expect(await screen.findByText('抄表任务')).toBeTruthy();
    expect(screen.queryByText('定时任务')).toBeNull();
    expect(calls.some((c) => c.url.includes('/system/jobs'))).toBe(false);
  });

  it('a running bulk close from /longRange shows as 批量拉闸/关阀 with its done/total', async () => {
    session(1);
    const task = {
      id: 7, companyId: 1, companyName: '', origin: 3, originText: '批量拉闸/关阀', total: 10000, succeeded: 2500, failed: 12, pending: 7488,
      status: 'running', statusText: '进行中', startedAt: '2026-11-25T02:00:00Z', finishedAt: null, requestedBy: 1, requestedByName: '张三',
    };
    mockServer(serve([answer(E.control.readTasks, [task], 1)], () => ok([], 0)));
    renderTask();
    const row = (await screen.findByText('批量拉闸/关阀')).closest('tr')!;
    expect(within(row).getByText('进行中')).toBeTruthy();
    expect(within(row).getByText('10000')).toBeTruthy();
    expect(within(row).getByText('7488')).toBeTruthy();
    // done/total as the progress bar: (2500 + 12) / 10000
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
  });

  it('periods read as people say them', () => {
    expect(periodText(5_000)).toBe('5 秒');
    expect(periodText(600_000)).toBe('10 分钟');
    expect(periodText(86_400_000)).toBe('24 小时');
    expect(periodText(1_500)).toBe('1500 毫秒');
  });
});
