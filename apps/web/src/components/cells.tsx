// Table cells that keep a list within the page's width: a text kept to one line of a given width (so a
// long text does not widen its column), two related values in one cell, a row's 区域 / 房间.
import type { ReactNode } from 'react';
import { Typography } from 'antd';

/**
 * A text of one line at most `width` px wide, clipped with an ellipsis by CSS; the whole text in the native
 * tooltip (title). Not Typography's ellipsis: it measures every cell in a layout effect (a forced layout each).
 */
export function Clipped({ text, width, strong }: { text: string; width: number; strong?: boolean }) {
  const style = { display: 'inline-block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom', fontWeight: strong ? 600 : undefined } as const;
  return <span className="clipped" title={text} style={style}>{text}</span>;
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** Two columns in one cell: the main value over a second one in grey (red with `danger`); no second line without `below`. */
export function Stacked({ top, below, nowrap, danger }: { top: ReactNode; below?: ReactNode; nowrap?: boolean; danger?: boolean }) {
  return (
    <div style={nowrap ? NOWRAP : undefined}>
      <div>{top}</div>
      {below != null && below !== false && <Typography.Text type={danger ? 'danger' : 'secondary'}>{below}</Typography.Text>}
    </div>
  );
}

/** A row's 区域 / 房间 on one line of at most `width` px. */
export function Place({ area, room, width }: { area?: string | null; room?: string | null; width: number }) {
  return <Clipped text={[area, room].filter(Boolean).join(' / ') || '-'} width={width} />;
}
