// Uploads (SPEC §4, §7, §9): a Public or Private upload token is cached locally with the time it was
// made and fetched again when missing or older than 3,000,000 ms; the file goes up as a multipart POST
// with the token. A token is tied to the signed-in session (it names the company the file will belong
// to), so another login never reuses it. Private files are fetched with the session and shown as blob
// URLs; public ones are plain URLs (cached by the browser for a year).
import {
  pathOf, UPLOAD_CATEGORIES, UPLOAD_TOKEN_REFRESH_MS, formatBytes, type UploadCategory, type UploadKind, type UploadedFile,
} from '@meter/contracts';
import { E } from './endpoints.gen.ts';
import { call } from './endpoint.ts';
import { ApiError, fetchBlob, request, sessionToken } from './request.ts';
import { fingerprint, readCache, storageKey, type Cached } from './uploadCache.ts';

export { forgetUploadTokens } from './uploadCache.ts';

/** The cached token of this kind, or a new one when there is none, it is too old or of another session. */
export async function uploadToken(kind: UploadKind, now = Date.now()): Promise<string> {
  const session = fingerprint(sessionToken());
  const c = readCache(kind);
  if (c && c.session === session && now - c.time < UPLOAD_TOKEN_REFRESH_MS && now >= c.time) return c.token;
  const t = await call(E.files.token, { query: { kind } }, { silent: true });
  localStorage.setItem(storageKey(kind), JSON.stringify({ token: t.token, time: now, session } satisfies Cached));
  return t.token;
}

/** Refuses in the browser what the server would refuse by size (the type is checked there, by content). */
export function checkBeforeUpload(file: { size: number; name: string }, accept?: UploadCategory): string | null {
  if (file.size === 0) return '文件为空，请重新选择';
  if (accept) {
    const c = UPLOAD_CATEGORIES[accept];
    if (file.size > c.maxBytes) return `文件过大：${c.label}不能超过 ${formatBytes(c.maxBytes)}（当前 ${formatBytes(file.size)}）`;
  }
  return null;
}

/** The `accept` attribute of the file picker for a category. */
export function acceptAttr(accept?: UploadCategory): string | undefined {
  return accept ? UPLOAD_CATEGORIES[accept].mimes.join(',') : undefined;
}

/** Sends one file with a token of this kind; an expired token is replaced once and the file sent again. */
export async function uploadFile(file: Blob & { name?: string }, kind: UploadKind, accept?: UploadCategory): Promise<UploadedFile> {
  const send = async () => {
    const form = new FormData();
    form.append('token', await uploadToken(kind));
    if (accept) form.append('accept', accept);
    form.append('file', file, file.name ?? 'file');
    return request<UploadedFile>(E.files.upload.method, E.files.upload.path, { data: form, silent: true });
  };
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof ApiError) || !/^UPLOAD_TOKEN_/.test(e.code)) throw e;
    localStorage.removeItem(storageKey(kind));
    return send();
  }
}

/** The URL of a public file (usable as an img/video src). */
export function publicFileUrl(key: string): string {
  return pathOf(E.files.publicFile.path, { key });
}

/** A blob URL for a private file (revoke it when done). */
export async function privateFileUrl(key: string): Promise<string> {
  return URL.createObjectURL(await fetchBlob(pathOf(E.files.privateFile.path, { key })));
}

/** A src for a file of either kind (a public one at once, a private one once fetched). */
export async function fileUrl(key: string, kind: UploadKind): Promise<string> {
  return kind === 'Public' ? publicFileUrl(key) : privateFileUrl(key);
}
