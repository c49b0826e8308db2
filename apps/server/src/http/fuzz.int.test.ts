import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fileApp } from '../../test/helpers.ts';
import type { ApiRoute } from '../app.ts';
import { DEMO_OWNER, demoOwnerLogin } from '../demo/seed.ts';

// Every registered endpoint, every field of its body, query and path: control characters, booleans,
// arrays, objects and huge values answer 4xx (never 500, never a success) and change nothing
// (issue 12 §4, §5). One request per field and value: 20–45 s on a quiet machine, several minutes on a busy one.

type Where = 'body' | 'querystring' | 'params';
type Kind = 'bool' | 'array' | 'number' | 'string' | 'other';

const t = await fileApp();
const [platform, demo] = await t.signIn('admin', 'demo');
// the owner-app routes (perm.owner) answer an owner session: the demo owner's (demo/seed.ts)
const demoOwner = await demoOwnerLogin(t.db);
const owner = (await t.call(null, { method: 'POST', url: '/yewu/api/OwnerApp/Login/Room', payload: { roomId: demoOwner!.roomId, password: DEMO_OWNER.password } })).body.data.token as string;

interface Def { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; options?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType }
const defOf = (s: unknown) => (s as { _zod?: { def: Def } })?._zod?.def;

/** The fields of an input schema (objects, through optional/default/pipe/union/intersection). */
function fieldsOf(s: unknown, depth = 0): Record<string, z.ZodType> {
  const d = defOf(s);
  if (!d || depth > 8) return {};
  if (d.type === 'object') return { ...d.shape };
  if (d.innerType) return fieldsOf(d.innerType, depth + 1);
  if (d.type === 'pipe') return { ...fieldsOf(d.out, depth + 1), ...fieldsOf(d.in, depth + 1) };
  if (d.options) return Object.assign({}, ...d.options.map((o) => fieldsOf(o, depth + 1)));
  if (d.left) return { ...fieldsOf(d.left, depth + 1), ...fieldsOf(d.right, depth + 1) };
  return {};
}

const accepts = (f: z.ZodType, v: unknown) => f.safeParse(v).success;
function kindOf(f: z.ZodType): Kind {
  if (accepts(f, true)) return 'bool';
  if (accepts(f, []) || accepts(f, ['1'])) return 'array';
  if (accepts(f, 'abc')) return 'string';
  if (accepts(f, 1) || accepts(f, '1')) return 'number';
  if (accepts(f, '2024-01-01') || accepts(f, '13800138000')) return 'string';
  return 'other';
}

const HUGE_TEXT = 'x'.repeat(20_000);
/**
 * A bad value: `schema` = the field's own schema must refuse it; `legal` = a legal but out-of-the-way value
 * (an id of 2^31 is a valid bigint that matches nothing): it must not fail the server (no 5xx) nor change anything.
 */
interface Bad { v: unknown; schema?: boolean; legal?: boolean }
function bodyValues(kind: Kind): Bad[] {
  const out: Bad[] = [{ v: '\u0000x' }, { v: 'a\u001b[31m' }];
  if (kind !== 'bool') out.push({ v: true, schema: true }, { v: false, schema: true });
  if (kind !== 'array') out.push({ v: [12], schema: true });
  out.push({ v: { id: 1 }, schema: true });
  if (kind === 'number') out.push({ v: 1e300 }, { v: '9'.repeat(40) }, { v: 2 ** 31, legal: true }, { v: 2 ** 53 - 1, legal: true });
  if (kind === 'string') out.push({ v: HUGE_TEXT });
  return out;
}
/** Bad values for a query-string field (always text; an array is the key repeated). */
function queryValues(kind: Kind): { v: string | string[]; legal?: boolean }[] {
  const out: { v: string | string[]; legal?: boolean }[] = [{ v: '\u0000x' }, { v: 'x\u007f' }];
  if (kind === 'number') out.push({ v: 'true' }, { v: ['12', '13'] }, { v: '1e300' }, { v: '9'.repeat(40) }, { v: String(2 ** 31), legal: true });
  if (kind === 'string') out.push({ v: 'x'.repeat(5000) });
  return out;
}

/** What the whole database holds, except the rows a refused request legitimately writes. */
async function fingerprint() {
  const skip = new Set(['audit_log', 'login_attempts', 'sessions', 'owner_sessions', '__drizzle_migrations']);
  const { rows: tables } = await t.owner.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (skip.has(name)) continue;
    const { rows } = await t.owner.query(`SELECT count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS h FROM "${name}" x`);
    out[name] = rows[0].h;
  }
  return out;
}

function pathWith(url: string, param?: string, value?: string) {
  return url.replace(/:(\w+)/g, (_m, p: string) => (p === param ? encodeURIComponent(value ?? '') : '1'));
}

function queryWith(key: string, v: string | string[]) {
  const q = new URLSearchParams();
  for (const x of [v].flat()) q.append(key, x);
  return q.toString();
}

describe('fuzz over every registered endpoint', () => {
  it('control characters, booleans, arrays, objects and huge values answer 4xx and change nothing', async () => {
    const before = await fingerprint();
    const routes = t.app.apiRoutes.filter((r) => !r.url.includes('logout'));
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let requests = 0;
    let schemaChecks = 0;

    const cases: (() => Promise<void>)[] = [];
    const send = async (r: ApiRoute, url: string, payload: unknown, label: string, legal = false) => {
      cases.push(() => sendNow(r, url, payload, label, legal));
    };
    const sendNow = async (r: ApiRoute, url: string, payload: unknown, label: string, legal: boolean) => {
      const opts = {
        method: r.method as 'POST',
        url,
        ...(r.method === 'GET' || payload === undefined ? {} : { payload: payload as object }),
        ...(typeof payload === 'string' ? { headers: { 'content-type': 'application/json' } } : {}),
      };
      let res = await t.call(r.public ? null : r.perm !== false && r.perm.owner ? owner : platform, opts);
      // company-only routes: the company admin
      if (res.status === 403 && !r.public) res = await t.call(demo, opts);
      requests++;
      if (legal) {
        if (res.status >= 500 || res.status === 401) failures.push(`${r.method} ${r.url} ${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      } else if (res.status < 400 || res.status >= 500 || res.status === 401) failures.push(`${r.method} ${r.url} ${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      else if (typeof res.body?.message !== 'string' || !/[\u4e00-\u9fa5]/.test(res.body.message)) failures.push(`${r.method} ${r.url} ${label}: no Chinese message`);
    };

    for (const r of routes) {
      for (const where of ['body', 'querystring', 'params'] as Where[]) {
        const schema = r.schema[where];
        const fields = fieldsOf(schema);
        if (where === 'params') {
          for (const key of Object.keys(fields)) {
            for (const v of ['\u0000', 'true', '1e300', '9'.repeat(40), String(2 ** 31)]) {
              await send(r, pathWith(r.url, key, v), r.method === 'GET' ? undefined : {}, `params.${key}=${JSON.stringify(v).slice(0, 20)}`, v === String(2 ** 31));
            }
          }
          continue;
        }
        for (const [key, f] of Object.entries(fields)) {
          const kind = kindOf(f);
          if (where === 'body') {
            for (const { v, schema: bySchema, legal } of bodyValues(kind)) {
              if (accepts(f, v) && bySchema) continue; // a legitimate value for this field
              if (bySchema) {
                // the schema names this field, whatever else the body lacks
                schemaChecks++;
                const res = (schema as z.ZodType).safeParse({ [key]: v });
                if (res.success || !res.error.issues.some((i) => i.path[0] === key)) failures.push(`${r.method} ${r.url} body.${key}=${JSON.stringify(v)} passes the schema`);
              }
              await send(r, pathWith(r.url), { [key]: v }, `body.${key}=${JSON.stringify(v).slice(0, 20)}`, legal);
            }
          } else {
            for (const { v, legal } of queryValues(kind)) {
              await send(r, `${pathWith(r.url)}?${queryWith(key, v)}`, r.method === 'GET' ? undefined : {}, `query.${key}=${JSON.stringify(v).slice(0, 20)}`, legal);
            }
          }
        }
      }
      // a body that is not an object at all
      if (r.method !== 'GET' && r.schema.body) {
        for (const v of [true, [12], 'x\u0000', 12]) await send(r, pathWith(r.url), JSON.stringify(v), `body=${JSON.stringify(v)}`);
      }
    }
    // six at a time (the app's pool has ten connections)
    const queue = [...cases];
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) await c();
    }));
    expect(failures).toEqual([]);
    expect(await fingerprint()).toEqual(before);
    expect(requests).toBeGreaterThan(1000);
    expect(schemaChecks).toBeGreaterThan(300);
  }, 600_000);

  it('a NUL in the unauthenticated login answers 400 in Chinese and is audited', async () => {
    const name = `\u0000x${Date.now()}`;
    const r = await t.call(null, { method: 'POST', url: '/yonghu/api/admin/login', payload: { username: name, password: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_REQUEST', message: '参数「username」含有不允许的控制字符' });
    const { rows } = await t.owner.query(`SELECT username, status, detail FROM audit_log WHERE path = '/yonghu/api/admin/login' AND username = $1`, [name.replace('\u0000', '\uFFFD')]);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe(400);
    expect(rows[0].detail.body.password).toBe('******');
  });

  it('a searchCompanyID no bigint holds answers 400 and the refusal is still audited (its audit row failed)', async () => {
    // a value of this test's own (the fuzz above sends 40 nines to this route too)
    const huge = `${Date.now()}`.padEnd(40, '7');
    const r = await t.call(platform, { method: 'POST', url: `/yewu/api/Area/Detail?searchCompanyID=${huge}`, payload: {} });
    expect(r.status).toBe(400);
    const { rows } = await t.owner.query(`SELECT company_id, status FROM audit_log WHERE path = '/yewu/api/Area/Detail' AND detail->'query'->>'searchCompanyID' = $1`, [huge]);
    expect(rows).toEqual([{ company_id: null, status: 400 }]);
  });

  it('a boolean or an array is not an id (true was room 1, [12] was 12)', async () => {
    for (const id of [true, [12], null, '']) {
      const r = await t.call(demo, { method: 'PUT', url: '/yonghu/api/admin/resetPassword'.replace('admin/', 'admin/user/'), payload: { id } });
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.body.message).toMatch(/^参数「id」/);
    }
    const q = await t.call(demo, { method: 'GET', url: '/yonghu/api/admin/role?id=true' });
    expect(q.status).toBe(400);
  });
});
