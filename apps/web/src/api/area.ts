// Area archive calls (/yewu/api): the child-area list, the area form, area-permission sets and the
// binding of accounts to areas.
import type { AreaNode } from './yewu.ts';
import { http, request, type Paged, type Query } from './request.ts';

const P = '/yewu/api';

export interface AreaRow {
  id: number;
  name: string;
  title: string;
  parentId: number | null;
  parentName: string | null;
  deep: number;
  areaType: number;
  areaTypeName: string;
  province: string;
  city: string;
  district: string;
  town: string;
  address: string;
  sort: number;
  companyId: number;
  companyName: string;
  childCount: number;
  roomCount: number;
  createdAt: string;
}

export interface AddressOption {
  province: string;
  city: string;
  district: string;
  town: string;
}

export interface AreaPermissionRow {
  id: number;
  name: string;
  areaIds: number[];
  areaNames: string[];
  status: number;
  memo: string;
  createdAt: string;
}

export type TreeNodeV2 = AreaNode & { kind?: 'area' | 'room'; selectable?: boolean; disableCheckbox?: boolean; children?: TreeNodeV2[] };

type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;
const inCompany = (company: Company) => ({ params: { searchCompanyID: company } });

export const areaArchiveApi = {
  list: (q: Query & { index: number; size: number }) => http.page<AreaRow>(`${P}/Area/GetAllChildArea`, q),
  create: (body: Body, company: Company) => request<{ id: number; deep: number }>('POST', `${P}/Area/Detail`, { data: body, ...inCompany(company) }),
  update: (id: number, body: Body, company: Company) => request<null>('PUT', `${P}/Area/Detail`, { data: { ...body, id }, ...inCompany(company) }),
  remove: (id: number, company: Company) => request<null>('DELETE', `${P}/Area/Detail/${id}`, inCompany(company)),
  addressOptions: (company: Company) => http.get<AddressOption[]>(`${P}/Area/GetAddressOptions`, { searchCompanyID: company }),
  /** the area tree without rooms; V2 marks grouping nodes (areaType 1) unselectable */
  treeV2: (company: Company) => http.get<TreeNodeV2[]>(`${P}/GetAreaTreeNoRoomV2`, { searchCompanyID: company }),
};

export const areaPermissionApi = {
  list: (q: Query & { index: number; size: number }) => http.page<AreaPermissionRow>(`${P}/AreaPermission/List`, q),
  get: (id: number, company: Company) => http.get<AreaPermissionRow>(`${P}/AreaPermission/Detail`, { id, searchCompanyID: company }),
  create: (body: Body, company: Company) => request<{ id: number }>('POST', `${P}/AreaPermission/Detail`, { data: body, ...inCompany(company) }),
  update: (id: number, body: Body, company: Company) =>
    request<null>('PUT', `${P}/AreaPermission/Detail`, { data: { ...body, id }, ...inCompany(company) }),
  remove: (id: number, company: Company) => request<null>('DELETE', `${P}/AreaPermission/Detail`, { data: { ids: [id] }, ...inCompany(company) }),
  using: (company: Company) => http.get<AreaPermissionRow[]>(`${P}/AreaPermission/GetUsingList`, { searchCompanyID: company }),
};

export const userAreaApi = {
  /** the user's company tree with `checked` on the bound areas */
  boundTree: (userId: number) => http.get<TreeNodeV2[]>(`${P}/GetUserBindAreaTree`, { userId }),
  /** notReplace: only what the user cannot see yet; otherwise every area, the bound ones checked */
  bindableTree: (userId: number, notReplace: boolean, searchArea = '') =>
    http.get<TreeNodeV2[]>(`${P}/GetNoUserBindAreaTreeV2`, { userId, notReplace, searchArea: searchArea.trim() }),
  bind: (body: { userId: number; areaIds: number[]; areaPermissionIds?: number[]; notReplace?: boolean }) =>
    http.post<{ userId: number; areaIds: number[] }>(`${P}/AreaPermission/BindUser`, body),
};

export type { Paged };
