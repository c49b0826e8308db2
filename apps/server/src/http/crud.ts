import type { FastifyInstance } from 'fastify';
import type { SQL } from 'drizzle-orm';
import type { ResourceDef, SomeCrudEndpoints } from '@meter/contracts';
import type { Tx } from '../db/client.ts';
import * as crud from '../db/crud-repo.ts';
import type { AnyTable } from '../db/crud-repo.ts';
import { companyOf, type Ctx } from './context.ts';
import { Page } from './envelope.ts';
import { conflict, notFound } from './errors.ts';
import { routes } from './routes.ts';

// Registers a declared resource's five endpoints (packages/contracts crudEndpoints: paths, schemas and
// permissions come from the declarations). Only domain rules are written by hand, as hooks.

export interface CrudOptions<Row = Record<string, unknown>> {
  def: ResourceDef;
  /** the resource's declarations (API.<resource>, from crudEndpoints): the five, or the `actions` it has */
  endpoints: SomeCrudEndpoints;
  table: AnyTable;
  /** 'company': rows carry company_id (set from the caller); 'platform': a platform-wide dictionary */
  tenancy: 'company' | 'platform';
  /** the column that ties rows to the area tree (enables searchArea) */
  areaKey?: string;
  /** shapes a row for the answer (joins, computed fields; declare them as the declaration's `extra`) */
  present?: (tx: Tx, rows: Record<string, unknown>[]) => Promise<Row[]>;
  /** domain checks before writing; throw to refuse */
  beforeWrite?: (tx: Tx, ctx: Ctx, values: Record<string, unknown>, id?: number) => Promise<void>;
  /** refuse deleting rows still in use (answer 409 with why) */
  beforeDelete?: (tx: Tx, ctx: Ctx, ids: number[]) => Promise<void>;
  /** audit label of a row, e.g. row => `房间 ${row.name}` */
  label?: (row: Record<string, unknown>) => string;
  /** the list's order (default: newest first) */
  order?: SQL[];
  /** the transaction writes run in (default ctx.tx): `platformTx` when their checks must see every company */
  writeTx?: <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * Actions the resource's own service answers, given the input as the declaration parsed it: a read
   * model's list or detail, a write whose rules go beyond beforeWrite (the declaration's `schemas`).
   */
  handle?: Partial<Handlers>;
}

type Values = Record<string, unknown>;

interface Handlers {
  list(query: Values & { index: number; size: number }, ctx: Ctx): Promise<unknown>;
  detail(id: number, ctx: Ctx): Promise<unknown>;
  create(body: Values, ctx: Ctx): Promise<unknown>;
  update(body: Values, ctx: Ctx): Promise<unknown>;
  remove(ids: number[], ctx: Ctx): Promise<unknown>;
}

/** A module service's functions for one resource, as the modules write them: the context first. */
export interface ServiceCrud<L, B> {
  list(ctx: Ctx, query: L): Promise<unknown>;
  detail(ctx: Ctx, id: number): Promise<unknown>;
  create(ctx: Ctx, body: B): Promise<unknown>;
  update(ctx: Ctx, id: number, body: B): Promise<unknown>;
  /** one row: the declaration's delete names a single id (in the path or as ?id=) */
  remove(ctx: Ctx, id: number): Promise<unknown>;
}

/**
 * `handle` when the service answers all five actions: the declared query and body reach it typed as
 * its inputs (the resource's search fields and form), the update's id taken from the body's idKey.
 */
export function byService<L, B>(s: ServiceCrud<L, B>, idKey = 'id'): Handlers {
  return {
    list: (q, ctx) => s.list(ctx, q as typeof q & L),
    detail: (id, ctx) => s.detail(ctx, id),
    create: (b, ctx) => s.create(ctx, b as typeof b & B),
    update: (b, ctx) => s.update(ctx, b[idKey] as number, b as typeof b & B),
    remove: ([id], ctx) => s.remove(ctx, id),
  };
}

export function registerCrud(app: FastifyInstance, o: CrudOptions) {
  const r = routes(app);
  const { def, table, endpoints: E } = o;
  const idKey = def.idKey ?? 'id';
  const label = o.label ?? ((row) => `${def.title} ${String(row.name ?? row.id ?? '')}`);
  const present = async (tx: Tx, rows: Values[]) => (o.present ? o.present(tx, rows) : rows);
  const writeTx = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) => (o.writeTx ? o.writeTx(ctx, fn) : ctx.tx(fn));

  const checkUnique = async (tx: Tx, values: Values, id?: number) => {
    for (const f of def.fields) {
      if (f.unique && values[f.key] !== undefined && values[f.key] !== '' && (await crud.taken(tx, table, f.key, values[f.key], id))) {
        throw conflict(`${f.label}「${String(values[f.key])}」已存在`);
      }
    }
  };

  const list = (q: Values & { index: number; size: number }, ctx: Ctx) =>
    ctx.tx(async (tx) => {
      const res = await crud.list(tx, table, { fields: def.fields, query: q, areaKey: o.areaKey, order: o.order }, q.size, (q.index - 1) * q.size);
      return new Page(await present(tx, res.rows), res.count);
    });

  const getOne = (id: number, ctx: Ctx) =>
    ctx.tx(async (tx) => {
      const row = await crud.get(tx, table, id);
      if (!row) throw notFound(def.title);
      return (await present(tx, [row]))[0];
    });

  const create = (b: Values, ctx: Ctx) => {
    const values = { ...b };
    if (o.tenancy === 'company') values.companyId = companyOf(ctx);
    ctx.audit.target = label(values);
    return writeTx(ctx, async (tx) => {
      await checkUnique(tx, values);
      await o.beforeWrite?.(tx, ctx, values);
      return { [idKey]: await crud.insert(tx, table, values) };
    });
  };

  const update = (b: Values, ctx: Ctx) => {
    const id = b[idKey] as number;
    const values = { ...b };
    delete values[idKey];
    ctx.audit.target = label({ ...values, id });
    return writeTx(ctx, async (tx) => {
      if (!(await crud.get(tx, table, id))) throw notFound(def.title);
      await checkUnique(tx, values, id);
      await o.beforeWrite?.(tx, ctx, values, id);
      await crud.update(tx, table, id, values);
      return null;
    });
  };

  const remove = (ids: number[], ctx: Ctx) =>
    writeTx(ctx, async (tx) => {
      // one query at a time: a transaction is one connection
      const rows: Values[] = [];
      for (const id of ids) {
        const row = await crud.get(tx, table, id);
        if (row) rows.push(row);
      }
      if (rows.length !== ids.length) throw notFound(def.title);
      ctx.audit.target = rows.map(label).join('、').slice(0, 400);
      await o.beforeDelete?.(tx, ctx, ids);
      await crud.remove(tx, table, ids);
      return null;
    });

  const h: Handlers = { list, detail: getOne, create, update, remove, ...o.handle };
  // where the id travels is the declaration's: a path parameter, ?id=, or the body
  const idOf = (i: { query?: unknown; params?: unknown }, key = idKey) =>
    (i.params as { id?: number } | undefined)?.id ?? (i.query as Record<string, number>)[key];
  // a delete's ids: {ids} or {id} in the body, else the one id of the path or query (a body the
  // declaration does not read, `{}` say, is not where the id is)
  const idsOf = (i: { body?: unknown; query?: unknown; params?: unknown }) => {
    const b = i.body as { ids?: number[]; id?: number } | undefined;
    return b?.ids ?? (b?.id != null ? [b.id] : [idOf(i, 'id')]);
  };
  r.endpoint(E.list, ({ query }, ctx) => h.list(query as Values & { index: number; size: number }, ctx));
  if (E.detail) r.endpoint(E.detail, (i, ctx) => h.detail(idOf(i), ctx));
  if (E.create) r.endpoint(E.create, ({ body }, ctx) => h.create(body as Values, ctx));
  if (E.update) r.endpoint(E.update, ({ body }, ctx) => h.update(body as Values, ctx));
  if (E.remove) r.endpoint(E.remove, (i, ctx) => h.remove(idsOf(i), ctx));
}
