// A declared CRUD resource as a page (issue 13 §2): the table, its search form and the create/edit
// modal come from the resource's fields (resourceColumns.tsx: labels, rules, enums, units, tags); the
// five calls go through the resource's declarations (`E.<resource>`, packages/contracts crudEndpoints);
// 新增 / 编辑 / 删除 show only to whoever holds the operation key and access level the declarations name.
//   <CrudPage resource={noticeTypeResource} api={E.noticeType} />
// Custom behaviour is an explicit hook, never a copy of the page: `overrides` (a column's render or a
// custom form item such as a tree picker), `extraColumns` + `order` (derived columns), `createDefaults`,
// `load` (open the full record), `toForm` / `fromForm` (the form's values and the body), `onList` (the
// list's query as asked, e.g. for an export of the filters on screen), `rowActions` /
// `toolBar` / `rowCan` (a per-row veto of edit / delete), `actionRef` (the page reloads the list after its
// own dialogs), `onChanged` (after a create, edit or delete: refresh what else shows the rows), and
// `drawer` (the page inside a drawer opened from another page, titled by the drawer).
import { useMemo, type ReactNode } from 'react';
import { Drawer } from 'antd';
import type { CrudEndpoints, CrudRow, ResourceDef, RouteRef } from '@meter/contracts';
import type { Paged } from '../api/request.ts';
import { call } from '../api/endpoint.ts';
import { companyPick } from '../app/page.tsx';
import { useSession } from '../app/session.ts';
import { useStore } from '../app/store.ts';
import { ResourceTable, type FormMode, type ListQuery, type ResourceColumn, type ResourceTableProps } from './ResourceTable.tsx';
import { columnsFromResource, inOrder } from './resourceColumns.tsx';

/** The web's references to a resource's declarations (`E.noticeType`, …): the five, or those it has (a list at least). */
export type CrudRefs = { [K in keyof CrudEndpoints]?: RouteRef<CrudEndpoints[K]> } & { list: RouteRef<CrudEndpoints['list']> };

export interface CrudDrawer {
  title: ReactNode;
  width?: number;
  open: boolean;
  onClose(): void;
}

export interface CrudPageProps<T extends Record<string, unknown> = CrudRow> {
  resource: ResourceDef;
  api: CrudRefs;
  /** used in 新增X / 编辑X / 确定删除该X吗？ (default: the resource's title) */
  entityName?: string;
  /** default: the resource's title on a page, none in a drawer (the drawer's title says it) */
  headerTitle?: ReactNode;
  /** per-field tweaks of the derived columns (a custom render, a picker) */
  overrides?: Partial<Record<string, Partial<ResourceColumn<T>>>>;
  /** columns that are not declared fields (a derived text, tags of joined names) */
  extraColumns?: ResourceColumn<T>[];
  /** column keys in the order shown (default: the declared fields, then `extraColumns`) */
  order?: string[];
  /** add the page's area filter to the list query (default: no, a dictionary is company-wide) */
  areaFilter?: boolean;
  /** a platform-wide resource (单位): the header's company pick goes neither with the list nor the writes */
  platformWide?: boolean;
  /** form grid: one column by default (a dictionary's short form) */
  formColumns?: 1 | 2;
  modalWidth?: number;
  /** values of the create form beyond the declared defaults */
  createDefaults?: Record<string, unknown>;
  /** fetch the full record before the edit modal opens (default: the row itself) */
  load?(row: T, company: string | undefined): Promise<T>;
  /** open the edit modal with the record the declared detail answers (instead of the row) */
  loadDetail?: boolean;
  /** a row → the edit form's values (default: rowToForm) */
  toForm?(row: T): Record<string, unknown>;
  /** form values → request body (default: the form as it is; the server applies the declaration's rules) */
  fromForm?(values: Record<string, unknown>, mode: FormMode): Record<string, unknown>;
  /** the list's query each time the table asks for a page (e.g. the filters an export takes) */
  onList?(query: ListQuery): void;
  /** after a create, edit or delete succeeded (e.g. refresh the trees and pickers that show the rows) */
  onChanged?(): void;
  rowActions?: ResourceTableProps<T>['rowActions'];
  toolBar?: ResourceTableProps<T>['toolBar'];
  /** per-row veto of 编辑 / 删除 (e.g. a record the workflow has moved on) */
  rowCan?: ResourceTableProps<T>['rowCan'];
  /** the page's handle on the list (`actionRef.current?.reload()` after its own dialogs) */
  actionRef?: ResourceTableProps<T>['actionRef'];
  /** show the page in a drawer (opened from another page's toolbar) */
  drawer?: CrudDrawer;
}

/** A row as its form's initial values: enums as the strings antd's selects key their options by. */
export function rowToForm(def: ResourceDef, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const f of def.fields) if (f.type === 'enum' && row[f.key] != null) out[f.key] = String(row[f.key]);
  return out;
}

/** A delete's input: the id in the path (`:id`), {id} in a POST's body (SPEC's …/Del), or {ids} in the body and ?id= (the declared one is read). */
function removeInput(ref: { path: string; method: string }, id: number, query: { searchCompanyID?: string }) {
  if (ref.path.includes(':id')) return { params: { id }, query };
  return ref.method === 'POST' ? { body: { id }, query } : { body: { ids: [id] }, query: { ...query, id } };
}

/** A detail's input: the id in the path (`:id`) or as ?<idKey>=. */
function detailInput(ref: { path: string }, idKey: string, id: number, query: { searchCompanyID?: string }) {
  return ref.path.includes(':id') ? { params: { id }, query } : { query: { ...query, [idKey]: id } };
}

/** The derived columns with the page's overrides and extra columns, in `order` when given. */
export function pageColumns<T extends Record<string, unknown>>(
  { resource, overrides, extraColumns, order }: Pick<CrudPageProps<T>, 'resource' | 'overrides' | 'extraColumns' | 'order'>,
): ResourceColumn<T>[] {
  const cols = columnsFromResource<T>(resource, overrides, extraColumns);
  return order ? inOrder(cols, order) : cols;
}

export function CrudPage<T extends Record<string, unknown> = CrudRow>(props: CrudPageProps<T>) {
  const {
    resource, api, headerTitle, overrides, extraColumns, order, areaFilter = false, formColumns = 1, modalWidth,
    toForm, fromForm, onChanged, drawer, loadDetail, onList, platformWide,
  } = props;
  // the row's id travels under the declaration's idKey (the room's is `Id`)
  const idKey = resource.idKey ?? 'id';
  const idOf = (r: T) => Number(r[idKey]);
  // the page's hooks that ResourceTable takes as they are
  const { createDefaults, rowActions, toolBar, rowCan, actionRef } = props;
  const passed = { createDefaults, rowActions, toolBar, rowCan, actionRef };
  const session = useSession();
  const picked = useStore(companyPick) || undefined;
  const company = platformWide ? undefined : picked;
  const columns = useMemo(() => pageColumns<T>({ resource, overrides, extraColumns, order }), [resource, overrides, extraColumns, order]);
  // the platform admin's picked company travels with every write, as with the list
  const query = company ? { searchCompanyID: company } : {};
  /** an action the user's access level may call (the declared operation key is checked by ResourceTable) */
  const may = <R extends { access?: number }>(ref: R | undefined): ref is R => !!ref && (ref.access === undefined || session?.access === ref.access);
  const { create, update, remove, detail } = api;
  const load = loadDetail && detail ? (r: T) => call(detail, detailInput(detail, idKey, idOf(r), query)) as Promise<T> : props.load;
  const changed = async (p: Promise<unknown>) => {
    await p;
    onChanged?.();
  };

  const table = (
    <ResourceTable<T>
      entityName={props.entityName ?? resource.title}
      headerTitle={drawer ? headerTitle : (headerTitle ?? resource.title)}
      columns={columns}
      areaFilter={areaFilter}
      permissions={{ create: create?.op, update: update?.op, remove: remove?.op }}
      list={(q) => {
        onList?.(q);
        return call(api.list, { query: platformWide ? { ...q, searchCompanyID: undefined } : q }) as Promise<Paged<T>>;
      }}
      rowKey={idKey as Extract<keyof T, string>}
      load={load && ((r) => load(r, company))}
      create={may(create) ? (v) => changed(call(create, { body: v, query })) : undefined}
      update={may(update) ? (r, v) => changed(call(update, { body: { ...v, [idKey]: idOf(r) }, query })) : undefined}
      remove={may(remove) ? (r) => changed(call(remove, removeInput(remove, idOf(r), query))) : undefined}
      toForm={toForm ?? ((r) => rowToForm(resource, r))}
      fromForm={fromForm && ((v, mode) => fromForm(v, mode))}
      {...passed}
      formColumns={formColumns}
      modalWidth={modalWidth ?? (formColumns === 1 ? 480 : 640)}
    />
  );
  if (!drawer) return table;
  return (
    <Drawer title={drawer.title} width={drawer.width ?? 900} open={drawer.open} onClose={drawer.onClose} destroyOnHidden>
      {table}
    </Drawer>
  );
}
