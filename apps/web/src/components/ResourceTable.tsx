// The generic resource table (DESIGN §3, §10): one column array drives the table, its search form and
// the create/edit modal. Server paging via index/size; the page's area filter is added to the query;
// create / edit / delete (Popconfirm) buttons show only when the user holds the operation key.
// Lists whose columns need nothing ProTable alone renders take the light table (LightTable.tsx); the
// others load ProTable with their page (ProTableView.tsx); the dialog's ProForm loads when it first opens.
import { useId, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { Button, Popconfirm, type ColProps } from 'antd';
import type { Rule } from 'antd/es/form';
import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns, ProFormColumnsType, ProTableProps } from '@ant-design/pro-components';
import type { Paged } from '../api/request.ts';
import { DEFAULT_PAGE_SIZE, listFilter, useAreaFilter, usePageKey, usePageRefresh } from '../app/page.tsx';
import { hasOperation, useSession } from '../app/session.ts';
import { toast } from '../app/feedback.tsx';
import { LightTable, lightColumns, type TableAction, type TableRequest } from './LightTable.tsx';
import { lazyModule } from './lazyModule.ts';

const proTableModule = lazyModule(() => import('./ProTableView.tsx'));
const formModule = lazyModule(() => import('./ResourceForm.tsx'));

/** Load ProTable and the dialog's ProForm now (tests; a page that knows it will need them). */
export const preloadTableStack = () => Promise.all([proTableModule.preload(), formModule.preload()]);

/** A column of the table, the search form and the edit form at once. */
export type ResourceColumn<T> = ProColumns<T> & {
  /** required in the create/edit form: adds the rule 请输入X / 请选择X */
  required?: boolean;
  /** further form rules (Chinese messages) */
  rules?: Rule[];
  /** only in the create form (e.g. password) */
  hideInEdit?: boolean;
  /** only in the edit form */
  hideInCreate?: boolean;
  /** a form field that is not a table column */
  formOnly?: boolean;
  /** props for the form field only (the table column's `fieldProps` also reach the search form) */
  formFieldProps?: Record<string, unknown>;
  /** grid cell of the form field (default: half width in a two-column form) */
  colProps?: ColProps;
};

export type FormMode = 'create' | 'edit';

/** The list query: 1-based `index`, `size`, search-form values, the area filter and extra params. */
export type ListQuery = { index: number; size: number } & Record<string, unknown>;

export interface RowHelpers<T> {
  reload(): void;
  edit(record: T): void;
}

export interface ResourceTableProps<T extends Record<string, unknown>> {
  /** used in 新增X / 编辑X / 确定删除该X吗？ (a list without these needs none) */
  entityName?: string;
  headerTitle?: ReactNode;
  /** the row's key field (default: id) */
  rowKey?: Extract<keyof T, string>;
  columns: ResourceColumn<T>[];
  list(query: ListQuery): Promise<Paged<T>>;
  create?(values: Record<string, unknown>): Promise<unknown>;
  update?(record: T, values: Record<string, unknown>): Promise<unknown>;
  remove?(record: T): Promise<unknown>;
  /** fetch the full record before the edit modal opens (default: the row itself) */
  load?(record: T): Promise<T>;
  /** operation keys (PERMISSION_TREE) required for each action; absent = route access suffices */
  permissions?: { create?: string; update?: string; remove?: string };
  /** add the page's area filter to the query (default: when the route shows the area tree) */
  areaFilter?: boolean;
  /** extra fixed query params */
  params?: Record<string, unknown>;
  /** record → form initial values (edit) */
  toForm?(record: T): Record<string, unknown>;
  /** form values → request body */
  fromForm?(values: Record<string, unknown>, mode: FormMode, record?: T): Record<string, unknown>;
  /** defaults for the create form */
  createDefaults?: Record<string, unknown>;
  rowActions?(record: T, helpers: RowHelpers<T>): ReactNode[];
  /** per-row veto of edit / delete (e.g. not on one's own account) */
  rowCan?(record: T, action: 'update' | 'remove'): boolean;
  toolBar?(helpers: { reload(): void }): ReactNode[];
  /** the page's handle on the table: `actionRef.current?.reload()` (a ProTable ActionType ref fits) */
  actionRef?: MutableRefObject<TableAction | undefined>;
  modalWidth?: number;
  /** form grid: two columns by default */
  formColumns?: 1 | 2;
  pageSize?: number;
  tableProps?: Partial<ProTableProps<T, Record<string, unknown>>>;
}

const SELECT_TYPES = new Set([
  'select', 'radio', 'radioButton', 'checkbox', 'treeSelect', 'cascader', 'date', 'dateTime', 'dateRange',
  'dateTimeRange', 'time', 'timeRange', 'dateMonth', 'dateYear', 'switch',
]);

/** The Chinese required message for a column: 请选择X for pickers and enums, 请输入X otherwise. */
export function requiredMessage(col: { title?: unknown; valueType?: unknown; valueEnum?: unknown }): string {
  const title = typeof col.title === 'string' ? col.title : '';
  const vt = typeof col.valueType === 'string' ? col.valueType : 'text';
  return `${SELECT_TYPES.has(vt) || col.valueEnum ? '请选择' : '请输入'}${title}`;
}

function strip<T>(c: ResourceColumn<T>): ProColumns<T> {
  const { required: _r, rules: _ru, hideInEdit: _he, hideInCreate: _hc, formOnly: _fo, formFieldProps: _ff, colProps: _cp, ...rest } = c;
  void _r; void _ru; void _he; void _hc; void _fo; void _ff; void _cp;
  return rest;
}

/**
 * ProTable gives a fixed column without a width 200 px, and a fixed column lies over the columns that
 * scroll beneath it: a 操作 column holding one 抄表 link then hid the 最新读数 and 读数时间 beside it
 * at 1440×900. With the table as wide as its content (scroll.x max-content, automatic layout) a width
 * of 1 px only sets a minimum and its cells do not wrap, so such a column takes exactly the width of
 * its widest cell.
 */
const NOWRAP = { style: { whiteSpace: 'nowrap' as const } };
export const fitContent = { width: 1, onCell: () => NOWRAP, onHeaderCell: () => NOWRAP };

/** Table columns: form-only columns dropped; search is opt-in (`search: true` or a transform). */
export function tableColumns<T>(cols: ResourceColumn<T>[]): ProColumns<T>[] {
  return cols
    .filter((c) => !c.formOnly)
    .map((c) => ({ ...strip(c), search: c.search ?? false, ...(c.fixed && c.width == null ? fitContent : {}) }));
}

/** Form columns for a mode: no option columns, no hideInForm, required → Chinese rule. */
export function formColumns<T>(cols: ResourceColumn<T>[], mode: FormMode): ProFormColumnsType<Record<string, unknown>>[] {
  return cols
    .filter((c) => c.valueType !== 'option' && c.valueType !== 'index' && !c.hideInForm)
    .filter((c) => !(mode === 'create' && c.hideInCreate) && !(mode === 'edit' && c.hideInEdit))
    .map((c) => {
      const rules: Rule[] = [...(c.required ? [{ required: true, message: requiredMessage(c) }] : []), ...(c.rules ?? [])];
      const fieldProps = { ...(typeof c.fieldProps === 'object' ? c.fieldProps : {}), ...(c.formFieldProps ?? {}) };
      return {
        title: c.title,
        dataIndex: c.dataIndex,
        key: c.key,
        // pro-form names a field by `name || key || dataIndex`: a column whose key differs from its
        // dataIndex (two columns on one field) must still submit under the dataIndex
        ...(c.dataIndex !== undefined && { name: c.dataIndex }),
        valueType: c.valueType,
        valueEnum: c.valueEnum,
        tooltip: c.tooltip,
        initialValue: mode === 'create' ? c.initialValue : undefined,
        fieldProps,
        formItemProps: { rules },
        renderFormItem: c.renderFormItem,
        colProps: c.colProps,
        request: c.request,
        params: c.params,
        dependencies: c.dependencies,
      } as ProFormColumnsType<Record<string, unknown>>;
    });
}

interface Editing<T> {
  mode: FormMode;
  record?: T;
  initial: Record<string, unknown>;
}

export function ResourceTable<T extends Record<string, unknown>>(props: ResourceTableProps<T>) {
  const {
    entityName = '', headerTitle, rowKey = 'id', columns, list, create, update, remove, load, permissions = {}, params,
    toForm, fromForm, createDefaults, rowActions, toolBar, modalWidth = 640, formColumns: gridCols = 2,
    pageSize = DEFAULT_PAGE_SIZE, tableProps, rowCan,
  } = props;
  const session = useSession();
  const routeKey = usePageKey();
  const area = useAreaFilter();
  const innerRef = useRef<TableAction | undefined>(undefined);
  const actionRef = props.actionRef ?? innerRef;
  const [editing, setEditing] = useState<Editing<T> | null>(null);

  const reload = () => void actionRef.current?.reload();
  usePageRefresh(reload);

  const canCreate = !!create && hasOperation(session, permissions.create);
  const canUpdate = !!update && hasOperation(session, permissions.update);
  const canRemove = !!remove && hasOperation(session, permissions.remove);

  const openEdit = async (record: T) => {
    try {
      const full = load ? await load(record) : record;
      setEditing({ mode: 'edit', record: full, initial: toForm ? toForm(full) : { ...full } });
    } catch {
      // the request wrapper showed why
    }
  };

  const helpers: RowHelpers<T> = { reload, edit: (r) => void openEdit(r) };
  // The column list is memoised; its click handlers read this render's callbacks through a ref.
  const live = useRef({ openEdit, remove, reload, helpers, list });
  live.current = { openEdit, remove, reload, helpers, list };

  const cols = useMemo(() => {
    const out = tableColumns(columns);
    if (canUpdate || canRemove || rowActions) {
      out.push({
        title: '操作',
        valueType: 'option',
        key: '__option',
        fixed: 'right',
        ...fitContent,
        render: (_dom, record) => [
          canUpdate && (!rowCan || rowCan(record, 'update')) && (
            <a key="edit" onClick={() => void live.current.openEdit(record)}>编辑</a>
          ),
          canRemove && (!rowCan || rowCan(record, 'remove')) && (
            <Popconfirm
              key="delete"
              title={`确定删除该${entityName}吗？`}
              okText="确定"
              cancelText="取消"
              onConfirm={async () => {
                try {
                  await live.current.remove!(record);
                } catch {
                  return; // refused: the request wrapper showed the server's message
                }
                toast.success('删除成功');
                live.current.reload();
              }}
            >
              <a style={{ color: '#ff4d4f' }}>删除</a>
            </Popconfirm>
          ),
          ...(rowActions ? rowActions(record, live.current.helpers) : []),
        ].filter(Boolean),
      });
    }
    return out;
  }, [columns, canUpdate, canRemove, rowActions, rowCan, entityName]);

  const hasSearch = columns.some((c) => c.search && !c.formOnly);
  const query = useMemo(() => ({ ...listFilter(routeKey, area, props.areaFilter), ...(params ?? {}) }), [routeKey, area, props.areaFilter, params]);
  const light = !tableProps && lightColumns(cols);
  const ProTableView = proTableModule.useModule(!light)?.default;
  const ResourceForm = formModule.useModule(!!editing)?.default;

  const request: TableRequest<T> = async (p) => {
    const { current, pageSize: size, keyword: _k, ...rest } = p;
    void _k;
    try {
      const res = await live.current.list({ ...rest, index: current ?? 1, size: size ?? pageSize });
      return { data: res.data ?? [], total: res.count ?? 0, success: true };
    } catch {
      return { data: [], total: 0, success: false };
    }
  };
  const bar = [
    canCreate && (
      <Button
        key="create"
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => setEditing({ mode: 'create', initial: { ...(createDefaults ?? {}) } })}
      >
        新增{entityName}
      </Button>
    ),
    ...(toolBar ? toolBar({ reload }) : []),
  ].filter(Boolean);

  const submit = async (values: Record<string, unknown>): Promise<boolean> => {
    if (!editing) return false;
    const body = fromForm ? fromForm(values, editing.mode, editing.record) : values;
    try {
      if (editing.mode === 'create') await create!(body);
      else await update!(editing.record as T, body);
    } catch {
      return false; // the request wrapper showed why (or 请勿重复操作 for a second click)
    }
    toast.success(editing.mode === 'create' ? '新增成功' : '保存成功');
    reload();
    return true;
  };

  // kept-alive pages stay in the document, hidden: every search form gets a name of its own, so that two
  // pages' 房间 fields are not one id (a label focused the hidden page's input)
  const searchForm = `search${useId().replace(/[^\w-]/g, '')}`;
  const tableArgs = { rowKey, headerTitle, columns: cols, params: query, request, toolBar: bar, actionRef, pageSize, searchForm };
  return (
    <>
      {light ? (
        <LightTable<T> {...tableArgs} />
      ) : (
        ProTableView && <ProTableView<T> {...tableArgs} hasSearch={hasSearch} tableProps={tableProps} />
      )}
      {editing && ResourceForm && (
        <ResourceForm<T>
          mode={editing.mode}
          title={`${editing.mode === 'create' ? '新增' : '编辑'}${entityName}`}
          columns={columns}
          initial={editing.initial}
          name={`${routeKey}-edit`}
          width={modalWidth}
          gridCols={gridCols}
          submit={submit}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
