import type { z } from 'zod';
import { AREA_MAX_DEEP, AREA_TYPES } from '@meter/contracts';
import type { Scope, Tx } from '../../db/client.ts';
import { companyOf, isPlatform, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, conflict, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import * as repo from './repo.ts';
import { buildTree, markChecked, markSelectable, withoutSubtrees } from './tree.ts';
import type { AreaBody, BindUserBody, ChildAreaQuery, NoBindTreeQuery, TreeQuery, UserTreeQuery } from '@meter/contracts';

// The area tree (区域档案), area-permission sets and the binding of admin users to areas.

// ---- trees ----------------------------------------------------------------------------------------

export async function areaTree(ctx: Ctx, q: z.output<typeof TreeQuery>, o: { rooms: boolean; v2?: boolean }) {
  return ctx.tx(async (tx) => {
    const rows = await repo.allAreas(tx);
    const rooms = o.rooms ? await repo.allRooms(tx) : undefined;
    const tree = buildTree(rows, { search: q.searchArea, rooms });
    return o.v2 ? markSelectable(tree) : tree;
  });
}

/**
 * The scope in which to look at another admin user's areas: a platform admin looks inside that
 * user's company; company staff stay in their own scope (row-level security hides other companies).
 */
async function userScope(ctx: Ctx, userId: number) {
  const user = await ctx.tx((tx) => repo.getUserBrief(tx, userId));
  if (!user) throw notFound('账号');
  if (user.companyId == null || user.access === 0) throw refuse('USER_NOT_BINDABLE', '平台管理员不受区域限制，无需绑定区域');
  const scope: Scope = isPlatform(ctx.user)
    ? { companyId: user.companyId, allCompanies: false, areaIds: null, userId: ctx.user.id }
    : ctx.scope;
  return { user, scope, companyId: user.companyId };
}

/** GetUserBindAreaTree: the company's area tree with `checked` on the areas bound to the user. */
export async function userBindTree(ctx: Ctx, q: z.output<typeof UserTreeQuery>) {
  const { scope } = await userScope(ctx, q.userId);
  return ctx.db.tx(scope, async (tx) => {
    const bound = new Set(await repo.boundAreaIds(tx, q.userId));
    return markChecked(buildTree(await repo.allAreas(tx), { search: q.searchArea }), bound);
  });
}

/**
 * GetNoUserBindAreaTreeV2. notReplace = true: the new choice is added to the user's bindings, so the
 * tree offers only what the user cannot see yet — the bound areas and everything below them are left
 * out. notReplace = false: the new choice replaces the bindings, so every area is offered, with the
 * current ones checked.
 */
export async function noUserBindTree(ctx: Ctx, q: z.output<typeof NoBindTreeQuery>) {
  const { scope } = await userScope(ctx, q.userId);
  return ctx.db.tx(scope, async (tx) => {
    const bound = new Set(await repo.boundAreaIds(tx, q.userId));
    const rows = await repo.allAreas(tx);
    if (q.notReplace) return buildTree(withoutSubtrees(rows, bound), { search: q.searchArea });
    return markChecked(buildTree(rows, { search: q.searchArea }), bound);
  });
}

/**
 * BindUser: sets the areas a user is bound to (the user then sees only those and what lies below).
 * An empty result means "no restriction". A caller who is bound to areas themselves may bind only
 * within their own areas, keeps the user's bindings they cannot see, and may not lift every
 * restriction; nobody changes their own bindings.
 */
export async function bindUser(ctx: Ctx, b: z.output<typeof BindUserBody>) {
  if (b.userId === ctx.user.id) throw refuse('SELF_BIND', '不能修改自己账号的区域绑定');
  const { user, scope, companyId } = await userScope(ctx, b.userId);
  ctx.audit.target = `账号 ${user.username} 绑定区域`;
  return ctx.db.tx(scope, async (tx) => {
    const fromSets = await repo.permissionAreaIds(tx, b.areaPermissionIds);
    if (fromSets.length !== new Set(b.areaPermissionIds).size) throw badRequest('参数「areaPermissionIds」包含不存在的区域权限');
    const wanted = [...new Set([...b.areaIds, ...fromSets.flatMap((s) => s.areaIds)])];
    const found = new Set(await repo.existingAreaIds(tx, companyId, wanted));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length) throw badRequest(`参数「areaIds」包含不存在或无权操作的区域：${missing.slice(0, 10).join('、')}`);
    const current = await repo.boundAreaIds(tx, b.userId);
    // bindings the caller cannot see are not theirs to remove
    const visible = new Set(await repo.existingAreaIds(tx, companyId, current));
    const kept = b.notReplace ? current : current.filter((id) => !visible.has(id));
    const next = [...new Set([...kept, ...wanted])].sort((x, y) => x - y);
    if (next.length === 0 && scope.areaIds != null) {
      throw refuse('AREA_SCOPE', '您的账号仅限部分区域，不能解除其他账号的全部区域限制，请至少选择一个区域');
    }
    await repo.setUserAreas(tx, b.userId, companyId, next);
    return { userId: b.userId, areaIds: next };
  });
}

// ---- the area list and form ---------------------------------------------------------------------

const present = (a: repo.AreaListRow) => ({
  ...a,
  title: a.name,
  companyID: a.companyId,
  companyClassifyID: a.classifyId,
  areaTypeName: AREA_TYPES[a.areaType] ?? '',
  address: [a.province, a.city, a.district, a.town].filter(Boolean).join(''),
  addressCodes: [a.province, a.city, a.district, a.town].filter(Boolean),
});

export async function childAreas(ctx: Ctx, q: z.output<typeof ChildAreaQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listAreas(tx, { under: q.searchArea, name: q.name, companyClassifyId: q.searchClassify }, q.size, offsetOf(q)),
  );
  return new Page(r.rows.map(present), r.count);
}

/** One area as the list shows it. */
export async function detail(ctx: Ctx, id: number) {
  const [a] = (await ctx.tx((tx) => repo.listAreas(tx, { id }, 1, 0))).rows;
  if (!a) throw notFound('区域');
  return present(a);
}

type Body = z.output<typeof AreaBody>;

function fields(b: Body) {
  const v = b as Record<string, unknown>;
  return {
    name: v.name as string,
    parentId: (v.parentId as number | null) ?? null,
    areaType: (v.areaType as number) ?? 0,
    province: v.province as string,
    city: v.city as string,
    district: v.district as string,
    town: v.town as string,
    sort: (v.sort as number) ?? 0,
  };
}

/** The address is a cascade: a level is only meaningful below the one above it. */
function checkAddress(f: ReturnType<typeof fields>) {
  const levels = [f.province, f.city, f.district, f.town];
  const gap = levels.findIndex((v, i) => !v && levels.slice(i + 1).some(Boolean));
  if (gap >= 0) throw badRequest(`参数「${['province', 'city', 'district', 'town'][gap]}」请按省、市、区/县、乡镇/街道的顺序选择地址`);
}

async function parentOf(tx: Tx, parentId: number | null) {
  if (parentId == null) return null;
  const p = await repo.getArea(tx, parentId);
  if (!p) throw badRequest('参数「parentId」上级区域不存在或无权查看');
  return p;
}

export async function create(ctx: Ctx, b: Body) {
  const f = fields(b);
  checkAddress(f);
  ctx.audit.target = `区域 ${f.name}`;
  return ctx.tx(async (tx) => {
    const parent = await parentOf(tx, f.parentId);
    if (!parent && ctx.scope.areaIds != null) {
      throw refuse('AREA_SCOPE', '您的账号只能在已授权的区域下新建区域，请选择上级区域');
    }
    const companyId = parent ? parent.companyId : companyOf(ctx);
    const deep = parent ? parent.deep + 1 : 0;
    if (deep > AREA_MAX_DEEP) throw refuse('AREA_TOO_DEEP', `区域最多 ${AREA_MAX_DEEP + 1} 级，不能再新建下级区域`);
    if (await repo.siblingNameTaken(tx, companyId, f.parentId, f.name)) {
      throw conflict(`${parent ? `「${parent.name}」下` : '顶级'}已存在名为「${f.name}」的区域`);
    }
    const id = await repo.insertArea(tx, { ...f, companyId, deep, classifyId: parent?.classifyId ?? null });
    return { id, deep };
  });
}

export async function update(ctx: Ctx, b: Body & { id: number }) {
  const id = b.id;
  const f = fields(b);
  checkAddress(f);
  ctx.audit.target = `区域 ${f.name}`;
  return ctx.tx(async (tx) => {
    const area = await repo.getArea(tx, id);
    if (!area) throw notFound('区域');
    let parentId = f.parentId;
    if (parentId == null && area.parentId != null && ctx.scope.areaIds != null) {
      // a bound user's root has a parent they cannot see: keep it; moving to the top is not theirs to do
      if (await repo.getArea(tx, area.parentId)) throw refuse('AREA_SCOPE', '您的账号不能把区域移到顶级，请选择上级区域');
      parentId = area.parentId;
    }
    const below = await repo.subtree(tx, id);
    if (parentId === id || below.some((x) => x.id === parentId)) throw badRequest('参数「parentId」上级区域不能是自身或其下级区域');
    let parent: Awaited<ReturnType<typeof repo.getArea>> | null = null;
    if (parentId != null) {
      parent = (await repo.getArea(tx, parentId)) ?? null;
      if (!parent && parentId !== area.parentId) throw badRequest('参数「parentId」上级区域不存在或无权查看');
    }
    if (parent && parent.companyId !== area.companyId) throw badRequest('参数「parentId」上级区域不属于同一单位');
    // an unchanged parent the caller cannot see keeps the level as it is
    const deep = parent ? parent.deep + 1 : parentId != null ? area.deep : 0;
    const delta = deep - area.deep;
    const deepest = Math.max(deep, ...below.map((x) => x.deep + delta));
    if (deepest > AREA_MAX_DEEP) throw refuse('AREA_TOO_DEEP', `区域最多 ${AREA_MAX_DEEP + 1} 级，移动后层级过深`);
    if (await repo.siblingNameTaken(tx, area.companyId, parentId, f.name, id)) {
      throw conflict(`${parent?.name ? `「${parent.name}」下` : '同级'}已存在名为「${f.name}」的区域`);
    }
    await repo.updateArea(tx, id, { ...f, parentId, deep });
    await repo.shiftDeep(tx, below.map((x) => x.id), delta);
    return null;
  });
}

/** registerCrud's beforeDelete: an area still in use is refused (and says by what); the area-permission
 * sets that name it drop it. */
export async function beforeRemove(tx: Tx, _ctx: Ctx, ids: number[]) {
  for (const id of ids) {
    const area = (await repo.getArea(tx, id))!;
    const u = await repo.areaUsage(tx, id);
    const parts = [
      u.children && `下级区域 ${u.children} 个`,
      u.rooms && `房间 ${u.rooms} 间`,
      u.meters && `表具 ${u.meters} 块`,
      u.collectors && `采集器 ${u.collectors} 台`,
    ].filter(Boolean);
    if (parts.length) throw conflict(`区域「${area.name}」下还有${parts.join('、')}，请先删除或移走后再删除`);
    if (u.bound.length) throw conflict(`区域「${area.name}」已绑定给账号 ${u.bound.slice(0, 5).join('、')}${u.bound.length > 5 ? ' 等' : ''}，请先解除绑定`);
    await repo.dropFromPermissions(tx, id);
  }
}

/** Addresses the company's areas already use: suggestions for the four-level address picker. */
export async function addressOptions(ctx: Ctx) {
  return ctx.tx(repo.usedAddresses);
}

// ---- area-permission sets (declared resource hooks) ----------------------------------------------

/** areaIds must be visible areas of the company; stored as sorted distinct numbers. */
export async function checkPermissionAreas(tx: Tx, _ctx: Ctx, values: Record<string, unknown>, id?: number) {
  const raw = (values.areaIds as unknown[] | undefined) ?? [];
  const ids = raw.map((x) => Number(x));
  if (ids.some((x) => !Number.isInteger(x) || x <= 0)) throw badRequest('参数「areaIds」包含无效的区域编号');
  const unique = [...new Set(ids)].sort((x, y) => x - y);
  if (!unique.length) throw badRequest('参数「areaIds」请至少选择一个区域');
  const companyId = id == null ? (values.companyId as number) : await repo.permissionCompany(tx, id);
  if (companyId == null) throw notFound('区域权限');
  const found = new Set(await repo.existingAreaIds(tx, companyId, unique));
  const missing = unique.filter((x) => !found.has(x));
  if (missing.length) throw badRequest(`参数「areaIds」包含不存在或无权操作的区域：${missing.slice(0, 10).join('、')}`);
  values.areaIds = unique;
}

export async function presentPermissions(tx: Tx, rows: Record<string, unknown>[]) {
  const names = await repo.areaNames(tx, [...new Set(rows.flatMap((r) => (r.areaIds as number[]) ?? []))]);
  return rows.map((r) => ({
    ...r,
    areaNames: ((r.areaIds as number[]) ?? []).map((id) => names.get(id)).filter((n): n is string => !!n),
  }));
}

export async function usingPermissions(ctx: Ctx) {
  return ctx.tx(async (tx) => presentPermissions(tx, await repo.usingPermissions(tx)));
}
