import { z } from 'zod';
import { endpoint } from '../endpoint.ts';

// Uploads (SPEC §4, §7, §9; issue 15 item 6): the page asks for a Public or Private upload token, keeps
// it (and when it was made) and asks again once it is older than 3,000,000 ms; the file goes up as a
// multipart POST that the token alone authorizes (the SPEC's "third-party upload service"). Public
// files (teaching videos, notice images) are served to anyone and cached; private ones (appeal photos)
// only to the company that owns them (apps/server/src/modules/files/access.ts, the one place).

const tags = ['上传'];

export const UPLOAD_KINDS = ['Public', 'Private'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export const UPLOAD_KIND_LABELS: Record<UploadKind, string> = { Public: '公开', Private: '私有' };

/** the web asks for a new token once its cached one is this old (SPEC §4, §9) */
export const UPLOAD_TOKEN_REFRESH_MS = 3_000_000;
/** the server accepts a token this long after it was made: longer than the refresh, so a cached token never expires in hand */
export const UPLOAD_TOKEN_TTL_MS = 3_600_000;

/** What may be uploaded: the type is read from the file's first bytes, never from its name. */
export const UPLOAD_CATEGORIES = {
  image: { label: '图片', maxBytes: 10 * 1024 * 1024, mimes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp'], names: 'JPG、PNG、GIF、WebP、BMP' },
  video: { label: '视频', maxBytes: 200 * 1024 * 1024, mimes: ['video/mp4', 'video/webm', 'video/ogg', 'video/quicktime'], names: 'MP4、WebM、OGG、MOV' },
  document: { label: '文档', maxBytes: 20 * 1024 * 1024, mimes: ['application/pdf'], names: 'PDF' },
} as const;
export type UploadCategory = keyof typeof UPLOAD_CATEGORIES;
export const UPLOAD_CATEGORY_KEYS = Object.keys(UPLOAD_CATEGORIES) as UploadCategory[];

/** the largest file of any category: the multipart parser stops reading past it */
export const UPLOAD_MAX_BYTES = Math.max(...Object.values(UPLOAD_CATEGORIES).map((c) => c.maxBytes));

/** `12.5 MB` */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const [x, unit] = n < 1024 * 1024 ? [n / 1024, 'KB'] : [n / 1024 / 1024, 'MB'];
  return `${Number.isInteger(x) ? x : x.toFixed(1)} ${unit}`;
}

/** A stored file's key: 32 hex characters and the extension of its detected type. */
export const FILE_KEY_RE = /^[0-9a-f]{32}\.[a-z0-9]{2,5}$/;
export const FileKey = z.string().regex(FILE_KEY_RE, '文件标识无效');

export const UploadTokenQuery = z.object({
  kind: z.enum(UPLOAD_KINDS, { error: '上传凭证类别应为 Public 或 Private' }),
});

export const UploadToken = z.object({
  token: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  /** when it was made and until when it is accepted (ms since the epoch) */
  issuedAt: z.number(),
  expiresAt: z.number(),
});
export type UploadToken = z.infer<typeof UploadToken>;

/** A stored file as the upload answers it. */
export const UploadedFile = z.object({
  key: z.string(),
  kind: z.enum(UPLOAD_KINDS),
  category: z.enum(['image', 'video', 'document']),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const FileParams = z.object({ key: FileKey });

export const fileEndpoints = {
  token: endpoint({
    method: 'GET', path: '/yewu/api/Upload/Token', summary: '获取上传凭证', perm: {}, query: UploadTokenQuery, response: UploadToken, tags,
  }),
  /** multipart/form-data: a `token` field, then the `file`; the token alone authorizes it */
  upload: endpoint({
    method: 'POST', path: '/yewu/api/Upload/File', summary: '上传文件', action: '上传文件', perm: false, multipart: true, response: UploadedFile, tags,
  }),
  /** anyone; cached for a year (a key never changes its content) */
  publicFile: endpoint({
    method: 'GET', path: '/yewu/api/Upload/Public/:key', summary: '公开文件', perm: false, params: FileParams, inline: true, tags,
  }),
  /** the owning company's users (and the platform) only */
  privateFile: endpoint({
    method: 'GET', path: '/yewu/api/Upload/Private/:key', summary: '私有文件', perm: {}, params: FileParams, inline: true, tags,
  }),
};
