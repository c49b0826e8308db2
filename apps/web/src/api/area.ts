// Area archive calls (/yewu/api): the child-area list, the area form, area-permission sets and the
// binding of accounts to areas.
import type { AddressOption, AreaListRow, AreaTreeNode, AreaPermissionUsing, BindUserInput } from '@meter/contracts';
import type { Paged, Query } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

/** an area-permission set as its declared resource (areaPermissionResource + areaNames) answers it */
export type AreaPermissionRow = {
  id: number;
  name: string;
  areaIds: number[];
  areaNames: string[];
  status: number;
  memo: string;
  createdAt: string;
};

type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

/** the area archive's own calls (its list, create, edit and delete are the declared resource's: CrudPage) */
export const areaArchiveApi = {
  /** the first page, prefetched with the route (pages/loaders.ts) */
  list: (q: Query & { index: number; size: number }) => call(E.area.list, { query: q }),
  /** 新增下级: a child area from the row's own dialog */
  create: (body: Body, company: Company) => call(E.area.create, { body, query: { searchCompanyID: company } }),
  addressOptions: (company: Company) => call(E.area.addressOptions, { query: { searchCompanyID: company } }),
  /** the area tree without rooms */
  treeNoRoom: (company: Company) => call(E.area.treeNoRoom, { query: { searchCompanyID: company } }),
  /** the area tree without rooms; V2 marks grouping nodes (areaType 1) unselectable */
  treeV2: (company: Company) => call(E.area.treeNoRoomV2, { query: { searchCompanyID: company } }),
};

export const areaPermissionApi = {
  using: (company: Company) => call(E.area.usingPermissions, { query: { searchCompanyID: company } }),
};

export const userAreaApi = {
  /** the user's company tree with `checked` on the bound areas */
  boundTree: (userId: number) => call(E.area.userBindTree, { query: { userId } }),
  /** notReplace: only what the user cannot see yet; otherwise every area, the bound ones checked */
  bindableTree: (userId: number, notReplace: boolean, searchArea = '') =>
    call(E.area.userBindableTree, { query: { userId, notReplace, searchArea: searchArea.trim() } }),
  bind: (body: BindUserInput) => call(E.area.bindUser, { body }),
};

export type { Paged };
export type { AddressOption, AreaPermissionUsing };
export type AreaRow = AreaListRow;
export type TreeNodeV2 = AreaTreeNode;
