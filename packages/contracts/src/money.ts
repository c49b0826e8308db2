/**
 * Money helpers shared by server and web.
 *
 * Canonical stored unit: integer 分 (fen, 1/100 yuan). Every calculation goes through
 * decimal.js — never JS float arithmetic. A `number` argument is converted via its shortest
 * round-trip representation (`String(n)`, as decimal.js does), so `0.3` is exactly "0.3";
 * a float that already carries error (`0.1 + 0.2` === 0.30000000000000004) is taken at that
 * value and therefore rejected wherever at most 2 decimals are required.
 */
import { Decimal } from 'decimal.js';

/** Private Decimal constructor: our own config, so the global Decimal settings are untouched. */
const D = Decimal.clone({
  precision: 1000, // far beyond any money value, so add/sub/mul are exact in practice
  rounding: Decimal.ROUND_HALF_UP, // only used by explicit rounding (roundHalfUpToFen)
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
type Dec = InstanceType<typeof D>;

/** A decimal value as a plain-notation string or a JS number. */
export type Numeric = string | number;

/** Plain decimal notation: optional sign, digits, optional fraction. No exponent, hex, or whitespace. */
const NUMERIC_RE = /^[+-]?\d+(\.\d+)?$/;
/** Plain integer notation (for fen given as a string). */
const INTEGER_RE = /^[+-]?\d+$/;

/** Parse to a Decimal, or null if the value is not a finite number in plain decimal notation. */
function parse(value: unknown): Dec | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new D(value) : null;
  if (typeof value === 'string') return NUMERIC_RE.test(value) ? new D(value) : null;
  return null;
}

function parseOrThrow(value: Numeric, what: string): Dec {
  const d = parse(value);
  if (d === null) throw new TypeError(`${what}: not a number: ${JSON.stringify(String(value))}`);
  return d;
}

/** Plain-notation string without trailing zeros; never "-0". */
function plain(d: Dec): string {
  return d.isZero() ? '0' : d.toFixed();
}

/** Decimal → safe-integer number (fen); -0 becomes 0. */
function toSafeInt(d: Dec, what: string): number {
  const n = d.toNumber() + 0;
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what}: ${d.toFixed()} is outside the safe integer range`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Generic numeric helpers
// ---------------------------------------------------------------------------------------------

/**
 * True for a finite number, or a string in plain decimal notation (`"12"`, `"-0.50"`, `"+3"`,
 * `"007"`). False for `""`, whitespace, exponents (`"1e5"`), hex, `NaN`, `Infinity`, non-strings.
 */
export function isNumeric(value: unknown): value is Numeric {
  return parse(value) !== null;
}

/**
 * Canonical plain-notation string for a numeric value (`"007.50"` → `"7.5"`, `1e21` →
 * `"1000000000000000000000"`, `"-0"` → `"0"`). Returns `""` for non-numeric input.
 */
export function toNumberString(value: unknown): string {
  const d = parse(value);
  return d === null ? '' : plain(d);
}

/** Exact sum of the arguments (0 for none). Throws TypeError on non-numeric input. */
export function addDecimal(...values: Numeric[]): string {
  let sum: Dec = new D(0);
  for (const v of values) sum = sum.plus(parseOrThrow(v, 'addDecimal'));
  return plain(sum);
}

/** Exact `a - b`. Throws TypeError on non-numeric input. */
export function subDecimal(a: Numeric, b: Numeric): string {
  return plain(parseOrThrow(a, 'subDecimal').minus(parseOrThrow(b, 'subDecimal')));
}

/** Exact `a × b`. Throws TypeError on non-numeric input. */
export function mulDecimal(a: Numeric, b: Numeric): string {
  return plain(parseOrThrow(a, 'mulDecimal').times(parseOrThrow(b, 'mulDecimal')));
}

/**
 * Exact line amount in yuan for `quantity × unitPrice` (e.g. kWh × a 4-decimal tariff), unrounded.
 * Feed the result to `roundHalfUpToFen` to get the stored amount.
 */
export function mulPrice(quantity: Numeric, unitPrice: Numeric): string {
  return plain(parseOrThrow(quantity, 'mulPrice').times(parseOrThrow(unitPrice, 'mulPrice')));
}

// ---------------------------------------------------------------------------------------------
// Yuan / fen conversion and formatting
// ---------------------------------------------------------------------------------------------

/**
 * Yuan amount → integer fen, exactly (`"12.3"` → 1230, `"-0.05"` → -5).
 * Throws TypeError for non-numeric input, RangeError if the value has more than 2 decimal
 * places (trailing zeros do not count: `"1.230"` is fine) or the fen value is not a safe integer.
 * Use `roundHalfUpToFen` when rounding is intended.
 */
export function yuanToFen(yuan: Numeric): number {
  const d = parseOrThrow(yuan, 'yuanToFen');
  if (d.decimalPlaces() > 2) {
    throw new RangeError(`yuanToFen: more than 2 decimal places: ${d.toFixed()} (use roundHalfUpToFen to round)`);
  }
  return toSafeInt(d.times(100), 'yuanToFen');
}

/**
 * Yuan amount (any number of decimals, e.g. from `mulPrice`) → integer fen, rounded half-up
 * (ties away from zero: `"0.125"` → 13, `"-0.125"` → -13, `"0.0049"` → 0).
 * Throws TypeError for non-numeric input, RangeError if the result is not a safe integer.
 */
export function roundHalfUpToFen(yuan: Numeric): number {
  const d = parseOrThrow(yuan, 'roundHalfUpToFen');
  return toSafeInt(d.times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP), 'roundHalfUpToFen');
}

/** Parse a fen amount (must be an integer; a number must be a safe integer). */
function parseFen(fen: number | bigint | string, what: string): Dec {
  if (typeof fen === 'bigint') return new D(fen.toString());
  if (typeof fen === 'number') {
    if (!Number.isSafeInteger(fen)) throw new RangeError(`${what}: fen must be a safe integer, got ${fen}`);
    return new D(fen);
  }
  if (typeof fen === 'string' && INTEGER_RE.test(fen)) return new D(fen);
  throw new TypeError(`${what}: fen must be an integer, got ${JSON.stringify(String(fen))}`);
}

/** Integer fen → yuan string with exactly 2 decimals (123450 → "1234.50", -5 → "-0.05"). */
export function fenToYuan(fen: number | bigint | string): string {
  const d = parseFen(fen, 'fenToYuan');
  return d.isZero() ? '0.00' : d.dividedBy(100).toFixed(2);
}

/** Integer fen → display string with ¥ and thousands separators (123450 → "¥1,234.50", -1200 → "-¥12.00"). */
export function formatMoney(fen: number | bigint | string): string {
  const yuan = fenToYuan(fen);
  const negative = yuan.startsWith('-');
  const [int = '0', frac = '00'] = (negative ? yuan.slice(1) : yuan).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}¥${grouped}.${frac}`;
}

// ---------------------------------------------------------------------------------------------
// Chinese capital amount (大写金额)
// ---------------------------------------------------------------------------------------------

const CN_DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'] as const;
const CN_UNITS = ['', '拾', '佰', '仟'] as const; // within a 4-digit group, indexed by position from the right

/** Accepted amountToChinese string: no sign, no leading zeros, at most 2 decimals. */
const CN_AMOUNT_RE = /^(0|[1-9]\d*)(\.\d{1,2})?$/;
/** Integer part limit: up to 9999万9999亿9999万9999元 (16 digits). */
const CN_MAX_INT_DIGITS = 16;

/** 1–4 digits, value > 0 → e.g. "1010" → 壹仟零壹拾. Inner zeros collapse to one 零, trailing zeros are dropped. */
function groupToChinese(digits: string): string {
  let out = '';
  let pendingZero = false;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[i]);
    if (digit === 0) {
      pendingZero = out !== '';
      continue;
    }
    if (pendingZero) out += '零';
    pendingZero = false;
    out += CN_DIGITS[digit] + CN_UNITS[digits.length - 1 - i];
  }
  return out;
}

/**
 * Integer (no leading zeros, value > 0) → Chinese, splitting at 亿 then 万. A 零 goes between
 * a higher section and a lower one whose leading digit is 0 (100100 → 壹拾万零壹佰).
 */
function integerToChinese(digits: string): string {
  for (const [size, unit] of [[8, '亿'], [4, '万']] as const) {
    if (digits.length > size) {
      const high = digits.slice(0, -size);
      const low = digits.slice(-size);
      const lowTrimmed = low.replace(/^0+/, '');
      if (lowTrimmed === '') return integerToChinese(high) + unit;
      return integerToChinese(high) + unit + (lowTrimmed.length < size ? '零' : '') + integerToChinese(lowTrimmed);
    }
  }
  return groupToChinese(digits);
}

/**
 * Amount in yuan → Chinese capital numerals (大写金额) per the PBOC rules, without the 人民币 prefix:
 * 1001.01 → 壹仟零壹元零壹分, 100 → 壹佰元整, 20.30 → 贰拾元叁角, 0.05 → 伍分, 0 → 零元整.
 *
 * Accepts non-negative amounts without leading zeros and with at most 2 decimals, integer part
 * up to 16 digits (9999万9999亿9999万9999元). Returns `""` for anything else (negative, "012",
 * "1e5", "1.234", "", NaN, Infinity, or a float like 0.1 + 0.2 that has more than 2 decimals).
 */
export function amountToChinese(input: string | number): string {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return '';
    text = plain(new D(input));
  } else if (typeof input === 'string') {
    text = input;
  } else {
    return '';
  }
  const match = CN_AMOUNT_RE.exec(text);
  if (!match) return '';
  const intPart = match[1] ?? '0';
  if (intPart.length > CN_MAX_INT_DIGITS) return '';
  const frac = (match[2] ?? '').slice(1).padEnd(2, '0');
  const jiao = Number(frac[0]);
  const fen = Number(frac[1]);

  const hasYuan = intPart !== '0';
  if (jiao === 0 && fen === 0) return (hasYuan ? integerToChinese(intPart) : '零') + '元整';

  let out = hasYuan ? integerToChinese(intPart) + '元' : '';
  if (jiao !== 0) out += CN_DIGITS[jiao] + '角';
  if (fen !== 0) out += (jiao === 0 && hasYuan ? '零' : '') + CN_DIGITS[fen] + '分';
  return out;
}
