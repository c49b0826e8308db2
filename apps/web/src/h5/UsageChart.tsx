// 业主端 usage chart: electricity (kWh) and water (m³) per day or month as bars. Loaded lazily with
// its own slice of ECharts (bar chart, grid, tooltip, legend), out of every other chunk's way.
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { OwnerUsage } from '@meter/contracts';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export function usageOption(rows: OwnerUsage[], by: 'day' | 'month') {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: ['用电（kWh）', '用水（m³）'], top: 0 },
    grid: { left: 44, right: 44, top: 32, bottom: 24 },
    xAxis: { type: 'category', data: rows.map((r) => (by === 'day' ? r.period.slice(5) : r.period)) },
    yAxis: [{ type: 'value', name: 'kWh' }, { type: 'value', name: 'm³' }],
    series: [
      { name: '用电（kWh）', type: 'bar', data: rows.map((r) => Number(r.electric)), itemStyle: { color: '#1677ff' } },
      { name: '用水（m³）', type: 'bar', yAxisIndex: 1, data: rows.map((r) => Number(r.water)), itemStyle: { color: '#13c2c2' } },
    ],
  };
}

export default function UsageChart({ rows, by }: { rows: OwnerUsage[]; by: 'day' | 'month' }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = echarts.init(el);
    chart.current = c;
    const resize = () => c.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(usageOption(rows, by), true);
  }, [rows, by]);
  return <div ref={box} data-testid="usage-chart" style={{ height: 240, width: '100%' }} />;
}
