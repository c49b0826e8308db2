// The 档案 pages' writes (采集器, 表具, 房间, 业主, 收费方案): each api module takes the row's id first and
// the company a platform admin works in (the header's pick) last, and the page turns the form into the
// body with its own function. companyCrud gives ResourceTable its load / create / update / remove from
// them, so a page names its api, its body and the company once.
import type { FormMode, ResourceTableProps } from '../../components/ResourceTable.tsx';

type Company = string | undefined;
type Body = Record<string, unknown>;

export interface CompanyApi {
  get(id: number, company: Company): Promise<unknown>;
  create(body: Body, company: Company): Promise<unknown>;
  update(id: number, body: Body, company: Company): Promise<unknown>;
  remove(id: number, company: Company): Promise<unknown>;
}

export function companyCrud<T extends Record<string, unknown>>(
  api: CompanyApi,
  body: (values: Body, mode: FormMode) => Body,
  company: Company,
  /** where the row keeps its id (the room's is `Id`) */
  idKey = 'id',
): Required<Pick<ResourceTableProps<T>, 'load' | 'create' | 'update' | 'remove'>> {
  const id = (r: T) => Number(r[idKey]);
  return {
    load: (r) => api.get(id(r), company) as Promise<T>,
    create: (v) => api.create(body(v, 'create'), company),
    update: (r, v) => api.update(id(r), body(v, 'edit'), company),
    remove: (r) => api.remove(id(r), company),
  };
}

/** An api whose remove takes a list of ids (业主, 收费方案) as companyCrud's: one row's id. */
export function removeOne<A extends { remove(ids: number[], company: Company): Promise<unknown> }>(api: A) {
  return { ...api, remove: (id: number, company: Company) => api.remove([id], company) };
}
