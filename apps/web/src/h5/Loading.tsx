// A plain loading line (no antd Spin: keeps the H5 chunk from re-splitting the shell's antd chunks).
export default function Loading({ block = false }: { block?: boolean }) {
  return <div className={block ? 'h5-loading' : 'h5-muted'} role="status">加载中…</div>;
}
