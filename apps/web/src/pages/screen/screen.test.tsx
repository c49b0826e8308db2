import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, render, screen, waitFor } from '@testing-library/react';
import type { ScreenSummaryData } from '@meter/contracts';
import { PageContext } from '../../app/page.tsx';
import { configureRequest, resetInflight } from '../../api/request.ts';
import type { DeviceEvent } from '../control/live.ts';
import { hourlyOption, monthOption, yuan } from './options.ts';
import { relevant, THROTTLE_MS } from './useScreenData.ts';

// /screen in jsdom: every panel from one summary, a live event refreshes it (throttled), and nothing
// outlives the page — charts disposed, timers cleared, socket and window listeners removed.

configure({ asyncUtilTimeout: 8000 });

const charts = vi.hoisted(() => ({ made: 0, disposed: 0, options: [] as unknown[] }));
vi.mock('echarts/core', () => ({
  use: () => {},
  init: () => {
    charts.made++;
    return { setOption: (o: unknown) => charts.options.push(o), resize: () => {}, dispose: () => charts.disposed++ };
  },
}));

const live = vi.hoisted(() => ({ listeners: new Set<(e: DeviceEvent) => void>() }));
vi.mock('../control/live.ts', () => ({
  onDeviceEvent: (fn: (e: DeviceEvent) => void) => {
    live.listeners.add(fn);
    return () => live.listeners.delete(fn);
  },
}));

const { default: Screen } = await import('./Screen.tsx');

const day = (n: number, v: number) => Array.from({ length: n }, (_, i) => (i === 0 ? v : 0));
function summary(paidFen: number): ScreenSummaryData {
  return {
    generatedAt: '2026-11-26T04:00:00.000Z',
    scopeName: '阳光物业演示公司',
    hourly: { electric: day(24, 12.5), water: day(24, 3) },
    thisMonth: { electric: day(30, 12.5), water: day(30, 3) },
    lastMonth: { electric: day(31, 9), water: day(31, 2) },
    topRooms: { electric: [{ roomId: 1, roomName: '1-101', areaName: '1栋', quantity: 12.5 }], water: [] },
    devices: { collectors: { total: 20, online: 18 }, electric: { total: 400, online: 390 }, water: { total: 200, online: 150 } },
    supply: { cutToday: 2, restoredToday: 1, offNow: 5 },
    payments: {
      totalFen: paidFen, count: 1,
      byChannel: [{ channel: 'cash', label: '现金', amountFen: paidFen, count: 1 }, { channel: 'wechat', label: '微信', amountFen: 0, count: 0 }],
    },
    workOrders: { open: 1, overdue: 1, latest: [{ id: 7, kind: 1, title: '卫生间漏水', roomName: '1-101', status: 0, statusText: '待受理', overdue: true, createdAt: '2026-11-26T01:00:00.000Z' }] },
    alarms: { open: 1, byKind: [{ kind: 'offline', kindText: '设备离线过久', count: 1 }], latest: [{ id: 3, kind: 'offline', kindText: '设备离线过久', device: '200001000007', areaName: '1栋', createdAt: '2026-11-26T02:00:00.000Z' }] },
    arrears: { owners: 3, owedFen: 123456, lowOwners: 4 },
  };
}

let asked: string[];
let paid: number;
beforeEach(() => {
  asked = [];
  paid = 1000;
  charts.made = 0;
  charts.disposed = 0;
  charts.options.length = 0;
  live.listeners.clear();
  resetInflight();
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input) => {
      asked.push(input);
      return new Response(JSON.stringify({ code: 'SUCCESS', message: '', data: summary(paid) }), { status: 200 });
    }),
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const mount = () => render(<PageContext.Provider value={{ routeKey: 'screen', active: true }}><Screen /></PageContext.Provider>);
const emit = (e: DeviceEvent) => act(() => {
  for (const l of [...live.listeners]) l(e);
});

describe('大屏可视化', () => {
  it('shows every panel from the summary and refreshes once on a burst of live events', async () => {
    mount();
    expect(await screen.findByText('阳光物业演示公司 · 智慧水电监控中心')).toBeTruthy();
    for (const title of ['设备在线率', '今日通断与欠费', '今日缴费渠道', '今日分时用电 / 用水', '本月与上月逐日用电对比', '本月用电排行 TOP10', '待办工单', '设备告警']) {
      expect(screen.getByText(title, { selector: '.screen-panel-title' }), title).toBeTruthy();
    }
    expect(screen.getByTestId('kpi-electric').textContent).toBe('今日用电12.5kWh');
    expect(screen.getByTestId('kpi-paid').textContent).toBe('今日缴费10.00元');
    expect(screen.getByTestId('tile-owed').textContent).toBe('欠费总额1,234.56元');
    expect(screen.getByText('卫生间漏水')).toBeTruthy();
    expect(screen.getByText('已超期')).toBeTruthy();
    expect(screen.getByText('200001000007')).toBeTruthy();
    await waitFor(() => expect(charts.made).toBe(5));
    expect(asked).toHaveLength(1);

    // a top-up: the figure changes after one throttled ask, however many events came
    paid = 2500;
    await emit({ type: 'payment', data: { amountFen: 1500 } });
    await emit({ type: 'reading', data: {} });
    await emit({ type: 'command', data: { kind: 'read', status: 'succeeded' } });
    await waitFor(() => expect(screen.getByTestId('kpi-paid').textContent).toBe('今日缴费25.00元'), { timeout: THROTTLE_MS + 3000 });
    expect(asked).toHaveLength(2);
  }, 20_000);

  it('leaves no chart, timer or listener behind when unmounted', async () => {
    const intervals = new Set<unknown>();
    const realSet = window.setInterval.bind(window);
    const realClear = window.clearInterval.bind(window);
    vi.spyOn(window, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
      const id = realSet(fn, ms);
      intervals.add(id);
      return id;
    }) as typeof window.setInterval);
    vi.spyOn(window, 'clearInterval').mockImplementation(((id?: number) => {
      intervals.delete(id);
      realClear(id);
    }) as typeof window.clearInterval);
    const listeners = new Map<string, number>();
    const track = (target: Window | Document) => {
      const add = target.addEventListener.bind(target);
      const remove = target.removeEventListener.bind(target);
      vi.spyOn(target, 'addEventListener').mockImplementation((type: string, fn: EventListenerOrEventListenerObject, o?: boolean | AddEventListenerOptions) => {
        if (type === 'resize' || type === 'fullscreenchange') listeners.set(type, (listeners.get(type) ?? 0) + 1);
        add(type, fn, o);
      });
      vi.spyOn(target, 'removeEventListener').mockImplementation((type: string, fn: EventListenerOrEventListenerObject, o?: boolean | EventListenerOptions) => {
        if (type === 'resize' || type === 'fullscreenchange') listeners.set(type, (listeners.get(type) ?? 0) - 1);
        remove(type, fn, o);
      });
    };
    track(window);
    track(document);

    const view = mount();
    await screen.findByText('设备在线率');
    await waitFor(() => expect(charts.made).toBe(5));
    expect(intervals.size).toBeGreaterThanOrEqual(3); // refresh, clock, 用电/用水 rotation
    expect(live.listeners.size).toBe(1);
    await emit({ type: 'warning', data: {} }); // a refresh pending at unmount
    view.unmount();
    expect(intervals.size).toBe(0);
    expect(live.listeners.size).toBe(0);
    expect([...listeners.values()].every((n) => n === 0)).toBe(true);
    expect(charts.disposed).toBe(charts.made);
    const before = asked.length;
    await new Promise((r) => setTimeout(r, THROTTLE_MS + 500));
    expect(asked.length).toBe(before); // the pending refresh was cancelled
  }, 20_000);

  it('refreshes only on events that change a figure', () => {
    expect(relevant({ type: 'payment', data: {} })).toBe(true);
    expect(relevant({ type: 'reading', data: {} })).toBe(true);
    expect(relevant({ type: 'warning', data: {} })).toBe(true);
    expect(relevant({ type: 'command', data: { kind: 'close', status: 'succeeded' } })).toBe(true);
    expect(relevant({ type: 'command', data: { kind: 'close', status: 'sent' } })).toBe(false);
    expect(relevant({ type: 'command', data: { kind: 'read', status: 'succeeded' } })).toBe(false);
  });

  it('builds Chinese chart options of the right length', () => {
    const d = summary(0);
    const h = hourlyOption(d);
    expect(h.xAxis.data).toHaveLength(24);
    expect(h.xAxis.data[13]).toBe('13时');
    const m = monthOption(d, 'water');
    expect(m.xAxis.data).toHaveLength(31);
    expect(m.series.map((s) => s.name)).toEqual(['本月', '上月']);
    expect(yuan(-1234)).toBe('-12.34');
    expect(yuan(100_000_00)).toBe('100,000.00');
  });
});
