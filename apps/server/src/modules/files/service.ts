import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_CATEGORY_KEYS, UPLOAD_MAX_BYTES, type UploadCategory, type UploadKind, type UploadToken, type UploadedFile } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Scope, type Tx } from '../../db/client.ts';
import { forbidden, notFound, refuse } from '../../http/errors.ts';
import type { Ctx, PublicCtx } from '../../http/context.ts';
import { mayRead, type Viewer } from './access.ts';
import { checkUpload, detect, SNIFF_BYTES, tooLarge } from './limits.ts';
import * as repo from './repo.ts';
import type { FileSetup } from './setup.ts';
import { parseRange } from './range.ts';
import { issueToken, verifyToken, type TokenClaims } from './token.ts';

// Uploads: tokens, the upload itself (spooled to disk, checked by its first bytes, moved to the
// store, recorded) and serving stored files (public: cached by anyone; private: access.ts decides).

/** The company a file of this user will belong to: theirs, or the one a platform admin picked (none: the platform's). */
function ownerCompany(ctx: Ctx): number | null {
  return ctx.user.access === 0 ? ctx.scope.companyId : ctx.user.companyId;
}

export function token(ctx: Ctx, setup: FileSetup, kind: UploadKind): UploadToken {
  return issueToken(setup.tokenKey, { kind, companyId: ownerCompany(ctx), userId: ctx.user.id, issuedAt: Date.now() });
}

/** A file name fit to keep and show: no path, no control characters, at most 200 characters. */
export function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-200) || '未命名';
}

async function readHead(file: string): Promise<Uint8Array> {
  const h = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await h.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

/**
 * multipart/form-data: the fields `token` (or the X-Upload-Token header) and optionally `accept`
 * (image, video, document: what the page asked for) before the `file`.
 */
export async function upload(req: FastifyRequest, pub: PublicCtx, setup: FileSetup): Promise<UploadedFile> {
  const part = await req.file({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 8, fieldSize: 4096 }, throwFileSizeLimit: false });
  if (!part) throw refuse('UPLOAD_NO_FILE', '请选择要上传的文件');
  const field = (name: string) => {
    const f = part.fields[name];
    const one = Array.isArray(f) ? f[0] : f;
    return one && one.type === 'field' ? String(one.value) : undefined;
  };
  let claims: TokenClaims;
  let accept: UploadCategory | undefined;
  try {
    const header = req.headers['x-upload-token'];
    claims = verifyToken(setup.tokenKey, (typeof header === 'string' ? header : undefined) ?? field('token'));
    const a = field('accept');
    if (a && !UPLOAD_CATEGORY_KEYS.includes(a as UploadCategory)) throw refuse('UPLOAD_ACCEPT', '文件类别应为 image、video 或 document');
    accept = a ? (a as UploadCategory) : undefined;
  } catch (e) {
    part.file.resume();
    throw e;
  }
  const name = cleanName(part.filename);
  // an owner's upload (业主端) has no back-office user
  Object.assign(pub.audit, { userId: claims.ownerId !== undefined ? undefined : claims.userId, companyId: claims.companyId, target: `文件 ${name}` });
  await fsp.mkdir(setup.tmpDir, { recursive: true });
  const tmp = path.join(setup.tmpDir, randomBytes(12).toString('hex'));
  try {
    await pipeline(part.file, fs.createWriteStream(tmp));
    if (part.file.truncated) throw tooLarge(accept);
    return await storeSpooled(pub.db, setup, tmp, { ...claims, name, accept });
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

/**
 * Checks a file spooled to disk by its first bytes and size, moves it to the store and records it
 * (the upload above; the demo seed's tutorials). The spooled file is gone or left for the caller to remove.
 */
export async function storeSpooled(
  db: Db, setup: FileSetup, tmp: string,
  o: { kind: UploadKind; companyId: number | null; userId: number | null; name: string; accept?: UploadCategory; ownerId?: number; roomId?: number },
): Promise<UploadedFile> {
  const { size } = await fsp.stat(tmp);
  const found = checkUpload(await detect(await readHead(tmp)), size, o.accept);
  const key = `${randomBytes(16).toString('hex')}.${found.ext}`;
  const where = `${o.kind.toLowerCase()}/${key}`;
  await setup.store.put(where, tmp, size, found.mime);
  const row = { key, kind: o.kind, companyId: o.companyId, category: found.category, name: o.name, mime: found.mime, size };
  try {
    const scope: Scope = { companyId: o.companyId, allCompanies: o.companyId === null, areaIds: null, userId: o.userId };
    const by = o.ownerId !== undefined ? { uploadedBy: null, uploadedByOwner: o.ownerId, roomId: o.roomId ?? null } : { uploadedBy: o.userId };
    await db.tx(scope, (tx) => repo.insertFile(tx, { ...row, store: setup.store.name, ...by }));
  } catch (e) {
    await setup.store.remove(where).catch(() => {});
    throw e;
  }
  return { key, kind: o.kind, category: found.category, name: o.name, mime: found.mime, size };
}

/** 业主端: a Private upload token for a photo of one of the owner's rooms (the room checked by the caller). */
export function ownerToken(setup: FileSetup, o: { companyId: number; ownerId: number; roomId: number }): UploadToken {
  return issueToken(setup.tokenKey, { kind: 'Private', companyId: o.companyId, userId: 0, issuedAt: Date.now(), ownerId: o.ownerId, roomId: o.roomId });
}

/** Refuses photo keys that are not private images uploaded for this room (the owner app's appeal photos). */
export async function assertRoomPhotos(tx: Tx, keys: string[], roomId: number) {
  const known = new Set(await repo.roomImages(tx, keys, roomId));
  const missing = keys.filter((k) => !known.has(k));
  if (missing.length) throw refuse('FILE_UNKNOWN', `有 ${missing.length} 张照片未上传成功或不属于该房间，请重新上传`);
}

/** The viewer a signed-in back-office user is. */
export const viewerOf = (ctx: Ctx): Viewer => ({ platform: ctx.user.access === 0, companyId: ctx.user.companyId });

/** A year for public files (a key never changes its bytes); an hour, private to the browser, for the others. */
const CACHE: Record<UploadKind, string> = { Public: 'public, max-age=31536000, immutable', Private: 'private, max-age=3600' };

/** Sends a stored file (whole, or the one byte range asked for: videos seek with them). */
export async function serve(db: Db, setup: FileSetup, kind: UploadKind, key: string, viewer: Viewer | null, req: FastifyRequest, reply: FastifyReply) {
  const row = await db.tx(SYSTEM_SCOPE, (tx) => repo.findFile(tx, key));
  if (!row || row.kind !== kind) throw notFound('文件');
  if (!mayRead(viewer, row)) throw forbidden('无权查看该文件');
  const store = setup.stores[row.store as 'local' | 's3'];
  if (!store) throw notFound('文件存储');
  const etag = `"${row.key}"`;
  reply.header('cache-control', CACHE[kind]).header('etag', etag).header('accept-ranges', 'bytes').header('content-type', row.mime);
  reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(row.name)}`);
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  const range = parseRange(req.headers.range, row.size);
  if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${row.size}`).send();
  const body = await store.get(`${kind.toLowerCase()}/${row.key}`, range ?? undefined);
  if (!body) throw notFound('文件内容');
  if (range) {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${row.size}`).header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', row.size);
  }
  return reply.send(body);
}

/** Refuses file keys that are not stored files of this kind and category (a resource's file fields). */
export async function assertFiles(tx: Tx, keys: string[], kind: UploadKind, category: UploadCategory) {
  const known = new Set(await repo.knownKeys(tx, keys, kind, category));
  const missing = keys.filter((k) => !known.has(k));
  if (missing.length) throw refuse('FILE_UNKNOWN', `有 ${missing.length} 个文件未上传成功或已失效，请重新上传`);
}
