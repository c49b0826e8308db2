// 业主端 lists (诉求, 公告): a card of rows that each open their detail page; loading, then the rows or
// an empty note.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Empty } from 'antd';
import { formatBeijing } from '@meter/contracts';
import Loading from './Loading.tsx';

/** A time as the owner pages show it (Beijing, to the minute). */
export const when = (iso: string) => formatBeijing(new Date(iso), 'YYYY-MM-DD HH:mm');

interface Props<T> {
  loading: boolean;
  rows: T[];
  /** the detail page a row opens */
  to(row: T): string;
  /** the note when there are no rows */
  empty: string;
  children(row: T): ReactNode;
}

export function LinkList<T extends { id: number }>({ loading, rows, to, empty, children }: Props<T>) {
  return (
    <section className="h5-card">
      {loading ? <Loading /> : rows.length ? (
        <div>{rows.map((r) => (
          <div key={r.id} className="h5-row">
            <Link className="h5-link" to={to(r)} style={{ width: '100%' }}>{children(r)}</Link>
          </div>
        ))}</div>
      ) : <Empty description={empty} />}
    </section>
  );
}
