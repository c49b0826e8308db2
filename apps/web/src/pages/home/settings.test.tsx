import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { EXPORT_LAYOUTS } from '@meter/contracts';
import { resetInflight } from '../../api/request.ts';
import { E } from '../../api/endpoints.gen.ts';
import { setAreaSelection } from '../../app/page.tsx';
import { DEFAULT_SETTINGS, settingsStore, updateSettings } from '../../app/settings.ts';
import { answer, emptyList, mockServer, renderPage, serve, signIn, type Call } from '../../test/harness.tsx';
import HeadSet from './HeadSet.tsx';
import HeadUser, { browserOf } from './HeadUser.tsx';
import Gether from './Gether.tsx';
import ChargeCode from './ChargeCode.tsx';

// /headSet (系统配置, 导出配置), /headUser (profile, password, login history), /gether (区域信息) and
// /chargeCode (收费码 through CrudPage).

configure({ asyncUtilTimeout: 8000 });
beforeEach(() => resetInflight());

const CONFIG = [
  { key: 'receiptTitle', label: '收据抬头', value: '', defaultValue: '', updatedAt: null, updatedBy: '' },
  { key: 'receiptFooter', label: '收据备注', value: '', defaultValue: '', updatedAt: null, updatedBy: '' },
  { key: 'arrearsLine', label: '欠费线（元）', value: '0', defaultValue: '0', updatedAt: null, updatedBy: '' },
];
const ownerExport = (hidden: string[] = []) => ({
  key: 'owner', title: '业主档案', updatedAt: null,
  columns: EXPORT_LAYOUTS.owner.columns.map((c) => ({ header: c.header, shown: !hidden.includes(c.header) })),
});

describe('/headSet', { timeout: 90_000 }, () => {
  it('a company admin saves the 系统配置 and an export\'s columns; bad input stays in the form', async () => {
    signIn(['headSet', 'systemRecords', 'recordsOwner', 'recordsPolice']);
    const calls: Call[] = [];
    const toasts: string[] = [];
    mockServer(serve([
      answer(E.settings.configList, CONFIG),
      answer(E.settings.configSave, (c) => CONFIG.map((r) => ({ ...r, value: c.body[r.key] ?? r.value }))),
      answer(E.settings.exportConfig, [ownerExport()]),
      answer(E.settings.saveExportConfig, (c) => ownerExport(EXPORT_LAYOUTS.owner.columns.map((x) => x.header).filter((h) => !c.body.columns.includes(h)))),
    ]), toasts, calls);
    renderPage('headSet', <HeadSet />);
    const title = await screen.findByLabelText('收据抬头');
    fireEvent.change(title, { target: { value: '阳光物业收款处' } });
    fireEvent.change(screen.getByLabelText('欠费线（元）'), { target: { value: '12.345' } });
    fireEvent.click(screen.getByRole('button', { name: '保存系统配置' }));
    expect(await screen.findByText('欠费线（元）格式不正确（最多 2 位小数）')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('欠费线（元）'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: '保存系统配置' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === E.settings.configSave.path)).toBe(true));
    expect(calls.find((c) => c.method === 'PUT' && c.path === E.settings.configSave.path)!.body).toMatchObject({ receiptTitle: '阳光物业收款处', arrearsLine: '20' });
    expect(await screen.findByText('系统配置已保存')).toBeTruthy();

    fireEvent.click(await screen.findByText('业主档案'));
    const group = await screen.findByLabelText('业主档案导出列');
    fireEvent.click(within(group).getByLabelText('身份证号'));
    fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === E.settings.saveExportConfig.path)).toBe(true));
    const sent = calls.find((c) => c.method === 'PUT' && c.path === E.settings.saveExportConfig.path)!.body;
    expect(sent.key).toBe('owner');
    expect(sent.columns).not.toContain('身份证号');
    expect(sent.columns).toHaveLength(EXPORT_LAYOUTS.owner.columns.length - 1);
    expect(await screen.findByText('业主档案导出配置已保存')).toBeTruthy();
    // the settings kept elsewhere are linked
    expect(screen.getByRole('button', { name: '报警方案' })).toBeTruthy();
  });

  it('the browser preferences are saved as switched (设置已保存)', async () => {
    updateSettings(DEFAULT_SETTINGS);
    signIn(['headSet']);
    mockServer(serve([answer(E.settings.configList, CONFIG), answer(E.settings.exportConfig, [ownerExport()])]));
    renderPage('headSet', <HeadSet />);
    fireEvent.click(await screen.findByRole('switch', { name: '提示框自动关闭' }));
    expect(settingsStore.get().noticeAutoClose).toBe(false);
    expect(await screen.findByText('设置已保存')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: '保存已打开页签' }));
    expect(settingsStore.get().persistTabs).toBe(false);
    fireEvent.click(screen.getByRole('switch', { name: '收起侧边菜单' }));
    expect(settingsStore.get().menuCollapsed).toBe(true);
    updateSettings(DEFAULT_SETTINGS);
  });

  it('staff without administration read the configuration but cannot change it', async () => {
    signIn(['headSet', 'recordsOwner']);
    mockServer(serve([answer(E.settings.configList, CONFIG), answer(E.settings.exportConfig, [ownerExport(['邮箱'])])]));
    renderPage('headSet', <HeadSet />);
    expect(((await screen.findByLabelText('收据抬头')) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: '保存系统配置' })).toBeNull();
    expect(screen.getByText('系统配置由单位管理员修改')).toBeTruthy();
    expect(await screen.findByText('隐藏 1 列')).toBeTruthy();
  });
});

describe('/headUser', { timeout: 90_000 }, () => {
  const LOG = [
    { id: 9, success: true, reasonText: '', ip: '10.0.0.8', userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/120.0 Safari/537.36', createdAt: '2026-11-26 09:00:00', current: true },
    { id: 8, success: false, reasonText: '密码错误', ip: '10.0.0.9', userAgent: '', createdAt: '2026-11-26 08:59:00', current: false },
  ];
  const PROFILE = { username: 'demo', realName: '演示管理员', phone: '', lastLoginAt: '2026-11-26 09:00:00', passwordChangedAt: null, createdAt: '2026-01-01 00:00:00' };

  it('shows the profile and the login history, edits the name and phone, and checks the new password by the server rule', async () => {
    signIn(['headUser']);
    const calls: Call[] = [];
    const toasts: string[] = [];
    mockServer(serve([
      answer(E.auth.profile, PROFILE),
      answer(E.auth.saveProfile, (c) => ({ ...PROFILE, ...c.body })),
      answer(E.auth.loginLog, LOG),
      answer(E.auth.role, { roleName: '管理员', access: 1, routes: [], operations: [] }),
    ]), toasts, calls);
    renderPage('headUser', <HeadUser />);
    const ok = (await screen.findByText('当前在线')).closest('tr')!;
    expect(within(ok).getByText('Chrome · Windows')).toBeTruthy();
    expect(screen.getByText('失败：密码错误')).toBeTruthy();
    expect(screen.getByText('从未修改')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /编\s*辑/ }));
    fireEvent.change(await screen.findByLabelText('手机号码'), { target: { value: '1380013800' } });
    fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    expect(await screen.findByText(/手机号码/, { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('手机号码'), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: /^保\s*存$/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === E.auth.saveProfile.path)).toBe(true));
    expect(calls.find((c) => c.method === 'PUT' && c.path === E.auth.saveProfile.path)!.body).toEqual({ realName: '演示管理员', phone: '13800138000' });

    fireEvent.change(screen.getByLabelText('原密码'), { target: { value: 'old' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'abcdefgh' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'abcdefgh' } });
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('密码须包含数字')).toBeTruthy();
    expect(calls.some((c) => c.path === E.auth.changePassword.path)).toBe(false);

    fireEvent.click(screen.getByText('失败'));
    await waitFor(() => expect(calls.some((c) => c.path === E.auth.loginLog.path && c.query.get('success') === '0')).toBe(true));
  });

  it('names browsers in a few words', () => {
    expect(browserOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605 Version/17 Safari/605')).toBe('Safari · macOS');
    expect(browserOf('')).toBe('—');
  });
});

describe('/gether', { timeout: 90_000 }, () => {
  const DATA = {
    area: { id: 3, name: '阳光园区', path: '阳光园区', companyName: '演示物业' },
    rooms: { total: 12, occupied: 10, vacant: 2 },
    devices: { collectors: { total: 1, online: 1 }, electric: { total: 12, online: 11 }, water: { total: 12, online: 12 }, offNow: 1 },
    balance: { electricFen: 123456, waterFen: 5000, arrearsLineFen: 0, arrearsRooms: 2, arrearsFen: 4321 },
    usage: { month: '2026-11', electric: 820.5, water: 61, amountFen: 55000, lastElectric: 700, lastWater: 70, lastAmountFen: 50000 },
    payments: { monthFen: 30000, monthCount: 3, latest: [{ id: 1, roomName: '1-101', ownerName: '王伟', amountFen: 10000, payMethod: 'wechat', payMethodText: '微信', createdAt: '2026-11-20 10:00:00' }] },
    alarms: { open: 1, latest: [{ id: 5, kind: 'offline', kindText: '离线', device: '电表 1-101', areaName: '1号楼', createdAt: '2026-11-25 08:00:00' }] },
    children: [{ id: 4, name: '1号楼', rooms: 12, meters: 24, online: 23, arrearsRooms: 2 }],
  };

  it('asks for an area, then shows the picked area\'s figures and drills into a child area', async () => {
    signIn(['home']);
    const calls = mockServer(serve([answer(E.screen.gether, DATA)]));
    setAreaSelection('gether', { searchArea: '', searchClassify: '', areaName: '' });
    renderPage('gether', <Gether />);
    expect(await screen.findByText(/请在左侧区域树中选择一个区域/)).toBeTruthy();
    setAreaSelection('gether', { searchArea: '3', searchClassify: '', areaName: '阳光园区' });
    expect(await screen.findByText('¥1,234.56')).toBeTruthy();
    expect(calls.find((c) => c.path === E.screen.gether.path)!.query.get('areaId')).toBe('3');
    expect(screen.getByText('-¥43.21'.replace('-', ''))).toBeTruthy();
    expect(screen.getByText('王伟')).toBeTruthy();
    expect(screen.getByText('离线')).toBeTruthy();
    expect(screen.getByText('较上月 +17%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '1号楼' }));
    await waitFor(() => expect(calls.some((c) => c.path === E.screen.gether.path && c.query.get('areaId') === '4')).toBe(true));
  });
});

describe('/chargeCode', { timeout: 90_000 }, () => {
  const ROW = { id: 1, code: 'WY', name: '物业管理费', schemeType: 3, amount: '150.00', memo: '', createdAt: '2026-11-01 09:00:00' };

  it('lists the codes with their 收费类别 in words; 新增 opens the declared form for whoever may write charging schemes', async () => {
    signIn(['chargeCode'], ['finance.chargingScheme']);
    const calls = mockServer(serve([answer(E.chargeCode.list, [ROW])], emptyList));
    renderPage('chargeCode', <ChargeCode />);
    const row = (await screen.findByText('物业管理费')).closest('tr')!;
    expect(within(row).getByText('物业费')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    // the form is the declaration's: 收费码, 收费名称, 收费类别 (SchemeEnum), 金额（元）, 备注
    for (const label of ['收费码', '收费名称', '收费类别', '金额（元）', '备注']) expect(within(dialog).getByLabelText(label)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('read-only without the operation', async () => {
    signIn(['chargeCode']);
    mockServer(serve([answer(E.chargeCode.list, [ROW])], emptyList));
    renderPage('chargeCode', <ChargeCode />);
    await screen.findByText('物业管理费');
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
  });
});
