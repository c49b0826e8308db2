import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodType, z } from 'zod';
import { findControlChar, routeAllowed, SUCCESS, type Endpoint, type HandlerInput } from '@meter/contracts';
import { z as zod } from 'zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AppError, badRequest, forbidden } from './errors.ts';
import { envelope } from './envelope.ts';
import type { Ctx, OwnerCtx, PublicCtx } from './context.ts';

/**
 * What a route needs (DESIGN §4/§5): the server refuses what the user may not do; the UI only hides it.
 * - routes: any one of these page keys must be allowed for the user (SPEC §5 rules incl. access level)
 * - op: the operation key (SPEC §3 permission tree)
 * - access: the user's access level must equal it (0 = platform admin)
 */
export interface Perm {
  routes?: string[];
  op?: string;
  access?: 0 | 1;
  /** an owner-app session (业主端) instead of a back-office one */
  owner?: true;
}

/** Route hooks, e.g. rate limits: onRequest (before the body is read), preHandler (after validation). */
export interface RouteHooks { onRequest?: onRequestAsyncHookHandler[]; preHandler?: preHandlerAsyncHookHandler[] }

declare module 'fastify' {
  interface FastifyRequest {
    ctx?: Ctx;
    publicCtx?: PublicCtx;
    /** an owner-app request (perm.owner): also its publicCtx, so it is audited under the owner's name */
    ownerCtx?: OwnerCtx;
  }
  interface FastifyContextConfig {
    perm?: Perm | false;
    action?: string;
    /** false: not written to the audit log (GETs, queries sent as POST) */
    audit?: boolean;
    raw?: boolean;
    /** the declaration the route was registered from (packages/contracts endpoints) */
    endpoint?: Endpoint;
  }
}

export function checkPerm(ctx: Ctx, perm: Perm) {
  const u = ctx.user;
  if (perm.access !== undefined && u.access !== perm.access) {
    throw forbidden(perm.access === 0 ? '无权访问：该功能仅限平台管理员使用' : '无权访问：该功能仅限单位用户使用');
  }
  if (perm.routes && !perm.routes.some((r) => routeAllowed(r, u))) {
    throw forbidden('无权访问该页面，请联系管理员分配权限');
  }
  if (perm.op && !u.operations.includes(perm.op)) {
    throw forbidden('无权限执行此操作，请联系管理员分配权限');
  }
}

/**
 * Control characters are refused before any schema or service sees the request: PostgreSQL refuses
 * U+0000 in text (a NUL answered 500, and its audit row failed too), and none belongs in a form value.
 */
export async function refuseControlChars(req: FastifyRequest) {
  for (const [where, v] of [['body', req.body], ['query', req.query], ['params', req.params]] as const) {
    const path = findControlChar(v);
    if (path) throw badRequest(path.length ? `参数「${path.join('.')}」含有不允许的控制字符` : `请求${where === 'body' ? '内容' : '参数'}含有不允许的控制字符`);
  }
}

/** A route's declared input for the schema (and /docs): summary, tags, query, body, path parameters. */
function inputSchema(s: { summary: string; tags?: string[]; query?: ZodType; body?: ZodType; params?: ZodType }) {
  return {
    summary: s.summary,
    ...(s.tags && { tags: s.tags }),
    ...(s.query && { querystring: s.query }),
    ...(s.body && { body: s.body }),
    ...(s.params && { params: s.params }),
  };
}

/** /docs marks a route that needs a session (perm false: login and the like need none). */
const security = (perm: unknown) => (perm === false ? {} : { security: [{ token: [] }] });

/**
 * Registers the routes of one module from their declarations. Handlers are one line into a service: they get
 * the typed, validated input and the request context, and return data (or a Page); the envelope is added here.
 */
export function routes(app: FastifyInstance) {
  /**
   * Registers a declared endpoint (packages/contracts/src/endpoints): method, path, schemas,
   * permission and audit action come from the declaration; the handler stays one line into a service.
   * The answer's schema describes `data` (a page's row); with response validation on (tests) an answer
   * that does not match its declaration fails loudly.
   */
  const endpoint = <E extends Endpoint>(
    e: E,
    handler: (input: HandlerInput<E>, ctx: Ctx, req: FastifyRequest, reply: FastifyReply) => unknown,
    hooks?: RouteHooks,
  ) => {
    const data = e.response && (e.paged ? zod.array(e.response) : e.response);
    const add = (to: FastifyInstance) => to.route({
      method: e.method,
      url: e.path,
      schema: {
        ...inputSchema(e),
        ...(data && { response: { 200: zod.union([zod.object({ code: zod.literal(SUCCESS), message: zod.string(), data, ...(e.paged && { count: zod.number() }) }), REFUSAL]) } }),
        ...security(e.perm),
      },
      preValidation: refuseControlChars,
      ...(hooks?.onRequest && { onRequest: hooks.onRequest }),
      ...(hooks?.preHandler && { preHandler: hooks.preHandler }),
      // a write is audited under its action (default: its summary); GETs and queries sent as POST (action false) are not
      config: { perm: e.perm, endpoint: e, audit: e.method !== 'GET' && e.action !== false, action: e.method === 'GET' || e.action === false ? undefined : (e.action ?? e.summary) },
      handler: async (req, reply) => {
        const input = { query: req.query, body: req.body, params: req.params } as HandlerInput<E>;
        const result = await handler(input, req.ctx as Ctx, req, reply);
        // a file answer (an export, a stored file shown in the page) was written to the reply by the handler
        if (reply.sent || e.file || e.inline) return reply;
        return envelope(result);
      },
    });
    if (!e.raw) {
      add(app);
      return;
    }
    // a raw body: this route alone (an encapsulated context) reads every content type as text
    void app.register(async (sub) => {
      sub.removeAllContentTypeParsers();
      sub.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      add(sub);
    });
  };
  return { endpoint };
}

/**
 * A raw body (declarations with `raw`) read as JSON against a schema and refused as a declared JSON body
 * would be: 415 for another content type, 400 when it does not parse, 400 naming the failing field.
 */
export function jsonBody<T extends ZodType>(schema: T, req: FastifyRequest): z.output<T> {
  if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) throw new AppError('BAD_REQUEST', '不支持的请求格式', 415);
  let value: unknown;
  try {
    value = JSON.parse(String(req.body ?? ''));
  } catch {
    throw badRequest('请求格式错误');
  }
  const bad = findControlChar(value);
  if (bad) throw badRequest(bad.length ? `参数「${bad.join('.')}」含有不允许的控制字符` : '请求内容含有不允许的控制字符');
  const r = validatorCompiler({ schema, method: req.method, url: req.url })(value) as { value?: z.output<T>; error?: unknown[] };
  if (r.error) throw Object.assign(new Error('请求参数无效'), { statusCode: 400, validation: r.error });
  return r.value as z.output<T>;
}

/** a business refusal answered with HTTP 200 (SPEC §8): any code but SUCCESS, and its message */
const REFUSAL = zod.object({ code: zod.string().refine((c) => c !== SUCCESS, '拒绝应答的 code 不能是 SUCCESS'), message: zod.string() });

/**
 * The serializer of routes that declare their answer: JSON as always; with `validate` (tests) the
 * answer is first checked against its declaration, so a declaration that drifts from what the
 * service returns fails a test instead of misleading the web's types.
 */
export function answerSerializer(validate: boolean) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) =>
    (data: unknown) => {
      if (validate && schema instanceof zod.ZodType) {
        const r = schema.safeParse(data);
        if (!r.success) throw new Error(`${method} ${url} 的应答与接口声明不符：\n${zod.prettifyError(r.error)}`);
      }
      return JSON.stringify(data);
    };
}

/** Owner-app routes (perm.owner): the handler gets the owner's context. */
export function ownerCtx(req: FastifyRequest): OwnerCtx {
  return req.ownerCtx as OwnerCtx;
}

/** Anonymous routes (login): the handler gets the public context. */
export function publicCtx(req: FastifyRequest): PublicCtx {
  return req.publicCtx as PublicCtx;
}
