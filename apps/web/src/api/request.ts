// The request wrapper (SPEC §7, §8 word for word):
// - code SUCCESS → resolves `data`, or the whole body when it carries `count` (a paged list);
// - any other code → warning toast with the server message (`message` or `msg`), rejected;
// - HTTP 401 → error toast 登录状态过期，请重新登录, session cleared, go to /login;
// - other HTTP errors → error toast with the server message, rejected with 请求失败;
// - a non-GET request identical (method + url + body) to one in flight → 请勿重复操作, not sent;
//   the mark clears 500 ms after the response (a double click sends one request). Two exceptions,
//   so that a retry reaches the server, whose idempotent answer is the one that counts: a request
//   that got no response (network error) clears its mark at once; a request carrying its own
//   request id (body `requestId`, the server's idempotency key) is marked only while in flight.
// Every request carries `Authorization: <token>`. No timeout (SPEC §9: effectively unlimited).

import { SUCCESS } from '@meter/contracts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Query = Record<string, unknown>;

export interface Toast {
  success(text: string): void;
  warning(text: string): void;
  error(text: string): void;
}

export interface RequestConfig {
  getToken(): string | null;
  /** clear the session and go to the login page */
  onUnauthorized(): void;
  toast: Toast;
  fetch(input: string, init: RequestInit): Promise<Response>;
}

export const MSG_EXPIRED = '登录状态过期，请重新登录';
export const MSG_FAILED = '请求失败';
export const MSG_DUPLICATE = '请勿重复操作';
export const MSG_DOWNLOAD_OK = '成功！';
export const MSG_DOWNLOAD_FAILED = '失败';
/** the duplicate mark clears this long after the response (SPEC §9) */
export const DEDUPE_CLEAR_MS = 500;

/** A rejected call. `code` is the server's business code (or HTTP_<status>, DUPLICATE, NETWORK). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly serverMessage: string;
  constructor(message: string, code: string, status = 0, serverMessage = message) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** A paged answer: `{code, data: [...], count}`. */
export interface Paged<T> {
  code: string;
  message?: string;
  data: T[];
  count: number;
}

const noop = () => {};
let config: RequestConfig = {
  getToken: () => null,
  onUnauthorized: noop,
  toast: { success: noop, warning: noop, error: noop },
  fetch: (input, init) => globalThis.fetch(input, init),
};

export function configureRequest(patch: Partial<RequestConfig>): void {
  config = { ...config, ...patch };
}

/** The session token requests are sent with (null: not signed in). */
export function sessionToken(): string | null {
  return config.getToken();
}

const inflight = new Set<string>();

/** For tests: forget in-flight marks. */
export function resetInflight(): void {
  inflight.clear();
  expiredShownAt = -Infinity;
}

/** Query string of the non-empty params; arrays repeat the key. */
export function buildQuery(params?: Query): string {
  if (!params) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => sp.append(k, String(x)));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export function withQuery(url: string, params?: Query): string {
  const q = buildQuery(params);
  if (!q) return url;
  return url.includes('?') ? `${url}&${q.slice(1)}` : `${url}${q}`;
}

export interface RequestOptions {
  params?: Query;
  data?: unknown;
  /** no toasts (the caller handles failure itself); 401 still goes to login */
  silent?: boolean;
}

function serverMessage(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; msg?: unknown };
    if (typeof b.message === 'string' && b.message) return b.message;
    if (typeof b.msg === 'string' && b.msg) return b.msg;
  }
  return '';
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** When the expiry toast was last shown: the calls of one page fail together, the user is told once. */
let expiredShownAt = -Infinity;
export const EXPIRED_TOAST_QUIET_MS = 3000;

function unauthorized(silent: boolean | undefined): ApiError {
  void silent; // the expiry toast is shown even for silent calls: the user is being sent to login
  const now = Date.now();
  if (now - expiredShownAt > EXPIRED_TOAST_QUIET_MS) config.toast.error(MSG_EXPIRED);
  expiredShownAt = now;
  config.onUnauthorized();
  return new ApiError(MSG_EXPIRED, 'UNAUTHORIZED', 401);
}

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = {};
  const token = config.getToken();
  if (token) h.Authorization = token;
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

// ---- prefetch ----------------------------------------------------------------------------------
// A page's first list request can start with its chunk (menu hover/click, route match) instead of after
// the page has mounted. prefetch() runs API calls in a capture mode: their GETs are sent at once and the
// pending response is kept; the next identical GET (same URL and query in any order, same token) within
// PREFETCH_TTL_MS takes it instead of sending again, and handles it as usual (toasts, 401, envelope).
// A prefetch nobody takes is dropped silently.

export const PREFETCH_TTL_MS = 10_000;
const prefetched = new Map<string, { at: number; res: Promise<Response> }>();
let capturing: string[] | null = null;

/** The same request whatever the order of its query parameters. */
function prefetchKey(fullUrl: string): string {
  const [path, query = ''] = fullUrl.split('?');
  const sp = new URLSearchParams(query);
  sp.sort();
  return `${config.getToken() ?? ''} ${path}?${sp.toString()}`;
}

/** Send the GETs that fn's API calls would make, now, for the page that will ask them; returns their URLs. */
export function prefetch(fn: () => unknown): string[] {
  const urls: string[] = [];
  capturing = urls;
  try {
    fn();
  } catch {
    /* a loader that cannot build its query prefetches nothing */
  } finally {
    capturing = null;
  }
  return urls;
}

function startPrefetch(fullUrl: string): void {
  const key = prefetchKey(fullUrl);
  const now = Date.now();
  const held = prefetched.get(key);
  if (held && now - held.at <= PREFETCH_TTL_MS) return;
  const res = config.fetch(fullUrl, { method: 'GET', headers: headers(false) });
  res.catch(() => undefined); // taken by a request, which reports the failure, or dropped
  prefetched.set(key, { at: now, res });
  for (const [k, v] of prefetched) if (now - v.at > PREFETCH_TTL_MS) prefetched.delete(k);
}

function takePrefetched(fullUrl: string): Promise<Response> | undefined {
  const key = prefetchKey(fullUrl);
  const held = prefetched.get(key);
  if (!held) return undefined;
  prefetched.delete(key);
  return Date.now() - held.at <= PREFETCH_TTL_MS ? held.res : undefined;
}

/** For tests: forget prefetched responses. */
export function resetPrefetch(): void {
  prefetched.clear();
}

export async function request<T = unknown>(method: Method, url: string, options: RequestOptions = {}): Promise<T> {
  const { params, data, silent } = options;
  const fullUrl = withQuery(url, params);
  // a FormData (an upload) goes as multipart, with the boundary the browser sets; anything else as JSON
  const form = typeof FormData !== 'undefined' && data instanceof FormData ? data : undefined;
  const body = form ?? (data === undefined ? undefined : JSON.stringify(data));
  if (capturing) {
    if (method !== 'GET') return new Promise<T>(() => undefined); // prefetch never writes
    startPrefetch(fullUrl);
    capturing.push(fullUrl);
    // the caller inside prefetch() never gets an answer: its page will, through the request it makes
    return new Promise<T>(() => undefined);
  }

  let mark: string | null = null;
  // a body with its own request id: the server answers a repeat idempotently, so no window after the response
  const keyed = data != null && typeof data === 'object' && !form && typeof (data as { requestId?: unknown }).requestId === 'string';
  // uploads are not deduplicated: two files sent at once are two requests (their bodies differ)
  if (method !== 'GET' && !form) {
    mark = `${method} ${fullUrl} ${typeof body === 'string' ? body : ''}`;
    if (inflight.has(mark)) {
      config.toast.warning(MSG_DUPLICATE);
      throw new ApiError(MSG_DUPLICATE, 'DUPLICATE');
    }
    inflight.add(mark);
  }
  const release = (answered: boolean) => {
    if (!mark) return;
    const m = mark;
    if (!answered || keyed) inflight.delete(m);
    else setTimeout(() => inflight.delete(m), DEDUPE_CLEAR_MS);
  };

  let res: Response;
  try {
    const held = method === 'GET' ? takePrefetched(fullUrl) : undefined;
    res = await (held ?? config.fetch(fullUrl, { method, headers: headers(typeof body === 'string'), body }));
  } catch {
    release(false);
    if (!silent) config.toast.error('网络连接失败，请检查网络');
    throw new ApiError(MSG_FAILED, 'NETWORK');
  }
  const parsed = await readBody(res);
  release(true);

  if (res.status === 401) throw unauthorized(silent);
  if (!res.ok) {
    const text = serverMessage(parsed) || `${MSG_FAILED}（${res.status}）`;
    if (!silent) config.toast.error(text);
    const code = parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string'
      ? (parsed as { code: string }).code
      : `HTTP_${res.status}`;
    throw new ApiError(MSG_FAILED, code, res.status, text);
  }
  if (!parsed || typeof parsed !== 'object') {
    if (!silent) config.toast.error(MSG_FAILED);
    throw new ApiError(MSG_FAILED, 'BAD_RESPONSE', res.status);
  }
  const envelope = parsed as { code?: string; data?: unknown; count?: unknown };
  if (envelope.code !== SUCCESS) {
    const text = serverMessage(parsed) || MSG_FAILED;
    if (!silent) config.toast.warning(text);
    throw new ApiError(text, envelope.code ?? 'UNKNOWN', res.status);
  }
  return ('count' in envelope ? envelope : envelope.data) as T;
}

export const http = {
  get: <T = unknown>(url: string, params?: Query, opts?: Omit<RequestOptions, 'params'>) => request<T>('GET', url, { ...opts, params }),
  post: <T = unknown>(url: string, data?: unknown, opts?: RequestOptions) => request<T>('POST', url, { ...opts, data }),
  put: <T = unknown>(url: string, data?: unknown, opts?: RequestOptions) => request<T>('PUT', url, { ...opts, data }),
  del: <T = unknown>(url: string, data?: unknown, opts?: RequestOptions) => request<T>('DELETE', url, { ...opts, data }),
  /** a paged GET: query index (1-based) and size, answer {data, count} */
  page: <T>(url: string, params: Query & { index: number; size: number }) => request<Paged<T>>('GET', url, { params }),
};

/** File name from Content-Disposition (filename* first), or the fallback; always ends in .xlsx. */
export function downloadName(disposition: string | null, fallback: string): string {
  let name = fallback;
  if (disposition) {
    const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
    const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
    const raw = star?.[1] ?? plain?.[1];
    if (raw) {
      try {
        name = decodeURIComponent(raw.trim().replace(/^"|"$/g, ''));
      } catch {
        name = raw.trim();
      }
    }
  }
  return /\.xlsx$/i.test(name) ? name : `${name.replace(/\.[a-z0-9]{1,5}$/i, '')}.xlsx`;
}

/** Saves a blob through a temporary link (replaced in tests). */
export let saveBlob = (blob: Blob, name: string): void => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
export function setSaveBlob(fn: typeof saveBlob): void {
  saveBlob = fn;
}

/**
 * Download a spreadsheet export (SPEC §7/§8): GET with the token; a blob is saved with the .xlsx
 * extension and 成功！ is shown; a JSON answer (an error envelope) or an HTTP error shows 失败 and rejects.
 */
export async function download(url: string, params?: Query, fallbackName = '导出'): Promise<string> {
  const fullUrl = withQuery(url, params);
  let res: Response;
  try {
    res = await config.fetch(fullUrl, { method: 'GET', headers: headers(false) });
  } catch {
    config.toast.error(MSG_DOWNLOAD_FAILED);
    throw new ApiError(MSG_DOWNLOAD_FAILED, 'NETWORK');
  }
  if (res.status === 401) throw unauthorized(false);
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const body = await readBody(res);
    const text = serverMessage(body);
    config.toast.error(MSG_DOWNLOAD_FAILED);
    throw new ApiError(MSG_DOWNLOAD_FAILED, `HTTP_${res.status}`, res.status, text || MSG_DOWNLOAD_FAILED);
  }
  const blob = await res.blob();
  const name = downloadName(res.headers.get('content-disposition'), fallbackName);
  saveBlob(blob, name);
  config.toast.success(MSG_DOWNLOAD_OK);
  return name;
}

/**
 * A stored file's bytes (a private upload shown in the page): GET with the token. Failures reject to
 * the caller without a toast (SPEC §8: upload and download failures reject to the caller); 401 still
 * goes to login.
 */
export async function fetchBlob(url: string): Promise<Blob> {
  let res: Response;
  try {
    res = await config.fetch(url, { method: 'GET', headers: headers(false) });
  } catch {
    throw new ApiError(MSG_FAILED, 'NETWORK');
  }
  if (res.status === 401) throw unauthorized(true);
  if (!res.ok) {
    const text = serverMessage(await readBody(res)) || `${MSG_FAILED}（${res.status}）`;
    throw new ApiError(text, `HTTP_${res.status}`, res.status, text);
  }
  return res.blob();
}
