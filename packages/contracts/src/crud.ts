import { z } from 'zod';
import { endpoint, type EndpointPerm } from './endpoint.ts';
import { num } from './input.ts';
import { CompanyQuery, wireTime } from './query.ts';
import { formSchema, listQuerySchema, type FieldDef, type ResourceDef } from './resource.ts';

// A CRUD resource's five endpoints derived from its declaration (issue 13 §2): list (paged, the
// resource's search fields as the query, one row as the answer), detail, create, update and delete.
// The server registers them with `registerCrud` (apps/server/src/http/crud.ts: table, tenancy and the
// domain hooks); the web renders them with `CrudPage` (apps/web/src/components/CrudPage.tsx).

export interface CrudPaths {
  list: string;
  /** with `:id` the id travels in the path, otherwise as ?<idKey>= (absent: a resource without the action) */
  detail?: string;
  create: string;
  /** the id travels in the body (as the resource's idKey) */
  update?: string;
  /** the ids travel in the body ({ids}); with `removeBy: 'query'` one id as ?id=; with `:id` one id in the path */
  remove: string;
}

/** The five actions of a CRUD resource. */
export type CrudAction = 'list' | 'detail' | 'create' | 'update' | 'remove';

/** R: the row a resource's own `schemas.row` answers (its fields typed for the web) */
export interface CrudOptions<R extends object = object, A extends CrudAction = CrudAction> {
  /** the five paths, or the SPEC §7 base: `${base}/List` and `${base}/Detail` (GET, POST, PUT, DELETE) */
  paths: CrudPaths | string;
  /** the actions the resource has, when not all five (a path of an action left out is not used) */
  actions?: readonly A[];
  /** an action's summary (and so its audit action) where `新增${title}` etc. do not say it */
  summaries?: Partial<Record<CrudAction, string>>;
  /** who may list and read */
  read: EndpointPerm;
  /** who may create, update and delete */
  write: EndpointPerm;
  /** per-action write permissions, when they differ */
  writes?: { create?: EndpointPerm; update?: EndpointPerm; remove?: EndpointPerm };
  /** where a delete's id travels: {ids} in the body (default), ?id=, or `post`: POST with {id} in the body (SPEC's …/Del) */
  removeBy?: 'ids' | 'query' | 'post';
  tags: string[];
  /** fields a row carries besides the declared ones (added by the server's `present` hook) */
  extra?: z.ZodRawShape;
  /** a rule across the form's fields, checked on create and update (add an issue to refuse) */
  refine?: (values: Record<string, unknown>, ctx: z.RefinementCtx) => void;
  /**
   * The resource's own schemas where the derived ones do not fit (its service answers the action
   * through registerCrud's `handle` hook): a read model's filters and row, a body with more than the
   * declared fields, a create answer with more than the id.
   */
  schemas?: {
    listQuery?: z.ZodObject<z.ZodRawShape>;
    row?: z.ZodType<R>;
    body?: z.ZodObject<z.ZodRawShape>;
    created?: z.ZodRawShape;
    /** the create and update bodies where the form + `refine` (+ the id) do not say them (a body that transforms) */
    create?: z.ZodType;
    update?: z.ZodType;
    /** the detail's answer when it differs from a list row (another read model, a record with its children) */
    detail?: z.ZodType<object>;
  };
}

/** A row of a CRUD resource as answered: its id and its fields. */
export type CrudRow = { id: number } & Record<string, unknown>;

const id = num(z.number().int().positive());
const enumIsNumeric = (f: FieldDef) => Object.keys(f.options ?? {}).every((k) => /^-?\d+$/.test(k));

/** The answered type of one field (what the table stores, or what `present` makes of it). */
export function fieldAnswer(f: FieldDef): z.ZodType {
  let t: z.ZodType;
  switch (f.type) {
    case 'int':
    case 'ref':
      t = z.number();
      break;
    case 'decimal':
    case 'money':
      t = z.string();
      break;
    case 'enum':
      t = enumIsNumeric(f) ? z.number() : z.string();
      break;
    case 'bool':
      t = z.boolean();
      break;
    case 'datetime':
      t = wireTime;
      break;
    case 'tags':
      t = z.array(z.union([z.string(), z.number()]));
      break;
    case 'file':
      t = z.array(z.string());
      break;
    case 'password':
      // write-only: never part of an answer's contract
      return z.unknown();
    default:
      // text is stored as '' when left empty (formSchema)
      return f.readonly ? z.string().nullable() : z.string();
  }
  return f.required || (f.default !== undefined && f.default !== null && !f.readonly) ? t : t.nullable();
}

/** The answered row of a resource: id, every declared field, and `extra` (joined or computed fields). */
export function rowSchema(def: ResourceDef, extra: z.ZodRawShape = {}) {
  const shape: Record<string, z.ZodType> = { [def.idKey ?? 'id']: z.number() };
  for (const f of def.fields) shape[f.key] = fieldAnswer(f);
  return z.object({ ...shape, ...extra });
}

/** The five declarations of a resource (see CrudOptions for where ids travel), or the `actions` it has. */
export function crudEndpoints<R extends object = object, A extends CrudAction = CrudAction>(def: ResourceDef, o: CrudOptions<R, A>) {
  const p: CrudPaths =
    typeof o.paths === 'string'
      ? { list: `${o.paths}/List`, detail: `${o.paths}/Detail`, create: `${o.paths}/Detail`, update: `${o.paths}/Detail`, remove: `${o.paths}/Detail` }
      : o.paths;
  const idKey = def.idKey ?? 'id';
  const s = o.schemas ?? {};
  // typed as the row the web reads (its fields typed by `schemas.row`); the schema itself is what
  // OpenAPI shows and what answers are checked against
  const row = (s.row ?? rowSchema(def, o.extra)) as z.ZodType<CrudRow & R>;
  const detailRow = (s.detail ?? row) as z.ZodType<CrudRow & R>;
  const summary = (a: CrudAction, derived: string) => o.summaries?.[a] ?? derived;
  const checked = <T extends z.ZodObject>(t: T) => (o.refine ? t.superRefine(o.refine) : t);
  const form: z.ZodObject<z.ZodRawShape> = s.body ?? formSchema(def);
  const body: z.ZodType = s.create ?? checked(form);
  const { tags, read } = o;
  const byParam = !!p.detail?.includes(':id');
  const withId = CompanyQuery.extend({ id });
  // the id's place varies by resource: the schemas are typed as the wider of the two
  const detailQuery: z.ZodObject<z.ZodRawShape> = byParam ? CompanyQuery : CompanyQuery.extend({ [idKey]: id });
  const detailParams: z.ZodObject<{ id: typeof id }> | undefined = byParam ? z.object({ id }) : undefined;
  const createOnly = Object.fromEntries(def.fields.filter((f) => f.createOnly && f.key in form.shape).map((f) => [f.key, true] as const));
  const updateBody: z.ZodType = s.update ?? checked(form.omit(createOnly).extend({ [idKey]: id }));
  const removeByParam = p.remove.includes(':id');
  const removeQuery: z.ZodObject<z.ZodRawShape> = o.removeBy === 'query' ? withId : CompanyQuery;
  const removeParams: z.ZodObject<{ id: typeof id }> | undefined = removeByParam ? z.object({ id }) : undefined;
  // {ids}, or {id} for a POST delete
  const removeBody: z.ZodObject<z.ZodRawShape> | undefined =
    o.removeBy === 'query' || removeByParam
      ? undefined
      : o.removeBy === 'post'
        ? z.object({ id })
        : z.object({ ids: z.array(id).min(1, '请选择要删除的记录').max(1000) });
  const all = {
    list: endpoint({
      method: 'GET', path: p.list, summary: summary('list', `${def.title}列表`), perm: read, query: s.listQuery ?? listQuerySchema(def), response: row, paged: true, tags,
    }),
    detail: endpoint({
      method: 'GET', path: p.detail ?? '', summary: summary('detail', `${def.title}详情`), perm: read, query: detailQuery, params: detailParams,
      response: detailRow, tags,
    }),
    create: endpoint({
      method: 'POST', path: p.create, summary: summary('create', `新增${def.title}`), perm: o.writes?.create ?? o.write, query: CompanyQuery, body,
      response: z.object({ [idKey]: z.number(), ...s.created }), tags,
    }),
    update: endpoint({
      method: 'PUT', path: p.update ?? '', summary: summary('update', `编辑${def.title}`), perm: o.writes?.update ?? o.write, query: CompanyQuery,
      body: updateBody, response: z.null(), tags,
    }),
    remove: endpoint({
      method: o.removeBy === 'post' ? 'POST' : 'DELETE', path: p.remove, summary: summary('remove', `删除${def.title}`), perm: o.writes?.remove ?? o.write,
      query: removeQuery, params: removeParams, body: removeBody, response: z.null(), tags,
    }),
  };
  if (!o.actions) return all as Pick<typeof all, A>;
  const picked: Partial<typeof all> = {};
  for (const a of o.actions) Object.assign(picked, { [a]: all[a] });
  return picked as Pick<typeof all, A>;
}

export type CrudEndpoints = ReturnType<typeof crudEndpoints<object>>;
/** A resource's declarations when it has fewer than the five actions (a list at least). */
export type SomeCrudEndpoints = Partial<CrudEndpoints> & Pick<CrudEndpoints, 'list'>;
