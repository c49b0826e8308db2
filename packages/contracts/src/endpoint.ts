import type { z, ZodType } from 'zod';
import type { AccessLevel } from './routes.ts';

// One declaration per endpoint (issue 13 §1): method, path, input schemas, the answer's schema, who may
// call it and how it is audited. The server registers its route from the declaration
// (apps/server/src/http/routes.ts `r.endpoint`), the web calls it through the declaration
// (apps/web/src/api/endpoint.ts `call`), the OpenAPI document at /docs comes from the same schemas,
// and a test checks that every declaration is registered exactly once.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call: page keys (any of them), an operation key, an access level; {} = any signed-in user. */
export interface EndpointPerm {
  routes?: string[];
  op?: string;
  access?: AccessLevel;
  /** an owner-app session (业主端), not a back-office one; routes/op/access do not apply */
  owner?: true;
}

export interface Endpoint<
  Q extends ZodType | undefined = ZodType | undefined,
  B extends ZodType | undefined = ZodType | undefined,
  P extends ZodType | undefined = ZodType | undefined,
  R extends ZodType | undefined = ZodType | undefined,
> {
  method: HttpMethod;
  /** the full path; path parameters as :name */
  path: string;
  /** Chinese, for /docs and the audit log's default action */
  summary: string;
  tags?: string[];
  /** false = no session needed (login) */
  perm: EndpointPerm | false;
  /** the Chinese action the audit log records for a write; false = a query sent as POST, not audited */
  action?: string | false;
  query?: Q;
  body?: B;
  params?: P;
  /** the answer's `data` (for a paged endpoint: one row) */
  response?: R;
  /** the answer is a page: `{data: rows, count}` */
  paged?: boolean;
  /**
   * The answer is a file (an .xlsx export), not an envelope: the handler writes it to the reply and
   * the web saves it under this name (SPEC §7/§8: on failure the envelope comes back instead).
   */
  file?: string;
  /**
   * The body is multipart/form-data (an upload), not JSON: no body schema; the handler reads the parts
   * (the web sends a FormData).
   */
  multipart?: boolean;
  /** The answer is the bytes of a stored file shown in the page (an image, a video), not an envelope. */
  inline?: boolean;
  /**
   * The body is the request's text exactly as received, whatever its content type (a payment provider's
   * callback: its signature covers those bytes, a parser would lose them): no body schema, the handler
   * gets the string and writes the answer the caller expects.
   */
  raw?: boolean;
}

export function endpoint<
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  P extends ZodType | undefined = undefined,
  R extends ZodType | undefined = undefined,
  Pg extends boolean = false,
>(e: Endpoint<Q, B, P, R> & { paged?: Pg }): Endpoint<Q, B, P, R> & { paged?: Pg } {
  return e;
}

/**
 * What the browser needs of a declaration at run time — method, path, paging — typed by the
 * declaration itself (only its type is imported, so the web bundle carries no schema). The web's
 * table of these is generated from the declarations (clientSource below; `npm run gen:client`).
 */
export interface RouteRef<E extends Endpoint> {
  method: HttpMethod;
  path: string;
  paged: boolean;
  /** the file name a download is saved under (declarations with `file`) */
  file?: string;
  /** the body is a FormData (declarations with `multipart`) */
  multipart?: boolean;
  /** the answer is a file shown in the page (declarations with `inline`): its URL is used as a src */
  inline?: boolean;
  /** the declared operation key and access level: the web shows an action only to whoever may call it */
  op?: string;
  access?: AccessLevel;
  /** type only: the declaration this reference stands for */
  readonly endpoint?: E;
}

/** The web's route table typed by the declarations: `E.group.name` is a RouteRef to `API.group.name`. */
export type RouteTable<A> = {
  [G in keyof A]: { [N in keyof A[G]]: A[G][N] extends Endpoint ? RouteRef<A[G][N]> : never };
};

/**
 * The web's route table: the run-time part (method, path, paging, file, op, access of each declaration)
 * is data, apps/web/src/api/endpoints.gen.json, one endpoint a line; apps/web/src/api/endpoints.gen.ts
 * types it as RouteTable<typeof API>. A test keeps both files equal to these texts.
 */
export function clientSource(api: Record<string, Record<string, Endpoint>>): { json: string; ts: string } {
  const groups = Object.entries(api).map(([group, eps]) => {
    const rows = Object.entries(eps).map(([name, e]) => {
      const ref: Omit<RouteRef<Endpoint>, 'endpoint'> = { method: e.method, path: e.path, paged: e.paged === true };
      if (e.file) ref.file = e.file;
      if (e.multipart) ref.multipart = true;
      if (e.inline) ref.inline = true;
      if (e.perm && e.perm.op) ref.op = e.perm.op;
      if (e.perm && e.perm.access !== undefined) ref.access = e.perm.access;
      return `    ${JSON.stringify(name)}: ${JSON.stringify(ref)}`;
    });
    return `  ${JSON.stringify(group)}: {\n${rows.join(',\n')}\n  }`;
  });
  const json = `{\n${groups.join(',\n')}\n}\n`;
  const ts = [
    '// Generated from packages/contracts/src/endpoints by `npm run gen:client` — do not edit.',
    "// The browser gets each declared endpoint's method, path and paging (endpoints.gen.json, data), typed by",
    '// its declaration (a type-only import: no schema in the bundle). api/endpoint.ts `call` sends them.',
    "import type { API, RouteTable } from '@meter/contracts';",
    "import routes from './endpoints.gen.json';",
    '',
    'export const E = routes as RouteTable<typeof API>;',
    '',
  ].join('\n');
  return { json, ts };
}

type In<T> = T extends ZodType ? z.input<T> : undefined;
type Out<T> = T extends ZodType ? z.output<T> : undefined;
type QueryOf<E> = E extends Endpoint<infer Q, ZodType | undefined, ZodType | undefined, ZodType | undefined> ? Q : undefined;
type BodyOf<E> = E extends Endpoint<ZodType | undefined, infer B, ZodType | undefined, ZodType | undefined> ? B : undefined;
type ParamsOf<E> = E extends Endpoint<ZodType | undefined, ZodType | undefined, infer P, ZodType | undefined> ? P : undefined;
type ResponseOf<E> = E extends Endpoint<ZodType | undefined, ZodType | undefined, ZodType | undefined, infer R> ? R : undefined;

/** What a caller sends: the query, body and path parameters as the schemas accept them. */
export interface CallInput<E extends Endpoint> {
  query: In<QueryOf<E>>;
  body: In<BodyOf<E>>;
  params: In<ParamsOf<E>>;
}

/** What a handler gets: the same after validation (defaults applied, text turned into numbers…). */
export interface HandlerInput<E extends Endpoint> {
  query: Out<QueryOf<E>>;
  body: Out<BodyOf<E>>;
  params: Out<ParamsOf<E>>;
}

/** One element of the answer (a row of a paged one). */
export type ResultOf<E extends Endpoint> = ResponseOf<E> extends ZodType ? z.output<ResponseOf<E>> : unknown;

/** `/x/:id/y` with {id: 3} → `/x/3/y`. */
export function pathOf(path: string, params?: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_m, k: string) => {
    const v = params?.[k];
    if (v === undefined || v === null || v === '') throw new Error(`缺少路径参数 ${k}（${path}）`);
    return encodeURIComponent(String(v));
  });
}
