import { fileTypeFromBuffer } from 'file-type';
import { formatBytes, UPLOAD_CATEGORIES, UPLOAD_CATEGORY_KEYS, type UploadCategory } from '@meter/contracts';
import { refuse } from '../../http/errors.ts';

// What may be stored: the type is read from the file's first bytes (file-type's magic numbers), never
// from its name or the browser's Content-Type; each category has its own size limit (contracts
// UPLOAD_CATEGORIES). Every refusal says in Chinese what is allowed.

/** how many leading bytes the detection reads */
export const SNIFF_BYTES = 4100;

export interface Detected {
  mime: string;
  ext: string;
  category: UploadCategory;
}

const ALLOWED = UPLOAD_CATEGORY_KEYS.map((k) => `${UPLOAD_CATEGORIES[k].label}（${UPLOAD_CATEGORIES[k].names}）`).join('、');

/** The file's type from its first bytes, if it is one we store (MOV as video/quicktime, …). */
export async function detect(head: Uint8Array): Promise<Detected | null> {
  const t = await fileTypeFromBuffer(head);
  if (!t) return null;
  const category = UPLOAD_CATEGORY_KEYS.find((k) => (UPLOAD_CATEGORIES[k].mimes as readonly string[]).includes(t.mime));
  return category ? { mime: t.mime, ext: t.ext, category } : null;
}

/**
 * Refuses what may not be stored: an unknown or unsupported type, another category than the page
 * asked for (`accept`), an empty file or one over its category's limit.
 */
export function checkUpload(found: Detected | null, size: number, accept?: UploadCategory): Detected {
  if (size === 0) throw refuse('UPLOAD_EMPTY', '文件为空，请重新选择');
  if (accept && (!found || found.category !== accept)) {
    const c = UPLOAD_CATEGORIES[accept];
    throw refuse('UPLOAD_TYPE', `文件类型不符：请上传${c.label}（${c.names}）`);
  }
  if (!found) throw refuse('UPLOAD_TYPE', `不支持的文件类型：仅支持${ALLOWED}`);
  const c = UPLOAD_CATEGORIES[found.category];
  if (size > c.maxBytes) throw refuse('UPLOAD_TOO_LARGE', `文件过大：${c.label}不能超过 ${formatBytes(c.maxBytes)}（当前 ${formatBytes(size)}）`);
  return found;
}

/** The refusal for a file cut off by the parser's limit (bigger than any category allows). */
export function tooLarge(accept?: UploadCategory) {
  const c = accept ? UPLOAD_CATEGORIES[accept] : null;
  const max = c ? c.maxBytes : Math.max(...UPLOAD_CATEGORY_KEYS.map((k) => UPLOAD_CATEGORIES[k].maxBytes));
  return refuse('UPLOAD_TOO_LARGE', `文件过大：${c ? c.label : '文件'}不能超过 ${formatBytes(max)}`);
}
