// The 7-day trend of /home (top-ups against deductions): two lines, their legend, the axes and a tooltip
// per day, drawn as SVG. ECharts (~150 KB of brotli JavaScript) was too heavy for the page every user
// lands on; it stays with /screen. Loaded lazily with the billing card.
import { useEffect, useRef, useState } from 'react';
import type { HomeSummary } from './billingApi.ts';
import { money } from './money.ts';

const SERIES = [
  { key: 'prepay', name: '充值', color: '#52c41a' },
  { key: 'deduction', name: '扣费', color: '#fa8c16' },
] as const;
const HEIGHT = 260;
const PAD = { left: 56, right: 16, top: 36, bottom: 28 };
const AXIS = 'rgba(0,0,0,0.45)';

/** A round upper bound and step for the value axis (1, 2 or 5 × 10ⁿ, about 5 ticks). */
export function valueAxis(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.2 };
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  return { top: Math.ceil(max / step) * step, step };
}

export default function TrendChart({ trend }: { trend: HomeSummary['trend'] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  const [hover, setHover] = useState<number | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, el.clientWidth || 600));
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);

  const values = SERIES.map((s) => trend.map((t) => Number(t[s.key]) || 0));
  const { top, step } = valueAxis(Math.max(0, ...values.flat()));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const band = plotW / Math.max(1, trend.length);
  const x = (i: number) => PAD.left + band * (i + 0.5);
  const y = (v: number) => PAD.top + plotH * (1 - v / top);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const decimals = step < 1 ? 1 : 0;

  return (
    <div ref={box} data-testid="home-trend" style={{ height: HEIGHT, width: '100%', position: 'relative' }} onMouseLeave={() => setHover(null)}>
      <svg width={width} height={HEIGHT} role="img" aria-label="近7日充值与扣费趋势" style={{ display: 'block' }}>
        <text x={PAD.left - 8} y={PAD.top - 14} textAnchor="end" fontSize={12} fill={AXIS}>元</text>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(v)} y2={y(v)} stroke="#e0e6f1" />
            <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" fontSize={12} fill={AXIS}>{v.toFixed(decimals)}</text>
          </g>
        ))}
        {trend.map((t, i) => (
          <text key={t.day} x={x(i)} y={HEIGHT - PAD.bottom + 18} textAnchor="middle" fontSize={12} fill={AXIS}>{t.day.slice(5)}</text>
        ))}
        {hover !== null && <line x1={x(hover)} x2={x(hover)} y1={PAD.top} y2={PAD.top + plotH} stroke="#ccc" />}
        {SERIES.map((s, k) => (
          <g key={s.key} data-series={s.name}>
            <polyline fill="none" stroke={s.color} strokeWidth={2} points={values[k].map((v, i) => `${x(i)},${y(v)}`).join(' ')} />
            {values[k].map((v, i) => <circle key={i} cx={x(i)} cy={y(v)} r={hover === i ? 4 : 2.5} fill="#fff" stroke={s.color} strokeWidth={2} />)}
          </g>
        ))}
        {SERIES.map((s, k) => {
          const lx = width - PAD.right - (SERIES.length - k) * 64;
          return (
            <g key={s.key}>
              <line x1={lx} x2={lx + 20} y1={10} y2={10} stroke={s.color} strokeWidth={2} />
              <circle cx={lx + 10} cy={10} r={3} fill="#fff" stroke={s.color} strokeWidth={2} />
              <text x={lx + 26} y={14} fontSize={12} fill="#333">{s.name}</text>
            </g>
          );
        })}
        {trend.map((t, i) => (
          <rect key={t.day} x={x(i) - band / 2} y={PAD.top} width={band} height={plotH} fill="transparent" onMouseEnter={() => setHover(i)} />
        ))}
      </svg>
      {hover !== null && trend[hover] && (
        <div
          role="tooltip"
          style={{
            position: 'absolute', top: PAD.top, left: Math.min(x(hover) + 12, width - 150), pointerEvents: 'none', background: '#fff',
            border: '1px solid #eee', borderRadius: 4, boxShadow: '0 2px 8px rgba(0,0,0,0.15)', padding: '6px 10px', fontSize: 12,
          }}
        >
          <div style={{ marginBottom: 4 }}>{trend[hover].day.slice(5)}</div>
          {SERIES.map((s) => (
            <div key={s.key}>
              <span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: s.color, marginRight: 6 }} />
              {s.name} <b style={{ marginLeft: 8 }}>{money(trend[hover][s.key])}</b>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
