// Money on the fee pages, without JS floats: amounts are typed as text, checked as text and turned
// into integer 分 by the shared decimal helpers (@meter/contracts); shown as ¥1,234.50.
import dayjs from 'dayjs';
import { MAX_AMOUNT_YUAN, formatMoney, yuanToFen } from '@meter/contracts';

/** At most this many 元 in one counter operation (the server's limit). */
export const MAX_COUNTER_YUAN = MAX_AMOUNT_YUAN;

const AMOUNT_RE = /^\d+(\.\d+)?$/;

/**
 * Why an amount typed in 元 cannot be used (the dialog's validation message), or null when it is a
 * number > 0 with at most 2 decimals and at most MAX_COUNTER_YUAN.
 */
export function amountInputError(input: unknown, what = '金额'): string | null {
  const text = typeof input === 'string' ? input.trim() : input == null ? '' : String(input);
  if (text === '') return `请输入${what}`;
  if (!AMOUNT_RE.test(text)) return `${what}须为数字，如 100 或 100.50`;
  const frac = text.split('.')[1] ?? '';
  if (frac.replace(/0+$/, '').length > 2) return `${what}最多 2 位小数`;
  const fen = yuanToFen(text);
  if (fen <= 0) return `${what}须大于 0`;
  if (fen > MAX_COUNTER_YUAN * 100) return `${what}不能大于 ${MAX_COUNTER_YUAN.toLocaleString('en-US')} 元`;
  return null;
}

/** A form rule that checks an amount typed in 元 (amountInputError's message, `what` naming it). */
export function amountRule(what: string) {
  return { validator: (_r: unknown, value: unknown) => { const e = amountInputError(value, what); return e ? Promise.reject(new Error(e)) : Promise.resolve(); } };
}

/** A valid 元 text → integer 分 ("100.5" → 10050). Throws for text amountInputError rejects. */
export function parseAmountFen(input: string): number {
  const e = amountInputError(input);
  if (e) throw new RangeError(e);
  return yuanToFen(input.trim());
}

/** A valid 元 text in its canonical 2-decimal form for the request body ("100.5" → "100.50"). */
export function normalizeAmount(input: string): string {
  const fen = parseAmountFen(input);
  return `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** A 元 string from the server ("1234.50", "-3.00") → "¥1,234.50" / "-¥3.00"; blank for nothing. */
export function money(yuan: unknown): string {
  if (yuan === null || yuan === undefined || yuan === '') return '';
  try {
    return formatMoney(yuanToFen(String(yuan)));
  } catch {
    return String(yuan);
  }
}

/** The 元 string's sign: -1, 0 or 1 (no float arithmetic). */
export function signOf(yuan: unknown): -1 | 0 | 1 {
  try {
    const fen = yuanToFen(String(yuan ?? '0'));
    return fen < 0 ? -1 : fen > 0 ? 1 : 0;
  } catch {
    return 0;
  }
}

/** Compare two 元 strings exactly: a > b → 1. */
export function compareYuan(a: string, b: string): -1 | 0 | 1 {
  const x = yuanToFen(a);
  const y = yuanToFen(b);
  return x > y ? 1 : x < y ? -1 : 0;
}

const LOCAL_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Moments as YYYY-MM-DD HH:mm:ss (server local strings pass through; ISO instants are converted). */
export function fmtTime(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const s = String(v);
  if (LOCAL_RE.test(s)) return s;
  const d = dayjs(s);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : s;
}

/** A client id for one counter operation: the same id twice is done once by the server. */
export function newRequestId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
