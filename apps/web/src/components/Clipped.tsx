// A cell text kept to one line of a given width, so a long text does not widen its table column.

/**
 * A text of one line at most `width` px wide, clipped with an ellipsis by CSS; the whole text in the native
 * tooltip (title). Not Typography's ellipsis: it measures every cell in a layout effect (a forced layout each).
 */
export function Clipped({ text, width, strong }: { text: string; width: number; strong?: boolean }) {
  const style = { display: 'inline-block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom', fontWeight: strong ? 600 : undefined } as const;
  return <span className="clipped" title={text} style={style}>{text}</span>;
}
