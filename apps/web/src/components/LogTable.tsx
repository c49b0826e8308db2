// A read-only list of records (the 记录 / 日志 / 告警 pages): server-paged 20 rows a page, no 新增 /
// 编辑 / 删除, the columns' search fields as its search form. The page names the title, the columns and
// the declared list call; a row type without an index signature (an interface) is taken as it is.
import type { ReactNode } from 'react';
import type { Paged } from '../api/request.ts';
import { ResourceTable, type ListQuery, type ResourceColumn } from './ResourceTable.tsx';

export type LogRow<T> = T & Record<string, unknown>;

export interface LogTableProps<T extends object> {
  title: ReactNode;
  columns: ResourceColumn<LogRow<T>>[];
  list(query: ListQuery): Promise<Paged<T>>;
  /** extra fixed query params */
  params?: Record<string, unknown>;
  /** the row's key field (default: id) */
  rowKey?: string;
}

export function LogTable<T extends object>({ title, columns, list, params, rowKey }: LogTableProps<T>) {
  return (
    <ResourceTable<LogRow<T>>
      headerTitle={title}
      rowKey={rowKey}
      columns={columns}
      pageSize={20}
      params={params}
      list={list as (query: ListQuery) => Promise<Paged<LogRow<T>>>}
    />
  );
}
