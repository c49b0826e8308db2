import { z, type ZodType } from 'zod';
import { endpoint, type EndpointPerm } from '../endpoint.ts';
import { num } from '../input.ts';
import { AreaFilter, CompanyQuery, optText, PageQuery, wireTime, optionalRef } from '../query.ts';
import { formSchema } from '../resource.ts';
import { areaResource } from '../resources/area.ts';

// 区域 (/yewu/api): the area trees (SPEC §3 node shape), the binding of accounts to areas and the
// area-permission sets in use. The area archive (/recordsArea) and the area-permission sets are
// declared resources (./crud.ts: `area` and `areaPermission`), registered with registerCrud.

export const areaTags = ['区域'];
/** the area archive page */
export const areaPage = { routes: ['recordsArea'] };
/** where accounts are managed (company staff; platform admins for company managers) */
const accounts = { routes: ['systemRecords', 'administrator'] };

const id = num(z.number().int().positive());
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

export const TreeQuery = z.object({
  searchArea: z.string().trim().max(64).optional(),
  searchCompanyID: id.optional(),
});

export const ChildAreaQuery = PageQuery.merge(AreaFilter).extend({ name: optText() });

export const AreaBody = formSchema(areaResource);

export const UserTreeQuery = z.object({ userId: id, searchArea: z.string().trim().max(64).optional() });

export const NoBindTreeQuery = UserTreeQuery.extend({ notReplace: flag });

export const BindUserBody = z.object({
  userId: id,
  areaIds: z.array(id).max(2000).default([]),
  /** area-permission sets whose areas are bound too */
  areaPermissionIds: z.array(id).max(100).default([]),
  /** true: add to the user's bindings; false: the new list replaces them */
  notReplace: z.boolean().default(false),
});

/** A node of an area tree (SPEC §3): areas, and in GetAreaTree the rooms below the floors. */
export const AreaTreeNodeRow = z.object({
  id: z.number(),
  Parent: z.number().nullable(),
  name: z.string(),
  deep: z.number(),
  /** 0 selectable node, 1 grouping */
  areaType: z.number(),
  /** rooms hang below the floors in GetAreaTree; their ids are room ids, not area ids */
  kind: z.enum(['area', 'room']),
  get children(): z.ZodArray<typeof AreaTreeNodeRow> {
    return z.array(AreaTreeNodeRow);
  },
  expand: z.boolean(),
  checked: z.boolean(),
  selected: z.boolean(),
  /** V2 trees only: whether the node may be picked (areaType 0) */
  selectable: z.boolean().optional(),
  disableCheckbox: z.boolean().optional(),
});

/** A row of the area archive (GetAllChildArea): in tree order, with its parent, company and counts. */
export const AreaRow = z.object({
  id: z.number(),
  name: z.string(),
  title: z.string(),
  ...optionalRef('parent'),
  deep: z.number(),
  areaType: z.number(),
  areaTypeName: z.string(),
  province: z.string(),
  city: z.string(),
  district: z.string(),
  town: z.string(),
  /** the four address levels joined */
  address: z.string(),
  addressCodes: z.array(z.string()),
  sort: z.number(),
  companyId: z.number(),
  companyID: z.number(),
  companyName: z.string(),
  classifyId: z.number().nullable(),
  companyClassifyID: z.number().nullable(),
  childCount: z.number(),
  roomCount: z.number(),
  createdAt: wireTime,
});

export const AddressOptionRow = z.object({ province: z.string(), city: z.string(), district: z.string(), town: z.string() });

/** An area-permission set in use (status 1), with the names of its areas. */
export const AreaPermissionUsingRow = z.object({
  id: z.number(),
  name: z.string(),
  areaIds: z.array(z.number()),
  areaNames: z.array(z.string()),
  memo: z.string(),
});

const Y = '/yewu/api';

/** An area tree: a GET of `${Y}/<name>` answering the tree's nodes. */
const areaTree = <Q extends ZodType>(name: string, summary: string, perm: EndpointPerm, query: Q) =>
  endpoint({ method: 'GET', path: `${Y}/${name}`, summary, perm, query, response: z.array(AreaTreeNodeRow), tags: areaTags });

export const areaEndpoints = {
  tree: areaTree('GetAreaTree', '区域树（含房间）', {}, TreeQuery),
  treeNoRoom: areaTree('GetAreaTreeNoRoom', '区域树（不含房间）', {}, TreeQuery),
  treeNoRoomV2: areaTree('GetAreaTreeNoRoomV2', '区域树（不含房间，仅普通区域可选）', {}, TreeQuery),
  userBindTree: areaTree('GetUserBindAreaTree', '账号已绑定的区域树', accounts, UserTreeQuery),
  userBindableTree: areaTree('GetNoUserBindAreaTreeV2', '账号可绑定的区域树', accounts, NoBindTreeQuery),

  addressOptions: endpoint({
    method: 'GET', path: `${Y}/Area/GetAddressOptions`, summary: '已使用的区域地址（地址选择提示）', perm: areaPage, query: CompanyQuery,
    response: z.array(AddressOptionRow), tags: areaTags,
  }),

  usingPermissions: endpoint({
    method: 'GET', path: `${Y}/AreaPermission/GetUsingList`, summary: '在用的区域权限', perm: accounts, query: CompanyQuery,
    response: z.array(AreaPermissionUsingRow), tags: areaTags,
  }),
  bindUser: endpoint({
    method: 'POST', path: `${Y}/AreaPermission/BindUser`, summary: '设置账号绑定的区域', perm: accounts, body: BindUserBody,
    response: z.object({ userId: z.number(), areaIds: z.array(z.number()) }), tags: areaTags,
  }),
};

export type AreaTreeNode = z.output<typeof AreaTreeNodeRow>;
export type AreaListRow = z.output<typeof AreaRow>;
export type AddressOption = z.output<typeof AddressOptionRow>;
export type AreaPermissionUsing = z.output<typeof AreaPermissionUsingRow>;
export type BindUserInput = z.input<typeof BindUserBody>;
