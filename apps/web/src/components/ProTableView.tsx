// ResourceTable's ProTable: the lists whose columns the light table does not render (remote options,
// date-range or custom search fields, filters, row selection, …). Loaded with the first such page, so
// the pages that need none of it do not pull ProTable, ProForm and ProField (LightTable.tsx).
import { useEffect, useRef, type MutableRefObject, type ReactNode } from 'react';
import { ProTable, type ActionType, type ProColumns, type ProTableProps } from '@ant-design/pro-components';
import type { TableAction, TableRequest } from './LightTable.tsx';

export interface ProTableViewProps<T> {
  rowKey: string;
  headerTitle?: ReactNode;
  columns: ProColumns<T>[];
  params: Record<string, unknown>;
  request: TableRequest<T>;
  toolBar: ReactNode[];
  actionRef: MutableRefObject<TableAction | undefined>;
  pageSize: number;
  hasSearch: boolean;
  /** the search form's name, unique in the page (LightTable's searchForm) */
  searchForm: string;
  tableProps?: Partial<ProTableProps<T, Record<string, unknown>>>;
}

export default function ProTableView<T extends Record<string, unknown>>(props: ProTableViewProps<T>) {
  const { rowKey, headerTitle, columns, params, request, toolBar, actionRef, pageSize, hasSearch, searchForm, tableProps } = props;
  const inner = useRef<ActionType | undefined>(undefined);
  useEffect(() => {
    actionRef.current = { reload: () => inner.current?.reload() };
  }, [actionRef]);
  return (
    <ProTable<T, Record<string, unknown>>
      rowKey={rowKey}
      headerTitle={headerTitle}
      actionRef={inner}
      columns={columns}
      params={params}
      cardBordered
      dateFormatter="string"
      scroll={{ x: 'max-content' }}
      search={hasSearch ? { labelWidth: 'auto', defaultCollapsed: false } : false}
      // ProTable turns 查询 into a loading button while the list loads, and a loading antd Button drops its
      // clicks: a search typed while a reload (after a save, 刷新, a new area) was on the way went nowhere.
      // 查询 stays live; a new search aborts the reload (ProTable's request abort) and asks page 1 with it.
      form={{ name: searchForm, submitter: { submitButtonProps: { loading: false } } }}
      options={{ density: true, setting: true, reload: true, fullScreen: false }}
      pagination={{ defaultPageSize: pageSize, showSizeChanger: true, showQuickJumper: true }}
      request={(p) => request({ ...p, current: p.current ?? 1, pageSize: p.pageSize ?? pageSize })}
      toolBarRender={() => toolBar}
      {...tableProps}
    />
  );
}
