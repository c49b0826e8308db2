import { fenToYuan, sysConfigResource, yuanToFen, type SysConfigInput, type SysConfigValues } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { isPlatform, type Ctx } from '../../http/context.ts';
import { forbidden, notFound, refuse } from '../../http/errors.ts';
import * as repo from './repo.ts';

// 系统配置 (GET sys_config/list, PUT sys_config/detail): the company's value of each item of
// sysConfigResource, its default where the company set none. Company staff read and (as company
// admins) change their own company's; a platform admin names the company (?companyId, or the one
// picked in the header). Other modules read the values through `configOf` (receipts, /gether).

const FIELDS = sysConfigResource.fields;

const defaultOf = (key: string) => String(FIELDS.find((f) => f.key === key)?.default ?? '');
/** money items are kept as 元 with exactly 2 decimals */
const normalize = (key: string, value: unknown) =>
  FIELDS.find((f) => f.key === key)?.type === 'money' ? fenToYuan(yuanToFen(String(value))) : String(value ?? '');

/** Which company a call means: a company user's own (naming another is refused), a platform admin's named or picked one. */
async function configCompany(ctx: Ctx, asked: number | undefined) {
  if (!isPlatform(ctx.user)) {
    if (asked != null && asked !== ctx.user.companyId) throw forbidden('无权查看或修改其他单位的配置');
    return ctx.user.companyId!;
  }
  const id = asked ?? ctx.scope.companyId;
  if (id == null) throw refuse('COMPANY_REQUIRED', '请先在页面顶部选择单位');
  if (!(await ctx.tx((tx) => repo.companyExists(tx, id)))) throw notFound('单位');
  return id;
}

/** Every item's value for a company (defaults filled in). */
export async function configOf(tx: Tx, companyId: number): Promise<SysConfigValues> {
  const set = new Map((await repo.configValues(tx, companyId)).map((r) => [r.key, r.value]));
  return Object.fromEntries(FIELDS.map((f) => [f.key, set.get(f.key) ?? defaultOf(f.key)])) as SysConfigValues;
}

async function rows(tx: Tx, companyId: number) {
  const set = new Map((await repo.configValues(tx, companyId)).map((r) => [r.key, r]));
  return FIELDS.map((f) => {
    const r = set.get(f.key);
    return {
      key: f.key, label: f.label, value: r?.value ?? defaultOf(f.key), defaultValue: defaultOf(f.key),
      updatedAt: r?.updatedAt ?? null, updatedBy: r?.updatedBy ?? '',
    };
  });
}

export async function list(ctx: Ctx, q: { companyId?: number }) {
  const companyId = await configCompany(ctx, q.companyId);
  return ctx.tx((tx) => rows(tx, companyId));
}

export async function save(ctx: Ctx, q: { companyId?: number }, body: SysConfigInput) {
  const b = body as Record<string, unknown>;
  const companyId = await configCompany(ctx, (b.companyId as number | undefined) ?? q.companyId);
  const changed = FIELDS.filter((f) => b[f.key] !== undefined).map((f) => ({ key: f.key, value: normalize(f.key, b[f.key]) }));
  ctx.audit.target = `系统配置 ${changed.map((c) => FIELDS.find((f) => f.key === c.key)!.label).join('、')}`;
  return ctx.tx(async (tx) => {
    await repo.saveConfigValues(tx, companyId, ctx.user.id, changed);
    return rows(tx, companyId);
  });
}
