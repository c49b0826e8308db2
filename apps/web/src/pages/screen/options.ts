// The large screen's chart options (ECharts), built from the summary: pure functions, no echarts
// import, so they are tested without a canvas. Dark 大屏 palette; Chinese labels.
import type { ScreenSummaryData } from '@meter/contracts';

export const COLORS = { electric: '#37a2ff', water: '#23d6c3', last: '#7a8aa8', warn: '#ffb020', bad: '#ff5b5b', good: '#3ddc84' };
const TEXT = '#a9c1e8';
const LINE = 'rgba(120, 160, 220, 0.18)';

const axisText = { color: TEXT, fontSize: 14 };
const axis = (extra: Record<string, unknown> = {}) => ({
  axisLine: { lineStyle: { color: LINE } },
  axisLabel: axisText,
  splitLine: { lineStyle: { color: LINE } },
  ...extra,
});
const legend = (data: string[], at: Record<string, string | number> = { right: 8 }) => ({ data, top: 0, ...at, textStyle: { color: TEXT, fontSize: 14 }, itemWidth: 14, itemHeight: 8 });
const tooltip = (trigger: 'axis' | 'item') => ({ trigger, backgroundColor: 'rgba(8, 20, 48, 0.92)', borderColor: '#2a4d8f', textStyle: { color: '#e6f0ff' } });

/** 今日分时用电 / 用水: bars of kWh, a line of m³ on its own axis. */
export function hourlyOption(d: Pick<ScreenSummaryData, 'hourly'>) {
  return {
    tooltip: tooltip('axis'),
    legend: legend(['用电 (kWh)', '用水 (m³)'], { left: 'center' }),
    grid: { left: 56, right: 56, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: d.hourly.electric.map((_, h) => `${h}时`), ...axis({ splitLine: { show: false } }) },
    yAxis: [{ type: 'value', name: 'kWh', nameTextStyle: axisText, ...axis() }, { type: 'value', name: 'm³', nameTextStyle: axisText, ...axis({ splitLine: { show: false } }) }],
    series: [
      { name: '用电 (kWh)', type: 'bar', barWidth: '45%', data: d.hourly.electric, itemStyle: { color: COLORS.electric, borderRadius: [3, 3, 0, 0] } },
      { name: '用水 (m³)', type: 'line', yAxisIndex: 1, smooth: true, symbolSize: 6, data: d.hourly.water, itemStyle: { color: COLORS.water } },
    ],
  };
}

/** 本月与上月逐日对比 of one kind: two lines, day 1 … 31. */
export function monthOption(d: Pick<ScreenSummaryData, 'thisMonth' | 'lastMonth'>, kind: 'electric' | 'water') {
  const unit = kind === 'electric' ? 'kWh' : 'm³';
  const days = Math.max(d.thisMonth[kind].length, d.lastMonth[kind].length);
  return {
    tooltip: tooltip('axis'),
    legend: legend(['本月', '上月']),
    grid: { left: 56, right: 20, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: Array.from({ length: days }, (_, i) => `${i + 1}日`), ...axis({ splitLine: { show: false } }) },
    yAxis: { type: 'value', name: unit, nameTextStyle: axisText, ...axis() },
    series: [
      {
        name: '本月', type: 'line', smooth: true, symbolSize: 6, data: d.thisMonth[kind], itemStyle: { color: COLORS[kind] },
        areaStyle: { color: kind === 'electric' ? 'rgba(55, 162, 255, 0.18)' : 'rgba(35, 214, 195, 0.18)' },
      },
      { name: '上月', type: 'line', smooth: true, symbol: 'none', data: d.lastMonth[kind], lineStyle: { type: 'dashed' }, itemStyle: { color: COLORS.last } },
    ],
  };
}

/** 本月用量排行: horizontal bars, the largest on top. */
export function topOption(rows: ScreenSummaryData['topRooms']['electric'], kind: 'electric' | 'water') {
  const list = [...rows].reverse();
  return {
    tooltip: tooltip('axis'),
    grid: { left: 150, right: 70, top: 8, bottom: 8 },
    xAxis: { type: 'value', show: false },
    yAxis: {
      type: 'category',
      data: list.map((r) => (r.areaName ? `${r.areaName} ${r.roomName}` : r.roomName)),
      axisLine: { show: false }, axisTick: { show: false },
      axisLabel: { ...axisText, width: 140, overflow: 'truncate' },
    },
    series: [{
      type: 'bar', barWidth: 14, data: list.map((r) => r.quantity),
      label: { show: true, position: 'right', color: '#e6f0ff', fontSize: 14, formatter: `{c} ${kind === 'electric' ? 'kWh' : 'm³'}` },
      itemStyle: { color: COLORS[kind], borderRadius: 7 },
    }],
  };
}

/** 在线率: one ring per device type (采集器, 电表, 水表). */
export function onlineOption(d: Pick<ScreenSummaryData, 'devices'>) {
  const items = [
    { name: '采集器', ...d.devices.collectors },
    { name: '电表', ...d.devices.electric },
    { name: '水表', ...d.devices.water },
  ];
  return {
    series: items.map((it, i) => {
      const rate = it.total ? Math.round((it.online / it.total) * 1000) / 10 : 0;
      return {
        type: 'gauge', center: [`${17 + i * 33}%`, '44%'], radius: '64%', startAngle: 90, endAngle: -270, min: 0, max: 100,
        pointer: { show: false }, axisLine: { lineStyle: { width: 12, color: [[1, 'rgba(120, 160, 220, 0.15)']] } },
        progress: { show: true, roundCap: true, width: 12, itemStyle: { color: rate >= 90 ? COLORS.good : rate >= 60 ? COLORS.warn : COLORS.bad } },
        splitLine: { show: false }, axisTick: { show: false }, axisLabel: { show: false },
        title: { offsetCenter: [0, '132%'], color: TEXT, fontSize: 16 },
        detail: { offsetCenter: [0, 0], fontSize: 24, color: '#e6f0ff', formatter: `${rate}%` },
        data: [{ value: rate, name: `${it.name} ${it.online}/${it.total}` }],
      };
    }),
  };
}

/** 今日缴费渠道: a ring of the four channels, each with its sum and count beside it. */
export function paymentOption(d: Pick<ScreenSummaryData, 'payments'>) {
  const colors: Record<string, string> = { cash: '#ffb020', wechat: '#3ddc84', alipay: '#37a2ff', bank: '#b37feb' };
  const byLabel = new Map(d.payments.byChannel.map((c) => [c.label, c]));
  return {
    tooltip: { ...tooltip('item'), valueFormatter: (v: unknown) => `${yuan(Math.round(Number(v) * 100))} 元` },
    legend: {
      orient: 'vertical', left: '62%', top: 'middle', itemGap: 18, textStyle: { color: TEXT, fontSize: 16 },
      formatter: (name: string) => {
        const c = byLabel.get(name);
        return c ? `${name}  ${yuan(c.amountFen)} 元 / ${c.count} 笔` : name;
      },
    },
    series: [{
      type: 'pie', radius: ['48%', '72%'], center: ['30%', '50%'], label: { show: false },
      data: d.payments.byChannel.map((c) => ({ name: c.label, value: c.amountFen / 100, itemStyle: { color: colors[c.channel] } })),
    }],
  };
}

/** 分 → 元 text with thousands separators (display only). */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.round(Math.abs(fen));
  return `${sign}${Math.floor(abs / 100).toLocaleString('zh-CN')}.${String(abs % 100).padStart(2, '0')}`;
}

/** A quantity with at most 2 decimals and separators. */
export function qty(v: number): string {
  return v.toLocaleString('zh-CN', { maximumFractionDigits: 2 });
}

export const sum = (list: number[]) => Math.round(list.reduce((s, v) => s + v, 0) * 100) / 100;
