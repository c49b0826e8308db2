import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { PageContext } from '../../app/page.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest } from '../../api/request.ts';
import LongRange from './LongRange.tsx';
import CasualCopy from './CasualCopy.tsx';
import { ValveCancelled, checkValvePassword, switchOff } from './valvePassword.tsx';
import { manualBody } from './PeopleCasualCopy.tsx';
import { timedBody } from './TimeChangeControl.tsx';
import { channelOf, paramBody, ELECTRIC_PARAMS } from './MeterParams.tsx';
import { detailText } from '../warn/Warnings.tsx';
import { findRow, freshPageState, openRowDialog } from '../../test/harness.tsx';

configure({ asyncUtilTimeout: 8000 });

function session(operations: string[], routes = ['longRange', 'casualCopy']) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 },
    access: 1,
    routes,
    operations,
    company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

const meter = (id: number, phaseId: number | null, extra: Record<string, unknown> = {}) => ({
  id, companyId: 1, name: `1-10${id}电表`, address: `20000100000${id}`, kind: 1, kindText: '电表', unit: 'kWh', plan: 0, phaseId,
  phaseName: phaseId === 1 ? '单相' : '三相', status: 1, online: true, valveState: 1, lastSeenAt: null, roomId: 3, roomName: `1-10${id}`,
  areaId: 2, areaName: '1层', collectorName: '', lastReadAt: '2025-06-01T02:00:00Z', lastTotal: '100.00', lastSource: 1, protection: null,
  pending: [], timedCount: 0, needsValvePassword: phaseId === 1, ...extra,
});

type Call = { method: string; url: string; body: any };

function mockServer(calls: Call[], o: { rows?: unknown[]; open?: (body: any) => unknown; read?: (body: any) => unknown; command?: () => unknown; closeBulk?: (body: any) => unknown; task?: (n: number) => unknown } = {}) {
  let taskPolls = 0;
  const json = (b: unknown) => new Response(JSON.stringify(b), { status: 200 });
  const ok = (data: unknown, count?: number) => json({ code: 'SUCCESS', message: '', data, ...(count !== undefined ? { count } : {}) });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://x');
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init.method ?? 'GET', url: input, body });
      const p = url.pathname;
      if (p.endsWith('/control/meter/list')) return ok(o.rows ?? [meter(1, 1), meter(2, 2)], (o.rows ?? [1, 2]).length);
      // the server compares the valve password (the browser never gets it)
      if (p.endsWith('/Company/checkValveControlPwd')) return body.password === '123456' ? ok(null) : json({ code: 'VALVE_PWD_WRONG', message: '密码输入不正确' });
      if (p.endsWith('/device/order/open')) return json(o.open ? o.open(body) : { code: 'SUCCESS', message: '', data: { id: 50 + body.id, meterId: body.id, kind: body.open ? 'open' : 'close', kindText: body.open ? '合闸' : '拉闸', status: 'succeeded', statusText: '成功', reply: { text: '已确认拉闸（断电）' }, message: '拉闸成功：已确认拉闸（断电）', error: '' } });
      if (p.endsWith('/device/order/read')) return json(o.read ? o.read(body) : { code: 'SUCCESS', data: { taskId: null, queued: 1, commands: [] } });
      if (p.endsWith('/device/order')) return ok(o.command ? o.command() : {});
      if (p.endsWith('/device/order/close/bulk')) return json(o.closeBulk ? o.closeBulk(body) : { code: 'SUCCESS', data: { taskId: 9, queued: body.ids.length, joined: 0, refused: [] } });
      if (p.endsWith('/device/read/task/list')) {
        const n = ++taskPolls;
        const t = o.task ? o.task(n) : n < 2 ? { total: 2, succeeded: 1, failed: 0, status: 'running' } : { total: 2, succeeded: 2, failed: 0, status: 'done' };
        return ok([{ id: Number(url.searchParams.get('id')), companyId: 1, companyName: '', origin: 3, originText: '批量拉闸/关阀', pending: 0, statusText: '', startedAt: '', finishedAt: null, requestedBy: 1, requestedByName: '', ...(t as object) }], 1);
      }
      return ok([], 0);
    }) as unknown as (input: string, init: RequestInit) => Promise<Response>,
  });
}

function renderPage(routeKey: string, page: React.ReactNode) {
  return render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <PageContext.Provider value={{ routeKey, active: true }}>{page}</PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
}

const opens = (calls: Call[]) => calls.filter((c) => c.url.includes('/device/order/open'));
const bulkCloses = (calls: Call[]) => calls.filter((c) => c.url.includes('/device/order/close/bulk'));

/** Signed in with these operations, the server mocked, 远程阀控 shown: the requests it sends. */
function showLongRange(operations: string[], o: Parameters<typeof mockServer>[1] = {}): Call[] {
  session(operations);
  const calls: Call[] = [];
  mockServer(calls, o);
  renderPage('longRange', <LongRange />);
  return calls;
}

/** Ticks the rows of these two meters and clicks 批量拉闸/关阀（2）: its confirmation dialog. */
async function bulkCloseDialog(first: string, second: string): Promise<HTMLElement> {
  fireEvent.click(within(await findRow(first)).getByRole('checkbox'));
  fireEvent.click(within(screen.getByText(second).closest('tr')!).getByRole('checkbox'));
  fireEvent.click(await screen.findByRole('button', { name: /批量拉闸\/关阀（2）/ }));
  return screen.findByRole('dialog');
}

/** The close of meter `id` (1-10<id>电表) refused as protected (高考) until it goes with an override reason. */
const protectedOpen = (id: number) => (b: { overrideReason?: string }) =>
  b.overrideReason
    ? { code: 'SUCCESS', data: { id: 9, meterId: id, kind: 'close', kindText: '拉闸', status: 'succeeded', statusText: '成功', reply: {}, message: '拉闸成功', error: '' } }
    : { code: 'METER_PROTECTED', message: `表具「1-10${id}电表」处于保电状态（高考），不能拉闸。如确需拉闸，请填写强制操作原因` };

freshPageState();

describe('valve password rules (SPEC §4/§5)', () => {
  it('the typed password is required and trimmed, then compared with the company one', () => {
    expect(checkValvePassword('', '123456')).toBe('empty');
    expect(checkValvePassword('   ', '123456')).toBe('empty');
    expect(checkValvePassword(undefined, '123456')).toBe('empty');
    expect(checkValvePassword('12345', '123456')).toBe('mismatch');
    expect(checkValvePassword(' 123456 ', '123456')).toBe('ok');
    expect(checkValvePassword('123456', null)).toBe('mismatch');
  });

  it('switching off: phaseId ≠ 1 is sent directly; phaseId 1 asks first; a cancel sends nothing', async () => {
    const send = vi.fn(async () => 'sent');
    const ask = vi.fn(async () => {});
    expect(await switchOff([{ phaseId: 2 }], ask, send)).toBe('sent');
    expect(await switchOff([{ phaseId: null }], ask, send)).toBe('sent');
    expect(ask).not.toHaveBeenCalled();
    expect(await switchOff([{ phaseId: 2 }, { phaseId: 1 }], ask, send)).toBe('sent');
    expect(ask).toHaveBeenCalledTimes(1);
    const cancel = vi.fn(async () => Promise.reject(new ValveCancelled()));
    send.mockClear();
    await expect(switchOff([{ phaseId: 1 }], cancel, send)).rejects.toBeInstanceOf(ValveCancelled);
    expect(send).not.toHaveBeenCalled();
  });
});

describe('远程阀控 page', { timeout: 120_000 }, () => {
  it('closing a phaseId-1 meter asks the password: empty and wrong are refused and send nothing; the right one (trimmed) sends the close', async () => {
    const calls = showLongRange(['device.valve']);
    const dialog = await openRowDialog('200001000001', '拉闸');
    expect(within(dialog).getByText('阀控密码', { selector: '.ant-modal-title' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入阀控密码')).toBeTruthy();
    expect(opens(calls)).toHaveLength(0);

    const input = within(dialog).getByLabelText('阀控密码');
    fireEvent.change(input, { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('密码输入不正确')).toBeTruthy();
    expect(opens(calls)).toHaveLength(0);

    fireEvent.change(input, { target: { value: '  123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(opens(calls)).toHaveLength(1));
    expect(opens(calls)[0].body).toMatchObject({ id: 1, open: false, memo: '远程拉闸', password: '123456' });
    expect(await screen.findByText('拉闸成功：已确认拉闸（断电）')).toBeTruthy();
  });

  it('cancel rejects and sends nothing; a phaseId-2 meter is closed without the dialog, with the memo', async () => {
    const calls = showLongRange(['device.valve']);
    const dialog = await openRowDialog('200001000001', '拉闸');
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(await screen.findByText('已取消，未下发指令')).toBeTruthy();
    expect(opens(calls)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('操作备注'), { target: { value: '欠费停电' } });
    const row2 = screen.getByText('200001000002').closest('tr')!;
    fireEvent.click(within(row2).getByText('拉闸'));
    await waitFor(() => expect(opens(calls)).toHaveLength(1));
    expect(opens(calls)[0].body).toEqual({ id: 2, open: false, memo: '欠费停电' });
    expect(calls.some((c) => c.url.includes('checkValveControlPwd'))).toBe(false);
  });

  it('a protected meter\'s refusal is shown and can be overridden with a reason', async () => {
    const calls = showLongRange(['device.valve'], { rows: [meter(2, 2)], open: protectedOpen(2) });
    const dialog = await openRowDialog('200001000002', '拉闸');
    expect(within(dialog).getByText(/处于保电状态（高考）/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /强制执行/ }));
    expect(await within(dialog).findByText('请填写强制操作原因')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('强制操作原因'), { target: { value: '业主申请检修' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /强制执行/ }));
    await waitFor(() => expect(opens(calls)).toHaveLength(2));
    expect(opens(calls)[1].body).toMatchObject({ id: 2, open: false, overrideReason: '业主申请检修' });
  });

  it('a forced close of a protected phaseId-1 meter goes with the password typed first (the server asks it again)', async () => {
    const calls = showLongRange(['device.valve'], { rows: [meter(1, 1)], open: protectedOpen(1) });
    const pwd = await openRowDialog('200001000001', '拉闸');
    fireEvent.change(within(pwd).getByLabelText('阀控密码'), { target: { value: '123456' } });
    fireEvent.click(within(pwd).getByRole('button', { name: /确\s*定/ }));
    const dialog = (await screen.findByText(/处于保电状态（高考）/)).closest('.ant-modal') as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('强制操作原因'), { target: { value: '业主申请检修' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /强制执行/ }));
    await waitFor(() => expect(opens(calls)).toHaveLength(2));
    expect(opens(calls)[0].body).toMatchObject({ id: 1, open: false, password: '123456' });
    expect(opens(calls)[1].body).toMatchObject({ id: 1, open: false, overrideReason: '业主申请检修', password: '123456' });
  });

  it('bulk close: one confirmation names the count and kind and asks the password once; the selection goes in one request with it, the task\'s progress is shown', async () => {
    const calls = showLongRange(['device.valve']);
    const dialog = await bulkCloseDialog('200001000001', '200001000002');
    expect(within(dialog).getByTestId('bulk-close-summary').textContent).toBe('将对 2 块表具断电：电表 2 块（拉闸）');
    expect(within(dialog).getByText('其中 1 块为单相表，需输入阀控密码')).toBeTruthy();
    // the first click sent nothing
    expect(opens(calls)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: /确认拉闸\/关阀 2 块/ }));
    expect(await within(dialog).findByText('请输入阀控密码')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确认拉闸\/关阀 2 块/ }));
    expect(await screen.findByText('密码输入不正确')).toBeTruthy();
    expect(opens(calls)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确认拉闸\/关阀 2 块/ }));
    await waitFor(() => expect(bulkCloses(calls)).toHaveLength(1));
    expect(bulkCloses(calls)[0].body).toMatchObject({ ids: [1, 2], password: '123456' });
    expect(opens(calls)).toHaveLength(0);
    // the task's progress as /task lists it: 1 of 2, then 2 of 2
    const card = await screen.findByTestId('bulk-close-task');
    expect(within(card).getByText('批量拉闸/关阀任务（任务编号 9）')).toBeTruthy();
    await waitFor(() => expect(within(card).getByTestId('bulk-close-progress').textContent).toMatch(/^已完成 1\/2 块（回读确认成功 1 块，失败 0 块），执行中/));
    await waitFor(() => expect(within(card).getByTestId('bulk-close-progress').textContent).toMatch(/^已完成 2\/2 块（回读确认成功 2 块，失败 0 块），已结束/));
    expect(calls.some((c) => c.url.includes('/device/read/task/list') && c.url.includes('id=9'))).toBe(true);
    expect(calls.filter((c) => c.url.includes('checkValveControlPwd'))).toHaveLength(2);
  });

  it('bulk close without a phaseId-1 meter still asks to confirm (no password field); cancel sends nothing', async () => {
    const calls = showLongRange(['device.valve'], { rows: [meter(2, 2), meter(3, 2, { kind: 2, kindText: '水表', name: '1-103水表' })] });
    const dialog = await bulkCloseDialog('200001000002', '200001000003');
    expect(within(dialog).getByTestId('bulk-close-summary').textContent).toBe('将对 2 块表具断电/断水：电表 1 块（拉闸）、水表 1 块（关阀）');
    expect(within(dialog).queryByLabelText('阀控密码')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(await screen.findByText('已取消，未下发指令')).toBeTruthy();
    expect(opens(calls)).toHaveLength(0);
  });

  it('bulk close without a phaseId-1 meter: confirmed, one request for every meter and no password is sent', async () => {
    const calls = showLongRange(['device.valve'], { rows: [meter(2, 2), meter(3, 2, { kind: 2, kindText: '水表', name: '1-103水表' })] });
    const dialog = await bulkCloseDialog('200001000002', '200001000003');
    fireEvent.click(within(dialog).getByRole('button', { name: /确认拉闸\/关阀 2 块/ }));
    await waitFor(() => expect(bulkCloses(calls)).toHaveLength(1));
    expect(bulkCloses(calls)[0].body.ids).toEqual([2, 3]);
    expect('password' in bulkCloses(calls)[0].body).toBe(false);
    expect(calls.some((c) => c.url.includes('checkValveControlPwd'))).toBe(false);
  });

  it('bulk close: a protected meter is refused and listed; forcing it sends it again with the reason', async () => {
    const calls = showLongRange(['device.valve'], {
      rows: [meter(2, 2), meter(3, 2)],
      closeBulk: (b) =>
        b.overrideReason
          ? { code: 'SUCCESS', data: { taskId: 11, queued: 1, joined: 0, refused: [] } }
          : { code: 'SUCCESS', data: { taskId: 10, queued: 1, joined: 0, refused: [{ meterId: 3, name: '1-103电表', code: 'METER_PROTECTED', message: '表具「1-103电表」处于保电状态，不能拉闸', overridable: true }] } },
      task: () => ({ total: 1, succeeded: 1, failed: 0, status: 'done' }),
    });
    fireEvent.click(within(await bulkCloseDialog('200001000002', '200001000003')).getByRole('button', { name: /确认拉闸\/关阀 2 块/ }));
    const card = await screen.findByTestId('bulk-close-task');
    expect(await within(card).findByText('表具「1-103电表」处于保电状态，不能拉闸')).toBeTruthy();
    fireEvent.click(await within(card).findByRole('button', { name: /强制执行被拒绝的 1 块/ }));
    const dialog = await screen.findByRole('dialog', { name: '强制操作' });
    fireEvent.change(within(dialog).getByLabelText('强制操作原因'), { target: { value: '业主申请检修' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /强制执行/ }));
    await waitFor(() => expect(bulkCloses(calls)).toHaveLength(2));
    expect(bulkCloses(calls)[1].body).toMatchObject({ ids: [3], overrideReason: '业主申请检修' });
  });

  it('without device.valve there are no valve buttons', async () => {
    session([]);
    mockServer([]);
    renderPage('longRange', <LongRange />);
    const row = (await screen.findByText('200001000001')).closest('tr')!;
    expect(within(row).queryByText('拉闸')).toBeNull();
    expect(screen.queryByRole('button', { name: /批量拉闸/ })).toBeNull();
  });
});

describe('随机抄表 page', { timeout: 120_000 }, () => {
  it('reads a meter, watches the command until it ends and shows the new value', async () => {
    session(['device.readEnergy']);
    const calls: Call[] = [];
    let polls = 0;
    mockServer(calls, {
      rows: [meter(1, 1)],
      read: () => ({ code: 'SUCCESS', data: { taskId: null, queued: 1, commands: [{ id: 77, meterId: 1, meterName: '1-101电表', address: '200001000001', kind: 'read', kindText: '抄表', status: 'sent', statusText: '已下发', reply: null, error: '' }] } }),
      command: () => (++polls >= 1 ? { id: 77, meterId: 1, meterName: '1-101电表', kind: 'read', status: 'succeeded', statusText: '成功', reply: { total: '123.45' }, error: '' } : {}),
    });
    renderPage('casualCopy', <CasualCopy />);
    const row = (await screen.findByText('200001000001')).closest('tr')!;
    fireEvent.click(within(row).getByText('抄表'));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/device/order/read'))).toBe(true));
    expect(calls.find((c) => c.url.includes('/device/order/read'))!.body).toEqual({ ids: [1] });
    expect(await screen.findByText('读数 123.45', {}, { timeout: 6000 })).toBeTruthy();
    // the table is reloaded once the command ended
    await waitFor(() => expect(calls.filter((c) => c.url.includes('/control/meter/list')).length).toBeGreaterThanOrEqual(2));
  });
});

describe('form bodies and helpers', () => {
  it('manual reading, timed control and parameter bodies', () => {
    const at = { format: (f: string) => (f === 'HH:mm' ? '07:30' : '2025-06-01 10:00:00') } as never;
    expect(manualBody(5, { total: 12.3, readAt: at, adjust: 1, reason: ' 换新表 ', memo: '' })).toEqual({
      id: 5, total: '12.30', readAt: '2025-06-01 10:00:00', adjust: 1, reason: '换新表', memo: '',
    });
    expect(timedBody({ meterIds: [1], action: 'close', repeat: 'daily', timeOfDay: at, memo: ' 夜间 ' })).toEqual({ action: 'close', repeat: 'daily', runAt: undefined, timeOfDay: '07:30', memo: '夜间' });
    expect(timedBody({ meterIds: [1], action: 'open', repeat: 'once', runAt: at })).toMatchObject({ runAt: '2025-06-01 10:00:00', timeOfDay: '' });
    expect(paramBody(ELECTRIC_PARAMS, { alarm1Money: 20, ctRatio: 30.4, hoardLimit: '' })).toEqual({ alarm1Money: '20.00', ctRatio: '30' });
    expect(channelOf({ kind: 1, plan: 1 })).toBe('lora');
    expect(channelOf({ kind: 2, plan: 151 })).toBe('nb');
    expect(channelOf({ kind: 1, plan: 0 })).toBe('');
  });

  it('warning details read as words', () => {
    expect(detailText({ kind: 'valve_mismatch', meterKind: 2, detail: { expected: 0, actual: 1 } })).toBe('应为关阀，实际开阀');
    expect(detailText({ kind: 'offline', meterKind: null, detail: { lastSeenAt: null } })).toBe('从未上线');
  });
});
