// The light list table (issue 16): antd Table with a search form, toolbar and pagination of our own, for
// the lists whose columns need nothing beyond plain values, enums, dates and numbers. It renders what
// ProTable rendered for them (the same cell texts, 查询/重置, 第 1-10 条/总共 N 条, density and column
// settings) without pulling ProTable, ProForm and ProField into the page: the first list page is
// ~150 KB of brotli JavaScript lighter. ResourceTable picks it when `lightColumns` accepts the columns;
// any other list keeps ProTable (ProTableView.tsx, loaded with such a page).
import { useEffect, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import {
  Badge, Button, Checkbox, Col, Dropdown, Form, Input, InputNumber, Popover, Row, Select, Space, Table, Tooltip, Typography,
} from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { ColumnHeightOutlined, QuestionCircleOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import dayjs from 'dayjs';

/** What a page may do with its table through `actionRef` (ProTable's ActionType has the same reload). */
export interface TableAction {
  reload(): void | Promise<void>;
}

export interface TableRequest<T = unknown> {
  (params: Record<string, unknown> & { current: number; pageSize: number }): Promise<{ data: T[]; total: number; success: boolean }>;
}

const DISPLAY_TYPES = new Set(['text', 'select', 'radio', 'radioButton', 'dateTime', 'date', 'dateMonth', 'digit', 'textarea', 'option', 'password']);
const SEARCH_TYPES = new Set(['text', 'select', 'radio', 'radioButton', 'digit']);
const DATE_FORMATS: Record<string, string> = { dateTime: 'YYYY-MM-DD HH:mm:ss', date: 'YYYY-MM-DD', dateMonth: 'YYYY-MM' };

type Enum = Record<string, ReactNode | { text?: ReactNode; status?: string; color?: string }>;
const vt = (c: { valueType?: unknown }) => (typeof c.valueType === 'string' ? c.valueType : 'text');
const enumOf = (c: { valueEnum?: unknown }): Enum | undefined => {
  const e = c.valueEnum;
  if (e instanceof Map) return Object.fromEntries([...e.entries()].map(([k, v]) => [String(k), v as Enum[string]]));
  return e && typeof e === 'object' ? (e as Enum) : undefined;
};

/**
 * Whether the light table shows these columns as ProTable would: value types it renders itself, search
 * fields that are plain inputs or enum selects, no remote options, filters, sorters or inline editing.
 */
export function lightColumns<T>(cols: ProColumns<T>[]): boolean {
  return cols.every((c) => {
    if (typeof c.valueType === 'function' || !DISPLAY_TYPES.has(vt(c))) return false;
    if (typeof c.valueEnum === 'function') return false;
    if (c.filters || c.sorter || c.editable !== undefined || c.request || c.children || c.hideInSearch || typeof c.title === 'function') return false;
    if (c.valueType === 'switch') return false;
    if (c.search) {
      const t = vt(c);
      if (!SEARCH_TYPES.has(t) || c.renderFormItem || c.formItemProps || c.dependencies) return false;
      if ((t === 'select' || t.startsWith('radio')) && !enumOf(c)) return false;
    }
    return true;
  });
}

/** A cell as ProField shows it in read mode. */
function cellText<T>(c: ProColumns<T>, value: unknown): ReactNode {
  if (value === undefined || value === null || value === '') return '-';
  const t = vt(c);
  if (t === 'password') return '********';
  if (DATE_FORMATS[t]) {
    const d = dayjs(value as string);
    return d.isValid() ? d.format(DATE_FORMATS[t]) : String(value);
  }
  if (t === 'digit') {
    const p = (c.fieldProps as { precision?: number } | undefined)?.precision;
    const n = Number(value);
    if (Number.isNaN(n)) return String(value);
    return new Intl.NumberFormat(undefined, p ? { minimumFractionDigits: p, maximumFractionDigits: p } : {}).format(n);
  }
  const e = enumOf(c);
  if (e) {
    const one = (v: unknown): ReactNode => {
      const hit = e[String(v)];
      if (hit === undefined) return String(v);
      if (hit && typeof hit === 'object' && !Array.isArray(hit) && ('text' in hit || 'status' in hit)) {
        const { text, status, color } = hit as { text?: ReactNode; status?: string; color?: string };
        return status || color ? <Badge status={(status?.toLowerCase() as 'default') ?? undefined} color={color} text={text} /> : text;
      }
      return hit as ReactNode;
    };
    return Array.isArray(value) ? value.map((v, i) => <span key={i}>{i > 0 && ','}{one(v)}</span>) : one(value);
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
}

const nameOf = <T,>(c: ProColumns<T>): string =>
  Array.isArray(c.dataIndex) ? c.dataIndex.join('.') : String(c.dataIndex ?? c.key ?? '');
const keyOf = <T,>(c: ProColumns<T>, i: number): string => String(c.key ?? nameOf(c) ?? i) || String(i);
const valueAt = (record: Record<string, unknown>, dataIndex: unknown): unknown =>
  Array.isArray(dataIndex) ? dataIndex.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], record) : record[String(dataIndex)];

function titleOf<T>(c: ProColumns<T>): ReactNode {
  const tip = typeof c.tooltip === 'string' ? c.tooltip : undefined;
  const title = c.title as ReactNode;
  if (!tip) return title;
  return (
    <Space size={4}>
      {title}
      <Tooltip title={tip}>
        <QuestionCircleOutlined style={{ color: 'rgba(0,0,0,0.45)', cursor: 'help' }} />
      </Tooltip>
    </Space>
  );
}

/** The search values as the request gets them: empty fields left out, `search.transform` applied. */
function searchParams<T>(cols: ProColumns<T>[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of cols) {
    if (!c.search) continue;
    const name = nameOf(c);
    const v = values[name];
    if (v === undefined || v === null || v === '') continue;
    const transform = typeof c.search === 'object' ? c.search.transform : undefined;
    if (transform) Object.assign(out, transform(v, name, values));
    else out[name] = v;
  }
  return out;
}

function searchField<T>(c: ProColumns<T>): ReactNode {
  const t = vt(c);
  const props = (typeof c.fieldProps === 'object' ? c.fieldProps : {}) as Record<string, unknown>;
  const e = enumOf(c);
  if (e) {
    const options = Object.entries(e).map(([value, v]) => ({
      value,
      label: (v && typeof v === 'object' && !Array.isArray(v) && 'text' in v ? v.text : v) as ReactNode,
    }));
    return <Select allowClear placeholder="请选择" options={options} {...props} />;
  }
  if (t === 'digit') return <InputNumber placeholder="请输入" style={{ width: '100%' }} {...props} />;
  return <Input allowClear placeholder="请输入" {...props} />;
}

const DENSITY: { key: SizeType & string; label: string }[] = [
  { key: 'large', label: '宽松' },
  { key: 'middle', label: '中等' },
  { key: 'small', label: '紧凑' },
];

export interface LightTableProps<T> {
  rowKey: string;
  headerTitle?: ReactNode;
  columns: ProColumns<T>[];
  /** fixed query params (the area filter): a change asks page 1 again */
  params: Record<string, unknown>;
  request: TableRequest;
  toolBar: ReactNode[];
  actionRef: MutableRefObject<TableAction | undefined>;
  pageSize: number;
  /** the search form's name, unique in the page: its fields' ids (the labels' targets) are `${searchForm}_${field}` */
  searchForm: string;
}

export function LightTable<T extends Record<string, unknown>>(props: LightTableProps<T>) {
  const { rowKey, headerTitle, columns, params, request, toolBar, actionRef, pageSize: defaultSize, searchForm } = props;
  const searchCols = useMemo(
    () => columns.filter((c) => c.search).sort((a, b) => Number(b.order ?? 0) - Number(a.order ?? 0)),
    [columns],
  );
  const initialSearch = useMemo(
    () => Object.fromEntries(searchCols.filter((c) => c.initialValue !== undefined).map((c) => [nameOf(c), c.initialValue])),
    [searchCols],
  );
  const [form] = Form.useForm();
  const [search, setSearch] = useState<Record<string, unknown>>(() => searchParams(searchCols, initialSearch));
  const [page, setPage] = useState({ current: 1, pageSize: defaultSize });
  const [tick, setTick] = useState(0);
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [size, setSize] = useState<SizeType>('large');
  const [hidden, setHidden] = useState<Set<string>>(() => new Set());

  const paramsKey = JSON.stringify(params);
  const firstParams = useRef(paramsKey);
  // new filter → page 1 (the first render is page 1 already)
  useEffect(() => {
    if (firstParams.current === paramsKey) return;
    firstParams.current = paramsKey;
    setPage((p) => (p.current === 1 ? p : { ...p, current: 1 }));
  }, [paramsKey]);

  const live = useRef({ request, params });
  live.current = { request, params };
  useEffect(() => {
    let current = true;
    setLoading(true);
    void live.current
      .request({ ...live.current.params, ...search, current: page.current, pageSize: page.pageSize })
      .then((res) => {
        if (!current) return;
        setRows(res.data as T[]);
        setTotal(res.total);
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [paramsKey, search, page, tick]);

  actionRef.current = { reload: () => setTick((n) => n + 1) };

  const shown = useMemo<ColumnType<T>[]>(
    () =>
      columns
        .map((c, i) => ({ c, key: keyOf(c, i) }))
        .filter(({ c, key }) => !c.hideInTable && !hidden.has(key))
        .map(({ c, key }) => ({
          key,
          title: titleOf(c),
          dataIndex: c.dataIndex as ColumnType<T>['dataIndex'],
          width: c.width,
          fixed: c.fixed,
          align: c.align,
          ellipsis: !!c.ellipsis,
          className: c.className,
          onCell: c.onCell,
          onHeaderCell: c.onHeaderCell as ColumnType<T>['onHeaderCell'],
          render: (_v: unknown, record: T, index: number) => {
            const raw = valueAt(record, c.dataIndex);
            const text = c.renderText ? c.renderText(raw, record, index, actionRef.current as never) : raw;
            let dom: ReactNode = c.valueType === 'option' ? null : cellText(c, text);
            if (c.copyable && dom !== '-') {
              dom = (
                // the column's CSS ellipsis clips it; Typography's own ellipsis would cut the text itself ("13995658...")
                <Typography.Text style={{ margin: 0, padding: 0 }} copyable={{ text: String(text) }}>
                  {dom}
                </Typography.Text>
              );
            }
            if (!c.render) return dom;
            const out = c.render(dom, record, index, actionRef.current as never, { ...c, isEditable: false, type: 'table' } as never);
            return Array.isArray(out) && c.valueType === 'option' ? <Space size={8}>{out}</Space> : (out as ReactNode);
          },
        })),
    [columns, hidden, actionRef],
  );

  const settable = columns.map((c, i) => ({ key: keyOf(c, i), title: c.title as ReactNode, c })).filter(({ c }) => !c.hideInTable);
  const setting = (
    <div style={{ minWidth: 160 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', paddingBottom: 8, borderBottom: '1px solid #f0f0f0' }}>
        <Checkbox
          checked={hidden.size === 0}
          indeterminate={hidden.size > 0 && hidden.size < settable.length}
          onChange={(e) => setHidden(e.target.checked ? new Set() : new Set(settable.map((s) => s.key)))}
        >
          列展示
        </Checkbox>
        <a onClick={() => setHidden(new Set())}>重置</a>
      </div>
      {settable.map((s) => (
        <div key={s.key} style={{ padding: '4px 0' }}>
          <Checkbox
            checked={!hidden.has(s.key)}
            onChange={(e) =>
              setHidden((h) => {
                const n = new Set(h);
                if (e.target.checked) n.delete(s.key);
                else n.add(s.key);
                return n;
              })
            }
          >
            {s.title}
          </Checkbox>
        </div>
      ))}
    </div>
  );

  const box = { background: '#fff', border: '1px solid #f0f0f0', borderRadius: 6, marginBottom: 16 };
  return (
    <div className="light-table">
      {searchCols.length > 0 && (
        <div className="light-table-search" style={{ ...box, padding: '24px 24px 0' }}>
          <Form
            form={form}
            name={searchForm}
            initialValues={initialSearch}
            onFinish={(v: Record<string, unknown>) => {
              setSearch(searchParams(searchCols, v));
              setPage((p) => ({ ...p, current: 1 }));
            }}
          >
            <Row gutter={24}>
              {searchCols.map((c, i) => (
                <Col key={keyOf(c, i)} xs={24} md={12} lg={8} xxl={6}>
                  <Form.Item label={c.title as ReactNode} name={nameOf(c)}>
                    {searchField(c)}
                  </Form.Item>
                </Col>
              ))}
              <Col flex="auto" style={{ textAlign: 'right', marginBottom: 24 }}>
                <Space>
                  <Button
                    onClick={() => {
                      form.resetFields();
                      setSearch(searchParams(searchCols, initialSearch));
                      setPage((p) => ({ ...p, current: 1 }));
                    }}
                  >
                    重置
                  </Button>
                  <Button type="primary" htmlType="submit">查询</Button>
                </Space>
              </Col>
            </Row>
          </Form>
        </div>
      )}
      <div style={{ ...box, padding: '0 24px' }}>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '16px 0', gap: 16 }}>
          <div style={{ fontWeight: 500, fontSize: 16 }}>{headerTitle}</div>
          <Space size={12}>
            {toolBar}
            <Tooltip title="刷新">
              <ReloadOutlined aria-label="刷新" style={{ fontSize: 16, cursor: 'pointer' }} onClick={() => setTick((n) => n + 1)} />
            </Tooltip>
            <Dropdown
              trigger={['click']}
              menu={{ selectable: true, selectedKeys: [String(size)], items: DENSITY, onClick: ({ key }) => setSize(key as SizeType) }}
            >
              <Tooltip title="表格密度">
                <ColumnHeightOutlined aria-label="表格密度" style={{ fontSize: 16, cursor: 'pointer' }} />
              </Tooltip>
            </Dropdown>
            <Popover trigger="click" placement="bottomRight" content={setting}>
              <Tooltip title="列设置">
                <SettingOutlined aria-label="列设置" style={{ fontSize: 16, cursor: 'pointer' }} />
              </Tooltip>
            </Popover>
          </Space>
        </div>
        <Table<T>
          rowKey={rowKey}
          columns={shown}
          dataSource={rows}
          loading={loading}
          size={size}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total,
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (n, range) => `第 ${range[0]}-${range[1]} 条/总共 ${n} 条`,
            onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
          }}
        />
      </div>
    </div>
  );
}
