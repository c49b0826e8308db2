import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ELECTRIC_PLAN_OPTIONS, WATER_PLAN_OPTIONS } from '@meter/contracts';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, ok, renderPage, serve, signIn, type Call, freshPageState, openRowDialog, pickTreeNode } from '../../test/harness.tsx';
import RecordsTable, { meterBody } from './RecordsTable.tsx';
import RecordsCollect, { collectorBody } from './RecordsCollect.tsx';
import { planSearchEnum, treeOptions } from './deviceFields.tsx';

configure({ asyncUtilTimeout: 8000 });

const session = (operations: string[], access: 0 | 1 = 1) => signIn(['recordsTable', 'recordsCollect'], operations, { access });

const METER = {
  id: 7, companyId: 1, roomId: 3, roomName: '1-101', areaId: 2, areaName: '1层', ownerName: '王伟', collectorId: 4,
  collectorName: '4G采集器01', collectorImei: '868800001000001', name: '1-101电表', kind: 1, plan: 0, planName: '普通（0）',
  address: '200001000001', imei: '', protocolId: 11, baudId: 22, phaseId: 1, gatewayId: null, portId: null, brandId: 51,
  caliberId: null, typeId: 71, protocolName: 'DL/T645-2007', baudName: '2400', phaseName: '单相', gatewayName: null, portName: null,
  brandName: '正泰', caliberName: null, typeName: '预付费电表', multiplier: '1.00', initialReading: '0.00', chargingSchemeId: null,
  alarmSchemeId: null, installDate: '2024-03-01', status: 1, online: true, valveState: 0, lastSeenAt: null, memo: '', focused: false,
  focusId: null, createdAt: '2024-03-01T00:00:00Z',
};

const PLANS = { deviceCheck: true, collector: [{ value: 0, label: '4G' }], electric: ELECTRIC_PLAN_OPTIONS.slice(0, 2), water: WATER_PLAN_OPTIONS.slice(0, 1) };


const TREE = [{ id: 1, Parent: null, name: '阳光园区', deep: 0, areaType: 0, kind: 'area', children: [
  { id: 2, Parent: 1, name: '1层', deep: 1, areaType: 0, kind: 'area', children: [{ id: 3, Parent: 2, name: '1-101', deep: 2, areaType: 0, kind: 'room', children: [] }] },
] }];
const COLLECTOR = { id: 4, name: '4G采集器01', imei: '868800001000001', plan: 0, areaId: 2, areaName: '1层', meterCount: 12, online: false, lastSeenAt: null };

function mockDevices(calls: Call[] = []): Call[] {
  return mockServer(
    serve(
      [
        answer(E.meter.list, [METER], 1),
        answer(E.meter.plans, PLANS),
        answer(E.collector.list, [COLLECTOR], 1),
        answer(E.area.tree, TREE),
        answer(E.area.treeNoRoom, TREE),
        answer(E.collector.secret, { id: 4, imei: '868800001000001', secret: 'a'.repeat(32) }),
        answer(E.collector.resetSecret, { id: 4, imei: '868800001000001', secret: 'b'.repeat(32) }),
      ],
      (c) => {
        if (/\/(protocol|baud|gateway|port|caliber|type)\/list$/.test(c.path)) return ok([]);
        return c.method === 'GET' ? ok([], 0) : ok({ id: 99 });
      },
    ),
    [],
    calls,
  );
}


freshPageState();

describe('helpers', () => {
  it('room pickers select rooms only, with area nodes keyed apart from room ids', () => {
    const flags = { expand: false, checked: false, selected: false };
    const tree = [{ id: 3, Parent: null, name: '园区', deep: 0, areaType: 0, kind: 'area' as const, ...flags, children: [
      { id: 3, Parent: 3, name: '3-101', deep: 1, areaType: 0, kind: 'room' as const, ...flags, children: [] },
    ] }];
    expect(treeOptions(tree, true)).toEqual([{ value: 'area-3', title: '园区', selectable: false, children: [{ value: 3, title: '3-101', selectable: true, children: undefined }] }]);
    expect(treeOptions([{ ...tree[0], children: [], areaType: 1 }], false)[0]).toMatchObject({ value: 3, selectable: false });
  });

  it('plan search options merge electric and water plans sharing a code', () => {
    const e = planSearchEnum({ deviceCheck: false, collector: [], electric: [{ value: 1, label: 'LoRa（1）' }], water: [{ value: 1, label: 'LoRa（1）' }, { value: 100, label: '普通（100）' }] });
    expect(e).toEqual({ 1: { text: '电·LoRa（1） / 水·LoRa（1）' }, 100: { text: '水·普通（100）' } });
  });

  it('form values → request bodies (trimmed text, dates as YYYY-MM-DD, empty refs as null)', () => {
    const b = meterBody({ kind: '1', plan: 0, address: ' 200001000001 ', roomId: 3, name: ' 表 ', installDate: { format: () => '2025-01-02' } });
    expect(b).toMatchObject({ kind: '1', plan: 0, address: '200001000001', roomId: 3, name: '表', installDate: '2025-01-02', collectorId: null, imei: '', memo: '', reportInterval: 0 });
    expect(meterBody({ kind: 1, reportInterval: 60 }).reportInterval).toBe(60);
    expect(collectorBody({ name: ' 采集器 ', imei: '868800001000001', plan: '0', areaId: 2 })).toEqual({
      name: '采集器', imei: '868800001000001', plan: '0', areaId: 2, simNo: '', installAddress: '', memo: '',
    });
  });
});

describe('表具档案 page', { timeout: 180_000 }, () => {
  it('lists meters with plan, online and valve state; buttons follow the operation keys', async () => {
    session([]);
    const calls = mockDevices();
    renderPage('recordsTable', <RecordsTable />);
    expect(await screen.findByText('200001000001')).toBeTruthy();
    expect(screen.getByText('普通（0）')).toBeTruthy();
    expect(document.querySelector('.ant-badge-status-text')?.textContent).toBe('在线');
    expect(screen.getByText('拉闸')).toBeTruthy();
    expect(screen.getByText('王伟')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增表具/ })).toBeNull();
    expect(screen.queryByText('编辑')).toBeNull();
    expect(screen.getByText('关注')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /设备字典/ })).toBeNull();
    const list = calls.find((c) => c.url.includes('/device/list'))!;
    expect(list.url).toMatch(/index=1&size=10/);
  });

  it('create: the plan picker follows the kind and the body reaches POST /device', async () => {
    session(['device.add', 'device.edit', 'device.delete']);
    const calls = mockDevices();
    renderPage('recordsTable', <RecordsTable />);
    await screen.findByText('200001000001');
    expect(screen.getByText('编辑')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增表具/ }));
    const dialog = await screen.findByRole('dialog');
    // kind defaults to 电表: electric plans are offered
    const planInput = await waitFor(() => {
      const el = within(dialog).getByText('请选择表具方案');
      return el;
    });
    fireEvent.mouseDown(planInput.closest('.ant-select')!.querySelector('input')!);
    fireEvent.click(await screen.findByTitle(ELECTRIC_PLAN_OPTIONS[1].label));
    fireEvent.change(dialog.querySelector('input#address, input[id$="_address"]')!, { target: { value: '200001000099' } });
    // pick the room in the area tree
    await pickTreeNode(dialog, '请选择房间', '1-101');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/device/api/v1/device'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.url.endsWith('/device/api/v1/device'))!;
    expect(post.body).toMatchObject({ kind: '1', plan: ELECTRIC_PLAN_OPTIONS[1].value, address: '200001000099', roomId: 3, protocolId: 11, phaseId: 1, status: 1 });
    // the list is not preset to a status
    expect(calls.find((c) => c.url.includes('/device/list'))!.url).not.toContain('status=');
  });

  it('a platform admin also gets the device dictionaries', async () => {
    session([], 0);
    mockDevices([]);
    renderPage('recordsTable', <RecordsTable />);
    await screen.findByText('200001000001');
    expect(screen.getByRole('button', { name: /设备字典/ })).toBeTruthy();
  });
});

describe('采集器档案 page', { timeout: 180_000 }, () => {
  it('lists collectors; create / edit / delete need device.collectorAdd / Edit / Delete', async () => {
    session(['device.collectorEdit']);
    mockDevices();
    renderPage('recordsCollect', <RecordsCollect />);
    expect(await screen.findByText('868800001000001')).toBeTruthy();
    expect(screen.getByText('离线')).toBeTruthy();
    expect(screen.getByText('12')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增采集器/ })).toBeNull();
    expect(screen.getByText('编辑')).toBeTruthy();
    expect(screen.queryByText('删除')).toBeNull();
  });

  it('注册密钥: masked until shown, then the DTU registration line; regenerating needs a confirmation', async () => {
    session(['device.collectorEdit']);
    const calls = mockDevices();
    renderPage('recordsCollect', <RecordsCollect />);
    const dialog = await openRowDialog('868800001000001', '注册密钥');
    // nothing fetched before it is asked for
    expect(calls.some((c) => c.url.includes('/gather/secret'))).toBe(false);
    expect(within(dialog).queryByText('a'.repeat(32))).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /显\s*示/ }));
    expect((await within(dialog).findByTestId('collector-secret')).textContent).toContain('a'.repeat(32));
    expect(within(dialog).getByTestId('collector-registration').textContent).toContain(`REG 868800001000001 ${'a'.repeat(32)}`);
    expect(calls.find((c) => c.url.includes('/gather/secret'))!.url).toContain('id=4');

    fireEvent.click(within(dialog).getByRole('button', { name: /重新生成密钥/ }));
    expect(await screen.findByText(/旧密钥将立即失效/)).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/gather/secret/reset'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(within(dialog).getByTestId('collector-secret').textContent).toContain('b'.repeat(32)));
    const reset = calls.filter((c) => c.url.includes('/gather/secret/reset'));
    expect(reset).toHaveLength(1);
    expect(reset[0].method).toBe('POST');
  });

  it('without device.collectorEdit there is no 注册密钥 action', async () => {
    session(['device.collectorAdd', 'device.collectorDelete']);
    mockDevices([]);
    renderPage('recordsCollect', <RecordsCollect />);
    expect(await screen.findByText('868800001000001')).toBeTruthy();
    expect(screen.queryByText('注册密钥')).toBeNull();
  });
});
