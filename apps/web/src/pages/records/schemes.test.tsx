import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { ChargingScheme, LoginResult } from '@meter/contracts';
import { Providers } from '../../app/Root.tsx';
import { PageContext } from '../../app/page.tsx';
import { saveSession } from '../../app/session.ts';
import { configureRequest, resetInflight } from '../../api/request.ts';
import RecordsFees, { chargeCodeBody, schemeBody } from './RecordsFees.tsx';
import RecordsPolice, { alarmBody, noCloseText } from './RecordsPolice.tsx';
import { draftOf, newVersion, priceSummary, versionBody, versionsProblem, type VersionDraft } from './schemeVersions.tsx';

configure({ asyncUtilTimeout: 8000 });

const TOU_DETAIL: ChargingScheme = {
  id: 5, companyId: 1, name: '商业分时电价', kind: 1, chargingMonthType: null, status: 1, memo: '', createdAt: '', updatedAt: '',
  versions: [{
    id: 51, effectiveFrom: '2024-01-01 00:00:00', mode: 'tou', unitPrice: '0.0000', tiers: [], monthlyFee: '0.00', minimumCharge: '20.00',
    tou: { periods: [{ name: '峰', price: '0.9000', ranges: ['08:00-22:00'] }, { name: '谷', price: '0.3000', ranges: ['22:00-08:00'] }] },
  }],
};

describe('version drafts', () => {
  it('a body carries only its mode; unused TOU rows are dropped', () => {
    const d = draftOf(TOU_DETAIL.versions[0]);
    expect(d.tou.periods.map((p) => p.name)).toEqual(['尖', '峰', '平', '谷']);
    expect(d.minimumCharge).toBe('20.00');
    expect(versionBody(d)).toEqual({
      id: 51, effectiveFrom: '2024-01-01 00:00:00', mode: 'tou', monthlyFee: '', minimumCharge: '20.00',
      tou: { periods: [{ name: '峰', price: '0.9000', ranges: ['08:00-22:00'] }, { name: '谷', price: '0.3000', ranges: ['22:00-08:00'] }] },
    });
    const flat = versionBody({ ...d, mode: 'flat', unitPrice: ' 0.68 ' });
    expect(flat).toMatchObject({ mode: 'flat', unitPrice: '0.68' });
    expect(flat).not.toHaveProperty('tou');
    const tiered = versionBody({ ...d, mode: 'tiered', tiers: [{ upTo: '200', price: '1' }, { upTo: '', price: '2' }] });
    expect(tiered.tiers).toEqual([{ upTo: '200', price: '1' }, { upTo: null, price: '2' }]);
  });

  it('the form rule reports the first problem with the version number', () => {
    expect(versionsProblem([])).toBe('请至少添加一个价格版本');
    const d = draftOf(TOU_DETAIL.versions[0]);
    expect(versionsProblem([d])).toBeNull();
    const gap: VersionDraft = { ...d, tou: { periods: d.tou.periods.map((p) => (p.name === '谷' ? { ...p, ranges: ['23:00-08:00'] } : p)) } };
    expect(versionsProblem([d, { ...gap, id: undefined, effectiveFrom: '2030-01-01 00:00:00' }])).toBe('第 2 个版本：分时时段须覆盖全天 24 小时：22:00-23:00 未设置');
    expect(versionsProblem([{ ...newVersion(), unitPrice: '0.12345' }])).toBe('第 1 个版本：单价最多 4 位小数');
  });

  it('a new price version copies the last one from the next month', () => {
    const next = newVersion(draftOf(TOU_DETAIL.versions[0]));
    expect(next.id).toBeUndefined();
    expect(next.mode).toBe('tou');
    expect(next.effectiveFrom).toMatch(/^\d{4}-\d{2}-01 00:00:00$/);
  });

  it('summaries and bodies', () => {
    expect(priceSummary({ mode: 'flat', unitPrice: '0.6800', tiers: [], tou: { periods: [] } }, '/kWh')).toBe('0.6800 元/kWh');
    expect(priceSummary({ mode: 'tiered', unitPrice: '0', tiers: [{ upTo: '200', price: '0.5283' }, { upTo: null, price: '0.8283' }], tou: { periods: [] } }))
      .toBe('阶梯 ≤200:0.5283 / >200:0.8283');
    expect(schemeBody({ name: ' A ', kind: '1', chargingMonthType: '1', versions: [draftOf(TOU_DETAIL.versions[0])] }).chargingMonthType).toBeNull();
    expect(schemeBody({ name: 'A', kind: '1', chargingMonthType: '2', versions: [{ ...newVersion(), mode: 'tiered' }] }).chargingMonthType).toBe('2');
    expect(chargeCodeBody({ code: ' WY1 ', name: '物业费', schemeType: '3', amount: '12.5' })).toEqual({ code: 'WY1', name: '物业费', schemeType: '3', amount: '12.5', memo: '' });
    expect(alarmBody({ name: 'x', kind: '1', alarmAmount1: '20', alarmAmount2: 10, closeAmount: undefined, overdraftAmount: '0' })).toMatchObject({
      alarmAmount1: '20', alarmAmount2: '10', closeAmount: '', notifySms: false, noCloseStart: '',
    });
    expect(noCloseText({ noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: true })).toBe('22:00-08:00（次日） · 周末全天');
    expect(noCloseText({ noCloseStart: '', noCloseEnd: '', noCloseWeekend: false })).toBe('无');
  });
});

function session(routes: string[], operations: string[]) {
  const login: LoginResult = {
    token: 'k'.repeat(43),
    user: { id: 1, username: 'u', realName: '', companyId: 1, roleId: 1, userType: 1 },
    access: 1, routes, operations, company: { id: 1, name: '演示物业', bankType: 0, edition: 0 },
  };
  saveSession(login);
}

type Call = { method: string; url: string; body: unknown };

function fakeServer(routes: Record<string, unknown>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: string, init: RequestInit) => {
    const url = String(input);
    calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const key = Object.keys(routes).find((k) => url.split('?')[0].endsWith(k));
    const data = key ? routes[key] : null;
    const body = Array.isArray(data) && /list|List/.test(url) ? { code: 'SUCCESS', message: '', data, count: data.length } : { code: 'SUCCESS', message: '', data };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  configureRequest({ fetch, toast: { success: () => {}, warning: () => {}, error: () => {} } });
  return calls;
}

const page = (routeKey: string, el: React.ReactNode) =>
  render(
    <Providers>
      <MemoryRouter>
        <PageContext.Provider value={{ routeKey, active: true }}>{el}</PageContext.Provider>
      </MemoryRouter>
    </Providers>,
  );

const ROW = {
  ...TOU_DETAIL, versions: undefined, versionCount: 1, nextChangeAt: null,
  current: TOU_DETAIL.versions[0],
};

beforeEach(() => resetInflight());

describe('/recordsFees', { timeout: 60_000 }, () => {
  it('lists schemes with their current price; no write buttons without finance.chargingScheme', async () => {
    session(['recordsFees'], []);
    fakeServer({ '/chargingscheme/list': [ROW] });
    page('recordsFees', <RecordsFees />);
    expect(await screen.findByText('商业分时电价')).toBeTruthy();
    expect(screen.getAllByText('峰 0.9000 / 谷 0.3000').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /新增收费方案/ })).toBeNull();
    expect(screen.queryByText('编辑')).toBeNull();
  });

  it('create: an empty form warns and sends nothing', async () => {
    session(['recordsFees'], ['finance.chargingScheme']);
    const calls = fakeServer({ '/chargingscheme/list': [ROW] });
    page('recordsFees', <RecordsFees />);
    await screen.findByText('商业分时电价');
    fireEvent.click(screen.getByRole('button', { name: /新增收费方案/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('添加价格版本')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请输入方案名称')).toBeTruthy();
    expect(await within(dialog).findByText('请至少添加一个价格版本')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edit: loads the detail, shows the version in effect, and saves it with its id', async () => {
    session(['recordsFees'], ['finance.chargingScheme']);
    const calls = fakeServer({ '/chargingscheme/list': [ROW], '/chargingscheme/detail/5': TOU_DETAIL, '/chargingscheme/detail': null });
    page('recordsFees', <RecordsFees />);
    await screen.findByText('商业分时电价');
    fireEvent.click(screen.getByText('编辑'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('当前生效')).toBeTruthy();
    expect(within(dialog).getByLabelText('分时时段覆盖')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toBeTruthy());
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({
      id: 5, name: '商业分时电价', kind: '1', chargingMonthType: null,
      versions: [{ id: 51, mode: 'tou', minimumCharge: '20.00', tou: { periods: [{ name: '峰' }, { name: '谷' }] } }],
    });
  });
});

describe('/recordsPolice', { timeout: 60_000 }, () => {
  it('lists alarm schemes with thresholds in ¥, channels and the no-disconnect hours', async () => {
    session(['recordsPolice'], []);
    fakeServer({
      '/alarmscheme/list': [{
        id: 1, companyId: 1, name: '电表默认报警', kind: 1, alarmAmount1: '20.00', alarmAmount2: '10.00', closeAmount: '0.00', overdraftAmount: '0.00',
        notifySms: true, notifyPhone: false, noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: false, status: 1, memo: '', createdAt: '', updatedAt: '',
      }],
    });
    page('recordsPolice', <RecordsPolice />);
    expect(await screen.findByText('电表默认报警')).toBeTruthy();
    expect(screen.getByText('¥20.00')).toBeTruthy();
    expect(screen.getByText('22:00-08:00（次日）')).toBeTruthy();
    expect(screen.getByText('短信')).toBeTruthy();
    // alarm schemes have no operation key: page access allows writing
    expect(screen.getByRole('button', { name: /新增报警方案/ })).toBeTruthy();
  });
});
