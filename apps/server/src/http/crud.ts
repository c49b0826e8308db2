import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formSchema, listQuerySchema, type ResourceDef, num } from '@meter/contracts';
import type { Tx } from '../db/client.ts';
import * as crud from '../db/crud-repo.ts';
import type { AnyTable } from '../db/crud-repo.ts';
import { companyOf, type Ctx } from './context.ts';
import { Page } from './envelope.ts';
import { conflict, notFound } from './errors.ts';
import { routes, type Perm } from './routes.ts';

// Registers a declared resource's list/get/create/update/delete at the spec's exact paths.
// Only domain rules are written by hand, as hooks.

type IdFrom = 'query' | 'param' | 'body';

export interface CrudOptions<Row = Record<string, unknown>> {
  def: ResourceDef;
  table: AnyTable;
  /** 'company': rows carry company_id (set from the caller); 'platform': a platform-wide dictionary */
  tenancy: 'company' | 'platform';
  tags: string[];
  /** read permission and write permission */
  read: Perm;
  write: Perm;
  /** per-action write permissions, when they differ (e.g. operation keys for add/edit/delete) */
  writes?: { create?: Perm; update?: Perm; delete?: Perm };
  paths: {
    list?: string;
    get?: { url: string; id: IdFrom; key?: string };
    create?: string;
    update?: { url: string; id: IdFrom };
    delete?: { url: string; id: IdFrom };
  };
  /** the column that ties rows to the area tree (enables searchArea) */
  areaKey?: string;
  /** shapes a row for the answer (joins, computed fields) */
  present?: (tx: Tx, rows: Record<string, unknown>[]) => Promise<Row[]>;
  /** domain checks before writing; throw to refuse */
  beforeWrite?: (tx: Tx, ctx: Ctx, values: Record<string, unknown>, id?: number) => Promise<void>;
  /** refuse deleting rows still in use (answer 409 with why) */
  beforeDelete?: (tx: Tx, ctx: Ctx, ids: number[]) => Promise<void>;
  /** audit label of a row, e.g. row => `房间 ${row.name}` */
  label?: (row: Record<string, unknown>) => string;
}

const idSchema = num(z.number().int().positive());

export function registerCrud(app: FastifyInstance, o: CrudOptions) {
  const r = routes(app);
  const { def, table, tags } = o;
  const body = formSchema(def);
  const listQuery = listQuerySchema(def);
  const idKey = def.idKey ?? 'id';
  const label = o.label ?? ((row) => `${def.title} ${String(row.name ?? row.id ?? '')}`);
  const present = async (tx: Tx, rows: Record<string, unknown>[]) => (o.present ? o.present(tx, rows) : rows);

  const checkUnique = async (tx: Tx, values: Record<string, unknown>, id?: number) => {
    for (const f of def.fields) {
      if (f.unique && values[f.key] !== undefined && values[f.key] !== '' && (await crud.taken(tx, table, f.key, values[f.key], id))) {
        throw conflict(`${f.label}「${String(values[f.key])}」已存在`);
      }
    }
  };

  const getOne = async (ctx: Ctx, id: number) =>
    ctx.tx(async (tx) => {
      const row = await crud.get(tx, table, id);
      if (!row) throw notFound(def.title);
      return (await present(tx, [row]))[0];
    });

  const idQuery = (key: string) => z.object({ [key]: idSchema });
  const idParams = z.object({ id: idSchema });

  if (o.paths.list) {
    r.get(o.paths.list, { summary: `${def.title}列表`, perm: o.read, query: listQuery, tags }, async ({ query }, ctx) => {
      const q = query as Record<string, unknown> & { index: number; size: number };
      return ctx.tx(async (tx) => {
        const res = await crud.list(tx, table, { fields: def.fields, query: q, areaKey: o.areaKey }, q.size, (q.index - 1) * q.size);
        return new Page(await present(tx, res.rows), res.count);
      });
    });
  }

  if (o.paths.get) {
    const g = o.paths.get;
    const key = g.key ?? 'id';
    if (g.id === 'param') {
      r.get(g.url, { summary: `${def.title}详情`, perm: o.read, params: idParams, tags }, ({ params }, ctx) => getOne(ctx, params.id));
    } else {
      r.get(g.url, { summary: `${def.title}详情`, perm: o.read, query: idQuery(key), tags }, ({ query }, ctx) =>
        getOne(ctx, (query as Record<string, number>)[key]));
    }
  }

  if (o.paths.create) {
    r.post(o.paths.create, { summary: `新增${def.title}`, perm: o.writes?.create ?? o.write, body, tags }, async ({ body: b }, ctx) => {
      const values = { ...(b as Record<string, unknown>) };
      if (o.tenancy === 'company') values.companyId = companyOf(ctx);
      ctx.audit.target = label(values);
      return ctx.tx(async (tx) => {
        await checkUnique(tx, values);
        await o.beforeWrite?.(tx, ctx, values);
        return { [idKey]: await crud.insert(tx, table, values) };
      });
    });
  }

  if (o.paths.update) {
    const u = o.paths.update;
    const updateBody = u.id === 'body' ? body.extend({ [idKey]: idSchema }) : body;
    const handler = async (id: number, b: Record<string, unknown>, ctx: Ctx) => {
      const values = { ...b };
      delete values[idKey];
      ctx.audit.target = label({ ...values, id });
      return ctx.tx(async (tx) => {
        if (!(await crud.get(tx, table, id))) throw notFound(def.title);
        await checkUnique(tx, values, id);
        await o.beforeWrite?.(tx, ctx, values, id);
        await crud.update(tx, table, id, values);
        return null;
      });
    };
    const spec = { summary: `编辑${def.title}`, perm: o.writes?.update ?? o.write, tags };
    if (u.id === 'body') r.put(u.url, { ...spec, body: updateBody }, ({ body: b }, ctx) => handler((b as Record<string, number>)[idKey], b as Record<string, unknown>, ctx));
    else if (u.id === 'param') r.put(u.url, { ...spec, body, params: idParams }, ({ body: b, params }, ctx) => handler(params.id, b as Record<string, unknown>, ctx));
    else r.put(u.url, { ...spec, body, query: idQuery('id') }, ({ body: b, query }, ctx) => handler((query as Record<string, number>).id, b as Record<string, unknown>, ctx));
  }

  if (o.paths.delete) {
    const d = o.paths.delete;
    const handler = async (ids: number[], ctx: Ctx) =>
      ctx.tx(async (tx) => {
        const rows = (await Promise.all(ids.map((id) => crud.get(tx, table, id)))).filter((x): x is Record<string, unknown> => !!x);
        if (rows.length !== ids.length) throw notFound(def.title);
        ctx.audit.target = rows.map(label).join('、').slice(0, 400);
        await o.beforeDelete?.(tx, ctx, ids);
        await crud.remove(tx, table, ids);
        return null;
      });
    const spec = { summary: `删除${def.title}`, perm: o.writes?.delete ?? o.write, tags };
    if (d.id === 'body') {
      r.delete(d.url, { ...spec, body: z.object({ ids: z.array(idSchema).min(1, '请选择要删除的记录').max(1000) }) }, ({ body: b }, ctx) => handler(b.ids, ctx));
    } else if (d.id === 'param') {
      r.delete(d.url, { ...spec, params: idParams }, ({ params }, ctx) => handler([params.id], ctx));
    } else {
      r.delete(d.url, { ...spec, query: idQuery('id') }, ({ query }, ctx) => handler([(query as Record<string, number>).id], ctx));
    }
  }
}
