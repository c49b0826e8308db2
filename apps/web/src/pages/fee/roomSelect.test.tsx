import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { OccupiedRoomSelect } from './RoomSelect.tsx';
import { VacantRoomSelect } from '../records/roomFields.tsx';
import { freshPageState, mockServer, ok, renderPage, signIn } from '../../test/harness.tsx';

// The room pickers searched on the server: 在住 rooms (with owner and balances) for the billing forms,
// vacant rooms for the owner archive; each says what it found or that there is none.

configure({ asyncUtilTimeout: 8000 });
freshPageState();

const open = (placeholder: string) => fireEvent.mouseDown(screen.getByText(placeholder).closest('.ant-select')!.querySelector('input')!);

describe('room pickers', { timeout: 60_000 }, () => {
  it('在住 rooms: only rooms with an owner, labelled with where, who and the balances', async () => {
    signIn(['energy']);
    const calls = mockServer((c) => (c.path.endsWith('/RoomInfo/GetEnergyRoom')
      ? ok([
        { roomId: 11, roomName: '1-101', areaName: '阳光园区/1层', ownerId: 21, ownerName: '王伟', electricBalance: '12.00', waterBalance: '3.50' },
        { roomId: 12, roomName: '1-102', areaName: '阳光园区/1层', ownerId: null, ownerName: null, electricBalance: '0.00', waterBalance: '0.00' },
      ], 2)
      : undefined));
    renderPage('energy', <OccupiedRoomSelect company="1" />);
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/RoomInfo/GetEnergyRoom'))).toBe(true));
    open('输入房间名称搜索在住房间');
    expect(await screen.findByText('阳光园区/1层/1-101（王伟，电 ¥12.00 / 水 ¥3.50）')).toBeTruthy();
    expect(screen.queryByText(/1-102/)).toBeNull();
  });

  it('vacant rooms: none found says so', async () => {
    signIn(['recordsOwner']);
    const calls = mockServer((c) => (c.path.endsWith('/getNoUserRoom') ? ok([], 0) : undefined));
    renderPage('recordsOwner', <VacantRoomSelect />);
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/getNoUserRoom'))).toBe(true));
    open('请选择房间（输入名称搜索）');
    expect(await screen.findByText('没有空置的房间')).toBeTruthy();
  });
});
