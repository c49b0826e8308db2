import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockServer, ok, renderPage, signIn, type Call, freshPageState } from '../../test/harness.tsx';
import { detailText, WarnCopyReadError, WarnElectricError, WarnWaterValveError } from './Warnings.tsx';
import { KeepElectric } from '../control/Keep.tsx';

configure({ asyncUtilTimeout: 8000 });

const session = (operations: string[], routes: string[]) => signIn(routes, operations);

const WARNING = {
  id: 41, meterId: 9, collectorId: null, kind: 'valve_mismatch', kindText: '阀门/继电器状态与指令不符', detail: { expected: 0, actual: 1 },
  status: 0, statusText: '未处理', handledByName: '', handledAt: null, handleMemo: '', createdAt: '2025-06-01T02:00:00Z',
  lastSeenAt: '2025-06-01T03:00:00Z', meterName: '1-101水表', address: '30000001000009', meterKind: 2, valveState: 1,
  collectorName: '', collectorImei: '', areaName: '1层', roomName: '1-101',
};

const METER = {
  id: 7, companyId: 1, name: '1-101电表', address: '200001000007', kind: 1, kindText: '电表', unit: 'kWh', plan: 0, phaseId: 1, phaseName: '单相',
  status: 1, online: true, valveState: 1, lastSeenAt: null, roomId: 3, roomName: '1-101', areaId: 2, areaName: '1层', collectorName: '',
  lastReadAt: null, lastTotal: null, lastSource: null, initialReading: '0.00', protection: null, pending: [], timedCount: 0, needsValvePassword: true,
};

const HELD = {
  ...WARNING, id: 52, meterId: 10, kind: 'implausible', kindText: '读数异常跳变（待确认）', meterKind: 1, address: '200001000010', meterName: '1-102电表',
  detail: { reason: '用量超过表具额定最大值（15/小时）在该时段内可能的用量', total: '5101.00', readAt: '2025-06-01T03:00:00Z', lastTotal: '101.00', lastReadAt: '2025-06-01T02:00:00Z', used: '5000.00', limit: 22.5 },
};

function mockWarnings(calls: Call[] = [], warnings: unknown[] = [WARNING]): Call[] {
  return mockServer(
    (c) => {
      const p = c.path;
      if (p.endsWith('/device/unusual/list')) return ok(warnings, warnings.length);
      if (p.includes('/device/unusual/reading/')) return ok({ accepted: 1, rejected: 0, memo: '' });
      if (p.endsWith('/device/unusual/deal')) return ok({ handled: 1, skipped: 0 });
      if (p.endsWith('/control/meter/list')) return ok([METER], 1);
      if (p.endsWith('/protect/start')) return ok({ message: '已对 1 块电表开启保电，已向 1 块电表下发保电指令' });
      return ok([], 0);
    },
    [],
    calls,
  );
}


freshPageState();

describe('warning pages', { timeout: 120_000 }, () => {
  it('list the page\'s kinds for its meter kind, explain the detail, and handle one with a note', async () => {
    session(['device.edit'], ['warnWaterValveError']);
    const calls = mockWarnings();
    renderPage('warnWaterValveError', <WarnWaterValveError />);
    expect(await screen.findByText('30000001000009')).toBeTruthy();
    expect(screen.getByText('应为关阀，实际开阀')).toBeTruthy();
    const list = calls.find((c) => c.url.includes('/device/unusual/list'))!;
    expect(decodeURIComponent(list.url)).toContain('type=valve_fault,valve_mismatch,low_battery');
    expect(list.url).toContain('kind=2');

    fireEvent.click(screen.getByText('处理'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('处理说明'), { target: { value: '已更换阀门' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/device/unusual/deal'))).toBe(true));
    expect(calls.find((c) => c.url.includes('/device/unusual/deal'))).toMatchObject({ method: 'PUT', body: { ids: [41], memo: '已更换阀门' } });
  });

  it('shows a handled warning\'s state, who handled it and the note in one cell, with no 处理 link', async () => {
    session(['device.edit'], ['warnWaterValveError']);
    const HANDLED = { ...WARNING, status: 1, statusText: '已处理', handledByName: '张三', handleMemo: '已更换阀门', lastSeenAt: '2025-06-01T05:00:00Z' };
    mockWarnings([], [HANDLED]);
    renderPage('warnWaterValveError', <WarnWaterValveError />);
    const row = (await screen.findByText('30000001000009')).closest('tr')!;
    expect(within(row).getByText('已处理')).toBeTruthy();
    expect(within(row).getByTitle('张三：已更换阀门')).toBeTruthy();
    // first and latest sighting in one cell
    expect(within(row).getByText(/^最近 2025-06-01/)).toBeTruthy();
    expect(within(row).queryByText('处理')).toBeNull();
  });

  it('without device.edit there is no 处理 (the server refuses it too)', async () => {
    session([], ['warnWaterValveError']);
    mockWarnings([]);
    renderPage('warnWaterValveError', <WarnWaterValveError />);
    expect(await screen.findByText('30000001000009')).toBeTruthy();
    expect(screen.queryByText('处理')).toBeNull();
    expect(screen.queryByText(/批量处理/)).toBeNull();
  });
});

describe('a reading held as implausible', { timeout: 120_000 }, () => {
  it('is accepted or rejected with a note, not 处理\'d, and only with 人工抄表', async () => {
    session(['device.manualRead'], ['warnElectricError']);
    const calls = mockWarnings([], [HELD]);
    renderPage('warnElectricError', <WarnElectricError />);
    const row = (await screen.findByText('200001000010')).closest('tr')!;
    expect(within(row).getByText(/本次 5101.00.*上次 101.00.*用量 5000.00/)).toBeTruthy();
    expect(decodeURIComponent(calls.find((c) => c.url.includes('/device/unusual/list'))!.url)).toContain('type=implausible,');
    expect(within(row).queryByText('处理')).toBeNull();
    fireEvent.click(within(row).getByText('驳回读数'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/驳回后该读数不计费/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('处理说明'), { target: { value: '表计故障' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/device/unusual/reading/reject'))).toBe(true));
    expect(calls.find((c) => c.url.includes('/device/unusual/reading/reject'))).toMatchObject({ method: 'PUT', body: { id: 52, memo: '表计故障' } });
    expect(calls.some((c) => c.url.includes('/device/unusual/deal'))).toBe(false);
  });

  it('without 人工抄表 there is no button', async () => {
    session([], ['warnElectricError']);
    mockWarnings([], [HELD]);
    renderPage('warnElectricError', <WarnElectricError />);
    const row = (await screen.findByText('200001000010')).closest('tr')!;
    expect(within(row).queryByText('接受读数')).toBeNull();
    expect(within(row).queryByText('处理')).toBeNull();
  });
});

describe('抄表异常 page', { timeout: 120_000 }, () => {
  it('lists meters without readings for too long (no_read) beside the failed reads, in words', async () => {
    session([], ['warnCopyReadError']);
    const NO_READ = { ...WARNING, id: 63, meterId: 11, kind: 'no_read', kindText: '长时间无读数', meterKind: 1, address: '200001000011', detail: { lastReadAt: '2025-05-20T02:00:00Z' } };
    const calls = mockWarnings([], [NO_READ]);
    renderPage('warnCopyReadError', <WarnCopyReadError />);
    const row = (await screen.findByText('200001000011')).closest('tr')!;
    expect(within(row).getByText('长时间无读数')).toBeTruthy();
    expect(within(row).getByText(/^最后读数 2025-05-20/)).toBeTruthy();
    expect(decodeURIComponent(calls.find((c) => c.url.includes('/device/unusual/list'))!.url)).toContain('type=implausible,read_fail,no_read,backwards,offline');
  });

  it('a detail never shows its field names', () => {
    expect(detailText({ kind: 'rate_error', detail: { expected: 1, actual: 80 }, meterKind: 1 })).toBe('档案倍率 1，表内倍率 80');
    expect(detailText({ kind: 'no_read', detail: { lastReadAt: null }, meterKind: 2 })).toBe('从未有读数');
    expect(detailText({ kind: 'read_fail', detail: { fails: 3, lastFailAt: null, lastError: '设备应答超时' }, meterKind: 1 })).toBe('连续 3 次抄表失败：设备应答超时');
    expect(detailText({ kind: 'a_future_kind', detail: { since: '2025-06-01T02:00:00Z' }, meterKind: 1 })).toBe('');
    // a reading's time only when the detail has it: no empty brackets
    expect(detailText({ kind: 'backwards', detail: { reason: '读数小于上次读数', total: '1180.20', lastTotal: '1186.75' }, meterKind: 1 })).toBe('读数小于上次读数：本次 1180.20，上次 1186.75');
  });
});

describe('保电管理 page', { timeout: 120_000 }, () => {
  it('starts 保电 for a meter with a required reason; without device.protect there is no button', async () => {
    session(['device.protect'], ['keepElectric']);
    const calls = mockWarnings();
    renderPage('keepElectric', <KeepElectric />);
    const row = (await screen.findByText('200001000007')).closest('tr')!;
    expect(calls.find((c) => c.url.includes('/control/meter/list'))!.url).toContain('kind=1');
    fireEvent.click(within(row).getByText('保电'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请填写保电原因（至少 2 个字）')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/protect/start'))).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('保电原因'), { target: { value: '业主住院' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/protect/start'))).toBe(true));
    expect(calls.find((c) => c.url.includes('/protect/start'))!.body).toEqual({ kind: 1, reason: '业主住院', meterIds: [7] });
  });

  it('without the operation key the page only lists', async () => {
    session([], ['keepElectric']);
    mockWarnings([]);
    renderPage('keepElectric', <KeepElectric />);
    const row = (await screen.findByText('200001000007')).closest('tr')!;
    expect(within(row).queryByText('保电')).toBeNull();
    expect(screen.queryByRole('button', { name: /保电选中/ })).toBeNull();
  });
});
