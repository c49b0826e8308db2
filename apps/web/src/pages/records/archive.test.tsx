import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { areaSelections } from '../../app/page.tsx';
import { setSaveBlob } from '../../api/request.ts';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, ok, renderPage, serve, signIn, type Call, freshPageState, pickTreeNode } from '../../test/harness.tsx';
import RecordsRoom, { roomBody } from './RecordsRoom.tsx';
import RecordsOwner, { exportFilters, ownerBody } from './RecordsOwner.tsx';
import InRoomRecord from '../notes/InRoomRecord.tsx';
import { dayRange } from '../fee/common.tsx';
import SystemFees, { chargingTypeBody } from '../system/SystemFees.tsx';

// The room, owner, move-in history and charging-type pages against a mocked server.

configure({ asyncUtilTimeout: 8000 });

const session = (operations: string[], edition = 0) => signIn(['recordsRoom', 'recordsOwner', 'inRoomRecord', 'systemFees'], operations, { edition });

const ROOM = {
  Id: 11, companyId: 1, name: '1-101', areaId: 3, areaName: '阳光园区/1号楼/1层', decoration: 2, orientation: 4, chargingTypeId: 5,
  chargingTypeName: '住宅用电', sizeM2: '56.50', status: 1, memo: '', createdAt: '2025-01-01T00:00:00.000Z', ownerId: 21, ownerName: '王伟',
  ownerPhone: '13800001111', meterCount: 2,
};
const EMPTY_ROOM = { ...ROOM, Id: 12, name: '1-102', ownerId: null, ownerName: null, ownerPhone: null, meterCount: 0 };
const OWNER = {
  id: 21, userId: 21, name: '王伟', phone: '13800001111', idNumber: '', gender: 1, email: '', roomId: 11, roomName: '1-101',
  areaId: 3, areaName: '阳光园区/1号楼/1层', status: 1, movedInAt: '2025-01-01T00:00:00.000Z', memo: '', createdAt: '2025-01-01T00:00:00.000Z', hasPassword: false,
};
const NEW_OWNER = { ...OWNER, id: 22, name: '李娜', phone: '13900002222', roomId: null, roomName: null, areaId: null, areaName: null, status: 0, movedInAt: null };


const TREE = [{ id: 1, Parent: null, name: '阳光园区', deep: 0, areaType: 0, kind: 'area', children: [{ id: 3, Parent: 1, name: '1层', deep: 1, areaType: 0, kind: 'area', children: [] }] }];
const XLSX = () =>
  new Response(new Uint8Array([80, 75, 3, 4]), {
    status: 200,
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent('业主档案.xlsx')}`,
    },
  });
const HISTORY = {
  id: 1, ownerId: 21, ownerName: '王伟', ownerPhone: '13800001111', roomId: 11, roomName: '阳光园区/1号楼/1层/1-101', areaId: 3, action: 1,
  at: '2025-01-01T00:00:00.000Z', operatorName: '演示管理员', memo: '办理入住',
};

function mockArchive(calls: Call[] = []): Call[] {
  return mockServer(
    serve(
      [
        answer(E.room.list, [ROOM, EMPTY_ROOM], 2),
        answer(E.room.vacant, [EMPTY_ROOM], 1),
        answer(E.room.usingChargingTypes, [{ id: 5, name: '住宅用电', chargeType: 1 }]),
        answer(E.chargingType.list, [{ id: 5, name: '住宅用电', chargeType: 1, status: 1, memo: '', createdAt: '2025-01-01T00:00:00.000Z' }], 1),
        answer(E.owner.list, [OWNER, NEW_OWNER], 2),
        answer(E.owner.history, [HISTORY], 1),
        answer(E.owner.resetPwd, { id: 21, password: 'Abc234xyzQ' }),
        answer(E.owner.export, XLSX),
        answer(E.area.tree, TREE),
        answer(E.area.treeNoRoom, TREE),
      ],
      (c) => (c.method !== 'GET' ? ok({ id: 99, Id: 99 }) : ok([], 0)),
    ),
    [],
    calls,
  );
}


freshPageState();

describe('form bodies', () => {
  it('room, owner and charging-type bodies are trimmed; the owner keeps a room only on create', () => {
    expect(roomBody({ name: ' 1-101 ', areaId: 3, sizeM2: 56.5, decoration: '2' })).toEqual({
      name: '1-101', areaId: 3, decoration: '2', orientation: 0, chargingTypeId: null, sizeM2: '56.5', status: 1, memo: '',
    });
    expect(roomBody({ name: 'x', areaId: 3, sizeM2: '' }).sizeM2).toBeNull();
    expect(ownerBody({ name: ' 王伟 ', phone: '13800001111 ', idNumber: '11010519491231002x', roomId: 12 }, true)).toEqual({
      name: '王伟', phone: '13800001111', idNumber: '11010519491231002X', gender: 0, email: '', memo: '', roomId: 12,
    });
    expect(ownerBody({ name: '王伟', phone: '13800001111', roomId: 12 }, false)).not.toHaveProperty('roomId');
    expect(chargingTypeBody({ name: ' 住宅用电 ', chargeType: '1' })).toEqual({ name: '住宅用电', chargeType: '1', status: 1, memo: '' });
    expect(exportFilters({ index: 3, size: 20, name: '王', searchArea: '3' })).toEqual({ name: '王', searchArea: '3' });
    expect(dayRange(['2025-01-01', '2025-01-31'])).toEqual({ startTime: '2025-01-01', endTime: '2025-01-31' });
    expect(dayRange(undefined)).toEqual({});
  });
});

describe('房间档案 page', { timeout: 60_000 }, () => {
  it('lists rooms with their owner or 空置; no write buttons without room.basic', async () => {
    session([]);
    const calls = mockArchive();
    renderPage('recordsRoom', <RecordsRoom />);
    expect(await screen.findByText('1-101')).toBeTruthy();
    expect(screen.getByText('王伟')).toBeTruthy();
    expect(screen.getByText('空置')).toBeTruthy();
    expect(screen.getAllByText('阳光园区/1号楼/1层')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /新增物业/ })).toBeNull();
    expect(screen.queryByText('编辑')).toBeNull();
    expect(calls.find((c) => c.url.includes('/RoomInfo/GetAllChildRoom'))!.url).toMatch(/index=1&size=10/);
  });

  it('on the market edition the unit reads 出租屋; create posts the room', async () => {
    session(['room.basic'], 1);
    const calls = mockArchive();
    renderPage('recordsRoom', <RecordsRoom />);
    await screen.findByText('1-101');
    expect(screen.getByText('出租屋列表')).toBeTruthy();
    expect(screen.getAllByText('编辑').length).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: /新增出租屋/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input#name, input[id$="_name"]')!, { target: { value: '1-199' } });
    await pickTreeNode(dialog, '请选择所属区域（楼层）', '1层');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/yewu/api/RoomInfo/Detail'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.url.endsWith('/yewu/api/RoomInfo/Detail'))!;
    expect(post.body).toMatchObject({ name: '1-199', areaId: 3, decoration: '0', orientation: '0', status: '1' });
  });
});

describe('业主档案 page', { timeout: 60_000 }, () => {
  it('move in / change room / move out / reset password follow owner.basic; move out sends the memo', async () => {
    session(['owner.basic']);
    const calls = mockArchive();
    renderPage('recordsOwner', <RecordsOwner />);
    expect(await screen.findByText('李娜')).toBeTruthy();
    expect(screen.getByText('入住')).toBeTruthy(); // 李娜 has no room
    expect(screen.getByText('换房')).toBeTruthy();
    expect(screen.getByText('迁出')).toBeTruthy();
    expect(screen.getAllByText('重置密码').length).toBe(2);
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();

    // move out with a memo
    fireEvent.click(screen.getByText('迁出'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('阳光园区/1号楼/1层/1-101')).toBeTruthy();
    fireEvent.change(dialog.querySelector('textarea')!, { target: { value: '合同到期' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/userinfo/moveOut'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/userinfo/moveOut'))!.body).toEqual({ id: 21, memo: '合同到期' });
  });

  it('reset password shows the new one once', async () => {
    session(['owner.basic']);
    mockArchive([]);
    renderPage('recordsOwner', <RecordsOwner />);
    await screen.findByText('李娜');
    fireEvent.click(screen.getAllByText('重置密码')[0]);
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('Abc234xyzQ')).toBeTruthy();
    expect(screen.getByText('新密码只显示这一次，请妥善告知业主。')).toBeTruthy();
  });

  it('export downloads 业主档案.xlsx with the filters on screen', async () => {
    session(['owner.export']);
    const calls = mockArchive();
    const saved: string[] = [];
    setSaveBlob((_b, name) => saved.push(name));
    areaSelections.set({ recordsOwner: { searchArea: '3', searchClassify: '', areaName: '1层' } });
    renderPage('recordsOwner', <RecordsOwner />);
    await screen.findByText('李娜');
    expect(screen.queryByText('迁出')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/userinfo/export'))).toBe(true));
    await waitFor(() => expect(saved).toEqual(['业主档案.xlsx']));
    const exp = calls.find((c) => c.url.includes('/userinfo/export'))!;
    expect(exp.url).toContain('searchArea=3');
    expect(exp.url).not.toContain('index=');
  });
});

describe('入住记录 and 收费类型 pages', { timeout: 60_000 }, () => {
  it('lists the moves', async () => {
    session([]);
    mockArchive([]);
    renderPage('inRoomRecord', <InRoomRecord />);
    expect(await screen.findByText('阳光园区/1号楼/1层/1-101')).toBeTruthy();
    expect(screen.getByText('办理入住')).toBeTruthy();
    expect(screen.getByText('演示管理员')).toBeTruthy();
  });

  it('lists charging types with their category', async () => {
    session([]);
    mockArchive([]);
    renderPage('systemFees', <SystemFees />);
    expect(await screen.findByText('住宅用电')).toBeTruthy();
    expect(screen.getAllByText('电费').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /新增收费类型/ })).toBeTruthy();
  });
});
