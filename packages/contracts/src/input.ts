import { z } from 'zod';
import { phoneError } from './phone.ts';

// The shape every input value must have before any rule looks at it (issue 12 §4, §5).

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * A number, or a numeric string (query strings and form values arrive as text), checked by `inner`.
 * Nothing else: `z.coerce.number()` turned `true` into 1, `[12]` into 12, `null` and `''` into 0.
 */
export function num<T extends z.ZodType<number, number>>(inner: T, error = '须为数字') {
  return z.union([z.number(), z.string().regex(NUMERIC).transform(Number)], { error }).pipe(inner);
}

/**
 * C0 control characters except tab, line feed and carriage return, DEL and the C1 controls.
 * PostgreSQL refuses U+0000 in text, and none of them has a place in a form value.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The path of the first string in `v` (a request body, query or params) holding a control character. */
export function findControlChar(v: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof v === 'string') return CONTROL_CHARS.test(v) ? path : null;
  if (v == null || typeof v !== 'object' || depth > 32) return null;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (CONTROL_CHARS.test(k)) return [...path, k.replace(new RegExp(CONTROL_CHARS.source, 'g'), '?')];
    const p = findControlChar(x, [...path, k], depth + 1);
    if (p) return p;
  }
  return null;
}

/** A mobile number field (trimmed) refused with phoneError's message; `optional`: '' passes. */
export const phoneSchema = (label = '手机号码', optional = false) =>
  z.string().trim().superRefine((v, ctx) => {
    const e = optional && v === '' ? null : phoneError(v, label);
    if (e) ctx.addIssue({ code: 'custom', message: e });
  });
