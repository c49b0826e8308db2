import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setCompanyPick } from '../../app/page.tsx';
import { resetInflight } from '../../api/request.ts';
import { E } from '../../api/endpoints.gen.ts';
import { answer, mockServer, ok, renderPage, serve, signIn, type Call } from '../../test/harness.tsx';
import Belongs, { companyBody, companyForm } from './Belongs.tsx';
import { merchantBody, merchantForm } from './MerchantModal.tsx';
import { groupState, normalisePlans, toggleGroup } from './devicePermiss.ts';

configure({ asyncUtilTimeout: 8000 });

const COMPANY = {
  id: 3, name: '阳光物业演示公司', classifyId: 1, classifyName: '物业公司', contact: '张经理', phone: '0755-86001234', address: '深圳',
  bankType: 0, bankName: '中国农业银行', edition: 0, editionName: '智能水电表物联网管理平台', unitLabel: '物业', smsPriceFen: 8, phonePriceFen: 15,
  smsPrices: [], deviceCheck: true, hasValveControlPwd: true, collectorPlans: [0, 1], electricPlans: [3], waterPlans: [100],
  status: 1, createdAt: '2025-01-01T00:00:00Z',
};

const MERCHANT = {
  companyId: 3, companyName: COMPANY.name, wxEnabled: true, wxMchid: '1230000109', wxAppid: 'wx8888888888888888', wxSerialNo: 'ABCDEF0123',
  wxPrivateKeySet: true, wxPrivateKeyFingerprint: 'AB:CD:EF', wxPlatformSerial: 'PUB_KEY_ID_01', wxPlatformKey: '-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----',
  wxApiV3KeySet: true, aliEnabled: false, aliAppId: '', aliSellerId: '', aliPrivateKeySet: false, aliPrivateKeyFingerprint: '', aliPublicKey: '',
  updatedAt: '2026-11-26 10:00:00', mode: 'emulator',
  emulator: { wxPlatformSerial: 'PUB_KEY_ID_EMU', wxPlatformKey: '-----BEGIN PUBLIC KEY-----\nEMU\n-----END PUBLIC KEY-----', aliPublicKey: '-----BEGIN PUBLIC KEY-----\nALI\n-----END PUBLIC KEY-----' },
};

function mockBelongs(calls: Call[] = []): Call[] {
  return mockServer(
    serve(
      [
        answer(E.company.list, [COMPANY], 1),
        answer(E.company.classifyOptions, [{ id: 1, name: '物业公司' }]),
        answer(E.company.devicePermiss, { companyId: 3, companyName: COMPANY.name, deviceCheck: true, collectorPlans: [0, 1], electricPlans: [3], waterPlans: [100] }),
        answer(E.merchant.get, MERCHANT),
        answer(E.merchant.payGear, { companyId: 3, gearsFen: [5000, 10000], gears: ['50.00', '100.00'] }),
      ],
      (c) => (c.method !== 'GET' ? ok(null) : ok([], 0)),
    ),
    [],
    calls,
  );
}

const session = () => signIn(['belongs'], [], { access: 0 });

const show = () => renderPage('belongs', <Belongs />);

/** Signed in, /belongs shown, the company's 设备权限 or 支付设置 opened: its dialog and the requests sent. */
async function openSettings(action: '设备权限' | '支付设置') {
  session();
  const calls = mockBelongs();
  show();
  await screen.findByText('中国农业银行');
  fireEvent.click(screen.getByText(action));
  return { calls, dialog: await screen.findByRole('dialog') };
}

beforeEach(() => {
  resetInflight();
  setCompanyPick('');
});

describe('device-permission helpers', () => {
  it('select all / none per group, keeping the other groups', () => {
    expect(toggleGroup([3, 100], [0, 6, 10], true)).toEqual([0, 3, 6, 10, 100]);
    expect(toggleGroup([0, 3, 6], [0, 6, 10], false)).toEqual([3]);
    expect(groupState([0, 6], [0, 6, 10])).toBe('some');
    expect(groupState([0, 6, 10], [0, 6, 10])).toBe('all');
    expect(groupState([], [0])).toBe('none');
    expect(normalisePlans([7, 3, 3, 999], [3, 7])).toEqual([3, 7]);
  });
  it('company form ↔ body: codes as numbers, the password never pre-filled', () => {
    const f = companyForm(COMPANY);
    expect(f).toMatchObject({ bankType: '0', edition: '0', valveControlPwd: '' });
    expect(companyBody({ ...f, name: ' 新名 ', bankType: '2', smsPriceFen: '9' })).toMatchObject({
      name: '新名', bankType: 2, edition: 0, smsPriceFen: 9, phonePriceFen: 15, classifyId: 1, deviceCheck: true, valveControlPwd: '',
    });
    expect(companyBody({ name: 'x' })).toMatchObject({ classifyId: null, bankType: 0, smsPriceFen: 10, phonePriceFen: 20, deviceCheck: false });
  });
});

describe('单位管理 page', { timeout: 90_000 }, () => {
  it('lists companies without the header company pick; shows bank, edition, prices and password state', async () => {
    session();
    setCompanyPick('3');
    const calls = mockBelongs();
    show();
    expect(await screen.findByText('中国农业银行')).toBeTruthy();
    expect(screen.getByText('15')).toBeTruthy();
    expect(screen.getByText('密码已设置')).toBeTruthy();
    expect(screen.getByText('物业公司')).toBeTruthy();
    const list = calls.find((c) => c.url.includes('/Company/list'))!;
    expect(list.url).not.toMatch(/searchCompanyID/);
    expect(screen.getByRole('button', { name: /新增单位/ })).toBeTruthy();
  });

  it('设备权限: loads the plans, a group can be ticked at once, save posts the lists', async () => {
    const { calls, dialog } = await openSettings('设备权限');
    await within(dialog).findByText('采集器类型');
    // tick the whole ZDC electric group (code 150) at once
    const zdc = within(dialog).getAllByText('ZDC')[0].closest('label')!.querySelector('input')!;
    fireEvent.click(zdc);
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.includes('/CompanyDevicePermiss/detail'))).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ companyId: 3, deviceCheck: true, collectorPlans: [0, 1], electricPlans: [3, 150], waterPlans: [100] });
  });

  // a long dialog (three tabs of fields): slow on a loaded machine
  it('支付设置: shows whether secrets are stored (never the secret), blank secrets keep them, gears are saved', { timeout: 240_000 }, async () => {
    const { calls, dialog } = await openSettings('支付设置');
    expect(await within(dialog).findByText(/公钥指纹 AB:CD:EF/)).toBeTruthy();
    expect((within(dialog).getByLabelText('商户号（mchid）') as HTMLInputElement).value).toBe('1230000109');
    expect((within(dialog).getByLabelText(/商户 API 私钥/) as HTMLTextAreaElement).value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: '填入模拟器平台公钥' }));
    expect((within(dialog).getByLabelText('平台证书序列号或平台公钥 ID') as HTMLInputElement).value).toBe('PUB_KEY_ID_EMU');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.includes('/Company/SavePayGear'))).toBe(true));
    const put = calls.find((c) => c.method === 'PUT' && c.url.includes('/pay/api/Merchant/detail'))!;
    expect(put.body).toMatchObject({ companyId: 3, wxEnabled: true, wxMchid: '1230000109', wxPrivateKey: '', wxApiV3Key: '', wxPlatformSerial: 'PUB_KEY_ID_EMU', aliEnabled: false });
    expect(calls.find((c) => c.url.includes('/Company/SavePayGear'))!.body).toEqual({ companyId: 3, gears: ['50.00', '100.00'] });
  });
});

describe('payment settings helpers', () => {
  it('form never pre-fills secrets; body trims and keeps blank secrets blank', () => {
    const f = merchantForm(MERCHANT, ['50.00']);
    expect(f).toMatchObject({ wxPrivateKey: '', wxApiV3Key: '', aliPrivateKey: '', wxMchid: '1230000109', gears: ['50.00'] });
    expect(merchantBody(3, { ...f, wxMchid: ' 1230000109 ', aliAppId: ' 2021009900000077' })).toMatchObject({
      companyId: 3, wxMchid: '1230000109', aliAppId: '2021009900000077', wxPrivateKey: '', wxApiV3Key: '', aliPrivateKey: '',
    });
  });
});
