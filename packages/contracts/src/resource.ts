import { z } from 'zod';
import { num, phoneSchema } from './input.ts';
import { FILE_KEY_RE, type UploadCategory, type UploadKind } from './endpoints/files.ts';

// A CRUD resource declared once (DESIGN §3): its fields with Chinese labels, types, rules, enums and
// search behaviour. The server derives validation, filters and routes from it; the web derives the
// table columns, the search form and the create/edit form from the same declaration.

export type FieldType =
  | 'text' | 'textarea' | 'int' | 'decimal' | 'money' | 'enum' | 'bool'
  | 'date' | 'datetime' | 'phone' | 'idcard' | 'ref' | 'password' | 'tags' | 'file';

export interface FieldDef {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  /** text: max length; int/decimal/money: max value */
  max?: number;
  min?: number;
  /** decimal places for 'decimal' (default 2) */
  scale?: number;
  /** for 'enum': value → Chinese label */
  options?: Record<string, string>;
  /** for 'ref': where the options come from (a GET returning [{id,name}] or a page) */
  ref?: { url: string; label?: string; value?: string };
  pattern?: { re: string; message: string };
  /** shown as a filter in the list's search form: 'like' (text contains) or 'eq' */
  search?: 'like' | 'eq';
  /** hidden in the table */
  hideInTable?: boolean;
  /** not in the create/edit form (server-computed) */
  readonly?: boolean;
  /** taken on create only: not in the update body, hidden in the edit form (later changes have actions of their own) */
  createOnly?: boolean;
  /** unique within the company (the server checks and answers 409 with the label) */
  unique?: boolean;
  /** default value for create */
  default?: unknown;
  tooltip?: string;
  width?: number;
  /** shown after the value in the table, e.g. '小时' */
  unit?: string;
  /** enum: value → tag colour (antd Tag); with it every value shows as a tag */
  colors?: Record<string, string>;
  /** for 'file': what may be uploaded, with which token, how many (the value is the files' keys) */
  file?: { accept: UploadCategory; kind: UploadKind; max: number };
}

export interface ResourceDef {
  name: string;
  title: string;
  /** the key of the row id (default 'id') */
  idKey?: string;
  fields: FieldDef[];
}

export const defineResource = <T extends ResourceDef>(def: T): T => def;

/** The zod type of one field's input value. */
export function fieldSchema(f: FieldDef): z.ZodType {
  const msg = (s: string) => `${f.label}${s}`;
  let t: z.ZodType;
  switch (f.type) {
    case 'int': {
      let n = z.number({ error: msg('须为整数') }).int(msg('须为整数'));
      if (f.min !== undefined) n = n.min(f.min, msg(`不能小于 ${f.min}`));
      if (f.max !== undefined) n = n.max(f.max, msg(`不能大于 ${f.max}`));
      t = num(n, msg('须为整数'));
      break;
    }
    case 'ref':
      t = num(z.number({ error: msg('无效') }).int().positive(msg('无效')), msg('无效'));
      break;
    case 'decimal':
    case 'money': {
      const scale = f.type === 'money' ? 2 : (f.scale ?? 2);
      const re = new RegExp(`^-?\\d{1,12}(\\.\\d{1,${scale}})?$`);
      t = z
        .union([z.string(), z.number()])
        .transform((v) => String(v).trim())
        .refine((v) => re.test(v), msg(`格式不正确（最多 ${scale} 位小数）`))
        .refine((v) => f.min === undefined || Number(v) >= f.min, msg(`不能小于 ${f.min}`))
        .refine((v) => f.max === undefined || Number(v) <= f.max, msg(`不能大于 ${f.max}`));
      break;
    }
    case 'enum': {
      const keys = Object.keys(f.options ?? {});
      t = z
        .union([z.string(), z.number()])
        .transform((v) => String(v))
        .refine((v) => keys.includes(v), msg('取值无效'))
        .transform((v) => (/^-?\d+$/.test(v) ? Number(v) : v));
      break;
    }
    case 'bool':
      t = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'), z.number().transform((v) => v === 1)]);
      break;
    case 'date':
      t = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, msg('格式应为 YYYY-MM-DD'));
      break;
    case 'datetime':
      t = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/, msg('格式应为 YYYY-MM-DD HH:mm:ss'));
      break;
    case 'phone':
      t = phoneSchema(f.label);
      break;
    case 'idcard':
      t = z.string().trim().toUpperCase().refine(isValidIdCard, msg('不是有效的 18 位身份证号码'));
      break;
    case 'tags':
      t = z.array(z.union([z.string(), z.number()])).max(500);
      break;
    case 'file': {
      const max = f.file?.max ?? 1;
      let a = z.array(z.string().regex(FILE_KEY_RE, msg('中的文件标识无效'))).max(max, msg(`最多 ${max} 个`));
      if (f.required) a = a.min(1, `请上传${f.label}`);
      t = a;
      break;
    }
    default: {
      let s = z.string().trim();
      if (f.required) s = s.min(1, `请输入${f.label}`);
      s = s.max(f.max ?? (f.type === 'textarea' ? 1000 : 64), msg(`最多 ${f.max ?? (f.type === 'textarea' ? 1000 : 64)} 个字`));
      if (f.pattern) s = s.regex(new RegExp(f.pattern.re), f.pattern.message);
      t = s;
    }
  }
  return t;
}

/** Body schema for create (all rules) or update (same rules; id travels separately). */
export function formSchema(def: ResourceDef) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of def.fields) {
    if (f.readonly) continue;
    let t = fieldSchema(f);
    if (!f.required) {
      // an empty optional field is stored as its empty value
      const empty = f.type === 'text' || f.type === 'textarea' || f.type === 'phone' || f.type === 'idcard' ? '' : null;
      t = z.preprocess((v) => (v === '' || v === undefined || v === null ? undefined : v), t.optional()).transform((v) => v ?? f.default ?? empty);
    } else if (f.type !== 'text' && f.type !== 'textarea') {
      const inner = t;
      t = z.preprocess((v) => (v === '' ? undefined : v), z.any().refine((v) => v !== undefined && v !== null, `请填写${f.label}`).pipe(inner));
    }
    shape[f.key] = t;
  }
  return z.object(shape);
}

/**
 * Gives a schema built from a declaration (formSchema, listQuerySchema) the row type its fields
 * describe: the validated value passes through unchanged (z.custom without a check), typed as T.
 * The declaration and T are kept in step by the resource's tests; this is the one place they meet.
 */
export function typed<T>(schema: z.ZodType): z.ZodType<T> {
  return schema.pipe(z.custom<T>());
}

/** Query schema for the list: paging plus each searchable field (blank = no filter). */
export function listQuerySchema(def: ResourceDef) {
  const shape: Record<string, z.ZodType> = {
    index: num(z.number().int().min(1)).default(1),
    size: num(z.number().int().min(1).max(1000)).default(20),
    searchArea: num(z.number().int().positive()).optional(),
    searchClassify: num(z.number().int().positive()).optional(),
    searchCompanyID: num(z.number().int().positive()).optional(),
    areaName: z.string().trim().max(64).optional(),
  };
  for (const f of def.fields) {
    if (!f.search) continue;
    const inner = f.search === 'like' ? z.string().trim().max(64) : fieldSchema({ ...f, required: false });
    shape[f.key] = z.preprocess((v) => (v === '' || v == null ? undefined : v), inner.optional());
  }
  return z.object(shape);
}

/** 18-digit resident ID: region, a real birth date, and the ISO 7064 MOD 11-2 check digit. */
export function isValidIdCard(id: string): boolean {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  if (date.getTime() > Date.now()) return false;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const codes = '10X98765432';
  const sum = w.reduce((acc, wi, i) => acc + wi * Number(id[i]), 0);
  return codes[sum % 11] === id[17];
}
