// Fixed-point decimals in plain JS integers, for the common case of settlement: quantities, prices
// and amounts with a few decimals whose scaled values fit in a safe integer (< 2^53). Every function
// here either gives the exact result or says it cannot (undefined), and the caller then computes
// with decimal.js; never a rounded float (DESIGN §5). pricing.test.ts and settle.test.ts check that
// both ways give identical results.

const PLAIN = /^\d+(\.\d+)?$/;

/**
 * A plain non-negative decimal string ('12', '0.50', '3.1400') as an integer count of 10^-scale,
 * or undefined: not of that form, more significant decimals than `scale`, or not a safe integer.
 */
export function fixed(s: string, scale: number): number | undefined {
  if (!PLAIN.test(s)) return undefined;
  const dot = s.indexOf('.');
  let int = s;
  let frac = '';
  if (dot >= 0) {
    int = s.slice(0, dot);
    frac = s.slice(dot + 1);
    if (frac.length > scale) {
      let end = frac.length;
      while (end > scale && frac.charCodeAt(end - 1) === 48) end--;
      if (end > scale) return undefined;
      frac = frac.slice(0, end);
    }
  }
  const n = Number(int + frac.padEnd(scale, '0'));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A non-negative safe integer count of 10^-scale as decimal.js's toFixed() writes it ('0', '0.5', '12'). */
export function fmt(n: number, scale: number): string {
  const s = String(n);
  if (scale === 0) return s;
  const p = s.length > scale ? s : s.padStart(scale + 1, '0');
  const cut = p.length - scale;
  let end = p.length;
  while (end > cut && p.charCodeAt(end - 1) === 48) end--;
  return end === cut ? p.slice(0, cut) : `${p.slice(0, cut)}.${p.slice(cut, end)}`;
}

/** a × b when it is a safe integer, else undefined (the caller falls back to decimal.js). */
export const times = (a: number, b: number): number | undefined => {
  const x = a * b;
  return Number.isSafeInteger(x) ? x : undefined;
};

/** a + b when it is a safe integer, else undefined. */
export const plus = (a: number, b: number): number | undefined => {
  const x = a + b;
  return Number.isSafeInteger(x) ? x : undefined;
};

/** A non-negative count of 10^-scale rounded half up to a whole count of 10^-(scale − drop). */
export function roundHalfUp(n: number, drop: number): number {
  const unit = 10 ** drop;
  const r = n % unit;
  const whole = (n - r) / unit;
  return r * 2 >= unit ? whole + 1 : whole;
}
