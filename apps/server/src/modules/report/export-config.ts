import { EXPORT_KEYS, EXPORT_LAYOUTS, type ExportConfigInput, type ExportKey } from '@meter/contracts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import * as repo from './export-config-repo.ts';

// 导出配置 (GET/PUT /export/api/save/config): which columns each .xlsx export of a company carries.
// The exports and their columns are declared in @meter/contracts (EXPORT_LAYOUTS); a company keeps
// the headers it leaves out, so a column added later shows up by default. Every export asks
// `shownColumns` before it writes its header row (xlsx.ts `keep`).

const companyIn = (ctx: Ctx) => ctx.scope.companyId ?? ctx.user.companyId;

async function hiddenByKey(ctx: Ctx, companyId: number | null) {
  if (companyId == null) return new Map<string, { hidden: string[]; updatedAt: Date }>();
  const rows = await ctx.tx((tx) => repo.hiddenColumns(tx, companyId));
  return new Map(rows.map((r) => [r.key, r]));
}

function present(key: ExportKey, saved: { hidden: string[]; updatedAt: Date } | undefined) {
  const hidden = new Set(saved?.hidden ?? []);
  const layout = EXPORT_LAYOUTS[key];
  return {
    key, title: layout.title,
    columns: layout.columns.map((c) => ({ header: c.header, shown: !hidden.has(c.header) })),
    updatedAt: saved?.updatedAt ?? null,
  };
}

/** The exports of the pages the user may open, with the company's columns (all, for a platform admin without a company picked). */
export async function exportConfigs(ctx: Ctx) {
  const saved = await hiddenByKey(ctx, companyIn(ctx));
  return EXPORT_KEYS.filter((k) => ctx.user.routes.includes(EXPORT_LAYOUTS[k].route)).map((k) => present(k, saved.get(k)));
}

export async function saveExportConfig(ctx: Ctx, body: ExportConfigInput) {
  if (!(EXPORT_KEYS as string[]).includes(body.key)) throw badRequest('没有这项导出');
  const key = body.key as ExportKey;
  const headers = EXPORT_LAYOUTS[key].columns.map((c) => c.header);
  const unknown = body.columns.filter((h) => !headers.includes(h));
  if (unknown.length) throw badRequest(`${EXPORT_LAYOUTS[key].title}没有这些列：${unknown.join('、')}`);
  const companyId = companyOf(ctx);
  const hidden = headers.filter((h) => !body.columns.includes(h));
  ctx.audit.target = `导出配置 ${EXPORT_LAYOUTS[key].title}`;
  await ctx.tx((tx) => repo.saveHidden(tx, companyId, ctx.user.id, key, hidden));
  return present(key, (await hiddenByKey(ctx, companyId)).get(key));
}

/** The indexes of the columns `key` carries for the caller's company (every column when none is configured). */
export async function shownColumns(ctx: Ctx, key: ExportKey): Promise<number[]> {
  const saved = (await hiddenByKey(ctx, companyIn(ctx))).get(key);
  const hidden = new Set(saved?.hidden ?? []);
  const keep = EXPORT_LAYOUTS[key].columns.flatMap((c, i) => (hidden.has(c.header) ? [] : [i]));
  return keep.length ? keep : EXPORT_LAYOUTS[key].columns.map((_c, i) => i);
}
