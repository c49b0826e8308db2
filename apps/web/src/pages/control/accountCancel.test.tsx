import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import AccountCancel from './AccountCancel.tsx';
import { mockServer, ok, renderPage, signIn, type Call } from '../fee/testing.tsx';
import { freshPageState } from '../../test/harness.tsx';

// 销户 switches the room's meters off: where one has phaseId 1 the valve password is asked (SPEC §4)
// and sent with the closing, which the server checks; a cancelled password dialog sends nothing.

configure({ asyncUtilTimeout: 8000 });
freshPageState();

const ROOM = {
  roomId: 11, roomName: '1-101', areaId: 3, areaName: '阳光园区/1号楼/1层', sizeM2: '56.50', ownerId: 21, ownerName: '王伟', ownerPhone: '13800001111',
  electricBalance: '12.00', waterBalance: '0.00', electricAlarm: 0, waterAlarm: 0, electricAlarmText: '正常', waterAlarmText: '正常',
  electricMeters: 1, waterMeters: 0, closedMeters: 0,
};
const detail = (phaseId: number | null) => ({
  room: { id: 11, name: '1-101', areaId: 3, path: '阳光园区/1号楼/1层/1-101' },
  owner: { id: 21, name: '王伟', phone: '13800001111' },
  accounts: [{ id: 5, wallet: 'electric', walletText: '电费', balance: '12.00', alarmLevel: 0, alarmText: '正常', status: 1, closeDeferred: false, updatedAt: '' }],
  meters: [{
    id: 7, name: '1-101电表', address: '200001000007', kind: 1, status: 1, valveState: 1, online: true, phaseId, chargingSchemeName: '居民电价', alarmSchemeName: null,
    lastTotal: '100.00', lastReadAt: '2026-11-25 10:00:00', settledTotal: '100.00', settledAt: '2026-11-25 10:00:00', protected: false, unit: 'kWh',
  }],
  journal: [],
  subsidyPlans: [],
});
const RESULT = { settledReadings: 0, refunds: [{ wallet: 'electric', amount: '12.00', receiptNo: 'SJ1' }], valves: [{ meterId: 7, name: '1-101电表', commandId: 3, skipped: '' }] };

async function closeRoom(phaseId: number | null) {
  signIn(['accountCancel'], ['room.closeAccount', 'device.valve']);
  const calls = mockServer((c) => {
    if (c.path.endsWith('/RoomInfo/GetEnergyRoom')) return ok([ROOM], 1);
    if (c.path.endsWith('/RoomInfo/GetEnergyRoomDetail')) return ok(detail(phaseId));
    if (c.path.endsWith('/Company/checkValveControlPwd')) return (c.body as { password: string }).password === '123456' ? ok(null) : { code: 'VALVE_PWD_WRONG', message: '密码输入不正确' };
    if (c.path.endsWith('/AccountCancel/Cancel')) return ok(RESULT);
    return undefined;
  });
  renderPage('accountCancel', <AccountCancel />);
  fireEvent.click(await screen.findByTestId('cancel-11'));
  const next = await screen.findByRole('button', { name: /下一步/ });
  await waitFor(() => expect(next.hasAttribute('disabled')).toBe(false));
  fireEvent.click(next);
  fireEvent.click(await screen.findByRole('button', { name: /确认销户/ }));
  fireEvent.click(await screen.findByRole('button', { name: /确定销户/ }));
  return calls;
}
/** the password dialog (over the 销户 dialog) */
const passwordDialog = async () => (await screen.findByText('阀控密码', { selector: '.ant-modal-title' })).closest('[role="dialog"]') as HTMLElement;
const noPasswordDialog = () => screen.queryByText('阀控密码', { selector: '.ant-modal-title' }) === null;
const cancels = (calls: Call[]) => calls.filter((c) => c.path.endsWith('/AccountCancel/Cancel'));

describe('销户 and the valve password', { timeout: 60_000 }, () => {
  it('a phaseId-1 meter asks the password; the checked one goes with the closing', async () => {
    const calls = await closeRoom(1);
    const dialog = await passwordDialog();
    fireEvent.change(within(dialog).getByLabelText('阀控密码'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('退费票据：SJ1');
    expect(cancels(calls)).toHaveLength(1);
    expect(cancels(calls)[0].body).toMatchObject({ roomId: 11, valvePassword: '123456' });
  });

  it('a cancelled password dialog sends nothing', async () => {
    const calls = await closeRoom(1);
    const dialog = await passwordDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    // the 销户 dialog stays on its confirmation step, nothing was sent
    await new Promise((r) => setTimeout(r, 300));
    expect(cancels(calls)).toHaveLength(0);
    expect(screen.getByRole('button', { name: /确认销户/ })).toBeTruthy();
  });

  it('without a phaseId-1 meter no password is asked', async () => {
    const calls = await closeRoom(2);
    await screen.findByText('退费票据：SJ1');
    expect(noPasswordDialog()).toBe(true);
    expect(cancels(calls)[0].body).not.toHaveProperty('valvePassword');
  });
});
