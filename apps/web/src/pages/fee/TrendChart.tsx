// The 7-day trend of /home (top-ups against deductions), drawn with ECharts. Loaded lazily: echarts
// stays out of the first load. Only the line chart, its grid, tooltip and legend are bundled.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { HomeSummary } from './billingApi.ts';
import { money } from './money.ts';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** The chart option: 元 strings are plotted as they are (display only, nothing is computed). */
export function trendOption(trend: HomeSummary['trend']) {
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => money(typeof v === 'number' ? v.toFixed(2) : String(v)),
    },
    legend: { data: ['充值', '扣费'], top: 0, right: 8 },
    grid: { left: 56, right: 16, top: 36, bottom: 28 },
    xAxis: { type: 'category', data: trend.map((t) => t.day.slice(5)) },
    yAxis: { type: 'value', name: '元' },
    series: [
      { name: '充值', type: 'line', smooth: true, data: trend.map((t) => t.prepay), itemStyle: { color: '#52c41a' } },
      { name: '扣费', type: 'line', smooth: true, data: trend.map((t) => t.deduction), itemStyle: { color: '#fa8c16' } },
    ],
  };
}

export default function TrendChart({ trend }: { trend: HomeSummary['trend'] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = echarts.init(el);
    chart.current = c;
    const resize = () => c.resize();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(resize);
    observer?.observe(el);
    window.addEventListener('resize', resize);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', resize);
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(trendOption(trend), true);
  }, [trend]);

  return <div ref={box} data-testid="home-trend" style={{ height: 260, width: '100%' }} />;
}
