// A declared CRUD resource as a page (issue 13 §2): the table, its search form and the create/edit
// modal come from the resource's fields (resourceColumns.tsx: labels, rules, enums, units, tags); the
// five calls go through the resource's declarations (`E.<resource>`, packages/contracts crudEndpoints);
// 新增 / 编辑 / 删除 show only to whoever holds the operation key and access level the declarations name.
//   <CrudPage resource={noticeTypeResource} api={E.noticeType} />
import { useMemo, type ReactNode } from 'react';
import type { CrudEndpoints, CrudRow, ResourceDef, RouteRef } from '@meter/contracts';
import { call } from '../api/endpoint.ts';
import { companyPick } from '../app/page.tsx';
import { useSession } from '../app/session.ts';
import { useStore } from '../app/store.ts';
import { ResourceTable, type ResourceColumn } from './ResourceTable.tsx';
import { columnsFromResource } from './resourceColumns.tsx';

/** The web's references to a resource's five declarations (`E.noticeType`, …). */
export type CrudRefs = { [K in keyof CrudEndpoints]: RouteRef<CrudEndpoints[K]> };

export interface CrudPageProps {
  resource: ResourceDef;
  api: CrudRefs;
  headerTitle?: ReactNode;
  /** per-field tweaks of the derived columns (a custom render, a picker) */
  overrides?: Partial<Record<string, Partial<ResourceColumn<CrudRow>>>>;
  /** add the page's area filter to the list query (default: no, a dictionary is company-wide) */
  areaFilter?: boolean;
  /** form grid: one column by default (a dictionary's short form) */
  formColumns?: 1 | 2;
  modalWidth?: number;
  /** form values → request body (default: the form as it is; the server applies the declaration's rules) */
  fromForm?(values: Record<string, unknown>): Record<string, unknown>;
}

/** A row as its form's initial values: enums as the strings antd's selects key their options by. */
export function rowToForm(def: ResourceDef, row: CrudRow): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const f of def.fields) if (f.type === 'enum' && row[f.key] != null) out[f.key] = String(row[f.key]);
  return out;
}

export function CrudPage({ resource, api, headerTitle, overrides, areaFilter = false, formColumns = 1, modalWidth, fromForm }: CrudPageProps) {
  const session = useSession();
  const company = useStore(companyPick) || undefined;
  const columns = useMemo(() => columnsFromResource<CrudRow>(resource, overrides), [resource, overrides]);
  // the platform admin's picked company travels with every write, as with the list
  const query = company ? { searchCompanyID: company } : {};
  /** an action the user's access level may call (the declared operation key is checked by ResourceTable) */
  const may = (ref: { access?: number }) => ref.access === undefined || session?.access === ref.access;

  return (
    <ResourceTable<CrudRow>
      entityName={resource.title}
      headerTitle={headerTitle ?? resource.title}
      rowKey="id"
      columns={columns}
      areaFilter={areaFilter}
      permissions={{ create: api.create.op, update: api.update.op, remove: api.remove.op }}
      list={(q) => call(api.list, { query: q })}
      create={may(api.create) ? (v) => call(api.create, { body: v, query }) : undefined}
      update={may(api.update) ? (r, v) => call(api.update, { body: { ...v, id: r.id }, query }) : undefined}
      // a declaration removes by {ids} in the body or by ?id=: both are sent, the declared one is read
      remove={may(api.remove) ? (r) => call(api.remove, { body: { ids: [r.id] }, query: { ...query, id: r.id } }) : undefined}
      toForm={(r) => rowToForm(resource, r)}
      fromForm={fromForm && ((v) => fromForm(v))}
      formColumns={formColumns}
      modalWidth={modalWidth ?? (formColumns === 1 ? 480 : 640)}
    />
  );
}
