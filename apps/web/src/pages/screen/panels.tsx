// The large screen's panels: a titled frame, number tiles and the live lists.
import type { ReactNode } from 'react';
import type { ScreenAlarm, ScreenWorkOrder } from '@meter/contracts';

export function Panel({ title, extra, children, className, testId }: { title: string; extra?: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section className={`screen-panel ${className ?? ''}`} data-testid={testId}>
      <header className="screen-panel-head">
        <span className="screen-panel-title">{title}</span>
        {extra}
      </header>
      <div className="screen-panel-body">{children}</div>
    </section>
  );
}

export function Tile({ label, value, unit, tone, testId }: { label: string; value: string; unit?: string; tone?: 'warn' | 'bad' | 'good'; testId?: string }) {
  return (
    <div className={`screen-tile ${tone ? `screen-tone-${tone}` : ''}`} data-testid={testId}>
      <div className="screen-tile-label">{label}</div>
      <div className="screen-tile-value">
        {value}
        {unit && <small>{unit}</small>}
      </div>
    </div>
  );
}

/** A two-way switch in a panel's head (用电 / 用水). */
export function KindSwitch({ value, onChange }: { value: 'electric' | 'water'; onChange: (v: 'electric' | 'water') => void }) {
  return (
    <span className="screen-switch" role="tablist">
      {(['electric', 'water'] as const).map((k) => (
        <button key={k} type="button" role="tab" aria-selected={value === k} className={value === k ? 'on' : ''} onClick={() => onChange(k)}>
          {k === 'electric' ? '用电' : '用水'}
        </button>
      ))}
    </span>
  );
}

const clock = (iso: string) => {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

export function WorkOrderList({ rows, max }: { rows: ScreenWorkOrder[]; max: number }) {
  if (!rows.length) return <div className="screen-empty">暂无待办工单</div>;
  return (
    <ul className="screen-list" data-testid="screen-workorders">
      {rows.slice(0, max).map((r) => (
        <li key={r.id}>
          <span className={`screen-badge ${r.overdue ? 'bad' : r.status === 0 ? 'warn' : ''}`}>{r.overdue ? '已超期' : r.statusText}</span>
          <span className="screen-list-main" title={r.title}>{r.title}</span>
          <span className="screen-list-sub">{r.kind === 2 ? '平台诉求' : r.roomName || '—'}</span>
          <span className="screen-list-time">{clock(r.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}

export function AlarmList({ rows, max }: { rows: ScreenAlarm[]; max: number }) {
  if (!rows.length) return <div className="screen-empty">暂无未处理告警</div>;
  return (
    <ul className="screen-list" data-testid="screen-alarms">
      {rows.slice(0, max).map((r) => (
        <li key={r.id}>
          <span className="screen-badge bad">{r.kindText}</span>
          <span className="screen-list-main" title={r.device}>{r.device || '—'}</span>
          <span className="screen-list-sub">{r.areaName || '—'}</span>
          <span className="screen-list-time">{clock(r.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}
