import { describe, expect, it } from 'vitest';
import { configure, screen, within } from '@testing-library/react';
import { RoomDetailDrawer } from './RoomDetailDrawer.tsx';
import { mockServer, ok, renderPage, signIn } from './testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// 房间账户详情: the room, its accounts, and three tables — 表具, 最近流水 (暂无流水 when none) and 定时补贴
// (only when the room has plans).

configure({ asyncUtilTimeout: 8000 });
freshPageState();

const DETAIL = {
  room: { id: 11, name: '1-101', areaId: 3, path: '阳光园区/1号楼/1层/1-101' },
  owner: { id: 21, name: '王伟', phone: '13800001111' },
  accounts: [{ id: 5, wallet: 'electric', walletText: '电费', balance: '12.00', alarmLevel: 0, alarmText: '正常', status: 1, closeDeferred: false, updatedAt: '' }],
  meters: [{
    id: 7, name: '1-101电表', address: '200001000007', kind: 1, status: 1, valveState: 1, online: true, phaseId: 2, chargingSchemeName: null, alarmSchemeName: null,
    lastTotal: '100.00', lastReadAt: '2026-11-25T02:00:00Z', settledTotal: '90.00', settledAt: null, protected: true, unit: 'kWh',
  }],
  journal: [{
    id: 31, createdAt: '2026-11-25T02:00:00Z', wallet: 'electric', walletText: '电费', kind: 'topup', kindText: '充值', amount: '50.00', balanceAfter: '62.00',
    payMethodText: '现金', operatorName: '演示管理员', receiptNo: 'SJ9', memo: '',
  }],
  subsidyPlans: [{ id: 41, walletText: '电费', amount: '10.00', dayOfMonth: 5, startMonth: '2026-01', endMonth: '', enabled: true }],
};

function show(detail: unknown) {
  signIn(['energy']);
  mockServer((c) => (c.path.endsWith('/RoomInfo/GetEnergyRoomDetail') ? ok(detail) : undefined));
  renderPage('energy', <RoomDetailDrawer roomId={11} onClose={() => {}} />);
}

describe('房间账户详情 drawer', { timeout: 60_000 }, () => {
  it('shows the meters, the latest journal rows and the timed subsidy plans', async () => {
    show(DETAIL);
    expect(await screen.findByText('房间账户详情：阳光园区/1号楼/1层/1-101')).toBeTruthy();
    // each table's row, by a cell of it: the other cells it shows
    const shows = (cell: string, texts: string[]) => {
      const row = screen.getByText(cell).closest('tr')!;
      for (const t of texts) expect(within(row).getByText(t)).toBeTruthy();
    };
    shows('200001000007', ['100.00 kWh', '90.00 kWh', '未设置', '保电']);
    shows('SJ9', ['充值', '现金']);
    expect(screen.getByText('定时补贴')).toBeTruthy();
    shows('每月 5 日', ['2026-01 至 长期', '启用']);
  });

  it('no journal rows: 暂无流水; no plans: no 定时补贴 table', async () => {
    show({ ...DETAIL, journal: [], subsidyPlans: [] });
    expect(await screen.findByText('暂无流水')).toBeTruthy();
    expect(screen.getByText('最近流水')).toBeTruthy();
    expect(screen.getByText('表具', { selector: 'h5' })).toBeTruthy();
    expect(screen.queryByText('定时补贴')).toBeNull();
  });
});
