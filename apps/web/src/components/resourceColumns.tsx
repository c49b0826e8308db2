// Derives ResourceTable columns from a resource declared once in @meter/contracts (DESIGN §3): the
// same field list the server validates with drives the table, the search form and the edit form.
import type { ReactNode } from 'react';
import { Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { formatMoney, isNumeric, isValidIdCard, yuanToFen, type FieldDef, type ResourceDef } from '@meter/contracts';
import { phoneRule } from './rules.ts';
import { http } from '../api/request.ts';
import type { ResourceColumn } from './ResourceTable.tsx';
import { FileThumbs, FileUpload } from './FileUpload.tsx';
import { Clipped } from './cells.tsx';

type Option = { label: string; value: string | number };

/** Options of a 'ref' field, from a GET answering [{id,name}] or a page of them. */
export async function refOptions(f: FieldDef): Promise<Option[]> {
  if (!f.ref) return [];
  const res = await http.get<unknown>(f.ref.url, { index: 1, size: 1000 });
  const rows = (Array.isArray(res) ? res : ((res as { data?: unknown[] })?.data ?? [])) as Record<string, unknown>[];
  return rows.map((r) => ({ label: String(r[f.ref!.label ?? 'name'] ?? ''), value: r[f.ref!.value ?? 'id'] as string | number }));
}

function rulesOf(f: FieldDef): Rule[] {
  const rules: Rule[] = [];
  if ((f.type === 'text' || f.type === 'textarea') && f.max) rules.push({ max: f.max, message: `${f.label}最多 ${f.max} 个字` });
  if (f.pattern) rules.push({ pattern: new RegExp(f.pattern.re), message: f.pattern.message });
  if ((f.type === 'int' || f.type === 'decimal' || f.type === 'money') && (f.min !== undefined || f.max !== undefined)) {
    // the server's words (contracts fieldSchema): the input itself does not clamp, see columnOf
    rules.push({
      validator: (_r, v) => {
        if (v === undefined || v === null || v === '') return Promise.resolve();
        const n = Number(v);
        if (f.min !== undefined && n < f.min) return Promise.reject(new Error(`${f.label}不能小于 ${f.min}`));
        if (f.max !== undefined && n > f.max) return Promise.reject(new Error(`${f.label}不能大于 ${f.max}`));
        return Promise.resolve();
      },
    });
  }
  if (f.type === 'phone') rules.push(phoneRule(f.label));
  if (f.type === 'idcard') {
    rules.push({
      validator: (_r, v) =>
        !v || isValidIdCard(String(v).trim().toUpperCase()) ? Promise.resolve() : Promise.reject(new Error(`${f.label}不是有效的 18 位身份证号码`)),
    });
  }
  return rules;
}

/** An enum value as a tag in its declared colour (`colors`; a value without one: the plain tag). */
function enumTag(f: FieldDef, v: unknown): ReactNode {
  if (v == null) return '-';
  return <Tag color={f.colors?.[String(v)]}>{f.options?.[String(v)] ?? String(v)}</Tag>;
}

/** A number with its declared unit after it (`unit`, e.g. 24 小时). */
function withUnit<T>(f: FieldDef): Partial<ResourceColumn<T>> {
  return f.unit ? { render: (_d, r) => { const v = (r as Record<string, unknown>)[f.key]; return v == null ? '-' : `${String(v)} ${f.unit}`; } } : {};
}

/** A select column's options from a map of texts (or of { text, color }): value → { text }. */
export function textEnum(map: Record<string, string | { text: string }>): Record<string, { text: string }> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, { text: typeof v === 'string' ? v : v.text }]));
}

/** One field → one column of the table, search form and edit form. */
export function columnOf<T>(f: FieldDef): ResourceColumn<T> {
  const base: ResourceColumn<T> = {
    title: f.label,
    dataIndex: f.key,
    key: f.key,
    tooltip: f.tooltip,
    width: f.width,
    required: f.required,
    rules: rulesOf(f),
    search: f.search ? true : false,
    hideInTable: f.hideInTable,
    hideInForm: f.readonly,
    ...(f.createOnly ? { hideInEdit: true } : {}),
    // the selects key their options by string: a number default showed a raw 1 in the 状态 filter
    initialValue: f.type === 'enum' && f.default != null ? String(f.default) : f.default,
  };
  // no bounds on the input (pro-field's digit adds a min of 0 of its own when none is given, and an
  // undefined one gets lost on the way): InputNumber would silently clamp -5 to 0 on blur and the
  // form saved 0; a rule says what is wrong instead (rulesOf)
  const num = (precision: number) => ({ precision, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, style: { width: '100%' } });
  switch (f.type) {
    case 'textarea':
      // one line of the field's width (200 px unless declared), the whole text on hover: a column
      // ellipsis does not hold under the table's automatic layout, the column grew as wide as its text
      return {
        ...base,
        valueType: 'textarea',
        render: (_d, r) => {
          const v = (r as Record<string, unknown>)[f.key];
          return v == null || v === '' ? '-' : <Clipped text={String(v)} width={f.width ?? 200} />;
        },
      };
    case 'int':
      return { ...base, valueType: 'digit', fieldProps: num(0), ...withUnit<T>(f) };
    case 'decimal':
      return { ...base, valueType: 'digit', fieldProps: num(f.scale ?? 2), ...withUnit<T>(f) };
    case 'money':
      return { ...base, valueType: 'money', fieldProps: num(2) };
    case 'enum':
      return {
        ...base,
        valueType: 'select',
        valueEnum: textEnum(f.options ?? {}),
        // the server answers numbers; antd's select compares strings
        renderText: (v: unknown) => (v == null ? v : String(v)),
        ...(f.colors && { render: (_d: ReactNode, r: T) => enumTag(f, (r as Record<string, unknown>)[f.key]) }),
      } as ResourceColumn<T>;
    case 'bool':
      return { ...base, valueType: 'switch', render: (_d, r) => ((r as Record<string, unknown>)[f.key] ? '是' : '否') };
    case 'date':
      return { ...base, valueType: 'date' };
    case 'datetime':
      return { ...base, valueType: 'dateTime' };
    case 'ref':
      return { ...base, valueType: 'select', request: () => refOptions(f), fieldProps: { showSearch: true, optionFilterProp: 'label' } };
    case 'password':
      return { ...base, valueType: 'password', hideInTable: true, hideInEdit: true, search: false };
    case 'tags':
      return { ...base, valueType: 'select', fieldProps: { mode: 'tags' }, hideInTable: true };
    case 'file': {
      const file = f.file ?? { accept: 'image' as const, kind: 'Public' as const, max: 1 };
      return {
        ...base,
        search: false,
        render: (_d, r) => <FileThumbs keys={(r as Record<string, unknown>)[f.key] as string[] | null} accept={file.accept} kind={file.kind} />,
        renderFormItem: () => <FileUpload accept={file.accept} kind={file.kind} max={file.max} />,
      };
    }
    default:
      return { ...base, valueType: 'text', ellipsis: true };
  }
}

/**
 * All columns of a resource, in declaration order. `overrides` tweak single columns by key (e.g. a
 * custom render), `extra` adds columns that are not declared fields (joined names, status tags).
 */
export function columnsFromResource<T>(
  def: ResourceDef,
  overrides: Partial<Record<string, Partial<ResourceColumn<T>>>> = {},
  extra: ResourceColumn<T>[] = [],
): ResourceColumn<T>[] {
  return [...def.fields.map((f) => ({ ...columnOf<T>(f), ...(overrides[f.key] ?? {}) }) as ResourceColumn<T>), ...extra];
}

/** ¥1,234.50 from a 元 string ('-' when not a number). */
export const yuanText = (v: unknown) => {
  if (!isNumeric(v)) return '-';
  try {
    return formatMoney(yuanToFen(String(v)));
  } catch {
    return String(v);
  }
};

/** A money field (元 string) shown as ¥ and typed with two decimals; `dependencies` revalidate it with others. */
export function yuanColumn<T>(key: string, dependencies: string[] = []): Partial<ResourceColumn<T>> {
  return {
    render: (_d, r) => yuanText((r as Record<string, unknown>)[key]),
    formFieldProps: { stringMode: true, precision: 2, min: 0 },
    dependencies,
  };
}

/**
 * The columns whose keys `order` names, in that order (a key not among them is skipped, a column not
 * named is left out). Columns sharing a key (a table column and its form-only twin) are taken in turn
 * by each time `order` names the key.
 */
export function inOrder<T>(cols: ResourceColumn<T>[], order: readonly string[]): ResourceColumn<T>[] {
  const byKey = new Map<string, ResourceColumn<T>[]>();
  for (const c of cols) byKey.set(c.key as string, [...(byKey.get(c.key as string) ?? []), c]);
  const taken = new Map<string, number>();
  return order.flatMap((k) => {
    const i = taken.get(k) ?? 0;
    taken.set(k, i + 1);
    const same = byKey.get(k) ?? [];
    const c = same[Math.min(i, same.length - 1)];
    return c ? [c] : [];
  });
}

/** A search-only date-and-time range: the range picked goes to the list as two keys (startTime / endTime unless named). */
export function timeRangeColumn<T>(
  title: string,
  { dataIndex = 'timeRange', keys = ['startTime', 'endTime'] }: { dataIndex?: string; keys?: readonly [string, string] } = {},
): ResourceColumn<T> {
  const [from, to] = keys;
  return { title, dataIndex, valueType: 'dateTimeRange', hideInTable: true, search: { transform: (v: [string, string]) => ({ [from]: v?.[0], [to]: v?.[1] }) } };
}
