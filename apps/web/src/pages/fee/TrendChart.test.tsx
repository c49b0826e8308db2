import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import TrendChart, { valueAxis } from './TrendChart.tsx';

const trend = [
  { day: '2026-11-20', prepay: '120.00', deduction: '35.50' },
  { day: '2026-11-21', prepay: '0.00', deduction: '41.25' },
  { day: '2026-11-22', prepay: '300.00', deduction: '38.00' },
];

describe('TrendChart', () => {
  it('rounds the value axis to 1, 2 or 5 × 10ⁿ steps', () => {
    expect(valueAxis(300)).toEqual({ top: 300, step: 100 });
    expect(valueAxis(437)).toEqual({ top: 500, step: 100 });
    expect(valueAxis(8)).toEqual({ top: 8, step: 2 });
    expect(valueAxis(0)).toEqual({ top: 1, step: 0.2 });
  });

  it('draws both series over the days and names a day\'s amounts on hover', () => {
    render(<TrendChart trend={trend} />);
    const chart = screen.getByTestId('home-trend');
    const lines = chart.querySelectorAll('polyline');
    expect(lines).toHaveLength(2);
    expect(lines[0].getAttribute('points')!.split(' ')).toHaveLength(3);
    // the top of the axis is 300: the 300.00 top-up sits on the top grid line, 0.00 on the bottom one
    const ys = lines[0].getAttribute('points')!.split(' ').map((p) => Number(p.split(',')[1]));
    expect(ys[2]).toBeLessThan(ys[0]);
    expect(ys[1]).toBeGreaterThan(ys[0]);
    expect(screen.getByText('11-21')).toBeTruthy();
    expect(screen.getByText('充值')).toBeTruthy();
    fireEvent.mouseEnter(chart.querySelectorAll('rect')[2]);
    const tip = screen.getByRole('tooltip');
    expect(tip.textContent).toContain('11-22');
    expect(tip.textContent).toContain('¥300.00');
    expect(tip.textContent).toContain('¥38.00');
  });
});
