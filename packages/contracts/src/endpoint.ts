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

/** The web's route table (apps/web/src/api/endpoints.gen.ts) as source text; a test keeps the file equal to it. */
export function clientSource(api: Record<string, Record<string, Endpoint>>): string {
  const lines = [
    '// Generated from packages/contracts/src/endpoints by `npm run gen:client` — do not edit.',
    '// The browser gets each declared endpoint\'s method, path and paging, typed by its declaration',
    '// (a type-only import: no schema in the bundle). api/endpoint.ts `call` sends them.',
    "import type { API } from '@meter/contracts';",
    "import type { RouteRef } from '@meter/contracts';",
    '',
    'export const E = {',
  ];
  for (const [group, eps] of Object.entries(api)) {
    lines.push(`  ${group}: {`);
    for (const [name, e] of Object.entries(eps)) {
      const file = `${e.file ? `, file: '${e.file}'` : ''}${e.multipart ? ', multipart: true' : ''}${e.inline ? ', inline: true' : ''}`;
      const op = e.perm && e.perm.op ? `, op: '${e.perm.op}'` : '';
      const access = e.perm && e.perm.access !== undefined ? `, access: ${e.perm.access}` : '';
      lines.push(`    ${name}: { method: '${e.method}', path: '${e.path}', paged: ${e.paged === true}${file}${op}${access} } as RouteRef<typeof API.${group}.${name}>,`);
    }
    lines.push('  },');
  }
  lines.push('};', '');
  return lines.join('\n');
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
